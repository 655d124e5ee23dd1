// Comments, blank lines and other directives (an OpenMP pragma) may stand
// between `#pragma stencil` and its loop.
// RUN: %stencilc %s --emit=spec | FileCheck %s
// RUN: %stencilc %s --emit=spec -- -fopenmp | FileCheck %s

void f(int n, const double *a, double *b) {
#pragma stencil name(parallel_smooth)
  // The loop is parallel: each point is independent.
#pragma omp parallel for

  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

// CHECK: stencil parallel_smooth
// CHECK: points    2
