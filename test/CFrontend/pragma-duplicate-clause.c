// Each clause may appear once.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:33: error: duplicate 'precision' clause in '#pragma stencil'
#pragma stencil precision(fp64) precision(fp32)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
