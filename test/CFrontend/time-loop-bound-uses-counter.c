// A nest whose bounds change from step to step is no one stencil: a bound
// that uses the time loop's counter is refused.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void diffuse(int steps, int n, double *u, double *unew) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    // CHECK: [[@LINE+1]]:25: error: the bound 'n - 1 - t' of the loop over 'i' depends on another loop variable; a stencil's loop nest covers a rectangle
    for (int i = 1; i < n - 1 - t; ++i)
      unew[i] = 0.5 * (u[i - 1] + u[i + 1]);
    double *tmp = u;
    u = unew;
    unew = tmp;
  }
}
