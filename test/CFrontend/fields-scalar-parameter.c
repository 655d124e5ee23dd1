// A float or double variable that is not const is a run-time parameter: the
// coefficients that use it are expressions the host evaluates on each call.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void heat(int n, const double *u, double *v, double alpha) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    v[i] = u[i] + alpha * (u[i - 1] - 2 * u[i] + u[i + 1]);
}

// CHECK:      field u;
// CHECK-NEXT: param alpha;
// CHECK-NEXT: out[i] = alpha * u[i-1]
// CHECK-NEXT:        + (1.0 + (-2.0 * alpha)) * u[i]
// CHECK-NEXT:        + alpha * u[i+1];
