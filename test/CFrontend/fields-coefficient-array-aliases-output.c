// A coefficient array must not alias the array written: a pointer set from
// the output is refused where it is read.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *u, double *w) {
  const double *k = w;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:34: error: 'k' is a pointer set from 'w', so it may alias the other array of the update
    w[i] = u[i - 1] + u[i + 1] * k[i];
}
