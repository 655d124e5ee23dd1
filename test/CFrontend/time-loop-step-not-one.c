// A time loop counts its steps one by one.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:30: error: unsupported loop step: the loop must count up by one ('++t', 't++' or 't += 1')
  for (int t = 0; t < steps; t += 2) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
