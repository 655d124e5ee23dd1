// Variable-length array parameters: the loop ends are the VLA sizes minus the
// radius, here 2 along both axes (a 9-point cross).
// RUN: %stencilc %s --emit=spec | FileCheck %s

void cross(int ny, int nx, const double in[ny][nx], double out[ny][nx]) {
#pragma stencil
  for (int y = 2; y < ny - 2; ++y)
    for (int x = 2; x < nx - 2; ++x)
      out[y][x] = 0.6 * in[y][x]
                + 0.075 * (in[y - 1][x] + in[y + 1][x] + in[y][x - 1] + in[y][x + 1])
                + 0.025 * (in[y - 2][x] + in[y + 2][x] + in[y][x - 2] + in[y][x + 2]);
}

// CHECK:      stencil cross
// CHECK-NEXT:   dims      2
// CHECK-NEXT:   radius    2
// CHECK-NEXT:   shape     star
// CHECK-NEXT:   precision fp64
// CHECK-NEXT:   boundary  fixed
// CHECK-NEXT:   points    9
// CHECK-NEXT:   coefficient (-2, 0) = 0.025
// CHECK-NEXT:   coefficient (-1, 0) = 0.075
// CHECK-NEXT:   coefficient (0, -2) = 0.025
// CHECK-NEXT:   coefficient (0, -1) = 0.075
// CHECK-NEXT:   coefficient (0, 0) = 0.6
// CHECK-NEXT:   coefficient (0, 1) = 0.075
// CHECK-NEXT:   coefficient (0, 2) = 0.025
// CHECK-NEXT:   coefficient (1, 0) = 0.075
// CHECK-NEXT:   coefficient (2, 0) = 0.025
