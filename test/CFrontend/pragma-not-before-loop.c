// The pragma marks the 'for' right after it; anything else in between is an error.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:9: error: '#pragma stencil' must be followed by a 'for' loop nest
#pragma stencil
  b[0] = a[0];
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
