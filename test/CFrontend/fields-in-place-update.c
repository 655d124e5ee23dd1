// An update that reads the array it writes stays refused when it reads
// other arrays too.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, double *u, const double *k) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:20: error: the update reads 'u', the array it writes; a stencil writes a different array from the one it reads
    u[i] = k[i] * (u[i - 1] + u[i + 1]);
}
