// The receiver loop comes before the rotation, which names the level
// written differently.
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
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
    // CHECK: [[@LINE+1]]:5: error: a loop after the rotation of the buffers: the receiver loop comes before it, recording the level the nest wrote to 'unew'
    for (int k = 0; k < nrec; ++k)
      rec[t][k] = u[ry[k]][rx[k]];
  }
}
