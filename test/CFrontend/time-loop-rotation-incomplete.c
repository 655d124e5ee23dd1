// A rotation without its last swap leaves 'unew' where it was: the next
// step would write over the level it reads.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double u[ny][nx], double unew[ny][nx]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
    // CHECK: [[@LINE+1]]:5: error: after this rotation 'u' holds what was 'unew', 'unew' keeps its own: the next step must read what this one wrote to 'unew', and write over a level it no longer reads; the rotation is 'tmp = u; u = unew; unew = tmp;' (two time levels) or 'tmp = PREV; PREV = u; u = unew; unew = tmp;' (three, PREV the level before 'u')
    double (*tmp)[nx] = u;
    u = unew;
  }
}
