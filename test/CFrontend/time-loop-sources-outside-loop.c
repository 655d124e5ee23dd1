// A point source outside a loop is refused, saying to write it as a loop over
// a list of one.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx],
          int sy, int sx, const double *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    // CHECK: [[@LINE+1]]:5: error: 'unew[sy][sx] += amp[t]' changes the level the nest wrote outside a loop: a point source is a loop over a list of sources, of one here, 'for (int k = 0; k < nsrc; ++k) unew[sy[k]][sx[k]] += amp[t][k];'
    unew[sy][sx] += amp[t];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
