// A read of a flattened nest must be the write's index plus a constant
// offset per axis: a read with another stride is refused at that read.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int ny, int nx, const double *in, double *out) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      // CHECK: [[@LINE+1]]:35: error: 'in' is read at '(i - 1) * ny + j': a read of a flattened array must be the write's index plus a constant offset per axis, as in '(i-1)*nx + j' or 'i*nx + j+1'
      out[i * nx + j] = 0.5 * (in[(i - 1) * ny + j] + in[(i + 1) * nx + j]);
}
// CHECK-NOT: error:
