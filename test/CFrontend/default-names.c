// Unnamed nests take their function's name, made unique with _2, _3; an
// explicit name wins its name, and a function named like a .stencil keyword
// gets a suffix.
// RUN: %stencilc %s --emit=spec | FileCheck %s

void step(int n, double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    a[i] = 0.5 * (b[i - 1] + b[i + 1]);
}

void radius(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void other(int n, const double *a, double *b) {
#pragma stencil name(step)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

// CHECK: stencil step_2
// CHECK: stencil step_3
// CHECK: stencil radius_stencil
// CHECK: stencil step{{$}}
