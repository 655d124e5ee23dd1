// The write has one index per loop.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n], double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:7: error: 'b' is written with 1 indices, but the loop nest has 2 loops
      b[i] = 0.5 * (a[i][j - 1] + a[i][j + 1]);
}
