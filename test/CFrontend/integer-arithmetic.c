// Integer constant arithmetic is C's: 1 / 2 is 0, so that term drops out and
// does not widen the radius; (double)1 / 2 is 0.5. Reads of one point add up.
// RUN: %stencilc %s --emit=spec | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 1 / 2 * a[i + 2] + (double)1 / 2 * a[i - 1] + a[i] + a[i] + 3 / 2 * a[i + 1];
}

// CHECK:      stencil f
// CHECK-NEXT:   dims      1
// CHECK-NEXT:   radius    1
// CHECK:        points    3
// CHECK-NEXT:   coefficient (-1) = 0.5
// CHECK-NEXT:   coefficient (0) = 2
// CHECK-NEXT:   coefficient (1) = 1
