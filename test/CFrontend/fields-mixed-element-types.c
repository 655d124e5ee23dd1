// Arrays of different element types need the precision named in the pragma.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, const float *u, const double *k, float *w) {
  // CHECK: [[@LINE+1]]:9: error: 'k' holds double but 'w' holds float: name the precision with precision(fp16|bf16|tf32|fp32|fp64)
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    w[i] = u[i] + k[i] * (u[i - 1] + u[i + 1]);
}
