// Loop variables that the .stencil language reserves (`in`, `out`, `radius`,
// ...) are renamed in the translation to the first free of i, j, k, x, y, z.
// RUN: %stencilc %s --emit=stencil | FileCheck %s
// RUN: %stencilc %s --emit=spec | FileCheck %s --check-prefix=SPEC

void f(int n, const double a[n][n], double b[n][n]) {
  int in, radius;
#pragma stencil
  for (in = 1; in < n - 1; ++in)
    for (radius = 1; radius < n - 1; ++radius)
      b[in][radius] = 0.5 * (a[in - 1][radius] + a[in][radius + 1]);
}

// CHECK:      out[i, j] = 0.5 * in[i-1, j]
// CHECK-NEXT:           + 0.5 * in[i, j+1];
// SPEC: coefficient (-1, 0) = 0.5
// SPEC: coefficient (0, 1) = 0.5
