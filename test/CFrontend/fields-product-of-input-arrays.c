// A product of reads of two arrays that are both read alone elsewhere (two
// input fields) is not linear.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, const double *u, const double *v, double *w) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:41: error: a product of reads of two input arrays, 'u' and 'v', is not linear
    w[i] = u[i - 1] + v[i + 1] + u[i] * v[i];
}
