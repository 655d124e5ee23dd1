// acoustic3d.c: the 3D acoustic wave equation with a variable velocity, a
// fourth-order Laplacian (radius 2), point sources and receivers, as a C
// time loop: the whole loop is what the generated acoustic3d_run does
// (docs/c-frontend.md, "Time loops").
//
//   u_next = 2 u - u_prev + vdt2 * Laplacian(u),  then u_next += amp[t][k] at source k
//
// vdt2 is (v dt / h)^2 at every point (the velocity varies in space).
// Source k sits at (sz[k], sy[k], sx[k]) and adds amp[t][k] during step t:
// a Ricker wavelet, say, amp[t][k] = (1 - 2 a) exp(-a) with
// a = (pi f (t dt - t0))^2, in the field's type (float), as acoustic3d_run
// adds it. fp32 in 3D runs on CUDA cores (the simt backend).
//
//   stencilc examples/c/acoustic3d.c --emit=stencil
//   stencilc examples/c/acoustic3d.c -o acoustic3d.cu
//
// acoustic3d_run(u, u_prev, vdt2, scratch, nz, ny, nx, sources, nsrc,
// amplitudes, receivers, nrec, rec, steps, stream) takes the points as
// (z, y, x) triples: sources[3k] = sz[k], sources[3k + 1] = sy[k],
// sources[3k + 2] = sx[k] (receivers likewise from rz, ry, rx), and the
// amplitudes as doubles, amplitudes[t * nsrc + k] = amp[t][k].

// The weights of the fourth-order second derivative, per axis.
#define W0 (-5.0f / 2.0f)
#define W1 (4.0f / 3.0f)
#define W2 (-1.0f / 12.0f)

void acoustic3d(int steps, int nz, int ny, int nx, float u[nz][ny][nx],
                float u_prev[nz][ny][nx], float u_next[nz][ny][nx],
                const float vdt2[nz][ny][nx], int nsrc, const int *sz, const int *sy,
                const int *sx, const float amp[steps][nsrc], int nrec, const int *rz,
                const int *ry, const int *rx, float rec[steps][nrec]) {
#pragma stencil name(acoustic3d)
  for (int t = 0; t < steps; ++t) {
    for (int z = 2; z < nz - 2; ++z)
      for (int y = 2; y < ny - 2; ++y)
        for (int x = 2; x < nx - 2; ++x)
          u_next[z][y][x] =
              2 * u[z][y][x] - u_prev[z][y][x] +
              vdt2[z][y][x] *
                  (3 * W0 * u[z][y][x] +
                   W1 * (u[z - 1][y][x] + u[z + 1][y][x] + u[z][y - 1][x] + u[z][y + 1][x] +
                         u[z][y][x - 1] + u[z][y][x + 1]) +
                   W2 * (u[z - 2][y][x] + u[z + 2][y][x] + u[z][y - 2][x] + u[z][y + 2][x] +
                         u[z][y][x - 2] + u[z][y][x + 2]));
    for (int k = 0; k < nsrc; ++k)
      u_next[sz[k]][sy[k]][sx[k]] += amp[t][k];
    for (int k = 0; k < nrec; ++k)
      rec[t][k] = u_next[rz[k]][ry[k]][rx[k]];
    float (*tmp)[ny][nx] = u_prev;
    u_prev = u;
    u = u_next;
    u_next = tmp;
  }
}
