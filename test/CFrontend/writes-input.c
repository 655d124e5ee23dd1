// The array written cannot also be read: the output must be another array.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n, double *a) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+2]]:19: error: the update reads 'a', the array it writes; a stencil writes a different array from the one it reads
    // CHECK: [[@LINE+1]]:5: note: 'a' is written here
    a[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
