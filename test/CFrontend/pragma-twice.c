// A loop nest carries one '#pragma stencil'.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil name(first)
// CHECK: [[@LINE+1]]:9: error: this loop nest already has a '#pragma stencil'
#pragma stencil name(second)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
  // CHECK: [[@LINE-5]]:9: note: the first '#pragma stencil' is here
}
