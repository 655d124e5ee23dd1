// Two nests cannot take the same explicit name.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil name(smooth)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
// CHECK: [[@LINE+1]]:22: error: redefinition of stencil 'smooth'
#pragma stencil name(smooth)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
  // CHECK: [[@LINE-7]]:22: note: 'smooth' is first named here
}
