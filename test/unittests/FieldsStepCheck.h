//===- FieldsStepCheck.h - One check of stencils of fields, every backend -*- C++ -*-===//
//
// The check both backends' emulators of stencils of fields go through
// (FieldsEmulatorTest.cpp, TensorFieldsTest.cpp): each stencil text in each
// precision and at every boundary, planned by the backend's planner and
// stepped by its emulator, against the float64 reference.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "FrontendTestUtil.h"
#include "StencilFixtures.h"

namespace stencilc::testing {

/// What the emulators' outputs start as: a point still holding it was not
/// written.
inline constexpr double FieldsPoison = -12345.0;

/// For each of `texts` (PRECISION and BOUNDARY to fill in) in each of
/// `precisions` and at every boundary: the plan `plan(spec)` gives (a
/// PlanOrRefusal) stepped by `emulate` on each grid of `sizes(spec)`
/// (z, y, x extents as fieldsStepError takes them), from fresh random fields:
/// exactly the points a step writes written, and the relative L2 error
/// against the float64 reference within twice the precision's tolerance (the
/// stencils are not convex: 2u - u_prev, a Laplacian; docs/generated-code.md).
template <class Texts, class Precisions, class PlanFn, class Emulate, class Sizes>
void expectFieldsStepsMatchReference(const Texts &texts, const Precisions &precisions,
                                     PlanFn &&plan, Emulate &&emulate, Sizes &&sizes) {
  unsigned seed = 1;
  for (const char *text : texts) {
    for (const char *precision : precisions) {
      for (const char *boundary : FieldBoundaries) {
        const StencilSpec spec = compileFilled(text, precision, boundary);
        ASSERT_TRUE(spec.hasFields());
        PlanOrRefusal planned = plan(spec);
        ASSERT_TRUE(planned) << spec.name << " " << precision << ": " << planned.reason();
        for (const std::array<int, 3> &n : sizes(spec)) {
          SCOPED_TRACE(
              fmt::format("{} {} {} {}x{}x{}", spec.name, precision, boundary, n[0], n[1], n[2]));
          int wrongWrites = 0;
          const double error =
              fieldsStepError(*planned, n, seed++, FieldsPoison, emulate, wrongWrites);
          EXPECT_EQ(wrongWrites, 0) << "points written that must not be, or missed";
          EXPECT_LE(error, 2 * relativeTolerance(spec.precision));
        }
      }
    }
  }
}

} // namespace stencilc::testing
