// boundary(reflect): every point is updated, so the loops cover the whole
// grid, 0 .. n, and the spec takes the rule.
// RUN: %stencilc %s --emit=spec | FileCheck %s

void interior(int ny, int nx, const double a[ny][nx], double b[ny][nx]) {
#pragma stencil boundary(reflect)
  for (int i = 0; i < ny; ++i)
    for (int j = 0; j < nx; ++j)
      b[i][j] = 0.5 * a[i][j] + 0.25 * (a[i][j - 1] + a[i][j + 1]);
}

// CHECK:      stencil interior
// CHECK:        boundary  reflect
// CHECK-NEXT:   points    3
