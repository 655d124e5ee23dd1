// A per-step array holds one value a step: one read both as 'amp[t]' and as
// a grid is refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void diffuse(int steps, int n, double *u, double *unew, const double *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      // CHECK: [[@LINE+1]]:56: error: 'amp' is read as a per-step value ('amp[t]') and as an array of the nest; a per-step array holds one value a step
      unew[i] = 0.5 * (u[i - 1] + u[i + 1]) + amp[t] * amp[i];
    double *tmp = u;
    u = unew;
    unew = tmp;
  }
}
