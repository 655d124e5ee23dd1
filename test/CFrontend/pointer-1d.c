// A 1D nest over plain pointers; the loop variable is a size_t and the
// offsets reach 2, so the loop runs over 2 .. n-2.
// RUN: %stencilc %s --emit=spec | FileCheck %s

#include <stddef.h>

void smooth(size_t n, const float *in, float *out) {
#pragma stencil
  for (size_t i = 2; i < n - 2; i++)
    out[i] = -0.0625f * in[i - 2] + 0.25f * in[i - 1] + 0.625f * in[i]
           + 0.25f * in[i + 1] - 0.0625f * in[i + 2];
}

// CHECK:      stencil smooth
// CHECK-NEXT:   dims      1
// CHECK-NEXT:   radius    2
// CHECK-NEXT:   shape     star
// CHECK-NEXT:   precision fp32
// CHECK-NEXT:   boundary  fixed
// CHECK-NEXT:   points    5
// CHECK-NEXT:   coefficient (-2) = -0.0625
// CHECK-NEXT:   coefficient (-1) = 0.25
// CHECK-NEXT:   coefficient (0) = 0.625
// CHECK-NEXT:   coefficient (1) = 0.25
// CHECK-NEXT:   coefficient (2) = -0.0625
