// An update that reads no array is not a stencil.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: the right-hand side does not read an array; a stencil update is a sum of coefficients times reads of one input array
    b[i] = 2.0 * 3.0;
}
