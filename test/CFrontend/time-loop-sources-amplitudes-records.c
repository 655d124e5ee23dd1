// The amplitudes are an array of their own: the receiver loop may not
// record into them.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx],
          int nsrc, const int *sy, const int *sx, double amp[steps][nsrc], const int *ry,
          const int *rx) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    for (int k = 0; k < nsrc; ++k)
      unew[sy[k]][sx[k]] += amp[t][k];
    for (int k = 0; k < nsrc; ++k)
      // CHECK: [[@LINE+1]]:7: error: 'amp' holds the records, so it must be an array of its own, not one the nest reads or writes, nor the amplitudes
      amp[t][k] = unew[ry[k]][rx[k]];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
