// boundary(periodic): every point is updated, so the loops cover the whole
// grid, 0 .. n.
// RUN: %stencilc %s --emit=spec | FileCheck %s

void wrap(int ny, int nx, const double a[ny][nx], double b[ny][nx]) {
#pragma stencil boundary(periodic)
  for (int i = 0; i < ny; ++i)
    for (int j = 0; j < nx; ++j)
      b[i][j] = 0.5 * a[i][j] + 0.25 * (a[i][j - 1] + a[i][j + 1]);
}

// CHECK:      stencil wrap
// CHECK:        boundary  periodic
// CHECK-NEXT:   points    3
