// The source loop adds to the level the nest wrote, before the rotation:
// one after it is refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx],
          int nsrc, const int *sy, const int *sx, const double amp[steps][nsrc]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
    // CHECK: [[@LINE+1]]:5: error: a loop after the rotation of the buffers: the source loop comes before it, adding to the level the nest wrote to 'unew'
    for (int k = 0; k < nsrc; ++k)
      unew[sy[k]][sx[k]] += amp[t][k];
  }
}
