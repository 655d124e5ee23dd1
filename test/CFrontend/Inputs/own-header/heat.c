#include "heat.h"

void heat(int n, const double *a, double *b) {
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = ALPHA * a[i - 1] + (1 - 2 * ALPHA) * a[i] + ALPHA * a[i + 1];
}
