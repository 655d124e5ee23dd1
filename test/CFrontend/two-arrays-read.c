// A stencil reads one input array; the note points at the first one.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, const double *c, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+3]]:23: error: the update reads two arrays, 'a' and 'c'; a stencil reads one input array
    // CHECK: [[@LINE+2]]:12: note: 'a' is read here
    // CHECK-NOT: error:
    b[i] = a[i - 1] + c[i + 1];
}
