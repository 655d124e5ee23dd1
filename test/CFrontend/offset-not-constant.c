// An offset must be a constant integer; a variable is not.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, int k, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:25: error: offset must be a constant integer, found 'k'
    b[i] = 0.5 * (a[i - k] + a[i + 1]);
}
