// Float constants fold in float, as C computes them, and the coefficient is
// that float's exact value: 1 - 2 * 0.2f is 0.6f, not 0.6.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

static const float kf = 0.2f;

void line(int n, const float *x, float *y) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    y[i] = kf * x[i - 1] + (1 - 2 * kf) * x[i] + kf * x[i + 1];
}

// CHECK:      stencil line {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   out[i] = 0.20000000298023224 * in[i-1]
// CHECK-NEXT:          + 0.6000000238418579 * in[i]
// CHECK-NEXT:          + 0.20000000298023224 * in[i+1];
// CHECK-NEXT: }
