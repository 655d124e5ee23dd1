// Each loop variable indexes one axis of the write.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n], double b[n][n]) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:12: error: the loop variable 'i' indexes two axes of 'b'
      b[i][i] = 0.5 * (a[i][j - 1] + a[i][j + 1]);
}
