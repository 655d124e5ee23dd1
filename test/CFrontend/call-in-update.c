// A function call is not a linear term, even of a read.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

double sqrt(double);
void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:23: error: call to 'sqrt' in a stencil update: the right-hand side must be linear in the input, a sum of constant coefficients times reads
    b[i] = a[i - 1] + sqrt(a[i + 1]);
}
