// Any two swaps of the three levels rotate them: in the reversed order,
// 'std::swap(u, unew); std::swap(uprev, u);', the next step reads the level
// written as 'uprev' and the old 'uprev' as 'u', so 'uprev' is the current
// level and 'u' the previous one ('time u, uprev;'), which is what the C++
// computes, as for the same rotation written with assignments.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

#include "Inputs/mini-utility.h"

void wave(int steps, int n, float *u, float *uprev, float *unew, const float *c2) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      unew[i] = 2 * u[i] - uprev[i] + c2[i] * (u[i - 1] - 2 * u[i] + u[i + 1]);
    std::swap(u, unew);
    std::swap(uprev, u);
  }
}

// CHECK:      stencil wave {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   field uprev;
// CHECK-NEXT:   coefficient c2;
// CHECK-NEXT:   time u, uprev;
