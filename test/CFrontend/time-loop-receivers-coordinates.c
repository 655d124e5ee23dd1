// Each index of the receiver read is an array of coordinates at the
// receiver: NAME_run takes one point a receiver.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx], int nrec,
          const int *ry, const int *rx, double rec[steps][nrec]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    for (int k = 0; k < nrec; ++k)
      // CHECK: [[@LINE+1]]:31: error: an index of the receiver read must be an integer array of coordinates at 'k', as in 'rx[k]', not 'k'
      rec[t][k] = unew[ry[k]][k];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
