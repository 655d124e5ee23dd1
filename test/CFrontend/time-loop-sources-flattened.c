// The amplitudes may be one flat array, 'amp[t * nsrc + k]' (or
// 'k + nsrc * t'): the layout of NAME_run's amplitudes. In 3D the sources'
// coordinates are 'sz[k]', 'sy[k]', 'sx[k]'.
// RUN: %stencilc %s --emit=stencil | FileCheck %s
// RUN: rm -rf %t && mkdir %t && %stencilc %s -o %t/heat.cu
// RUN: FileCheck %s --check-prefix=API --input-file=%t/heat.h

void heat(int steps, int nz, int ny, int nx, double u[nz][ny][nx], double unew[nz][ny][nx],
          int nsrc, const int *sz, const int *sy, const int *sx, const double *amp) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int z = 1; z < nz - 1; ++z)
      for (int y = 1; y < ny - 1; ++y)
        for (int x = 1; x < nx - 1; ++x)
          unew[z][y][x] = u[z][y][x] + 0.1 * (u[z - 1][y][x] + u[z + 1][y][x] + u[z][y - 1][x] +
                                              u[z][y + 1][x] + u[z][y][x - 1] + u[z][y][x + 1] -
                                              6 * u[z][y][x]);
    for (int k = 0; k < nsrc; k++)
      unew[sz[k]][sy[k]][sx[k]] += amp[k + nsrc * t];
    double (*tmp)[ny][nx] = u;
    u = unew;
    unew = tmp;
  }
}

// CHECK:      stencil heat {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   source in;
// CHECK-NEXT:   out[z, y, x] =

// API: cudaError_t heat_run(double* in, double* scratch, int nz, int ny, int nx, const int* sources, int source_count, const double* amplitudes, int steps, cudaStream_t stream);
