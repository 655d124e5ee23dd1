// heat2d.c: one explicit step of the 2D heat equation as a plain C loop nest,
// the same stencil as examples/heat2d/heat2d.stencil. The file is an ordinary
// C program (its main runs the CPU version); stencilc compiles the marked nest
// to a CUDA kernel:
//
//   stencilc examples/c/heat2d.c -o heat2d.cu      # heat2d.cu + heat2d.h
//   stencilc examples/c/heat2d.c --emit=stencil    # the equivalent .stencil
//
// The pragma names the stencil heat2d, so the generated heat2d_step() does on
// the GPU what the C function heat2d_step() does here: the ring of width 1 is
// held fixed and every interior point is updated. (GCC's -Wall warns about a
// pragma it does not know; add -Wno-unknown-pragmas.)
#include <stdio.h>
#include <stdlib.h>

/// alpha * dt / h^2: below 1/4, so the explicit scheme is stable.
static const double c = 0.2;

void heat2d_step(int ny, int nx, const double in[ny][nx], double out[ny][nx]) {
#pragma stencil name(heat2d)
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      out[i][j] = (1 - 4 * c) * in[i][j]
                + c * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}

int main(void) {
  enum { N = 64, STEPS = 100 };
  static double a[N][N], b[N][N];
  a[N / 2][N / 2] = 1.0; // a hot spot on a cold plate
  for (int step = 0; step < STEPS; ++step) {
    heat2d_step(N, N, (const double(*)[N])a, b);
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j)
        a[i][j] = b[i][j];
  }
  double total = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      total += a[i][j];
  printf("heat left on the plate after %d steps: %.6f\n", STEPS, total);
  return EXIT_SUCCESS;
}
