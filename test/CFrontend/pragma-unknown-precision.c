// precision(...) names one of the .stencil precisions.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:27: error: unknown precision 'fp8'; expected fp16, bf16, tf32, fp32 or fp64
#pragma stencil precision(fp8)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
