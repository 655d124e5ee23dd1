// The acoustic wave equation as a C loop nest (fields-same-spec-as-dsl.test).
void wave(int ny, int nx, const float u[ny][nx], const float u_prev[ny][nx],
          const float c2[ny][nx], float dt, float u_next[ny][nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      u_next[i][j] = 2 * u[i][j] - u_prev[i][j]
                   + dt * dt * c2[i][j] * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1] - 4 * u[i][j]);
}
