// The update is a plain assignment: '+=' would also read the output.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:10: error: the update must be a plain assignment 'B[i][j] = ...;': '+=' also reads the array it writes
    b[i] += 0.5 * (a[i - 1] + a[i + 1]);
}
