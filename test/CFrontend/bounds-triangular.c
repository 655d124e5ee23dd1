// A loop bound may not depend on another loop variable.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n], double b[n][n]) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:25: error: the bound 'i' of the loop over 'j' depends on another loop variable; a stencil's loop nest covers a rectangle
    for (int j = 1; j < i; ++j)
      b[i][j] = 0.5 * (a[i][j - 1] + a[i][j + 1]);
}
