// Unit tests of stencilc_fold_index (stencilc/runtime/boundary_index.h),
// which the emulators and the float64 reference call, of its near form (the
// composed band's strips) and of its stepwise form (the device policies):
// each folding rule against its definition applied one edge at a time, near
// the edges and many grids away.
#include <gtest/gtest.h>

#include <utility>

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

/// Expects fold(rule, i, n) == reference(rule, i, n) for every rule that
/// reads outside the grid, every grid of 1 to 40 points and every index in
/// the closed range reach(n) gives.
template <class Fold, class Reference, class Reach>
void expectSameFolds(Fold fold, Reference reference, Reach reach) {
  for (stencilc_boundary rule : {STENCILC_BOUNDARY_PERIODIC, STENCILC_BOUNDARY_CLAMP,
                                 STENCILC_BOUNDARY_MIRROR, STENCILC_BOUNDARY_REFLECT}) {
    for (long long n = 1; n <= 40; ++n) {
      auto [first, last] = reach(n);
      for (long long i = first; i <= last; ++i) {
        ASSERT_EQ(fold(rule, i, n), reference(rule, i, n))
            << "rule " << rule << ", i " << i << ", n " << n;
      }
    }
  }
}

TEST(BoundaryIndex, FoldsAsEachRuleIsDefined) {
  expectSameFolds(stencilc_fold_index, foldByDefinition,
                  [](long long n) { return std::pair(-5 * n - 3, 5 * n + 3); });
}

TEST(BoundaryIndex, NearFoldsAsEachRuleWithinNMinusOneOfTheGrid) {
  expectSameFolds(stencilc_fold_index_near, foldByDefinition,
                  [](long long n) { return std::pair(-n + 1, 2 * n - 2); });
}

TEST(BoundaryIndex, StepwiseFoldsAsTheRemainderFormAnyDistanceAway) {
  expectSameFolds(stencilc_fold_index_stepwise, stencilc_fold_index,
                  [](long long n) { return std::pair(-7 * n - 5, 7 * n + 5); });
}

TEST(BoundaryIndex, StepwiseLeavesTheRulesThatReadNothingOutside) {
  for (stencilc_boundary rule : {STENCILC_BOUNDARY_FIXED, STENCILC_BOUNDARY_CONSTANT}) {
    for (long long i : {-3LL, 0LL, 4LL, 9LL}) {
      EXPECT_EQ(stencilc_fold_index_stepwise(rule, i, 5), i) << "rule " << rule;
    }
  }
}

} // namespace
