// A term reads an input array times at most one coefficient array.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, const double *u, const double *k, const double *m, double *w) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:35: error: a product of more than two reads of arrays is not linear; a term is a read of an input array, times at most one read of a coefficient array
    w[i] = u[i - 1] + k[i] * m[i] * u[i + 1];
}
