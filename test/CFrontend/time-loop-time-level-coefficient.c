// A time level is an input array: one the nest reads only as a coefficient
// array cannot take the level written.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double k[ny][nx], double unew[ny][nx]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        // CHECK: [[@LINE+1]]:44: error: 'k' is a time level of the rotation, but the nest reads it only as a coefficient array; a time level is read alone in some term
        unew[i][j] = 0.25 * (u[i - 1][j] * k[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double (*tmp)[nx] = k;
    k = unew;
    unew = tmp;
  }
}
