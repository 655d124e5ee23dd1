// A const variable counts as a constant only when its initialiser is one.
// RUN: not %stencilc %s 2>&1 | FileCheck %s

double g(void);
void f(int n, const double *a, double *b) {
  const double w = g();
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    // CHECK: [[@LINE+1]]:12: error: 'w' is not a constant: its initialiser is not a constant expression
    b[i] = w * a[i - 1] + a[i + 1];
  // CHECK: [[@LINE-5]]:20: note: 'w' is initialised here
}
