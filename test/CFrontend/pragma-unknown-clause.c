// The pragma takes name, precision and boundary clauses only.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:17: error: unknown clause 'radius' in '#pragma stencil'; expected name, precision or boundary
#pragma stencil radius(1)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
