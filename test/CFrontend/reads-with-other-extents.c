// The generated kernel indexes every array of a nest with one set of
// extents, the nest's, so every array read, input or coefficient field,
// must have the extents of the array written wherever its type names them:
// read with the rows of 'out', an 'in' of longer rows would be read wrong.
// Constants must be equal, sizes the same expression of the same variables.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void constant(const double in[512][520], double out[512][512]) {
#pragma stencil
  for (int i = 1; i < 511; ++i)
    for (int j = 1; j < 511; ++j)
      // CHECK: [[@LINE+1]]:19: error: 'in' has extent '520' along the axis of 'j', but 'out', the array written, has '512': the generated kernel indexes every array with the same extents
      out[i][j] = in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1];
}
// CHECK: note: 'in' is declared here

void vla3d(int nz, int ny, int nx, const float in[nz][ny + 1][nx], float out[nz][ny][nx]) {
#pragma stencil
  for (int k = 1; k < nz - 1; ++k)
    for (int i = 1; i < ny - 1; ++i)
      for (int j = 1; j < nx - 1; ++j)
        // CHECK: [[@LINE+1]]:32: error: 'in' has extent 'ny + 1' along the axis of 'i', but 'out', the array written, has 'ny'
        out[k][i][j] = 0.5f * (in[k - 1][i][j] + in[k + 1][i][j]);
}

void pointerToArray(int ny, int nx, const double (*in)[512], double (*out)[nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      // CHECK: [[@LINE+1]]:26: error: 'in' has extent '512' along the axis of 'j', but 'out', the array written, has 'nx'
      out[i][j] = 0.5 * (in[i - 1][j] + in[i + 1][j]);
}

void coefficientField(int ny, int nx, const double u[ny][nx], const double k[ny][nx + 2],
                      double out[ny][nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      // CHECK: [[@LINE+1]]:29: error: 'k' has extent 'nx + 2' along the axis of 'j'
      out[i][j] = u[i][j] + k[i][j] * (u[i - 1][j] + u[i + 1][j] - 2 * u[i][j]);
}

void outerAxis(int ny, int nx, const double in[ny + 2][nx], double out[ny][nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      // CHECK: [[@LINE+1]]:26: error: 'in' has extent 'ny + 2' along the axis of 'i'
      out[i][j] = 0.5 * (in[i - 1][j] + in[i + 1][j]);
}

// Where the array written declares no extent, the loop bound names it.
void boundNamesTheExtent(int n, const double a[100], double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:19: error: 'a' has extent '100' along the axis of 'i', but the loop over 'i' runs over 'n' points ('b' does not declare its extent)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

// The same extents, however they are spelt, are fine; so is a pointer that
// leaves its outer extent to the caller.
void same(int ny, int nx, const double (*in)[nx], const double c[ny][0 + nx],
          double out[ny][nx]) {
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      out[i][j] = c[i][j] * (in[i - 1][j] + in[i + 1][j]);
}
