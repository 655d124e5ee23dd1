// A loop's start and condition must be expressions of the sizes: C
// evaluates the condition before each iteration, so a side effect there
// changes how many iterations run (for n = 10, `i < n-- - 1` updates 1..4),
// while the kernel takes the sizes once. Such loops are refused.
// RUN: not %stencilc %s --emit=stencil 2>&1 | FileCheck %s

int next(void);

void decrement(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:19: error: the condition of the loop over 'i' may have side effects ('i < n-- - 1')
  for (int i = 1; i < n-- - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void call(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:19: error: the condition of the loop over 'i' may have side effects ('i < next() - 1')
  for (int i = 1; i < next() - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void assignment(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:19: error: the condition of the loop over 'i' may have side effects ('i < (n = 5) - 1')
  for (int i = 1; i < (n = 5) - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void start(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:16: error: the start of the loop over 'i' may have side effects ('next()')
  for (int i = next(); i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
