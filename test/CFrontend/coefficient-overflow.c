// A coefficient that overflows a double is an error, at its read.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: the coefficient of this read overflows a double
    b[i] = a[i - 1] * 1e300 * 1e300 + a[i + 1];
}
