// A Gauss-Seidel sweep (the update reads the array it writes) is one error
// and one note, however many terms read that array.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void gauss_seidel(int n, int m, double a[n][m]) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < m - 1; ++j)
      // CHECK: [[@LINE+2]]:25: error: the update reads 'a', the array it writes; a stencil writes a different array from the one it reads
      // CHECK: [[@LINE+1]]:7: note: 'a' is written here
      a[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}
// CHECK-NOT: error:
// CHECK-NOT: note:
