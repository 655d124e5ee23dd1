// Constant arithmetic is checked as it folds.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

#define H 0
void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:34: error: division by zero
    b[i] = (a[i - 1] + a[i + 1]) / (2.0 * H);
}
