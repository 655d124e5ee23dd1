// Constant arithmetic that overflows a double is an error where it happens.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:18: error: constant arithmetic overflows
    b[i] = 1e300 * 1e300 * a[i - 1] + a[i + 1];
}
