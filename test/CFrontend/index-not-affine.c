// Each index of a read is the matching loop variable plus or minus a constant.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n], double b[n][n]) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:33: error: index 1 of 'a' must be 'i' plus or minus a constant integer
      b[i][j] = a[i][j - 1] + a[2 * i][j] + a[1][j];
}
