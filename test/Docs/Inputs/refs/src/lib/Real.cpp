// Real.cpp - the code the doc of this test cites.
struct Widget {
  void enterPlane();
};
void realFunction();
enum { STENCILC_X_CANNOT_SPLIT = 2 };
