// A time loop around a heat step, ending in a swap of the two buffers, is
// what NAME_run does: the translation is the step's stencil, which NAME_run
// steps (here the stencil of 'in', as for the nest alone).
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.5 * u[i][j] + 0.125 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}

// CHECK:      // {{.*}}time-loop-two-levels.c:8: the time loop in heat() writing 'unew' from 'u'
// CHECK-NEXT: stencil heat {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   out[i, j] = 0.125 * in[i-1, j]
// CHECK-NEXT:             + 0.125 * in[i, j-1]
// CHECK-NEXT:             + 0.5 * in[i, j]
// CHECK-NEXT:             + 0.125 * in[i, j+1]
// CHECK-NEXT:             + 0.125 * in[i+1, j];
// CHECK-NEXT: }
