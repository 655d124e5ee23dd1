// Stencils work on floating-point arrays.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const int *a, int *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: the elements of 'b' are 'int'; a stencil works on floating-point arrays (float, double)
    b[i] = a[i - 1] + a[i + 1];
}
