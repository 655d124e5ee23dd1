// Diagnostics of the stages after the translation (here Sema's warning for a
// coefficient that rounds to zero in fp16) point into the translation, named
// after the C file; --emit=stencil shows that text. The stencil still compiles.
// RUN: %stencilc %s --emit=spec 2>&1 | FileCheck %s
// RUN: %stencilc %s --emit=stencil | FileCheck %s --check-prefix=TEXT

void f(int n, const float *a, float *b) {
#pragma stencil precision(fp16)
  for (int i = 1; i < n - 1; ++i)
    b[i] = a[i - 1] + 1e-9 * a[i + 1];
}

// CHECK: later-diagnostics-in-translation.c (as .stencil):8:{{[0-9]+}}: warning: coefficient 1e-09 of in[i+1] rounds to zero in fp16
// CHECK: stencil f
// CHECK: precision fp16
// TEXT: {{^}}         + 1e-09 * in[i+1];
