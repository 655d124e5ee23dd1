// In C++, 'std::swap(u, unew);' rotates two levels as the pointer
// assignments 'tmp = u; u = unew; unew = tmp;' do.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

#include "Inputs/mini-utility.h"

void diffuse(int steps, int n, const float *c, float *u, float *unew) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      unew[i] = u[i] + c[i] * (u[i - 1] - 2 * u[i] + u[i + 1]);
    std::swap(u, unew);
  }
}

// CHECK:      // {{.*}}time-loop-swap-two-levels.cpp:9: the time loop in diffuse() writing 'unew' from 'u', 'c'
// CHECK-NEXT: stencil diffuse {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   coefficient c;
// CHECK-NEXT:   out[i] = 1 * c[i] * u[i-1]
// CHECK-NEXT:          + 1 * u[i]
// CHECK-NEXT:          - 2 * c[i] * u[i]
// CHECK-NEXT:          + 1 * c[i] * u[i+1];
// CHECK-NEXT: }
