// In C++, a reference declared in the function, to the other array or to
// a member of a union that holds both, is refused like a local pointer.
// RUN: not %stencilc %s --emit=stencil 2>&1 | FileCheck %s

constexpr int N = 64;

void reference(double (&a)[N]) {
  double (&b)[N] = a;
#pragma stencil
  for (int i = 1; i < N - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: 'b' is a reference set from 'a', so it may alias the other array of the update
    b[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

union Grids {
  double x[N];
  double y[N];
};

void union_members(Grids &g) {
  double (&in)[N] = g.x;
  double (&out)[N] = g.y;
#pragma stencil
  for (int i = 1; i < N - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: 'out' is a reference set from 'g.y', so it may alias
    out[i] = 0.5 * (in[i - 1] + in[i + 1]);
}

// Members of an anonymous union are no named arrays.
static union {
  double p[N];
  double q[N];
};

void anonymous_union() {
#pragma stencil
  for (int i = 1; i < N - 1; ++i)
    // CHECK: [[@LINE+1]]:5: error: the array written must be a named array
    q[i] = 0.5 * (p[i - 1] + p[i + 1]);
}
