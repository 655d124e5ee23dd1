// A pragma with no loop after it is an error.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
// CHECK: [[@LINE+1]]:9: error: '#pragma stencil' must be followed by a 'for' loop nest
#pragma stencil
}
