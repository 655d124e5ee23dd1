// The update assigns an element of an array, not a scalar.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *s) {
  double x;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: the update must assign an array element 'B[i][j] = ...;', not 'x'
    x = 0.5 * (a[i - 1] + a[i + 1]);
  *s = x;
}
