// Without precision(...) the element types of both arrays must agree.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const float *a, double *b) {
// CHECK: [[@LINE+1]]:9: error: 'a' holds float but 'b' holds double: name the precision with precision(fp16|bf16|tf32|fp32|fp64)
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
