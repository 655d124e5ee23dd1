// Every term must be a coefficient times a read: a bare constant is not.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:42: error: this term does not read 'a'; every term must be a coefficient times a read of 'a'
    b[i] = 0.5 * (a[i - 1] + a[i + 1]) + 1.0;
}
