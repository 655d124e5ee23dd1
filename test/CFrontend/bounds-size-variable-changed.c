// C fixes a VLA's extent where the array is declared (on entry, for a
// parameter), while a loop bound reads the size variable when the loop
// runs: after 'n = n / 2' the loop 'i < n - 1' covers half of 'out'. A size
// variable changed after the declaration leaves the extent unprovable; the
// change is reported once, however many axes and arrays it sizes.
// RUN: rm -rf %t && mkdir %t
// RUN: %python %S/../expect-status.py 1 %stencilc %s -o %t/out.cu 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: ls %t | count 0

void parameter(int n, const double in[n][n], double out[n][n]) {
  // CHECK-DAG: [[@LINE+1]]:3: note: changed here
  n = n / 2;
#pragma stencil
  // CHECK-DAG: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < n - 1', but the extent 'n' of 'out' along this axis cannot be proven to be what the loop runs to: 'n' is changed in the function ('n = n / 2') after 'out' is declared with it
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i][j] = 0.25 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}

void grow(int *n);

void local(int n) {
  n = n + 2; // before the declaration: the arrays have n + 2 rows, and so do the loops
  double in[n], out[n];
  for (int i = 0; i < n; ++i)
    in[i] = i;
  // CHECK-DAG: [[@LINE+1]]:8: note: changed here
  grow(&n);
#pragma stencil
  // CHECK-DAG: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < n - 1', but the extent 'n' of 'out' along this axis cannot be proven to be what the loop runs to: 'n' has its address taken ('&n'), through which it may change after 'out' is declared with it
  for (int i = 1; i < n - 1; ++i)
    out[i] = 0.5 * (in[i - 1] + in[i + 1]);
}

int global_n;

void global(void) {
  double in[global_n], out[global_n];
#pragma stencil
  // CHECK-DAG: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < global_n - 1', but the extent 'global_n' of 'out' along this axis cannot be proven to be what the loop runs to: 'global_n' is a global or static variable, so a call may change it
  for (int i = 1; i < global_n - 1; ++i)
    out[i] = 0.5 * (in[i - 1] + in[i + 1]);
}

void fill(double *);

// A VLA type's size is evaluated where the type is written: a typedef's rows
// keep the extent nx had there.
void typedefRows(int ny, int nx) {
  typedef double row[nx];
  // CHECK-DAG: [[@LINE+1]]:3: note: changed here
  nx = nx / 2;
  row in[ny];
  double out[ny][nx];
  fill(&in[0][0]);
#pragma stencil
  for (int i = 1; i < ny - 1; ++i)
    for (int j = 1; j < nx - 1; ++j)
      // CHECK-DAG: [[@LINE+1]]:26: error: the extent 'nx' of 'in' along the axis of 'j' cannot be proven to be the nest's: 'nx' is changed in the function ('nx = nx / 2') after 'in' is declared with it; 'out', the array written, has 'nx'
      out[i][j] = 0.5 * (in[i - 1][j] + in[i + 1][j]);
}

void readSize(int *n);

// An address kept in a pointer before the declaration can still write after
// it; one passed to a call before it (reading the size) is done with.
void keptPointer(int n) {
  // CHECK-DAG: [[@LINE+1]]:12: note: changed here
  int *p = &n;
  double a[n], b[n];
  *p = 3;
#pragma stencil
  // CHECK-DAG: [[@LINE+1]]:23: error: the loop over 'i' ends at 'i < n - 1', but the extent 'n' of 'b' along this axis cannot be proven to be what the loop runs to: 'n' has its address taken ('&n'), through which it may change after 'b' is declared with it
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

void sizeReadBefore(int n) {
  readSize(&n);
  double a[n], b[n];
  fill(a);
#pragma stencil
  for (int i = 1; i < n - 1; ++i)
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
  fill(b);
}
