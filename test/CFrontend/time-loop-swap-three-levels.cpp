// Three levels rotate with two swaps, 'std::swap(uprev, u); std::swap(u,
// unew);': then 'uprev' holds the old 'u', 'u' the level written and 'unew'
// the old 'uprev', as after 'tmp = uprev; uprev = u; u = unew; unew = tmp;'
// ('time uprev, u;').
// RUN: %stencilc %s --emit=stencil | FileCheck %s

#include "Inputs/mini-utility.h"

void wave(int steps, int ny, int nx, float *u, float *uprev, float *unew, const float *c2,
          const float *src, const float *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i * nx + j] = 2 * u[i * nx + j] - uprev[i * nx + j] + amp[t] * src[i * nx + j]
                         + c2[i * nx + j] * (u[(i - 1) * nx + j] + u[(i + 1) * nx + j]
                                             + u[i * nx + j - 1] + u[i * nx + j + 1] - 4 * u[i * nx + j]);
    std::swap(uprev, u);
    std::swap(u, unew);
  }
}

// CHECK:      the time loop in wave() writing 'unew' from 'u', 'uprev', 'src', 'c2'
// CHECK-NEXT: stencil wave {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   field uprev;
// CHECK-NEXT:   field src;
// CHECK-NEXT:   coefficient c2;
// CHECK-NEXT:   param amp per step;
// CHECK-NEXT:   time uprev, u;
