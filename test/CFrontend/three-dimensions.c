// A 3D nest, C89 style: the loop variables are declared before the loops
// and set by assignment.
// RUN: %stencilc %s --emit=spec | FileCheck %s

#define NZ 64
#define NY 64
#define NX 128

void heat3d(double a[NZ][NY][NX], double b[NZ][NY][NX]) {
  int z, y, x;
#pragma stencil
  for (z = 1; z < NZ - 1; z++)
    for (y = 1; y < NY - 1; y++)
      for (x = 1; x < NX - 1; x++)
        b[z][y][x] = 0.4 * a[z][y][x]
                   + 0.1 * (a[z - 1][y][x] + a[z + 1][y][x] + a[z][y - 1][x]
                            + a[z][y + 1][x] + a[z][y][x - 1] + a[z][y][x + 1]);
}

// CHECK:      stencil heat3d
// CHECK-NEXT:   dims      3
// CHECK-NEXT:   radius    1
// CHECK-NEXT:   shape     star
// CHECK-NEXT:   precision fp64
// CHECK-NEXT:   boundary  fixed
// CHECK-NEXT:   points    7
// CHECK-NEXT:   coefficient (-1, 0, 0) = 0.1
// CHECK-NEXT:   coefficient (0, -1, 0) = 0.1
// CHECK-NEXT:   coefficient (0, 0, -1) = 0.1
// CHECK-NEXT:   coefficient (0, 0, 0) = 0.4
// CHECK-NEXT:   coefficient (0, 0, 1) = 0.1
// CHECK-NEXT:   coefficient (0, 1, 0) = 0.1
// CHECK-NEXT:   coefficient (1, 0, 0) = 0.1
