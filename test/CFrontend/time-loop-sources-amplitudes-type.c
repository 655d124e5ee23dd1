// The amplitudes have the field's element type: C adds a double amplitude
// to a float level in double and rounds once, NAME_run rounds the amplitude
// to float first, so double amplitudes beside float fields are refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, float u[ny][nx], float unew[ny][nx],
          int nsrc, const int *sy, const int *sx, const double amp[steps][nsrc]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    for (int k = 0; k < nsrc; ++k)
      // CHECK: [[@LINE+1]]:29: error: the amplitudes in 'amp' are 'const double', but 'unew' holds 'float': NAME_run rounds each amplitude to the field's type and adds in that type, as C does only for amplitudes of that type
      unew[sy[k]][sx[k]] += amp[t][k];
    float (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
