// The amplitudes are an array of their own: one the nest reads as a per-step
// value ('amp[t]') is refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx],
          const double src[ny][nx], int nsrc, const int *sy, const int *sx, const double *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) +
                     amp[t] * src[i][j];
    for (int k = 0; k < nsrc; ++k)
      // CHECK: [[@LINE+1]]:29: error: 'amp' holds the amplitudes, so it must be an array of its own, not one the nest reads or writes, nor the records
      unew[sy[k]][sx[k]] += amp[t * nsrc + k];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
