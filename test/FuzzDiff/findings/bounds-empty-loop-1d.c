// A finding of stencilc-fuzz-diff (batch seed 1), minimised: stencilc accepts
// this loop nest, but its translation computes something else than the C program:
// at (2, 0, 0) of a 8x1x1 grid, C gives -0.21484375 (-0x1.b8p-3), the translation's reference -0.0078125 (-0x1p-7)
// Class 'bounds' of issue 38 (finding 2: a loop does not run over the interior), open.
// XFAIL: *
// RUN: %fuzz_diff check %s
// Written by stencilc-fuzz-diff: loop nests marked '#pragma stencil' and a
// harness that runs each on inputs of short binary fractions, dumping them.
#include <stencilc_fuzz_harness.h>

// nest f35
void f35(int n, const double u[n], double dst[n]) {
#pragma stencil name(f35)
  for (int i = 2; i < 2; ++i)
    dst[i] = u[i + 2];
}

// harness
static void run_f35(FILE *dump) {
  fprintf(dump, "nest f35 1 8 1 1 dst\n");
  void *a0 = fz_array_d(dump, "dst", 8, 1ULL), *a1 = fz_array_d(dump, "u", 8, 2ULL);
  f35(8, a1, a0);
  fz_after_d(dump, a0, 8);
}
int main(void) {
  run_f35(stdout);
  return 0;
}
