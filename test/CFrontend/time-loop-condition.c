// A time loop runs to the number of steps, 't < steps', a variable or a
// constant: NAME_run takes that number.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:19: error: unsupported time loop condition 't <= steps': a time loop runs 'for (int t = 0; t < steps; ++t)', to a variable or a constant, the number of steps NAME_run takes
  for (int t = 0; t <= steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
