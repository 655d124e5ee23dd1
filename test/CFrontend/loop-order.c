// The write decides the axes, not the order of the loops: with `j` outside
// and `i` inside, b[i][j] still makes i the outer axis.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void columns(int n, int m, const double a[n][m], double b[n][m]) {
#pragma stencil
  for (int j = 1; j < m - 1; ++j)
    for (int i = 1; i < n - 1; ++i)
      b[i][j] = 0.5 * a[i - 1][j] + 0.5 * a[i][j + 1];
}

// CHECK:      out[i, j] = 0.5 * in[i-1, j]
// CHECK-NEXT:             + 0.5 * in[i, j+1];
