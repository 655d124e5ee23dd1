// NAME_run reads the amplitudes of step s at 'amplitudes + s * source_count':
// rows of 16 beside a loop to 'nsrc' are refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx],
          int nsrc, const int *sy, const int *sx, const double (*amp)[16]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    for (int k = 0; k < nsrc; ++k)
      // CHECK: [[@LINE+1]]:29: error: the rows of 'amp' ('const double (*)[16]') must be as long as the source loop runs, 'nsrc': NAME_run reads the amplitudes of step s at 'amplitudes + s * source_count'
      unew[sy[k]][sx[k]] += amp[t][k];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
