// The heat step of docs/language.md and a 3x3 box in fp16 as C loop nests
// (same-spec-as-dsl.test: Inputs/heat.stencil holds the same two stencils).
#define N 256

void heat2d(const double in[N][N], double out[N][N]) {
#pragma stencil
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      out[i][j] = 0.5 * in[i][j]
                + 0.125 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}

void smooth(int n, const float in[n][n], float out[n][n]) {
#pragma stencil name(smooth9) precision(fp16) boundary(constant(0))
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      out[i][j] = 0.0625f * (in[i - 1][j - 1] + in[i - 1][j + 1] + in[i + 1][j - 1] + in[i + 1][j + 1])
                + 0.125f * (in[i - 1][j] + in[i][j - 1] + in[i][j + 1] + in[i + 1][j])
                + 0.25f * in[i][j];
}
