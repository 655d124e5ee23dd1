// The counter is no coefficient: the kernel of a step knows no step number.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx], const double src[ny][nx]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        // CHECK: [[@LINE+1]]:87: error: the time loop's counter 't' cannot be used as a value; it may only index a per-step array, as in 'amp[t]'
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) + t * src[i][j];
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
