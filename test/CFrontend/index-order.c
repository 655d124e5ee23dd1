// Reads index the array in the order of the write.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n], double b[n][n]) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:33: error: indices of 'a' must be in the order of the write to 'b': found 'j' where 'i' belongs
      b[i][j] = a[i][j - 1] + a[j][i];
}
