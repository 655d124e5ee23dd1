// In a time loop as in a nest, the update reads another array than it
// writes: a Gauss-Seidel sweep stays refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        // CHECK: [[@LINE+2]]:44: error: the update reads 'unew', the array it writes; a stencil writes a different array from the one it reads
        // CHECK: [[@LINE+1]]:9: note: 'unew' is written here
        unew[i][j] = 0.25 * (u[i - 1][j] + unew[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
