// In 3D the receiver read takes three coordinate arrays, z, y, x: NAME_run
// takes (z, y, x) triples.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void wave(int steps, int nz, int ny, int nx, float u[nz][ny][nx], float uprev[nz][ny][nx],
          float unew[nz][ny][nx], const float c2[nz][ny][nx], int nrec, const int *rz,
          const int *ry, const int *rx, float (*rec)[nrec]) {
#pragma stencil name(wave3d)
  for (int t = 0; t < steps; ++t) {
    for (int z = 1; z < nz - 1; ++z)
      for (int y = 1; y < ny - 1; ++y)
        for (int x = 1; x < nx - 1; ++x)
          unew[z][y][x] = 2 * u[z][y][x] - uprev[z][y][x]
                        + c2[z][y][x] * (u[z - 1][y][x] + u[z + 1][y][x] + u[z][y - 1][x]
                                         + u[z][y + 1][x] + u[z][y][x - 1] + u[z][y][x + 1]
                                         - 6 * u[z][y][x]);
    for (int k = 0; k < nrec; ++k)
      rec[t][k] = unew[rz[k]][ry[k]][rx[k]];
    float (*tmp)[ny][nx] = uprev;
    uprev = u;
    u = unew;
    unew = tmp;
  }
}

// CHECK:      stencil wave3d {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   field uprev;
// CHECK-NEXT:   coefficient c2;
// CHECK-NEXT:   time uprev, u;
// CHECK-NEXT:   record u;
// CHECK-NEXT:   out[z, y, x] = 1 * c2[z, y, x] * u[z-1, y, x]
