// boundary(fixed) and boundary(periodic) take no value.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:31: error: 'boundary(fixed)' takes no value
#pragma stencil boundary(fixed(0))
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
