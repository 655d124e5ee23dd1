// boundary(...) is one of Boundaries.def's rules, constant taking its value
// as constant(V); the message lists them.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:26: error: unknown boundary 'wrap'; expected fixed, constant(V), periodic, clamp, mirror or reflect
#pragma stencil boundary(wrap)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
