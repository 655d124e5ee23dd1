// A factor that adds a constant or a parameter to a read of a coefficient
// array is linear: '(k[i] + 1.0) * u[i-1]' is 'k[i] * u[i-1] + u[i-1]'. It
// used to be refused with "this term does not read 'k'". A constant left
// beside the reads of the update is still an error, at that constant.
// RUN: %stencilc %s --emit=stencil -- -DLEFT=0 | FileCheck %s
// RUN: not %stencilc %s --emit=stencil -- -DLEFT=1 2>&1 | FileCheck %s --check-prefix=LEFT

void f(int n, const double *u, const double *k, double dt, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = (k[i] + 1.0) * u[i - 1] + u[i + 1] * (dt - k[i]) + (k[i] + 2.0 - k[i]) * u[i];
}

// CHECK:      coefficient k;
// CHECK-NEXT: field u;
// CHECK-NEXT: param dt;
// CHECK-NEXT: out[i] = 1 * u[i-1]
// CHECK-NEXT:        + 1 * k[i] * u[i-1]
// CHECK-NEXT:        + 2 * u[i]
// CHECK-NEXT:        + dt * u[i+1]
// CHECK-NEXT:        - 1 * k[i] * u[i+1];

#if LEFT
void g(int n, const double *u, const double *k, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // LEFT: [[@LINE+1]]:38: error: this term does not read an array; every term must be a coefficient times a read of an array
    b[i] = (k[i] + 1.0) * u[i - 1] + 1.0 + u[i + 1];
}
#endif
