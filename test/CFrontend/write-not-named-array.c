// The array written is a named variable, not a member or an expression.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

struct grid { double *v; };
void f(int n, const double *a, struct grid g) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: the array written must be a named array (a C array, a VLA or a pointer to an array), not 'g.v'
    g.v[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
