// C arrays whose sizes and coefficients are #define constants: the loops run
// over the interior, 1 .. N-1, which is the fixed ring of radius 1.
// RUN: %stencilc %s --emit=spec | FileCheck %s

#define N 512
#define CENTRE 0.5
#define SIDE ((1.0 - CENTRE) / 4)

double grid[N][N], next[N][N];

void heat_step(void) {
#pragma stencil
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      next[i][j] = CENTRE * grid[i][j]
                 + SIDE * (grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1]);
}

// CHECK:      stencil heat_step
// CHECK-NEXT:   dims      2
// CHECK-NEXT:   radius    1
// CHECK-NEXT:   shape     star
// CHECK-NEXT:   precision fp64
// CHECK-NEXT:   boundary  fixed
// CHECK-NEXT:   points    5
// CHECK-NEXT:   coefficient (-1, 0) = 0.125
// CHECK-NEXT:   coefficient (0, -1) = 0.125
// CHECK-NEXT:   coefficient (0, 0) = 0.5
// CHECK-NEXT:   coefficient (0, 1) = 0.125
// CHECK-NEXT:   coefficient (1, 0) = 0.125
