// The loop starts by setting its loop variable.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
  int i = 1;
#pragma stencil
  // CHECK: [[@LINE+1]]:7: error: unsupported loop: the 'for' must start by setting its loop variable, as in 'int i = 1'
  for (; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
