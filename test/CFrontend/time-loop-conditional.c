// Every step of NAME_run is the same: a conditional in the body is refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    // CHECK: [[@LINE+1]]:5: error: a conditional in a time loop is not accepted: every step of NAME_run runs the nest, adds the sources, records the receivers and rotates the buffers
    if (t % 2 == 0) {
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
    }
  }
}
