// A finding of stencilc-fuzz-diff (batch seed 1000000), minimised: stencilc accepts
// this loop nest, but its translation computes something else than the C program:
// at (2, 1, 1) of a 6x4x4 grid, C gives -0.328125 (-0x1.5p-2), the translation's reference 0.5625 (0x1.2p-1)
// Class 'bounds' of issue 38 (finding 2), fixed: a constant end on an axis whose
// extent no array type names is refused (LoopBounds.cpp, checkLoopEnd).
// RUN: %fuzz_diff check %s
// Written by stencilc-fuzz-diff: loop nests marked '#pragma stencil' and a
// harness that runs each on inputs of short binary fractions, dumping them.
#include <stencilc_fuzz_harness.h>

// nest f1
void f1(int ny, int nx, const float *a, float *b) {
#pragma stencil name(f1)
  for (int i = 1; i < 2; ++i)
    for (int j = 1; j <= ny - 2; ++j)
      for (int k = 1; k < nx - 1; ++k)
        b[(i * ny + j) * nx + k] = a[(i * ny + j) * nx + k + 1];
}

// harness
static void run_f1(FILE *dump) {
  fprintf(dump, "nest f1 3 6 4 4 b\n");
  void *a0 = fz_array_f(dump, "b", 96, 1000000ULL), *a1 = fz_array_f(dump, "a", 96, 1000001ULL);
  f1(4, 4, a1, a0);
  fz_after_f(dump, a0, 96);
}
int main(void) {
  run_f1(stdout);
  return 0;
}
