// A nest ends in the update; an empty body is not one.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

void f(int n) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
  // CHECK: [[@LINE+1]]:3: error: the loop body is empty; a '#pragma stencil' nest ends in one assignment 'B[i][j] = ...;'
  {}
}
