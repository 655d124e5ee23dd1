// The loop forms accepted: `<`, `<=`, `!=`, the end on the left (`END > i`),
// and steps `++i`, `i++`, `i += 1`, `i = i + 1`.
// RUN: %stencilc %s --emit=spec | FileCheck %s

void forms(int n, const double a[n][n][n], double b[n][n][n]) {
#pragma stencil name(forms3d)
  for (int i = 1; n - 1 > i; i = i + 1)
    for (int j = 1; j <= n - 2; j += 1)
      for (int k = 1; k != n - 1; k++)
        b[i][j][k] = 0.5 * a[i][j][k] + 0.25 * (a[i - 1][j][k] + a[i][j + 1][k - 1]);
}

// CHECK:      stencil forms3d
// CHECK-NEXT:   dims      3
// CHECK-NEXT:   radius    1
// CHECK-NEXT:   shape     box
// CHECK:        coefficient (-1, 0, 0) = 0.25
// CHECK-NEXT:   coefficient (0, 0, 0) = 0.5
// CHECK-NEXT:   coefficient (0, 1, -1) = 0.25
