// With boundary periodic (or constant) every point is updated: the loops cover the grid.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil boundary(periodic)
  // CHECK: [[@LINE+1]]:16: error: the loop over 'i' starts at '1', but boundary periodic (every point is updated) needs it to start at 0
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
