// The generated functions take one pointer per array read, in the order of
// the first reads, named after the arrays, then the sizes and the
// run-time parameters.
// RUN: rm -rf %t && mkdir %t
// RUN: %stencilc %s -o %t/diffuse.cu
// RUN: FileCheck %s --input-file=%t/diffuse.h

void diffuse(int n, const float *kappa, float dt, const float *u, float *next) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    next[i] = u[i] + dt * kappa[i] * (u[i - 1] - 2 * u[i] + u[i + 1]);
}

// CHECK: cudaError_t diffuse_step(const float* u, const float* kappa, float* out, int nx, double dt, cudaStream_t stream);
