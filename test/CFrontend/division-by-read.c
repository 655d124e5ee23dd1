// Dividing by a read of the input is not linear.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:27: error: division by a read of 'a' is not linear
    b[i] = a[i - 1] + 1.0 / a[i + 1];
}
