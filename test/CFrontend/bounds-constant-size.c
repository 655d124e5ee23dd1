// On an array of constant size the constant end must leave the ring.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

#define N 64
void f(const double a[N][N], double b[N][N]) {
#pragma stencil
  for (int i = 1; i < N - 1; ++i)
    // CHECK: [[@LINE+1]]:25: error: the loop over 'j' ends at 'j < N', but a fixed boundary of radius 1 needs 'j < 63'
    for (int j = 1; j < N; ++j)
      b[i][j] = 0.5 * (a[i][j - 1] + a[i][j + 1]);
}
