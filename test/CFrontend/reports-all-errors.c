// One run reports the errors of every nest, not only the first.
// RUN: not %stencilc %s 2>&1 | FileCheck %s
// The pragma's own error comes first: the preprocessor sees it while parsing.
// CHECK: [[@LINE+12]]:27: error: unknown precision 'fp7'

void f(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:21: error: a product of two reads of 'a' is not linear
    b[i] = a[i - 1] * a[i + 1];
#pragma stencil
  // CHECK: [[@LINE+1]]:16: error: the loop over 'i' starts at '0', but a fixed boundary of radius 1 needs it to start at 1
  for (int i = 0; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
  // CHECK: note: the stencil's radius is 1, from this read
#pragma stencil precision(fp7)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
// CHECK: 3 errors generated.
