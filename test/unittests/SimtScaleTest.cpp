//===- SimtScaleTest.cpp - scaled coefficients on CUDA cores, on the CPU ---===//
//
// The planner's choice of scaled coefficients (--plan-option scale: an fp64
// stencil's coefficients as integers over one denominator, SimtScale.cpp),
// and the emulated kernels with them: NAME_run's fused passes bit for bit
// the single steps, and the measured error against the float64 reference
// next to the coefficients as given, which docs/generated-code.md quotes
// ("Scaled coefficients"):
//   build/test/unittests/SimtTests --gtest_filter='SimtScale*'
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtPlanner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::expectFused3DRunsEqualSingleSteps;
using stencilc::testing::expectFusedRunsEqualSingleSteps;
using stencilc::testing::onSm90;
using stencilc::testing::randomGridND;
using stencilc::testing::runError;
using stencilc::testing::sameBits;
using stencilc::testing::tableStencil;

namespace {

/// EBISU's 2d25pt (examples/suite/ebisu_2d25pt_fp64.stencil): k / `sum`,
/// the k from 1 to 15 (EBISU's sum 118; 211, the weights' total, makes it
/// an average that 100 steps keep bounded).
StencilSpec ebisu25(Precision p, BoundaryKind b, double sum = 118.0) {
  static const int k[5][5] = {{1, 2, 3, 4, 5},
                              {7, 7, 5, 7, 6},
                              {8, 12, 15, 12, 12},
                              {9, 9, 5, 7, 15},
                              {10, 11, 12, 13, 14}};
  return tableStencil(sum == 118.0 ? "ebisu25" : "ebisu25avg", 2, p, b,
                      [sum](int dy, int dx) { return k[dy + 2][dx + 2] / sum; });
}

/// Weights k/7 of both signs, summing to 1.
StencilSpec sevenths(Precision p, BoundaryKind b) {
  static const int k[3][3] = {{1, 2, 1}, {0, 3, 0}, {1, -2, 1}};
  return tableStencil("sevenths", 1, p, b, [](int dy, int dx) { return k[dy + 1][dx + 1] / 7.0; });
}

/// A 1D star of radius 2 (weights 1, 2, 3, 2, 1 over 9) or a 3D star of
/// radius 1 (the centre 6/12, each neighbour 1/12).
StencilSpec star(int dims, Precision p, BoundaryKind b) {
  StencilSpec spec;
  spec.name = dims == 1 ? "star1d_ninths" : "star3d_twelfths";
  spec.dims = dims;
  spec.radius = dims == 1 ? 2 : 1;
  spec.shape = Shape::Star;
  spec.precision = p;
  spec.boundary = b;
  spec.boundaryValue = 0.75;
  if (dims == 1) {
    for (int dx = -2; dx <= 2; ++dx) {
      spec.terms.push_back(Term{Offset{{dx, 0, 0}}, (3 - std::abs(dx)) / 9.0});
    }
    return spec;
  }
  for (int axis = 0; axis < 3; ++axis) {
    for (int d : {-1, 1}) {
      Offset o{{0, 0, 0}};
      o.d[axis] = d;
      spec.terms.push_back(Term{o, 1.0 / 12});
    }
  }
  spec.terms.push_back(Term{Offset{{0, 0, 0}}, 6.0 / 12});
  std::sort(spec.terms.begin(), spec.terms.end(),
            [](const Term &a, const Term &b) { return a.offset < b.offset; });
  return spec;
}

Plan planWith(const StencilSpec &spec, ScaleRequest request, int fuse = 0) {
  PlanOptions options = onSm90(fuse);
  options.scale = request;
  return planSimt(spec, options);
}

constexpr BoundaryKind Fixed = BoundaryKind::Fixed;

} // namespace

