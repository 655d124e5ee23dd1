// `stencilc-fuzz-diff check` runs the nest in C and stencilc's translation
// through the float64 reference on the same inputs: they agree here.
// REQUIRES: cfront
// RUN: %fuzz_diff check %s | FileCheck %s
// CHECK: f23: agrees
// Written by stencilc-fuzz-diff: loop nests marked '#pragma stencil' and a
// harness that runs each on inputs of short binary fractions, dumping them.
#include <stencilc_fuzz_harness.h>

// nest f23
void f23(int ny, int nx, const float c2[9][10], float out[ny][nx]) {
#pragma stencil name(f23)
  for (int i = 2; i < ny - 2; ++i)
    for (int j = 2; j < nx - 2; ++j)
      out[i][j] = 0.5 * c2[i + 2][j] - c2[i][j - 1] + 0.25f * c2[i - 1][j + 2];
}

// harness
static void run_f23(FILE *dump) {
  fprintf(dump, "nest f23 2 9 10 1 out\n");
  void *a0 = fz_array_f(dump, "out", 90, 300ULL), *a1 = fz_array_f(dump, "c2", 90, 301ULL);
  f23(9, 10, a1, a0);
  fz_after_f(dump, a0, 90);
}
int main(void) {
  run_f23(stdout);
  return 0;
}
