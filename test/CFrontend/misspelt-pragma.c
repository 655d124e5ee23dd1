// A misspelt pragma is a warning (Clang's -Wunknown-pragmas, on in the C
// front end) with a note naming the spelling meant: its nest is not
// compiled, the others are.
// RUN: %stencilc %s --emit=spec 2>&1 | FileCheck %s
// Flags after `--` come last, so the user can turn the warning off.
// RUN: %stencilc %s --emit=spec -- -Wno-unknown-pragmas 2>&1 | FileCheck %s --check-prefix=QUIET

void f(int n, const double *a, double *b) {
  // CHECK: [[@LINE+2]]:9: warning: unknown pragma ignored [-Wunknown-pragmas]
  // CHECK: [[@LINE+1]]:9: note: did you mean '#pragma stencil'? The loop nest under an unknown pragma is not compiled
#pragma stencl
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
#pragma stencil name(kept)
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.25 * (a[i - 1] + a[i + 1]);
}

// CHECK: stencil kept
// QUIET-NOT: warning
// QUIET: stencil kept
