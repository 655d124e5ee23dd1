// An element type with no matching precision needs precision(...).
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const long double *a, long double *b) {
// CHECK: [[@LINE+1]]:9: error: cannot infer the precision from element type 'long double'; add precision(fp16|bf16|tf32|fp32|fp64) to the pragma
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
