// A flattened index whose row size is not what the loop over the inner axis
// runs to is refused: nothing proves the stride is the row length.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int ny, int nx, int m, const double *in, double *out) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    // CHECK: [[@LINE+3]]:11: error: the flattened index of 'out' takes 'nx' as the size of the axis of 'j', but the loop over 'j' does not run to 'nx' (as in 'j < nx - 1'): the row size must be one the loop bounds name
    // CHECK: [[@LINE+1]]:25: note: the loop over 'j' runs to 'm - 1'
    for (int j = 1; j < m - 1; ++j)
      out[i * nx + j] = 0.5 * (in[(i - 1) * nx + j] + in[(i + 1) * nx + j]);
}
