// Coefficients from const variables (global and local, one defined from
// another) and enumerators fold as the C program computes them: in double,
// so 0.1 + 0.2 is 0.30000000000000004 (a .stencil file would fold it exactly).
// RUN: %stencilc %s --emit=spec | FileCheck %s

enum { SCALE = 8 };
static const double dt = 0.1;
static const double nu = dt * 0.2 / (0.1 * 0.1);

void diffuse(int n, const double *u, double *v) {
  const double side = nu / SCALE;
  const double drift = 0.1 + 0.2;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    v[i] = side * u[i - 1] + (1 - 2 * side) * u[i] + drift * u[i + 1];
}

// CHECK:      stencil diffuse
// CHECK:        coefficient (-1) = 0.25
// CHECK-NEXT:   coefficient (0) = 0.5
// CHECK-NEXT:   coefficient (1) = 0.30000000000000004
