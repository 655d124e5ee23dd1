// A stencil name cannot be a word the .stencil language reserves.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:22: error: 'radius' is a reserved word of the .stencil language and cannot name a stencil
#pragma stencil name(radius)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
