// A 'swap' of the program's own is no rotation step, whatever it does:
// stencilc knows the effect of std::swap only.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

namespace grid {
void swap(double *&a, double *&b);
} // namespace grid

void heat(int steps, int n, double *u, double *unew) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < n - 1; ++i)
      unew[i] = 0.5 * (u[i - 1] + u[i + 1]);
    // CHECK: [[@LINE+1]]:5: error: this 'swap' is 'grid::swap', not std::swap: a rotation exchanges pointers with 'std::swap(u, unew)' (or 'swap' after 'using std::swap;'), whose effect stencilc knows
    grid::swap(u, unew);
    // CHECK: time-loop-swap-user-defined.cpp:8:6: note: 'grid::swap' is declared here
  }
}
