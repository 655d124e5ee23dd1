// A clause's parenthesis must close on the pragma line.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:31: error: expected ')' in '#pragma stencil', found the end of the line
#pragma stencil precision(fp64
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
