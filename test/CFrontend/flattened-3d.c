// A 3D nest over one flat array, indexed '(k*ny + i)*nx + j' or, the same
// sum written out, 'k*ny*nx + i*nx + j': ny and nx are what the loops over i
// and j run to. An offset along k is a multiple of ny*nx, along i of nx.
// test/GPU/cfront-flattened-lap3d-fp64-periodic.stencil is this translation.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void flat_lap3d(int nz, int ny, int nx, const double *u, double *v) {
#pragma stencil boundary(periodic)
  for (int k = 0; k < nz; ++k)
    for (int i = 0; i < ny; ++i)
      for (int j = 0; j < nx; ++j)
        v[(k * ny + i) * nx + j] =
            0.4 * u[k * ny * nx + i * nx + j] +
            0.1 * (u[((k - 1) * ny + i) * nx + j] + u[k * ny * nx + i * nx + j + ny * nx] +
                   u[(k * ny + i - 1) * nx + j] + u[(k * ny + i + 1) * nx + j] +
                   u[(k * ny + i) * nx + j - 1] + u[(k * ny + i) * nx + j + 1]);
}

// CHECK:      stencil flat_lap3d {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary periodic;
// CHECK-NEXT:   out[k, i, j] = 0.1 * in[k-1, i, j]
// CHECK-NEXT:                + 0.1 * in[k, i-1, j]
// CHECK-NEXT:                + 0.1 * in[k, i, j-1]
// CHECK-NEXT:                + 0.4 * in[k, i, j]
// CHECK-NEXT:                + 0.1 * in[k, i, j+1]
// CHECK-NEXT:                + 0.1 * in[k, i+1, j]
// CHECK-NEXT:                + 0.1 * in[k+1, i, j];
// CHECK-NEXT: }
