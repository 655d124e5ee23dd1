// boundary(...) is fixed, periodic or constant(V).
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:26: error: unknown boundary 'reflect'; expected fixed, periodic, constant(V), clamp or mirror
#pragma stencil boundary(reflect)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
