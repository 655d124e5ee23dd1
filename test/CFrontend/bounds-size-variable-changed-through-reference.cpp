// A VLA's size variable bound to a non-const reference (kept in a variable,
// or passed after the array is declared) may change through it, as by an
// assignment, so the array's extent is no longer provably what the loop
// runs to (C++ has VLAs as a Clang extension).
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void grow(int &n);
void look(const int &n);

void local(int n) {
  double a[n], b[n];
  // CHECK-DAG: [[@LINE+1]]:12: note: changed here
  int &r = n;
  r = n / 2;
#pragma stencil
  // CHECK-DAG: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < n - 1', but the extent 'n' of 'b' along this axis cannot be proven to be what the loop runs to: 'n' is bound to a non-const reference, through which it may change after 'b' is declared with it
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void call(int n) {
  double a[n], b[n];
  look(n); // a const reference cannot change it
  // CHECK-DAG: [[@LINE+1]]:8: note: changed here
  grow(n);
#pragma stencil
  // CHECK-DAG: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < n - 1', but the extent 'n' of 'b' along this axis cannot be proven to be what the loop runs to: 'n' is bound to a non-const reference, through which it may change after 'b' is declared with it
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
