// Two arrays read only in products with each other, at as many points each:
// which one is the coefficient array is not clear, and that is an error.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, const double *u, const double *k, double *w) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: 'u' and 'k' are only read in products with each other: it is not clear which is the coefficient array; read the input array alone in some term, or the coefficient array at fewer points
    w[i] = u[i - 1] * k[i - 1] + u[i + 1] * k[i + 1];
}
