// Loop variables are integers.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:15: error: the loop variable 'x' must have an integer type, not 'double'
  for (double x = 1; x < n - 1; ++x)
    b[(int)x] = a[(int)x];
}
