// PolyBench/C-style nests: arrays of constant size (POLYBENCH_2D(A,N,N,n,n)
// is A[N][N]) and loops to _PB_N. By default _PB_N is the constant N, and
// the nests translate; with POLYBENCH_USE_SCALAR_LB it is the variable n,
// which cannot be proven to be the arrays' constant extent (the kernel
// would sweep all N rows whatever n is), so each end is refused with the
// constant it needs.
// RUN: %stencilc %s --emit=stencil | FileCheck %s --check-prefix=CONST
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu -- -DPOLYBENCH_USE_SCALAR_LB 2>&1 | FileCheck %s --check-prefix=SCALAR --implicit-check-not=error:
// RUN: ls %t | count 0

#define N 1300
#ifdef POLYBENCH_USE_SCALAR_LB
#define _PB_N n
#else
#define _PB_N N
#endif
#define DATA_TYPE double
#define SCALAR_VAL(x) x

// CONST-LABEL: stencil jacobi2d {
// CONST: out[i, j] = 0.2 * in[i-1, j]
static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE A[N][N], DATA_TYPE B[N][N]) {
  int t, i, j;
  for (t = 0; t < tsteps; t++) {
#pragma stencil name(jacobi2d)
    // SCALAR: [[@LINE+1]]:21: error: the loop over 'i' ends at 'i < _PB_N - 1', but a fixed boundary of radius 1 needs 'i < 1299'
    for (i = 1; i < _PB_N - 1; i++)
      // SCALAR: [[@LINE+1]]:23: error: the loop over 'j' ends at 'j < _PB_N - 1', but a fixed boundary of radius 1 needs 'j < 1299'
      for (j = 1; j < _PB_N - 1; j++)
        B[i][j] = SCALAR_VAL(0.2) * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] + A[i - 1][j]);
  }
}

// CONST-LABEL: stencil heat3d {
// CONST: out[i, j, k] = 0.125 * in[i-1, j, k]
static void kernel_heat_3d(int tsteps, int n, DATA_TYPE A[N / 10][N / 10][N / 10],
                           DATA_TYPE B[N / 10][N / 10][N / 10]) {
  int t, i, j, k;
  for (t = 1; t <= tsteps; t++) {
#pragma stencil name(heat3d)
    // SCALAR: [[@LINE+1]]:21: error: the loop over 'i' ends at 'i < _PB_N / 10 - 1', but a fixed boundary of radius 1 needs 'i < 129'
    for (i = 1; i < _PB_N / 10 - 1; i++)
      // SCALAR: [[@LINE+1]]:23: error: the loop over 'j' ends at 'j < _PB_N / 10 - 1'
      for (j = 1; j < _PB_N / 10 - 1; j++)
        // SCALAR: [[@LINE+1]]:25: error: the loop over 'k' ends at 'k < _PB_N / 10 - 1'
        for (k = 1; k < _PB_N / 10 - 1; k++)
          B[i][j][k] = SCALAR_VAL(0.125) * (A[i + 1][j][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i - 1][j][k]) +
                       SCALAR_VAL(0.125) * (A[i][j + 1][k] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j - 1][k]) +
                       SCALAR_VAL(0.125) * (A[i][j][k + 1] - SCALAR_VAL(2.0) * A[i][j][k] + A[i][j][k - 1]) +
                       A[i][j][k];
  }
}
