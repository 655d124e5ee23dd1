// Rows reached through a pointer to pointers are not one dense array.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, double **a, double **b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:7: error: 'b' has type 'double **': a stencil needs a dense array (a C array, a VLA or a pointer to an array such as 'double (*b)[N]'), not a pointer to pointers
      b[i][j] = 0.5 * (a[i][j - 1] + a[i][j + 1]);
}
