// The update writes the point the loops are at, not a neighbour.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:7: error: the update must write 'b' at the loop point: index 1 must be a loop variable, not 'i + 1'
    b[i + 1] = 0.5 * (a[i - 1] + a[i + 1]);
}
