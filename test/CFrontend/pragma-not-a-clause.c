// A clause starts with its name.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:17: error: expected a clause in '#pragma stencil' (name, precision or boundary), found '42'
#pragma stencil 42
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
