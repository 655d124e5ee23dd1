// Offsets are constant integers from literals, macros, const variables and
// enumerators; `c + i` works as well as `i + c`. A constant loop end on an
// array of constant size (`i < 126` for 128 points, radius 2) is accepted.
// RUN: %stencilc %s --emit=spec | FileCheck %s

#define TWO 2
enum { ONE = 1 };
static const int kOne = 1;

void f(const double a[128], double b[128]) {
#pragma stencil
  for (int i = 2; i < 126; ++i)
    b[i] = 0.25 * (a[i - TWO] + a[ONE + i] + a[i - kOne] + a[i + (TWO - kOne) * 2]);
}

// CHECK:      radius    2
// CHECK:      coefficient (-2) = 0.25
// CHECK-NEXT: coefficient (-1) = 0.25
// CHECK-NEXT: coefficient (1) = 0.25
// CHECK-NEXT: coefficient (2) = 0.25
