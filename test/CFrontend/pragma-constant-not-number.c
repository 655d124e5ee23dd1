// The constant boundary value is a number (macros expand first).
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:35: error: expected a number for 'constant(V)', found 'n'
#pragma stencil boundary(constant(n))
  for (int i = 0; i < n; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
