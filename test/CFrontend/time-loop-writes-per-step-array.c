// NAME_run takes the per-step values before the first step, so the loop
// may not write them.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx], const double src[ny][nx],
          double *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) + amp[t] * src[i][j];
    // CHECK: [[@LINE+1]]:5: error: the time loop writes the per-step array 'amp': NAME_run takes its values before the first step, so set them before the loop
    amp[t] = 0;
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
