// Statements between the loops make the nest imperfect.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n], double b[n][n], double *s) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i) {
    s[i] = 0;
    // CHECK: [[@LINE+1]]:5: error: unsupported statement: the body of a '#pragma stencil' loop must be one inner loop or one assignment 'B[i][j] = ...;', not 2 statements
    for (int j = 1; j < n - 1; ++j)
      b[i][j] = 0.5 * (a[i][j - 1] + a[i][j + 1]);
  }
}
