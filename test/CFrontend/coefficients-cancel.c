// Terms whose coefficients cancel leave no stencil.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: the update has no non-zero coefficient: its terms cancel
    b[i] = a[i + 1] - a[i + 1];
}
