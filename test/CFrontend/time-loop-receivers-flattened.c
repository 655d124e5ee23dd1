// The records may be one flat array, 'rec[t * nrec + k]' (or 'k + nrec * t'):
// the layout of NAME_run's records.
// RUN: %stencilc %s --emit=stencil | FileCheck %s

void diffuse(int steps, int n, const float *c, float *u, float *unew, int nrec, const int *rx,
             float *rec) {
#pragma stencil
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; ++i)
      unew[i] = u[i] + c[i] * (u[i - 1] - 2 * u[i] + u[i + 1]);
    for (int k = 0; k < nrec; k++)
      rec[k + nrec * t] = unew[rx[k]];
    float *tmp = u;
    u = unew;
    unew = tmp;
  }
}

// CHECK:      stencil diffuse {
// CHECK-NEXT:   precision fp32;
// CHECK-NEXT:   boundary fixed;
// CHECK-NEXT:   field u;
// CHECK-NEXT:   coefficient c;
// CHECK-NEXT:   record u;
