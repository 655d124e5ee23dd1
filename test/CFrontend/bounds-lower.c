// With boundary fixed the loops start at the radius: the ring is read, never written.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double a[n][n], double b[n][n]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:16: error: the loop over 'i' starts at '0', but a fixed boundary of radius 1 needs it to start at 1
  for (int i = 0; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:25: note: the stencil's radius is 1, from this read
      b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}