TEST(SimtScalePlan, IntegersOverTheCommonDenominator) {
  const Plan plan = planWith(ebisu25(Precision::FP64, Fixed), ScaleRequest::Auto);
  const SimtPlan &sp = plan.simt();
  ASSERT_TRUE(sp.scaled.on()) << sp.scaled.why;
  EXPECT_EQ(sp.scaled.denominator, 118);
  EXPECT_EQ(sp.scaled.factor, 1.0 / 118);
  ASSERT_EQ(sp.slices.size(), 5u);
  EXPECT_EQ(sp.slices[2].terms[2].coefficient, 15.0); // the centre, 15/118
  EXPECT_EQ(sp.slices[4].terms[4].coefficient, 14.0);
  const Plan signs = planWith(sevenths(Precision::FP64, Fixed), ScaleRequest::Auto);
  EXPECT_EQ(signs.simt().scaled.denominator, 7);
  EXPECT_EQ(signs.simt().slices[2].terms[1].coefficient, -2.0);
}

TEST(SimtScalePlan, KeptAsGivenWhereItCannotApplyOrBuysNothing) {
  const auto kept = [](const StencilSpec &spec, ScaleRequest request) {
    const Plan plan = planWith(spec, request);
    EXPECT_FALSE(plan.simt().scaled.on()) << spec.name;
    return plan.simt().scaled.why;
  };
  EXPECT_EQ(kept(ebisu25(Precision::FP64, Fixed), ScaleRequest::Off),
            "as given (--plan-option scale=off)");
  // fp32 FMAs take any coefficient as an immediate: nothing to say.
  EXPECT_EQ(kept(ebisu25(Precision::FP32, Fixed), ScaleRequest::Auto), "");
  EXPECT_EQ(
      kept(tableStencil("sixteenths", 1, Precision::FP64, Fixed,
                        [](int dy, int dx) { return (dy == 0 && dx == 0 ? 8.0 : 1.0) / 16.0; }),
           ScaleRequest::Auto),
      "as given: every one is already an fp64 FMA immediate");
  // 1/3 and 1/2097153: the only common denominator leaves 2097153.
  const std::string large =
      kept(tableStencil("large", 1, Precision::FP64, Fixed,
                        [](int dy, int dx) {
                          return dx != 0 ? 0.0 : dy == 0 ? 1.0 / 2097153 : 1.0 / 3;
                        }),
           ScaleRequest::Auto);
  EXPECT_NE(large.find("no common denominator"), std::string::npos) << large;
  // A uniform blur takes the low-rank form, whose coefficients stay its own.
  const std::string blur =
      kept(tableStencil("blur", 3, Precision::FP64, Fixed, [](int, int) { return 1.0 / 49; }),
           ScaleRequest::Auto);
  EXPECT_NE(blur.find("low-rank form"), std::string::npos) << blur;
}

// The full-rank fp64 boxes planned scaled are measured kinds of their own
// (SimtFusion.cpp): 3 blocks a multiprocessor, the registers the
// coefficients held being free; as given they keep the unscaled kind's 1.
TEST(SimtScalePlan, ScaledBoxesTakeTheirOwnMeasuredGeometry) {
  for (int r : {2, 3}) {
    // k from 1 to 13 in no pattern of low rank.
    const StencilSpec box =
        tableStencil(fmt::format("box{}", r), r, Precision::FP64, Fixed, [](int dy, int dx) {
          return ((1 + (dy + 3) * 7 + (dx + 3)) * 5 % 13 + 1) / 118.0;
        });
    const Plan scaled = planWith(box, ScaleRequest::Auto);
    const Plan given = planWith(box, ScaleRequest::Off);
    ASSERT_TRUE(scaled.simt().scaled.on()) << r << ": " << scaled.simt().scaled.why;
    EXPECT_EQ(scaled.schedule.fusedSteps, r == 2 ? 3 : 2) << r;
    EXPECT_EQ(scaled.schedule.fused.minBlocks, 3) << r;
    EXPECT_TRUE(scaled.schedule.fused.queued) << r;
    EXPECT_EQ(given.schedule.fused.minBlocks, 1) << r;
    EXPECT_NE(scaled.schedule.fused.source.find("with scaled coefficients"), std::string::npos)
        << scaled.schedule.fused.source;
  }
}

