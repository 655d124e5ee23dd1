// A receiver loop after the nest records the level written at each
// receiver after every step: 'record u;', the field NAME_run steps.
// NAME_run takes the points as (y, x) pairs (docs/c-frontend.md says how
// 'ry' and 'rx' map to them) and 'rec' as its records.
// RUN: %stencilc %s --emit=stencil | FileCheck %s
// RUN: rm -rf %t && mkdir %t && %stencilc %s -o %t/heat.cu
// RUN: FileCheck %s --check-prefix=API --input-file=%t/heat.h

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx], int nrec,
          const int *ry, const int *rx, double rec[steps][nrec]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    for (int k = 0; k < nrec; ++k) {
      rec[t][k] = unew[ry[k]][rx[k]];
    }
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}

// CHECK:      stencil heat {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   record in;
// CHECK-NEXT:   out[i, j] = 0.25 * in[i-1, j]

// API: cudaError_t heat_run(double* in, double* scratch, int ny, int nx, const int* receivers, int receiver_count, double* records, int steps, cudaStream_t stream);
