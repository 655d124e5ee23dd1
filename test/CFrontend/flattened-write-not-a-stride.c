// A single index that is not each loop variable times the row size of the
// axes inside it is refused, saying what is accepted.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int ny, int nx, const double *in, double *out) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      // CHECK: [[@LINE+1]]:11: error: 'out' is written at one index, 'i * nx + 2 * j', in a nest of 2 loops: a flattened index must be each loop variable times the row size of the axes inside it, as in 'i*nx + j' or '(k*ny + i)*nx + j' (docs/c-frontend.md)
      out[i * nx + 2 * j] = 0.5 * (in[(i - 1) * nx + j] + in[(i + 1) * nx + j]);
}
