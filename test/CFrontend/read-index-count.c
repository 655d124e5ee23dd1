// Every read has one index per loop.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double b[n][n]) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:24: error: 'a' is read with 1 indices, but the loop nest has 2 loops
      b[i][j] = 0.5 * (a[i - 1] + a[i + 1]);
}
