// A nest stencilc refuses is no finding: `check` names the refusal and
// exits 0.
// REQUIRES: cfront
// RUN: %fuzz_diff check %s | FileCheck %s
// CHECK: f7: refused by stencilc-cfront (the loop over 'i' starts at '0', but a fixed boundary of radius 1 needs it to start at 1)
#include <stencilc_fuzz_harness.h>

// nest f7
void f7(int n, const double u[n], double b[n]) {
#pragma stencil name(f7)
  for (int i = 0; i < n - 1; ++i)
    b[i] = 0.5 * u[i + 1];
}

// harness
static void run_f7(FILE *dump) {
  fprintf(dump, "nest f7 1 9 1 1 b\n");
  void *a0 = fz_array_d(dump, "b", 9, 7ULL), *a1 = fz_array_d(dump, "u", 9, 8ULL);
  f7(9, a1, a0);
  fz_after_d(dump, a0, 9);
}
int main(void) {
  run_f7(stdout);
  return 0;
}
