// An array or a parameter whose name the generated C API or the .stencil
// language takes ('in', 'a', 'time') gets a '_' appended in the translation.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void f(int n, const double *in, const double *a, double time, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = in[i - 1] + time * a[i] * in[i + 1];
}

// CHECK:      field in_;
// CHECK-NEXT: coefficient a_;
// CHECK-NEXT: param time_;
// CHECK-NEXT: out[i] = 1 * in_[i-1]
// CHECK-NEXT:        + time_ * a_[i] * in_[i+1];
