// A loop variable is an index, never a coefficient.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: the loop variable 'i' cannot be used as a value; coefficients must be constants
    b[i] = i * a[i - 1] + a[i + 1];
}
