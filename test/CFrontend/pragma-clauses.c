// All three clauses, in any order, with or without commas. precision(...)
// overrides the element type: the kernel works in fp16 on the same grid.
// RUN: %stencilc %s --emit=spec | FileCheck %s

void f(int n, const double a[n][n], double b[n][n]) {
#pragma stencil precision(fp16), boundary(fixed) name(half_heat)
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      b[i][j] = 0.5 * a[i][j] + 0.125 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}

// CHECK:      stencil half_heat
// CHECK:        precision fp16
// CHECK-NEXT:   boundary  fixed
