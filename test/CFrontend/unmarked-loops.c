// Loops without the pragma are left alone, whatever they do; only the marked
// nest becomes a stencil.
// RUN: %stencilc %s --emit=spec | FileCheck %s --implicit-check-not=stencil

double norm(int n, const double *a) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i];
  return s;
}

void f(int n, const double *a, double *b) {
  for (int i = 0; i < n; ++i)
    b[i] = a[i] * a[i];
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

// CHECK: stencil f
