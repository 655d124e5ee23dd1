// --emit=stencil prints the translation: one stencil per nest, the C loop
// variables as indices, each coefficient as the shortest decimal that reads
// back as exactly the double the C code multiplies by.
// RUN: %stencilc %s --emit=stencil | FileCheck %s
// The translation is a valid .stencil file of its own.
// RUN: %stencilc %s --emit=stencil > %t.stencil
// RUN: %stencilc %t.stencil --emit=spec | FileCheck %s --check-prefix=SPEC

#define THIRD (1.0 / 3)

void blur(int n, int m, const double a[n][m], double b[n][m]) {
#pragma stencil
  for (int row = 1; row < n - 1; ++row)
    for (int col = 1; col < m - 1; ++col)
      b[row][col] = THIRD * (a[row][col - 1] + a[row][col] + a[row][col + 1])
                  - 0.25 * a[row + 1][col];
}

// CHECK:      // Translated by stencilc-cfront from {{.*}}emit-stencil.c: one stencil per '#pragma stencil' loop nest.
// CHECK-EMPTY:
// CHECK-NEXT: // {{.*}}emit-stencil.c:13: the loop nest in blur() writing 'b' from 'a'
// CHECK-NEXT: stencil blur {
// CHECK-NEXT:   precision fp64;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   out[row, col] = 0.3333333333333333 * in[row, col-1]
// CHECK-NEXT:                 + 0.3333333333333333 * in[row, col]
// CHECK-NEXT:                 + 0.3333333333333333 * in[row, col+1]
// CHECK-NEXT:                 - 0.25 * in[row+1, col];
// CHECK-NEXT: }

// SPEC:      stencil blur
// SPEC:        shape     star
// SPEC:        coefficient (0, -1) = 0.3333333333333333
// SPEC:        coefficient (1, 0) = -0.25
