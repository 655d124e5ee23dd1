// In C input too, two loop nests whose stencils' generated code would
// define one name are an error, at the later nest's pragma.
// RUN: rm -rf %t && mkdir %t
// RUN: not %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s
// RUN: not ls %t/out.cu %t/out.h

void a(int n, const float *u, const float *k, float *b) {
// CHECK-DAG: [[@LINE+1]]:9: note: stencil 'a' is here
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = k[i] * u[i - 1] + u[i + 1];
}

void a_fields(int n, const float *u, float *b) {
// CHECK-DAG: [[@LINE+1]]:9: error: the generated code of stencil 'a_fields' would define 'a_fields_info', as that of stencil 'a' does
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5f * u[i - 1] + 0.5f * u[i + 1];
}
