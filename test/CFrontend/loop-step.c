// Loops count up by one.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:30: error: unsupported loop step: the loop must count up by one ('++i', 'i++' or 'i += 1')
  for (int i = 1; i < n - 1; i += 2)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
