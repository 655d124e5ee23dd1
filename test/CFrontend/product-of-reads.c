// The update must be linear in the input: a product of two reads is not.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:21: error: a product of two reads of 'a' is not linear
    b[i] = a[i - 1] * a[i + 1];
}
