// Flags after `--` go to Clang: include paths and macro definitions.
// RUN: %stencilc %s --emit=spec -- -I%S/Inputs -DSIDE=0.25 | FileCheck %s
// RUN: not %stencilc %s --emit=spec 2>&1 | FileCheck %s --check-prefix=NOFLAGS

#include "coefficients.h"

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = CENTRE * a[i] + SIDE * (a[i - 1] + a[i + 1]);
}

// CHECK:      coefficient (-1) = 0.25
// CHECK-NEXT: coefficient (0) = 0.5
// CHECK-NEXT: coefficient (1) = 0.25
// NOFLAGS: compiler-flags.c:[[@LINE-11]]:10: fatal error: 'coefficients.h' file not found
