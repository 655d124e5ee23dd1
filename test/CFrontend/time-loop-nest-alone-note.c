// A loop around a nest with no rotation is no time loop, but three loops
// around a 2D write: the error says how to make it a time loop.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  // CHECK: [[@LINE+5]]:9: error: 'unew' is written with 2 indices, but the loop nest has 3 loops
  // CHECK: [[@LINE+1]]:3: note: if the loop over 't' is a time loop, its body ends with the rotation of the buffers, as in 'tmp = u; u = unew; unew = tmp;'
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
  }
}
