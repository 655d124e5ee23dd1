// The loop condition compares the loop variable with its end.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:19: error: unsupported loop condition: expected 'i < END' or 'i <= LAST'
  for (int i = 1; i < n - 1 && b[i] > 0; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
