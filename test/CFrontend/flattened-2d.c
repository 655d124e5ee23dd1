// A 2D nest over one flat array of nx elements a row, indexed 'i*nx + j',
// is translated like 'a[i][j]': the row size nx is what the loop over j runs
// to, so the stride is proven to be the row length. The reads are the
// write's index plus an offset per axis: '(i-1)*nx + j', 'i*nx + j+1'.
// test/GPU/cfront-flattened-heat2d-fp32-fixed.stencil is this translation.
// RUN: %stencilc %s --emit=stencil | FileCheck %s
// RUN: %stencilc %s -o %t.cu

void flat_heat2d(int ny, int nx, const float *in, float *out) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      out[i * nx + j] = 0.5f * in[i * nx + j] +
                        0.125f * (in[(i - 1) * nx + j] + in[(i + 1) * nx + j] +
                                  in[i * nx + j - 1] + in[i * nx + (j + 1)]);
}

// CHECK:      stencil flat_heat2d {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   out[i, j] = 0.125 * in[i-1, j]
// CHECK-NEXT:             + 0.125 * in[i, j-1]
// CHECK-NEXT:             + 0.5 * in[i, j]
// CHECK-NEXT:             + 0.125 * in[i, j+1]
// CHECK-NEXT:             + 0.125 * in[i+1, j];
// CHECK-NEXT: }
