// Iteration t of a time loop is step t of NAME_run, whose per-step values
// are amp[t]: the counter starts at 0.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:16: error: the time loop over 't' starts at '1', but it must start at 0: its iteration t is step t of NAME_run, whose per-step values are 'amp[t]'
  for (int t = 1; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
