// _Float16 and __bf16 arrays default to fp16 and bf16; integer operators
// other than + - * / are fine between constants (3 % 2 is 1, 1 << 2 is 4).
// RUN: %stencilc %s --emit=spec | FileCheck %s

void h16(int n, const _Float16 *a, _Float16 *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = (_Float16)0.5f * (a[i - 1] + a[i + 1]) + (3 % 2) * a[i] + (1 << 2) * a[i];
}

void hb16(int n, const __bf16 *a, __bf16 *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = a[i - 1] + a[i + 1];
}

// CHECK:      stencil h16
// CHECK:        precision fp16
// CHECK:        coefficient (-1) = 0.5
// CHECK-NEXT:   coefficient (0) = 5
// CHECK-NEXT:   coefficient (1) = 0.5
// CHECK:      stencil hb16
// CHECK:        precision bf16
