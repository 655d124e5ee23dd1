// Only + - * / build an update; other operators are rejected.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:24: error: unsupported expression in a stencil update: 'a[i + 1] > 0 ? a[i + 1] : 0'; the right-hand side must be a sum of constant coefficients times reads of one array
    b[i] = a[i - 1] + (a[i + 1] > 0 ? a[i + 1] : 0);
}
