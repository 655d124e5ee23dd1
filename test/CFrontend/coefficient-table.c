// Coefficients may be elements of const arrays with constant initialisers,
// at constant indices; elements the initialiser leaves out are zero, and
// such a term drops out.
// RUN: %stencilc %s --emit=spec | FileCheck %s

static const double w[3][3] = {{0.05, 0.1, 0.05}, {0.1, 0.4, 0.1}, {0.05, 0.1}};

void box(int n, const double a[n][n], double b[n][n]) {
  const float extra[] = {0.25f, 0.5f};
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      b[i][j] = w[0][0] * a[i - 1][j - 1] + w[0][1] * a[i - 1][j] + w[0][2] * a[i - 1][j + 1]
              + w[1][0] * a[i][j - 1] + w[1][1] * a[i][j] + w[1][2] * a[i][j + 1]
              + w[2][0] * a[i + 1][j - 1] + w[2][1] * a[i + 1][j] + w[2][2] * a[i + 1][j + 1]
              + extra[1] * a[i][j];
}

// CHECK:      stencil box
// CHECK:        shape     box
// CHECK:        points    8
// CHECK:        coefficient (0, 0) = 0.9
// CHECK:        coefficient (1, 0) = 0.1
// CHECK-NOT:    coefficient (1, 1)
