// Pointers to arrays, `float (*a)[NX]`: the outer size is unknown to the
// type, so any `n - 1` ends the outer loop; a box of 9 points in fp32.
// RUN: %stencilc %s --emit=spec | FileCheck %s

#define NX 1024

void box(int n, float (*restrict a)[NX], float (*restrict b)[NX]) {
#pragma stencil name(box9)
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < NX - 1; ++j)
      b[i][j] = 0.25f * a[i][j]
              + 0.125f * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1])
              + 0.0625f * (a[i - 1][j - 1] + a[i - 1][j + 1] + a[i + 1][j - 1] + a[i + 1][j + 1]);
}

// CHECK:      stencil box9
// CHECK-NEXT:   dims      2
// CHECK-NEXT:   radius    1
// CHECK-NEXT:   shape     box
// CHECK-NEXT:   precision fp32
// CHECK-NEXT:   boundary  fixed
// CHECK-NEXT:   points    9
// CHECK-NEXT:   coefficient (-1, -1) = 0.0625
// CHECK-NEXT:   coefficient (-1, 0) = 0.125
// CHECK-NEXT:   coefficient (-1, 1) = 0.0625
// CHECK-NEXT:   coefficient (0, -1) = 0.125
// CHECK-NEXT:   coefficient (0, 0) = 0.25
