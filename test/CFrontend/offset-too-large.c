// Offsets beyond the largest supported radius (32) are rejected.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

#define FAR 40
void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 40; i < n - 40; ++i)
    // CHECK: [[@LINE+1]]:25: error: offset 40 is larger than the largest supported radius, 32
    b[i] = a[i - 1] + a[i + FAR];
}
