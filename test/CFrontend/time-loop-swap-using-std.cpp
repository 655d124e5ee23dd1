// 'using std::swap; swap(u, unew);' calls std::swap as well: a rotation of
// two levels, the using-declaration in the body or before it.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

#include "Inputs/mini-utility.h"

void diffuse(int steps, int n, float *u, float *unew) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      unew[i] = 0.5f * (u[i - 1] + u[i + 1]);
    using std::swap;
    swap(u, unew);
  }
}

void smooth(int steps, int n, double *a, double *b) {
  using std::swap;
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
    swap(b, a);
  }
}

// CHECK:      the time loop in diffuse() writing 'unew' from 'u'
// CHECK-NEXT: stencil diffuse {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   out[i] = 0.5 * in[i-1]
// CHECK-NEXT:          + 0.5 * in[i+1];
// CHECK-NEXT: }
// CHECK:      the time loop in smooth() writing 'b' from 'a'
// CHECK-NEXT: stencil smooth {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   out[i] = 0.25 * in[i-1]
// CHECK-NEXT:          + 0.5 * in[i]
// CHECK-NEXT:          + 0.25 * in[i+1];
// CHECK-NEXT: }
