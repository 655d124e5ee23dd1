// The acoustic wave equation as a C time loop, with a per-step source
// amplitude, three time levels and receivers (time-loop-same-spec-as-dsl.test).
void wave(int steps, int ny, int nx, float u[ny][nx], float u_prev[ny][nx], float u_next[ny][nx],
          const float src[ny][nx], const float c2[ny][nx], const float *amp, float dt, int nrec,
          const int *ry, const int *rx, float rec[steps][nrec]) {
#pragma stencil
  for (int t = 0; t < steps; ++t) {
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        u_next[i][j] = 2 * u[i][j] - u_prev[i][j] + amp[t] * src[i][j]
                     + dt * dt * c2[i][j] * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1] - 4 * u[i][j]);
    for (int k = 0; k < nrec; ++k)
      rec[t][k] = u_next[ry[k]][rx[k]];
    float (*tmp)[nx] = u_prev;
    u_prev = u;
    u = u_next;
    u_next = tmp;
  }
}
