// boundary(constant) needs the value read outside the grid.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:26: error: 'boundary(constant)' needs the value read outside the grid: boundary(constant(V))
#pragma stencil boundary(constant)
  for (int i = 0; i < n; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
