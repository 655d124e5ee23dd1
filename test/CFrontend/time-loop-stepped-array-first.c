// Without 'time', NAME_run steps the first input field: where the update
// reads another array first, the stepped one (the one the rotation gives
// the level written) is moved before it. A swap written the other way
// round ('tmp = unew; unew = u; u = tmp;') is the same swap.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void heat(int steps, const double src[64][64], double u[64][64], double unew[64][64]) {
#pragma stencil
  for (long t = 0; t < steps; t++) {
    for (int i = 1; i < 64 - 1; ++i)
      for (int j = 1; j < 64 - 1; ++j)
        unew[i][j] = src[i][j] + 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double (*tmp)[64] = unew;
    unew = u;
    u = tmp;
  }
}

// CHECK:      writing 'unew' from 'u', 'src'
// CHECK-NEXT: stencil heat {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   field src;
// CHECK-NEXT:   out[i, j] = 0.25 * u[i-1, j]
// CHECK:                  + 1 * src[i, j];
