// An output or input that is a pointer declared in the function may point
// into the other array: the nest would be an in-place (Gauss-Seidel)
// update, not the separate-buffer one a kernel computes. It is refused,
// naming what the pointer was set from.
// RUN: not %stencilc %s --emit=stencil 2>&1 | FileCheck %s

void to_array_pointer(int n, double A[n][n]) {
  double (*B)[n] = A;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:7: error: 'B' is a pointer set from 'A', so it may alias the other array of the update
      B[i][j] = 0.25 * (A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
  // CHECK: :8:20: note: 'B' is set here
}

void plain_pointer(int n, double *a) {
  double *b = a + 1;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: 'b' is a pointer set from 'a + 1', so it may alias
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void input_alias(int n, double b[n]) {
  double *a;
  a = b;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:19: error: 'a' is a pointer that is not a parameter, so it may alias
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
