// Under --Werror, a misspelt pragma fails the run (exit status 1) instead
// of silently leaving its nest uncompiled.
// RUN: %python %S/../expect-status.py 1 %stencilc %s --Werror -o %t.cu
// RUN: not %stencilc %s --Werror --emit=stencil 2>&1 | FileCheck %s
// RUN: not ls %t.cu

void f(int n, const double *a, double *b) {
  // CHECK: [[@LINE+2]]:9: error: unknown pragma ignored [-Werror,-Wunknown-pragmas]
  // CHECK: [[@LINE+1]]:9: note: did you mean '#pragma stencil'?
#pragma stencl
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
#pragma stencil name(kept)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.25 * (a[i - 1] + a[i + 1]);
}
