// The constant boundary value must fit a double (and an integer literal 64 bits).
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void f(int n, const double *a, double *b) {
// CHECK: [[@LINE+1]]:35: error: boundary value '1e999' is too large for a double
#pragma stencil boundary(constant(1e999))
  for (int i = 0; i < n; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
// CHECK: [[@LINE+1]]:35: error: boundary value '123456789012345678901234567890' is too large
#pragma stencil boundary(constant(123456789012345678901234567890))
  for (int i = 0; i < n; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