TEST(SimtScalePlan, ScaledIntegerIsExactAndBounded) {
  EXPECT_EQ(scaledInteger(7.0 / 118, 118), 7.0);
  EXPECT_EQ(scaledInteger(-2.0 / 7, 7), -2.0);
  EXPECT_EQ(scaledInteger(1.0 / 3, 7), std::nullopt);             // 7/3 is no integer
  EXPECT_EQ(scaledInteger(1.0 / 3, 3 * 2097152LL), std::nullopt); // 2^21
  EXPECT_EQ(scaledInteger(2097151.0 / 3, 3), 2097151.0);
}

TEST(SimtScaleEmulator, FusedRunsEqualSingleStepsBitForBit) {
  for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
    for (const StencilSpec &spec : {ebisu25(Precision::FP64, b), sevenths(Precision::FP64, b)}) {
      const Plan plan = planWith(spec, ScaleRequest::Auto, 3);
      ASSERT_TRUE(plan.simt().scaled.on());
      ASSERT_EQ(plan.schedule.fusedSteps, 3);
      SCOPED_TRACE(keyword(b));
      expectFusedRunsEqualSingleSteps(plan);
    }
  }
}

TEST(SimtScaleEmulator, FusedRunsOf1DAnd3DEqualSingleStepsBitForBit) {
  for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
    SCOPED_TRACE(keyword(b));
    const Plan three = planWith(star(3, Precision::FP64, b), ScaleRequest::Auto, 2);
    ASSERT_EQ(three.simt().scaled.denominator, 12);
    ASSERT_EQ(three.schedule.fusedSteps, 2);
    expectFused3DRunsEqualSingleSteps(three);
    const Plan one = planWith(star(1, Precision::FP64, b), ScaleRequest::Auto, 4);
    ASSERT_EQ(one.simt().scaled.denominator, 9);
    ASSERT_EQ(one.schedule.fusedSteps, 4);
    Plan single = one;
    single.schedule = Schedule{};
    for (int n : {5, 23, 1001}) {
      for (int steps : {1, 3, 4, 5, 14}) {
        GridND a = randomGridND(1, {n, 1, 1}, Precision::FP64, 3u * n + steps), c = a;
        emulateRun(one, a, steps);
        emulateRun(single, c, steps);
        EXPECT_TRUE(sameBits(a, c)) << "1D, " << n << " points, " << steps << " steps";
      }
    }
  }
}

// The measured error docs/generated-code.md quotes: one step and 100 steps
// (NAME_run's fused passes) on a periodic 64 x 64 grid of values in
// [0, 1), the largest difference from the float64 reference (each
// coefficient rounded once, the terms in order), with the coefficients
// scaled and as given.
TEST(SimtScaleEmulator, MeasuredErrorAgainstTheCoefficientsAsGiven) {
  const BoundaryKind b = BoundaryKind::Periodic;
  for (const StencilSpec &spec :
       {ebisu25(Precision::FP64, b, 211.0), sevenths(Precision::FP64, b)}) {
    double errors[2][2];
    for (int scaled = 0; scaled < 2; ++scaled) {
      const Plan plan = planWith(spec, scaled ? ScaleRequest::Auto : ScaleRequest::Off);
      ASSERT_EQ(plan.simt().scaled.on(), scaled == 1);
      for (int k = 0; k < 2; ++k) {
        const int steps = k ? 100 : 1;
        errors[scaled][k] = runError(plan, {64, 64, 1}, steps, 99);
      }
    }
    std::printf("scaled error %-10s as given 1 step %.1e, 100 steps %.1e; scaled 1 step %.1e, "
                "100 steps %.1e\n",
                spec.name.c_str(), errors[0][0], errors[0][1], errors[1][0], errors[1][1]);
    // Values in [0, 1), weights of total 1: a few units in the last place.
    EXPECT_LE(errors[1][0], 1e-15);
    EXPECT_LE(errors[1][1], 1e-14);
  }
}
