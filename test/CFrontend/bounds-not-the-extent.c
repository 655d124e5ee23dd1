// A loop must run to the extent the array's type names, less the ring: the
// kernel updates every row of that extent, so a loop that stops short of it
// would be translated as a full sweep. An end is accepted only where it is
// provably that extent (the same sum of products of the same variables);
// a constant-size array needs a constant end.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

#define HALF (nx / 2)

void half(int ny, int nx, const double in[ny][nx], double out[ny][nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    // CHECK: [[@LINE+1]]:25: error: the loop over 'j' ends at 'j < nx/2 - 1', but a fixed boundary of radius 1 needs 'j < nx - 1'
    for (int j = 1; j < nx/2 - 1; ++j)
      out[i][j] = 0.5 * (in[i][j - 1] + in[i][j + 1]);
}

void macro(int ny, int nx, const double in[ny][nx], double out[ny][nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    // CHECK: [[@LINE+1]]:25: error: the loop over 'j' ends at 'j < HALF - 1', but a fixed boundary of radius 1 needs 'j < nx - 1'
    for (int j = 1; j < HALF - 1; ++j)
      out[i][j] = 0.5 * (in[i][j - 1] + in[i][j + 1]);
}

void narrowingCast(long ny, long nx, const double in[ny][nx], double out[ny][nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    // CHECK: [[@LINE+1]]:25: error: the loop over 'j' ends at 'j < (short)(nx - 1)', but a fixed boundary of radius 1 needs 'j < nx - 1'
    for (int j = 1; j < (short)(nx - 1); ++j)
      out[i][j] = 0.5 * (in[i][j - 1] + in[i][j + 1]);
}

void otherVariable(int ny, int nx, int m, const double in[ny][nx], double out[ny][nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    // CHECK: [[@LINE+1]]:25: error: the loop over 'j' ends at 'j < m - 1', but a fixed boundary of radius 1 needs 'j < nx - 1'
    for (int j = 1; j < m - 1; ++j)
      out[i][j] = 0.5 * (in[i][j - 1] + in[i][j + 1]);
}

void reversedAndInclusive(int ny, int nx, const double in[ny][nx], double out[ny][nx]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:19: error: the loop over 'i' ends at 'ny/2 - 2 >= i', but a fixed boundary of radius 1 needs 'i <= ny - 2'
  for (int i = 1; ny/2 - 2 >= i; ++i)
    for (int j = 1; j < nx - 1; ++j)
      out[i][j] = 0.5 * (in[i - 1][j] + in[i + 1][j]);
}

void constantSizeNeedsConstantEnd(int n, const double in[512][512], double out[512][512]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < n - 1', but a fixed boundary of radius 1 needs 'i < 511'
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < 511; ++j)
      out[i][j] = 0.5 * (in[i - 1][j] + in[i + 1][j]);
}

void variableSizeNeedsItsVariable(int n, const double in[n][n], double out[n][n]) {
#pragma stencil
  // CHECK: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < 511', but a fixed boundary of radius 1 needs 'i < n - 1'
  for (int i = 1; i < 511; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i][j] = 0.5 * (in[i - 1][j] + in[i + 1][j]);
}

// Where the array written declares no extent, the end names it, and must
// be a sum of products of integer variables.
void undeclaredExtent(int n, const double *a, double *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < n/2 - 1', which does not name an extent: 'b' does not declare its extent along this axis
  for (int i = 1; i < n/2 - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

// Provably the extent: the same sum, in any order, with widening casts.
void provable(int ny, int nx, const double in[ny][nx], double out[ny][nx]) {
#pragma stencil
  for (unsigned long i = 1; -1 + ny > i; ++i)
    for (unsigned long j = 1; j <= (unsigned long)nx - 2 + 0 * ny; ++j)
      out[i][j] = 0.25 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}
