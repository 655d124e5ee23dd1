// Control flow inside the nest is not a stencil update.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: unsupported statement in a '#pragma stencil' loop nest: the innermost body must be one assignment 'B[i][j] = ...;'
    if (i % 2) b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
