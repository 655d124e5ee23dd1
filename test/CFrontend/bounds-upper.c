// With boundary fixed the loops stop the radius short of the end.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:24: error: the loop over 'i' ends at 'i <= n - 2', but a fixed boundary of radius 2 needs 'i <= n - 3'
  for (int i = 2; i <= n - 2; ++i)
    // CHECK: [[@LINE+1]]:20: note: the stencil's radius is 2, from this read
    b[i] = 0.25 * (a[i - 2] + a[i - 1] + a[i + 1] + a[i + 2]);
}
