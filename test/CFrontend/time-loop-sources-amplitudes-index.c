// The source loop adds the amplitude of step t and source k, 'amp[t][k]'
// (or flattened, 'amp[t * nsrc + k]'): one amplitude a step for all the
// sources, 'amp[t]', is refused.
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
      // CHECK: [[@LINE+1]]:29: error: the source loop must add the amplitude of step 't' and source 'k', 'amp[t][k]' (or flattened, 'amp[t * nsrc + k]'), not 'amp[t]'
      unew[sy[k]][sx[k]] += amp[t];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
