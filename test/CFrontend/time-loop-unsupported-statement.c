// The body of a time loop is the nest, a receiver loop and the rotation;
// any other statement is refused, saying so.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void report(int step);
void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    // CHECK: [[@LINE+1]]:5: error: unsupported statement in a '#pragma stencil' time loop: its body is the loop nest, optionally a source loop 'for (int k = 0; k < nsrc; ++k) unew[sy[k]][sx[k]] += amp[t][k];', optionally a receiver loop 'for (int k = 0; k < nrec; ++k) rec[t][k] = unew[ry[k]][rx[k]];', then the rotation of the buffers, 'tmp = u; u = unew; unew = tmp;' (two time levels) or 'tmp = PREV; PREV = u; u = unew; unew = tmp;' (three, PREV the level before 'u')
    report(t);
    double (*tmp)[nx] = u;
    u = unew;
    unew = tmp;
  }
}
