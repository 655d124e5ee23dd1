// 'sizeof' of a variably modified type evaluates its sizes, so
// 'sizeof(int[n++])' in a loop condition increments n on every iteration,
// though Clang counts a 'sizeof' as free of side effects. Such bounds are
// refused like any other side effect in a loop's start or condition.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void condition(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:19: error: the condition of the loop over 'i' may have side effects ('i < (int)sizeof(int[n++]) - 1')
  for (int i = 1; i < (int)sizeof(int[n++]) - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void start(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:16: error: the start of the loop over 'i' may have side effects ('(int)sizeof(*(int (*)[n--])0) - 1')
  for (int i = (int)sizeof(*(int (*)[n--])0) - 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
