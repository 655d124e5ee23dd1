// A stencil reads neighbours, not only the point it writes.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: the update reads only the centre point of 'a'; a stencil reads neighbours
    b[i] = 0.5 * a[i];
}
