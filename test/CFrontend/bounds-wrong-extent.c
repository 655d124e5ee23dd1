// A loop bounded by another size than the array's is caught where the VLA names its size.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, int m, const double a[n][m], double b[n][m]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < m - 1', but a fixed boundary of radius 1 needs 'i < n - 1'
  for (int i = 1; i < m - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      b[i][j] = 0.5 * (a[i - 1][j] + a[i + 1][j]);
}
