/* boundary_index.h - where a read outside the grid lands, for the boundary
 * rules that read the grid itself there (periodic, clamp, mirror, reflect).
 *
 * stencilc_fold_index(boundary, i, n) takes a coordinate i along an axis of
 * n points (n >= 1; i may lie outside [0, n) by any amount) and gives the
 * coordinate in [0, n) that is read instead:
 *
 *   periodic  wraps around:              -1 -> n-1, n -> 0
 *   clamp     repeats the edge point:    -5 -> 0,   n+3 -> n-1
 *   mirror    reflects with the edge point repeated (Halide's
 *             mirror_image): -1 -> 0, -2 -> 1, n -> n-1, n+1 -> n-2; the
 *             pattern repeats every 2n points, so any n >= 1 is legal.
 *   reflect   reflects about the edge point, which is not repeated
 *             (Halide's mirror_interior): -1 -> 1, -2 -> 2, n -> n-2,
 *             n+1 -> n-3; the pattern repeats every 2n-2 points; a single
 *             point (n = 1) is its own reflection, so any n >= 1 is legal.
 *
 * Fixed and constant do not read the grid outside it; for them the index is
 * returned unchanged. One definition for every user: the device policies
 * (stencilc/device/boundary.cuh), the compiler's CPU emulators, the float64
 * reference and the naive kernels of the tests. Plain C (and CUDA host and
 * device code). */
#ifndef STENCILC_RUNTIME_BOUNDARY_INDEX_H
#define STENCILC_RUNTIME_BOUNDARY_INDEX_H

#include "stencilc/runtime/stencil_info.h"

#if defined(__CUDACC__)
#define STENCILC_HOST_DEVICE __host__ __device__
#else
#define STENCILC_HOST_DEVICE
#endif

/* Whether the rule folds reads outside the grid back onto the grid other
 * than by wrapping (clamp, mirror, reflect: every rule but fixed, constant and
 * periodic). A level computed from such reads is not the fold of the levels
 * before it, so fused passes of these rules take one step, and the composed
 * pass's band refolds every level. A constant expression. */
#define STENCILC_BOUNDARY_FOLDS_AT_EDGE(boundary)                                                  \
  ((boundary) != STENCILC_BOUNDARY_FIXED && (boundary) != STENCILC_BOUNDARY_CONSTANT &&            \
   (boundary) != STENCILC_BOUNDARY_PERIODIC)

#ifdef __cplusplus
extern "C" {
#endif

static inline STENCILC_HOST_DEVICE long long stencilc_fold_index(stencilc_boundary boundary,
                                                                 long long i, long long n) {
  long long m;
  if (i >= 0 && i < n) {
    return i;
  }
  switch (boundary) {
  case STENCILC_BOUNDARY_PERIODIC:
    m = i % n;
    return m < 0 ? m + n : m;
  case STENCILC_BOUNDARY_CLAMP:
    return i < 0 ? 0 : n - 1;
  case STENCILC_BOUNDARY_MIRROR:
    m = i % (2 * n);
    m = m < 0 ? m + 2 * n : m;
    return m < n ? m : 2 * n - 1 - m;
  case STENCILC_BOUNDARY_REFLECT:
    if (n == 1) {
      return 0;
    }
    m = i % (2 * n - 2);
    m = m < 0 ? m + 2 * n - 2 : m;
    return m < n ? m : 2 * n - 2 - m;
  default:
    return i;
  }
}

/* stencilc_fold_index for a read less than n - 1 outside the grid
 * (-n < i < 2 n - 1), as every fold of a composed pass's band strips is
 * (the band is W wide and the grid wider than 2 W): one reflection or wrap,
 * without the 64-bit remainder. Any other kernel, whose reads may lie
 * farther out on a tiny grid, folds through stencilc_fold_index_stepwise
 * below, which repeats it. */
static inline STENCILC_HOST_DEVICE long long stencilc_fold_index_near(stencilc_boundary boundary,
                                                                      long long i, long long n) {
  if (i >= 0 && i < n) {
    return i;
  }
  switch (boundary) {
  case STENCILC_BOUNDARY_PERIODIC:
    return i < 0 ? i + n : i - n;
  case STENCILC_BOUNDARY_CLAMP:
    return i < 0 ? 0 : n - 1;
  case STENCILC_BOUNDARY_MIRROR:
    return i < 0 ? -1 - i : 2 * n - 1 - i;
  case STENCILC_BOUNDARY_REFLECT:
    return n == 1 ? 0 : i < 0 ? -i : 2 * n - 2 - i;
  default:
    return i;
  }
}

/* stencilc_fold_index by one reflection or wrap after another until the
 * index lands in [0, n): the same point for any i, without the 64-bit
 * remainder (some 70 instructions, or a call, in a kernel's loop). One step
 * for a read within n - 1 of the grid, as every read of a grid wider than
 * the halo is; a few for a halo wider than a tiny grid. The device policies
 * read through it (docs/performance.md, 2026-12-03 23:28). */
static inline STENCILC_HOST_DEVICE long long
stencilc_fold_index_stepwise(stencilc_boundary boundary, long long i, long long n) {
  if (boundary == STENCILC_BOUNDARY_CLAMP) {
    return stencilc_fold_index_near(boundary, i, n); /* one step from anywhere */
  }
  if (boundary != STENCILC_BOUNDARY_PERIODIC && !STENCILC_BOUNDARY_FOLDS_AT_EDGE(boundary)) {
    return i; /* fixed and constant read nothing outside the grid */
  }
  while (i < 0 || i >= n) {
    i = stencilc_fold_index_near(boundary, i, n);
  }
  return i;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STENCILC_RUNTIME_BOUNDARY_INDEX_H */
