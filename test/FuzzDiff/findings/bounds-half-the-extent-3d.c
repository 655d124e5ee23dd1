// A finding of stencilc-fuzz-diff (batch seed 1000000), minimised: stencilc accepts
// this loop nest, but its translation computes something else than the C program:
// at (2, 2, 2) of a 7x5x6 grid, C gives 0.765625 (0x1.88p-1), the translation's reference 0.6484375 (0x1.4cp-1)
// Class 'bounds' of issue 38 (finding 2: a loop does not run over the interior), open.
// XFAIL: *
// RUN: %fuzz_diff check %s
// Written by stencilc-fuzz-diff: loop nests marked '#pragma stencil' and a
// harness that runs each on inputs of short binary fractions, dumping them.
#include <stencilc_fuzz_harness.h>

// nest f41
void f41(int nz, int ny, int nx, const float (*in)[ny][nx], float (*dst)[ny][nx]) {
#pragma stencil name(f41)
  for (int i = 2; i < nz - 2; ++i)
    for (int j = 2; j < ny / 2 - 2; ++j)
      for (int k = 2; k < nx - 2; ++k)
        dst[i][j][k] = in[i][j + 2][k];
}

// harness
static void run_f41(FILE *dump) {
  fprintf(dump, "nest f41 3 7 5 6 dst\n");
  void *a0 = fz_array_f(dump, "dst", 210, 1000000ULL), *a1 = fz_array_f(dump, "in", 210, 1000001ULL);
  f41(7, 5, 6, a1, a0);
  fz_after_f(dump, a0, 210);
}
int main(void) {
  run_f41(stdout);
  return 0;
}
