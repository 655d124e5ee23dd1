// An update that reads two arrays is a stencil of two input fields, named
// after the arrays and declared in the order of their first reads, left to
// right (here 'v' before 'u', though the function takes 'u' first).
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void f(int n, const double *u, const double *v, double *w) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    w[i] = 0.25 * v[i] + 0.5 * u[i - 1] + 0.25 * v[i + 1];
}

// CHECK:      writing 'w' from 'v', 'u'
// CHECK-NEXT: stencil f {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field v;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   out[i] = 0.25 * v[i]
// CHECK-NEXT:          + 0.25 * v[i+1]
// CHECK-NEXT:          + 0.5 * u[i-1];
// CHECK-NEXT: }
