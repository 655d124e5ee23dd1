// Loop nests in templates are not translated (no single element type).
// RUN: not %stencilc %s 2>&1 | FileCheck %s

template <typename T>
void f(int n, const T *a, T *b) {
#pragma stencil
  // CHECK: [[@LINE+1]]:3: error: a '#pragma stencil' loop nest inside a template is not supported
  for (int i = 1; i < n - 1; ++i)
    b[i] = T(0.5) * (a[i - 1] + a[i + 1]);
}
