// Parameters of distinct names are taken as distinct arrays (the generated
// API checks them at run time), but not a parameter the function changes:
// `b = a + 1` makes the nest an in-place update.
// RUN: not %stencilc %s --emit=stencil 2>&1 | FileCheck %s

void shifted(int n, double *a, double *b) {
  b = a + 1;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: the parameter 'b' is changed in the function ('b = a + 1'), so it may alias the other array of the update
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
  // CHECK: :7:3: note: 'b' is changed here
}

void incremented(int n, double *a, double *b) {
  ++a;
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:19: error: the parameter 'a' is changed in the function ('++a')
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
