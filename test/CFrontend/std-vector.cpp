// std::vector<T> indexed with operator[] is a one-dimensional array: 1D as
// 'v[i]', 2D and 3D through a flattened index 'v[i*nx + j]'. The class is
// recognised by its name, std::vector, so this test includes a small one
// rather than depend on a standard library's header.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

#include "Inputs/mini-vector.h"

void blur(int ny, int nx, const std::vector<float> &in, std::vector<float> &out) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      out[i * nx + j] = 0.25f * (in[(i - 1) * nx + j] + in[(i + 1) * nx + j] +
                                 in[i * nx + j - 1] + in[i * nx + j + 1]);
}

void line(int n, const std::vector<double> &a, std::vector<double> &b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

// CHECK:      stencil blur {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   out[i, j] = 0.25 * in[i-1, j]
// CHECK-NEXT:             + 0.25 * in[i, j-1]
// CHECK-NEXT:             + 0.25 * in[i, j+1]
// CHECK-NEXT:             + 0.25 * in[i+1, j];
// CHECK:      stencil line {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   out[i] = 0.5 * in[i-1]
// CHECK-NEXT:          + 0.5 * in[i+1];
