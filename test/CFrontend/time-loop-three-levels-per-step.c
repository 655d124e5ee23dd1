// The wave equation with three time levels and a source whose amplitude
// changes every step: 'amp[t]' is a per-step parameter ('param amp per
// step;'), and the rotation 'uprev <- u <- unew <- uprev' names the levels
// ('time uprev, u;'). The temporary may be declared before the loop.
// RUN: %stencilc %s --emit=stencil | FileCheck %s
// RUN: rm -rf %t && mkdir %t && %stencilc %s -o %t/wave.cu
// RUN: FileCheck %s --check-prefix=API --input-file=%t/wave.h

void wave(int steps, int ny, int nx, float u[ny][nx], float uprev[ny][nx], float unew[ny][nx],
          const float c2[ny][nx], const float src[ny][nx], const float *amp, float dt) {
  float (*tmp)[nx];
#pragma stencil
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 2 * u[i][j] - uprev[i][j] + amp[t] * src[i][j]
                   + dt * dt * c2[i][j] * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4 * u[i][j]);
    tmp = uprev;
    uprev = u;
    u = unew;
    unew = tmp;
  }
}

// CHECK:      the time loop in wave() writing 'unew' from 'u', 'uprev', 'src', 'c2'
// CHECK-NEXT: stencil wave {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   field uprev;
// CHECK-NEXT:   field src;
// CHECK-NEXT:   coefficient c2;
// CHECK-NEXT:   param amp per step;
// CHECK-NEXT:   param dt;
// CHECK-NEXT:   time uprev, u;
// CHECK-NEXT:   out[i, j] = (dt * dt) * c2[i, j] * u[i-1, j]
// CHECK:                  - 1 * uprev[i, j]
// CHECK-NEXT:             + amp * src[i, j];

// API: cudaError_t wave_run(float* u, float* uprev, const float* src, const float* c2, float* scratch, int ny, int nx, const double* amp, double dt, int steps, cudaStream_t stream);
