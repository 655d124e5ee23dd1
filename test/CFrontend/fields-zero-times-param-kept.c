// In C too, a term whose coefficient uses a run-time parameter is kept
// where a constant factor is zero ('dt * -0.0', '0.0 * dt', '0.0 / dt'):
// such a product is not 0 for an infinite or NaN dt.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void f(int n, const double *u, double dt, double *b) {
#pragma stencil
  for (int i = 2; i < n - 2; ++i)
    b[i] = u[i - 1] + dt * -0.0 * u[i + 1] + 0.0 * dt * u[i - 2] + 0.0 / dt * u[i + 2];
}

// CHECK:      out[i] = (0.0 * dt) * u[i-2]
// CHECK-NEXT:        + 1 * u[i-1]
// CHECK-NEXT:        + (dt * -0.0) * u[i+1]
// CHECK-NEXT:        + (0.0 / dt) * u[i+2];
