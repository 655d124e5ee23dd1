// REQUIRES: nvcc
// A C file with a 2D fp64 and a 2D fp16 nest compiles to one .cu with both
// kernels, warning-free for sm_80 and sm_90.
// RUN: %stencilc %s -o %t.cu
// RUN: %nvcc -std=c++17 %gencode_80_90 %device_O0 -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -I%runtime_include -c %t.cu -o %t.o
// RUN: FileCheck %s --input-file=%t.h
// CHECK-DAG: cudaError_t box_step(const double* in, double* out, int ny, int nx, cudaStream_t stream);
// CHECK-DAG: cudaError_t star_half_step(const __half* in, __half* out, int ny, int nx, cudaStream_t stream);

void box(int n, const double a[n][n], double b[n][n]) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      b[i][j] = (a[i - 1][j - 1] + a[i - 1][j] + a[i - 1][j + 1] + a[i][j - 1] + a[i][j]
                 + a[i][j + 1] + a[i + 1][j - 1] + a[i + 1][j] + a[i + 1][j + 1]) / 9;
}

void star(int n, const float a[n][n], float b[n][n]) {
#pragma stencil name(star_half) precision(fp16) boundary(periodic)
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      b[i][j] = 0.6f * a[i][j] + 0.1f * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}
