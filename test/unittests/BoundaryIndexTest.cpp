// Unit tests of stencilc_fold_index (stencilc/runtime/boundary_index.h),
// which the kernels, the emulators and the float64 reference share, and of
// its near form (the composed band's strips): each folding rule against its
// definition applied one edge at a time, near the edges and many grids away.
#include <gtest/gtest.h>

#include "stencilc/runtime/boundary_index.h"

namespace {

/// Folds i into [0, n) by the rule's definition, one reflection or wrap at
/// a time: mirror repeats the edge point (in[-1] is in[0]), reflect does not
/// (in[-1] is in[1]), periodic wraps, clamp takes the nearest edge point.
long long foldByDefinition(stencilc_boundary rule, long long i, long long n) {
  while (i < 0 || i >= n) {
    switch (rule) {
    case STENCILC_BOUNDARY_PERIODIC:
      i += i < 0 ? n : -n;
      break;
    case STENCILC_BOUNDARY_CLAMP:
      i = i < 0 ? 0 : n - 1;
      break;
    case STENCILC_BOUNDARY_MIRROR:
      i = i < 0 ? -1 - i : 2 * n - 1 - i;
      break;
    case STENCILC_BOUNDARY_REFLECT:
      i = n == 1 ? 0 : i < 0 ? -i : 2 * n - 2 - i;
      break;
    default:
      return i;
    }
  }
  return i;
}

TEST(BoundaryIndex, FoldsAsEachRuleIsDefined) {
  for (stencilc_boundary rule : {STENCILC_BOUNDARY_PERIODIC, STENCILC_BOUNDARY_CLAMP,
                                 STENCILC_BOUNDARY_MIRROR, STENCILC_BOUNDARY_REFLECT}) {
    for (long long n = 1; n <= 40; ++n) {
      for (long long i = -5 * n - 3; i <= 5 * n + 3; ++i) {
        ASSERT_EQ(stencilc_fold_index(rule, i, n), foldByDefinition(rule, i, n))
            << "rule " << rule << ", i " << i << ", n " << n;
      }
    }
  }
}

TEST(BoundaryIndex, NearFoldsAsEachRuleWithinNMinusOneOfTheGrid) {
  for (stencilc_boundary rule : {STENCILC_BOUNDARY_PERIODIC, STENCILC_BOUNDARY_CLAMP,
                                 STENCILC_BOUNDARY_MIRROR, STENCILC_BOUNDARY_REFLECT}) {
    for (long long n = 1; n <= 40; ++n) {
      for (long long i = -n + 1; i < 2 * n - 1; ++i) {
        ASSERT_EQ(stencilc_fold_index_near(rule, i, n), foldByDefinition(rule, i, n))
            << "rule " << rule << ", i " << i << ", n " << n;
      }
    }
  }
}

} // namespace
