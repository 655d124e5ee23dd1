// A finding of stencilc-fuzz-diff (batch seed 1000000), minimised: stencilc accepts
// this loop nest, but its translation computes something else than the C program:
// at (3, 3, 3) of a 10x9x8 grid, C gives 0.29296875 (0x1.2cp-2), the translation's reference -0.59765625 (-0x1.32p-1)
// Class 'stride' of issue 38 (finding 1: a read array's row length differs from the written one's), open.
// XFAIL: *
// RUN: %fuzz_diff check %s
// Written by stencilc-fuzz-diff: loop nests marked '#pragma stencil' and a
// harness that runs each on inputs of short binary fractions, dumping them.
#include <stencilc_fuzz_harness.h>

// nest f2
void f2(int nz, int ny, int nx, const float (*c2)[ny][nx], const float kd[10][9][7], float (*dst)[ny][8]) {
#pragma stencil name(f2)
  for (int i = 3; i < nz - 3; ++i)
    for (int j = 3; j < ny - 3; ++j)
      for (int k = 3; k <= nx - 4; ++k)
        dst[i][j][k] = c2[i][j + 3][k] - kd[i][j][k];
}

// harness
static void run_f2(FILE *dump) {
  fprintf(dump, "nest f2 3 10 9 8 dst\n");
  void *a0 = fz_array_f(dump, "dst", 720, 1000000ULL), *a1 = fz_array_f(dump, "c2", 720, 1000001ULL), *a2 = fz_array_f(dump, "kd", 630, 1000002ULL);
  f2(10, 9, 8, a1, a2, a0);
  fz_after_f(dump, a0, 720);
}
int main(void) {
  run_f2(stdout);
  return 0;
}
