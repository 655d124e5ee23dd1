// Diagnostics of the stages after the translation (here Sema's warning for a
// coefficient that rounds to zero in fp16, and -v's remark on the backend)
// point into the C file: a term's at the assignment, the stencil's at its
// '#pragma stencil', with the C source line under them. --emit=stencil
// shows the translation. The stencil still compiles.
// RUN: %stencilc %s -v --emit=spec 2>&1 | FileCheck %s
// RUN: %stencilc %s --emit=stencil | FileCheck %s --check-prefix=TEXT

void f(int n, const float *a, float *b) {
#pragma stencil precision(fp16)
  for (int i = 1; i < n - 1; ++i)
    b[i] = a[i - 1] + 1e-9 * a[i + 1];
}

// CHECK: later-diagnostics-in-translation.c:12:5: warning: coefficient 1e-09 of in[i+1] rounds to zero in fp16 [-Wcoefficient-rounds-to-zero]
// CHECK-NEXT: {{^}}    b[i] = a[i - 1] + 1e-9 * a[i + 1];
// CHECK-NEXT: {{^}}    ^
// CHECK-NOT: as .stencil
// CHECK: stencil f
// CHECK: precision fp16
// TEXT: {{^}}         + 1e-09 * in[i+1];
