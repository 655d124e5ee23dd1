// A flattened write with reads of several indices is one cause, reported
// once per array however many reads it has, not once per read.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int ny, int nx, const double in[ny][nx], double *out) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      // CHECK: [[@LINE+1]]:25: error: 'in' is read with 2 indices, but the write is flattened (one index)
      out[i * nx + j] = in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1];
}
// CHECK: 1 error generated.
