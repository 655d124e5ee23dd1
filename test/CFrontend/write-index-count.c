// The write has one index per loop, or one flattened index (flattened-2d.c):
// a single index that is not flattened says what a flattened one is, and
// more indices than loops are counted.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n], double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:9: error: 'b' is written at one index, 'i', in a nest of 2 loops: a flattened index must be each loop variable times the row size of the axes inside it, as in 'i*nx + j' or '(k*ny + i)*nx + j' (docs/c-frontend.md)
      b[i] = 0.5 * (a[i][j - 1] + a[i][j + 1]);
}

void g(int n, const double a[n][n][n], double c[n][n][n]) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:7: error: 'c' is written with 3 indices, but the loop nest has 2 loops
      c[i][j][0] = 0.5 * (a[i][j - 1][0] + a[i][j + 1][0]);
}
