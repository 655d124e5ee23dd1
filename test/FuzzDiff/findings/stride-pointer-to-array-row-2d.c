// A finding of stencilc-fuzz-diff (batch seed 1), minimised: stencilc accepts
// this loop nest, but its translation computes something else than the C program:
// at (3, 2, 0) of a 10x6x1 grid, C gives 0.44921875 (0x1.ccp-2), the translation's reference -0.33203125 (-0x1.54p-2)
// Class 'stride' of issue 38 (finding 1: a read array's row length differs from the written one's), open.
// XFAIL: *
// RUN: %fuzz_diff check %s
// Written by stencilc-fuzz-diff: loop nests marked '#pragma stencil' and a
// harness that runs each on inputs of short binary fractions, dumping them.
#include <stencilc_fuzz_harness.h>

// nest f1
void f1(int ny, int nx, int mw_prev1, const double (*w_prev)[mw_prev1], double b[10][nx]) {
#pragma stencil name(f1)
  for (int i = 2; i < ny - 2; ++i)
    for (int j = 2; j < nx - 2; ++j)
      b[i][j] = w_prev[i - 2][j];
}

// harness
static void run_f1(FILE *dump) {
  fprintf(dump, "nest f1 2 10 6 1 b\n");
  void *a0 = fz_array_d(dump, "b", 60, 1ULL), *a1 = fz_array_d(dump, "w_prev", 70, 2ULL);
  f1(10, 6, 7, a1, a0);
  fz_after_d(dump, a0, 60);
}
int main(void) {
  run_f1(stdout);
  return 0;
}
