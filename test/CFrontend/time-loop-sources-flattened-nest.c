// The sources of a flattened nest ('unew[sy[k] * nx + sx[k]]') are not
// accepted yet, as its receivers are not.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void heat(int steps, int ny, int nx, double *u, double *unew, int nsrc, const int *sy,
          const int *sx, const double *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        unew[i * nx + j] = 0.25 * (u[(i - 1) * nx + j] + u[(i + 1) * nx + j] +
                                   u[i * nx + j - 1] + u[i * nx + j + 1]);
    for (int k = 0; k < nsrc; ++k)
      // CHECK: [[@LINE+1]]:7: error: the source write must index 'unew' with one array of coordinates an axis, 'for (int k = 0; k < nsrc; ++k) unew[sy[k]][sx[k]] += amp[t][k];' (sources of a flattened nest are not accepted yet)
      unew[sy[k] * nx + sx[k]] += amp[t * nsrc + k];
    double *tmp = u;
    u = unew;
    unew = tmp;
  }
}
