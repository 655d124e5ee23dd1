// Point sources added to the level written are not accepted yet; a source
// array read in the update is ('+ amp[t] * src[i][j]').
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx], int nsrc,
          const int *sy, const int *sx, const double *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    for (int k = 0; k < nsrc; ++k)
      // CHECK: [[@LINE+1]]:7: error: point sources in a time loop are not accepted yet: 'unew[sy[k]][sx[k]] += amp[t]' changes the level the nest wrote; read a source array in the update instead, as in '... + amp[t] * src[i][j]'
      unew[sy[k]][sx[k]] += amp[t];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
