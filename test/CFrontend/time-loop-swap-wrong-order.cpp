// Swaps are simulated on the pointers with the assignments around them:
// here 'u' and 'unew' swap before 'uprev' takes the old 'u', so 'uprev'
// takes the level written as well, and the rotation is refused with what
// each array holds.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

#include "Inputs/mini-utility.h"

void wave(int steps, int n, float *u, float *uprev, float *unew) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      unew[i] = u[i - 1] + u[i + 1] - uprev[i];
    // CHECK: [[@LINE+1]]:5: error: after this rotation 'u' holds what was 'unew', 'uprev' holds what was 'unew', 'unew' holds what was 'uprev': the next step must read what this one wrote to 'unew', and write over a level it no longer reads; the rotation is 'std::swap(u, unew);' (two time levels) or 'std::swap(PREV, u); std::swap(u, unew);' (three, PREV the level before 'u'), or the same with pointer assignments, 'tmp = u; u = unew; unew = tmp;'
    float *tmp = uprev;
    std::swap(u, unew);
    uprev = u;
    unew = tmp;
  }
}
