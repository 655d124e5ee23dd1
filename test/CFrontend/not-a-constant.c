// A coefficient from an integer variable that is not const is rejected, with
// a note at its declaration (a float or double variable is a run-time
// parameter instead).
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, const double *a, double *b) {
  int w = 2;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: 'w' is not a constant; coefficients may use literals, const or constexpr variables with constant initialisers, #define constants, and float or double variables (run-time parameters)
    b[i] = w * a[i - 1] + a[i + 1];
  // CHECK: [[@LINE-5]]:7: note: 'w' is declared here
}
