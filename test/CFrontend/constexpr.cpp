// C++: constexpr variables and functions, static constexpr members, and
// arrays passed by reference.
// RUN: %stencilc %s --emit=spec | FileCheck %s

constexpr double kCentre = 0.6;
constexpr double side() { return (1.0 - kCentre) / 4; }
struct Weights {
  static constexpr double edge = side();
};

void jacobi(const double (&a)[128][256], double (&b)[128][256]) {
#pragma stencil name(jacobi_cpp)
  for (int i = 1; i < 127; ++i) {
    for (int j = 1; j < 255; ++j) {
      b[i][j] = kCentre * a[i][j] + Weights::edge * (a[i - 1][j] + a[i + 1][j])
              + side() * (a[i][j - 1] + a[i][j + 1]);
    }
  }
}

// CHECK:      stencil jacobi_cpp
// CHECK-NEXT:   dims      2
// CHECK-NEXT:   radius    1
// CHECK-NEXT:   shape     star
// CHECK-NEXT:   precision fp64
// CHECK-NEXT:   boundary  fixed
// CHECK-NEXT:   points    5
// CHECK-NEXT:   coefficient (-1, 0) = 0.1
// CHECK-NEXT:   coefficient (0, -1) = 0.1
// CHECK-NEXT:   coefficient (0, 0) = 0.6
// CHECK-NEXT:   coefficient (0, 1) = 0.1
// CHECK-NEXT:   coefficient (1, 0) = 0.1
