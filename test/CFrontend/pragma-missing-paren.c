// Clause values are in parentheses.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:22: error: expected '(' in '#pragma stencil', found 'heat'
#pragma stencil name heat
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
