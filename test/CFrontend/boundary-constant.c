// boundary(constant(V)): V may come from a macro and carry a sign; the loops
// cover the whole grid, and `i <= n - 1` is the same end as `i < n`.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

#define OUTSIDE 1.5

void pad(int n, const float *a, float *b) {
#pragma stencil boundary(constant(-OUTSIDE))
  for (int i = 0; i <= n - 1; ++i)
    b[i] = 0.5f * (a[i - 1] + a[i + 1]);
}

// CHECK:      stencil pad {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary constant -1.5;
