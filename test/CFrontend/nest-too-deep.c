// A nest has at most three loops (3D).
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n][n][n], double b[n][n][n][n]) {
#pragma stencil
  for (int t = 1; t < n - 1; ++t)
    for (int i = 1; i < n - 1; ++i)
      for (int j = 1; j < n - 1; ++j)
        // CHECK: [[@LINE+1]]:9: error: a '#pragma stencil' loop nest has at most 3 loops; this is a fourth
        for (int k = 1; k < n - 1; ++k)
          b[t][i][j][k] = 0.5 * (a[t][i][j][k - 1] + a[t][i][j][k + 1]);
}
