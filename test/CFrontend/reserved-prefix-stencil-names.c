// A stencil named after a function whose name starts '__', 'cuda' or
// 'stencilc' takes the name without the reserved prefix, as an array's name
// does; 'name(...)' naming one is an error at the name.
// RUN: %stencilc %s --emit=stencil -- -DNAMED=0 | FileCheck %s
// RUN: not %stencilc %s --emit=stencil -- -DNAMED=1 2>&1 | FileCheck %s --check-prefix=NAMED

void __heat(int n, const float *u, float *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5f * u[i - 1] + 0.5f * u[i + 1];
}

void cuda_heat(int n, const float *u, float *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5f * u[i - 1] + 0.5f * u[i + 1];
}

// CHECK: stencil heat {
// CHECK: stencil c_cuda_heat {

#if NAMED
void named(int n, const float *u, float *b) {
// NAMED: [[@LINE+1]]:22: error: 'stencilc_heat' cannot name a stencil: a name starting '__', 'cuda' or 'stencilc' is reserved
#pragma stencil name(stencilc_heat)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5f * u[i - 1] + 0.5f * u[i + 1];
}
#endif
