// A read converted to an integer is not a linear term.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:23: error: unsupported conversion in a stencil update: '(int)a[i + 1]'
    b[i] = a[i - 1] + (int)a[i + 1];
}
