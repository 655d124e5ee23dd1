// Three levels rotate 'uprev <- u <- unew <- uprev'; here 'u' is moved to
// 'uprev' after it took 'unew', so two arrays hold the new level.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void wave(int steps, int ny, int nx, float u[ny][nx], float uprev[ny][nx], float unew[ny][nx],
          const float c2[ny][nx], const float src[ny][nx], const float *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i][j] = 2 * u[i][j] - uprev[i][j] + amp[t] * src[i][j]
                   + c2[i][j] * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4 * u[i][j]);
    // CHECK: [[@LINE+1]]:5: error: after this rotation 'u' holds what was 'unew', 'uprev' holds what was 'unew', 'unew' holds what was 'uprev': the next step must read what this one wrote to 'unew'
    float (*tmp)[nx] = uprev;
    u = unew;
    uprev = u;
    unew = tmp;
  }
}
