// A source loop after the nest adds each step's amplitudes to the level
// written at each source: 'source u;', the field NAME_run steps, before
// the receiver loop records it ('record u;'). NAME_run takes the points as
// (y, x) pairs and 'amp' as its amplitudes (docs/c-frontend.md says how).
// RUN: %stencilc %s --emit=stencil | FileCheck %s
// RUN: rm -rf %t && mkdir %t && %stencilc %s -o %t/wave.cu
// RUN: FileCheck %s --check-prefix=API --input-file=%t/wave.h

void wave(int steps, int ny, int nx, float u[ny][nx], float uprev[ny][nx], float unew[ny][nx],
          const float c2[ny][nx], float dt, int nsrc, const int *sy, const int *sx,
          const float amp[steps][nsrc], int nrec, const int *ry, const int *rx,
          float rec[steps][nrec]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 2 * u[i][j] - uprev[i][j] +
                     dt * dt * c2[i][j] *
                         (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4 * u[i][j]);
    for (int k = 0; k < nsrc; ++k) {
      unew[sy[k]][sx[k]] += amp[t][k];
    }
    for (int k = 0; k < nrec; ++k)
      rec[t][k] = unew[ry[k]][rx[k]];
    float (*tmp)[nx] = uprev;
    uprev = u;
    u = unew;
    unew = tmp;
  }
}

// CHECK:      stencil wave {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   field uprev;
// CHECK-NEXT:   coefficient c2;
// CHECK-NEXT:   param dt;
// CHECK-NEXT:   time uprev, u;
// CHECK-NEXT:   source u;
// CHECK-NEXT:   record u;
// CHECK-NEXT:   out[i, j] =

// API: cudaError_t wave_run(float* u, float* uprev, const float* c2, float* scratch, int ny, int nx, double dt, const int* sources, int source_count, const double* amplitudes, const int* receivers, int receiver_count, float* records, int steps, cudaStream_t stream);
