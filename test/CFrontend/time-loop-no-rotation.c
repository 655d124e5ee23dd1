// A time loop whose body does not rotate the buffers would read the same
// level every step: refused at the end of its body.
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
      rec[t][k] = unew[ry[k]][rx[k]];
  // CHECK: [[@LINE+1]]:3: error: the time loop does not rotate its buffers, so every step would read the same arrays; end its body with 'tmp = u; u = unew; unew = tmp;' (two time levels) or 'tmp = PREV; PREV = u; u = unew; unew = tmp;' (three, PREV the level before 'u')
  }
}
