// Swaps and pointer assignments may make one rotation: 'tmp = uprev;
// uprev = u; std::swap(u, unew); unew = tmp;' rotates three levels as the
// assignments alone do ('time uprev, u;').
// RUN: %stencilc %s --emit=stencil | FileCheck %s

#include "Inputs/mini-utility.h"

void wave(int steps, int n, float *u, float *uprev, float *unew, const float *c2) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      unew[i] = 2 * u[i] - uprev[i] + c2[i] * (u[i - 1] - 2 * u[i] + u[i + 1]);
    float *tmp = uprev;
    uprev = u;
    std::swap(u, unew);
    unew = tmp;
  }
}

// CHECK:      the time loop in wave() writing 'unew' from 'u', 'uprev', 'c2'
// CHECK-NEXT: stencil wave {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   field uprev;
// CHECK-NEXT:   coefficient c2;
// CHECK-NEXT:   time uprev, u;
