// A coefficient array may be read at the neighbour it weights: a weight that
// varies from neighbour to neighbour.
// RUN: %stencilc %s --emit=spec | FileCheck %s

void flux(int n, const float *u, const float *k, float *v) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    v[i] = u[i] + k[i - 1] * u[i - 1] + k[i + 1] * u[i + 1];
}

// CHECK:      field     u (input)
// CHECK-NEXT: field     k (coefficient)
// CHECK:      term u(-1) * 1 * k(-1)
// CHECK-NEXT: term u(0) * 1
// CHECK-NEXT: term u(1) * 1 * k(1)
