// `stencilc-fuzz-diff check` runs the nest in C and stencilc's translation
// through the float64 reference on the same inputs: they agree here.
// REQUIRES: cfront
// RUN: %fuzz_diff check %s | FileCheck %s
// CHECK: f23: agrees
// Written by stencilc-fuzz-diff: loop nests marked '#pragma stencil' and a
// harness that runs each on inputs of short binary fractions, dumping them.
#include <stdio.h>
#include <stdlib.h>
static unsigned long long fz_state;
static double fz_next(void) {
  fz_state = fz_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)((long long)((fz_state >> 33) % 513u) - 256) / 256.0;
}
static void *fz_array_d(FILE *dump, const char *name, int n, unsigned long long seed) {
  double *a = malloc(sizeof *a * (n > 0 ? n : 1));
  fz_state = seed;
  fprintf(dump, "array %s %d", name, n);
  for (int i = 0; i < n; ++i) { a[i] = fz_next(); fprintf(dump, " %a", a[i]); }
  fputc('\n', dump);
  return a;
}
static void *fz_array_f(FILE *dump, const char *name, int n, unsigned long long seed) {
  float *a = malloc(sizeof *a * (n > 0 ? n : 1));
  fz_state = seed;
  fprintf(dump, "array %s %d", name, n);
  for (int i = 0; i < n; ++i) { a[i] = (float)fz_next(); fprintf(dump, " %a", (double)a[i]); }
  fputc('\n', dump);
  return a;
}
static void fz_after_d(FILE *dump, const void *p, int n) {
  const double *a = p;
  fprintf(dump, "after %d", n);
  for (int i = 0; i < n; ++i) fprintf(dump, " %a", a[i]);
  fputs("\nend\n", dump);
}
static void fz_after_f(FILE *dump, const void *p, int n) {
  const float *a = p;
  fprintf(dump, "after %d", n);
  for (int i = 0; i < n; ++i) fprintf(dump, " %a", (double)a[i]);
  fputs("\nend\n", dump);
}

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
  void *a0 = fz_array_f(dump, "out", 90, 300ULL);
  void *a1 = fz_array_f(dump, "c2", 90, 301ULL);
  f23(9, 10, a1, a0);
  fz_after_f(dump, a0, 90);
  free(a0);
  free(a1);
}
int main(void) {
  run_f23(stdout);
  return 0;
}
