// A loop end that is not the extent gets a suggestion made of the extent
// the array's type names, not of what was written: for 'i < (char)(n - 1)'
// the fix is 'i < n - 1', not '(char)(n - 1) - 1'. Where the type names no
// extent, the message says what an end must look like instead.
// RUN: not %stencilc %s 2>&1 | FileCheck %s --implicit-check-not=error:

void declared(int n, const double a[n], double b[n]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < (char)(n - 1)', but a fixed boundary of radius 1 needs 'i < n - 1'
  for (int i = 1; i < (char)(n - 1); ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void sizeInTheType(int n, const double a[2 * n + 2], double b[2 * n + 2]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:24: error: the loop over 'i' ends at 'i <= 2 * n', but a fixed boundary of radius 2 needs 'i <= 2*n - 1'
  for (int i = 2; i <= 2 * n; ++i)
    b[i] = 0.5 * (a[i - 2] + a[i + 2]);
}

void undeclared(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < (char)(n - 1)', which does not name an extent: 'b' does not declare its extent along this axis, so the end must be that extent less the ring, written as integer variables and constants joined by '+', '-' and '*' (as in 'i < n - 1' for a fixed boundary of radius 1), without casts, divisions or calls
  for (int i = 1; i < (char)(n - 1); ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}
