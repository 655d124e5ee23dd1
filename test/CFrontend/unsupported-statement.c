// The innermost body is one assignment; a second statement is rejected.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b, double *c) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i) {
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
    // CHECK: [[@LINE+1]]:5: error: unsupported statement: the body of a '#pragma stencil' loop must be one inner loop or one assignment 'B[i][j] = ...;', not 2 statements
    c[i] = b[i];
  }
}
