// A C name that starts a prefix the generated code reserves ('__', 'cuda',
// 'stencilc') is renamed in the translation, however it collides: appending
// '_' can never free such a name (this used to loop for ever).
// RUN: %stencilc %s --emit=stencil | FileCheck %s
// RUN: %stencilc %s -o %t.cu
// RUN: FileCheck %s --check-prefix=API < %t.h

void f(int n, const float *__u, const float *cudaK, float __dt, float dt, float __1,
       float stencilc_s, float *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = __dt * __u[i - 1] + dt * cudaK[i] * __u[i + 1] + __1 * stencilc_s * __u[i];
}

// CHECK:      field u;
// CHECK-NEXT: coefficient c_cudaK;
// CHECK-NEXT: param dt;
// CHECK-NEXT: param dt_;
// CHECK-NEXT: param c_1;
// CHECK-NEXT: param c_stencilc_s;
// CHECK-NEXT: out[i] = dt * u[i-1]
// CHECK-NEXT:        + (c_1 * c_stencilc_s) * u[i]
// CHECK-NEXT:        + dt_ * c_cudaK[i] * u[i+1];

// API: cudaError_t f_step(const float* u, const float* c_cudaK, float* out, int nx, double dt, double dt_, double c_1, double c_stencilc_s, cudaStream_t stream);
