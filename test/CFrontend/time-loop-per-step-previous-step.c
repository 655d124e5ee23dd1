// 'amp[t - 1]', the previous step's value, is no per-step parameter of
// step t either.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void wave(int steps, int ny, int nx, float u[ny][nx], float uprev[ny][nx], float unew[ny][nx],
          const float c2[ny][nx], const float src[ny][nx], const float *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        // CHECK: [[@LINE+1]]:54: error: the time loop's counter 't' may only index a per-step array alone, as in 'amp[t]' (a one-dimensional float or double array, element t the value during step t), not 'amp[t - 1]'
        unew[i][j] = 2 * u[i][j] - uprev[i][j] + amp[t - 1] * src[i][j]
                   + c2[i][j] * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4 * u[i][j]);
    float (*tmp)[nx] = uprev;
    uprev = u;
    u = unew;
    unew = tmp;
  }
}
