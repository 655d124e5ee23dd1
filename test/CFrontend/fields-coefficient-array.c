// An array that only multiplies reads of another array is a coefficient
// array (a 'coefficient' field); here it multiplies a whole sum, which
// distributes.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void varheat(int ny, int nx, const double u[ny][nx], const double k[ny][nx],
             double v[ny][nx]) {
#pragma stencil
  for (int y = 1; y < ny - 1; ++y)
    for (int x = 1; x < nx - 1; ++x)
      v[y][x] = u[y][x] + 0.1 * k[y][x] * (u[y - 1][x] + u[y + 1][x] - 2 * u[y][x]);
}

// CHECK:      field u;
// CHECK-NEXT: coefficient k;
// CHECK-NEXT: out[y, x] = 0.1 * k[y, x] * u[y-1, x]
// CHECK-NEXT:           + 1 * u[y, x]
// CHECK-NEXT:           - 0.2 * k[y, x] * u[y, x]
// CHECK-NEXT:           + 0.1 * k[y, x] * u[y+1, x];
