// An element of a constant table is a coefficient only if its type is
// arithmetic; a complex table is an error at the read, reported once,
// whether the element is given or left zero by the initialiser.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

static const _Complex double t[2] = {1.0};

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+3]]:12: error: a coefficient must have an arithmetic type, not 'const _Complex double'
    // CHECK: [[@LINE+2]]:37: error: a coefficient must have an arithmetic type, not 'const _Complex double'
    // CHECK: 2 errors generated.
    b[i] = t[0] * a[i - 1] + a[i] * t[1];
}
