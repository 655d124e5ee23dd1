// std::swap of array elements exchanges values, not the buffers: a
// rotation swaps two pointer variables.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

#include "Inputs/mini-utility.h"

void heat(int steps, int n, double *u, double *unew) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      unew[i] = 0.5 * (u[i - 1] + u[i + 1]);
    // CHECK: [[@LINE+1]]:15: error: std::swap in a rotation exchanges two pointer variables, as 'std::swap(u, unew)', not 'u[0]' (a 'double')
    std::swap(u[0], unew[0]);
  }
}
