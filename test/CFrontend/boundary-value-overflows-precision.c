// A boundary(constant(V)) whose V the stencil's element type cannot hold is
// an error at the pragma, in the precision the pragma or the arrays give;
// one that rounds to zero is a warning (and one that underflows a double,
// Clang's own).
// RUN: rm -rf %t && mkdir %t
// RUN: not %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s
// RUN: not ls %t/out.cu %t/out.h

// Clang's warnings come first, from the translation.
void tiny(int n, const double *u, double *b) {
// CHECK: [[@LINE+1]]:35: warning: magnitude of floating-point constant too small for type 'double'
#pragma stencil boundary(constant(1e-400))
  for (int i = 0; i < n; ++i)
    b[i] = 0.5 * u[i - 1] + 0.5 * u[i + 1];
}

void half(int n, const float *u, float *b) {
// CHECK: [[@LINE+1]]:9: error: boundary value 70000 overflows fp16 (largest finite value 65504)
#pragma stencil precision(fp16) boundary(constant(70000))
  for (int i = 0; i < n; ++i)
    b[i] = 0.5f * u[i - 1] + 0.5f * u[i + 1];
}

void single(int n, const float *u, float *b) {
// CHECK: [[@LINE+1]]:9: error: boundary value -1e+39 overflows fp32
#pragma stencil boundary(constant(-1e39))
  for (int i = 0; i < n; ++i)
    b[i] = 0.5f * u[i - 1] + 0.5f * u[i + 1];
}

void brain(int n, const float *u, const float *k, float *b) {
// CHECK: [[@LINE+1]]:9: warning: boundary value 1e-50 rounds to zero in bf16 [-Wboundary-rounds-to-zero]
#pragma stencil precision(bf16) boundary(constant(1e-50))
  for (int i = 0; i < n; ++i)
    b[i] = k[i] * u[i - 1] + u[i + 1];
}
