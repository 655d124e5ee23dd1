// A std::vector of std::vectors is no dense array: its rows are separate
// allocations. It is refused at the array, as a pointer to pointers is.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

#include "Inputs/mini-vector.h"

void f(int n, const std::vector<std::vector<double>> &a, std::vector<std::vector<double>> &b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      // CHECK: [[@LINE+1]]:7: error: 'b' has type 'std::vector<std::vector<double>{{ ?}}> &': a stencil needs a dense array
      b[i][j] = 0.5 * (a[i - 1][j] + a[i + 1][j]);
}
