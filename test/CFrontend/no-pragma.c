// A C file with no marked loop nest has nothing to compile.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

// CHECK: error: {{.*}}no-pragma.c has no loop nest marked '#pragma stencil'
void f(int n, const double *a, double *b) {
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
