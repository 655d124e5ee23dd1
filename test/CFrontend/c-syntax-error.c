// Errors in the C code itself are Clang's own, with the usual location and caret.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:42: error: use of undeclared identifier 'undeclared'
    b[i] = 0.5 * (a[i - 1] + a[i + 1]) + undeclared;
}
