// A coefficient from a variable that is not const is rejected, with a note at its declaration.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, const double *a, double *b) {
  double w = 0.25;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: 'w' is not a constant; coefficients may use literals, const or constexpr variables with constant initialisers, and #define constants
    b[i] = w * a[i - 1] + a[i + 1];
  // CHECK: [[@LINE-5]]:10: note: 'w' is declared here
}
