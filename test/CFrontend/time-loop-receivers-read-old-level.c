// NAME_run records the level a step wrote: a receiver loop reading the
// level the nest read is refused.
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
      // CHECK: [[@LINE+1]]:19: error: the receiver loop must record 'unew', the level the nest wrote in this step: 'for (int k = 0; k < nrec; ++k) rec[t][k] = unew[ry[k]][rx[k]];'
      rec[t][k] = u[ry[k]][rx[k]];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
