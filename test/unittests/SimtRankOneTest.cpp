//===- SimtRankOneTest.cpp - composed rank-1 passes, planned and run on the CPU -===//
//
// The CUDA cores' composed rank-1 passes (SimtRankOne.h): the composed
// factors are the exact convolution powers; the planner takes the pass
// (asked for by --plan-option compose=on) only for the kind it has the
// geometry of (a rank-1 2D stencil of radius 3 in fp64), at every boundary
// but periodic, and not where fuse, lowrank=off or compose=off asks
// otherwise; NAME_run's model (passes of the composed
// stencil with the band, then single steps) stays within a bound of the
// float64 steps on grids of interior and band, and on grids all band.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdio>

#include <gtest/gtest.h>

#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Simt/SimtRankOne.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil;
using stencilc::testing::onSm90;
using stencilc::testing::randomGridND;
using stencilc::testing::referenceRunND;

namespace {

/// Options asking for the composed pass where the planner has its geometry.
PlanOptions composeOn(int fuse = 0) {
  PlanOptions o = onSm90(fuse);
  o.compose = ComposeRequest::On;
  return o;
}

/// The uniform 7 x 7 blur (rank 1).
StencilSpec blur(Precision precision, BoundaryKind boundary) {
  StencilSpec spec = makeStencil(2, Shape::Box, 3, precision, boundary, 1);
  spec.name = "blur";
  for (Term &t : spec.terms) {
    t.coefficient = 1.0 / 49.0;
  }
  return spec;
}

constexpr BoundaryKind kBanded[] = {BoundaryKind::Fixed, BoundaryKind::Constant,
                                    BoundaryKind::Clamp, BoundaryKind::Mirror,
                                    BoundaryKind::Reflect};

TEST(SimtRankOne, ComposedFactorsAreExactConvolutionPowers) {
  const std::vector<Rational> ones(7, Rational(1));
  const std::vector<Rational> four = convolvedPower(ones, 4);
  ASSERT_EQ(four.size(), 25u);
  const int64_t expected[13] = {1, 4, 10, 20, 35, 56, 84, 116, 149, 180, 206, 224, 231};
  for (int k = 0; k < 13; ++k) {
    EXPECT_EQ(four[k], Rational(expected[k])) << k;
    EXPECT_EQ(four[24 - k], Rational(expected[k])) << k;
  }
  EXPECT_EQ(convolvedPower(ones, 1), ones);
}

TEST(SimtRankOne, PlannedForTheMeasuredKindAtEveryBandedBoundary) {
  for (BoundaryKind b : kBanded) {
    const Plan plan = planSimt(blur(Precision::FP64, b), composeOn());
    ASSERT_TRUE(plan.schedule.rankOne) << keyword(b);
    EXPECT_EQ(plan.schedule.fusedSteps, 4);
    EXPECT_EQ(plan.schedule.rankOne->row.size(), 25u);
    EXPECT_EQ(plan.schedule.rankOne->row[12], 231.0); // the column carries 1 / 49^4
    EXPECT_EQ(plan.schedule.fused.width, 0);
  }
}

TEST(SimtRankOne, NotPlannedElsewhere) {
  EXPECT_FALSE(
      planSimt(blur(Precision::FP64, BoundaryKind::Periodic), composeOn()).schedule.rankOne);
  EXPECT_FALSE(planSimt(blur(Precision::FP32, BoundaryKind::Fixed), composeOn()).schedule.rankOne);
  EXPECT_FALSE(planSimt(blur(Precision::FP64, BoundaryKind::Fixed), composeOn(4)).schedule.rankOne);
  PlanOptions off = composeOn();
  off.lowRank = LowRankRequest::Off;
  EXPECT_FALSE(planSimt(blur(Precision::FP64, BoundaryKind::Fixed), off).schedule.rankOne);
  off = composeOn();
  off.compose = ComposeRequest::Off;
  EXPECT_FALSE(planSimt(blur(Precision::FP64, BoundaryKind::Fixed), off).schedule.rankOne);
  const StencilSpec fullRank =
      makeStencil(2, Shape::Box, 3, Precision::FP64, BoundaryKind::Fixed, 7);
  EXPECT_FALSE(planSimt(fullRank, composeOn()).schedule.rankOne);
}

/// NAME_run's model against float64 steps: relative L2 within 1e-14 at
/// step counts around T and 100, on grids with an interior (past 2 W = 24
/// on both axes) and grids all band. The worst is printed for
/// docs/generated-code.md.
TEST(SimtRankOne, RunStaysWithinBoundOfFloat64Steps) {
  double worst = 0.0;
  for (BoundaryKind b : kBanded) {
    const StencilSpec spec = blur(Precision::FP64, b);
    const Plan plan = planSimt(spec, composeOn());
    ASSERT_TRUE(plan.schedule.rankOne);
    for (const std::array<int, 3> n : {std::array<int, 3>{61, 53, 1}, {20, 23, 1}, {25, 40, 1}}) {
      for (int steps : {1, 3, 4, 5, 14, 100}) {
        GridND a = randomGridND(2, n, spec.precision, 31u * n[0] + steps);
        const GridND want = referenceRunND(spec, a, steps);
        emulateRun(plan, a, steps);
        const double error = relativeL2ErrorND(spec, a, want);
        worst = std::max(worst, error);
        EXPECT_LE(error, 1e-14) << keyword(b) << " " << n[0] << "x" << n[1] << ", " << steps;
      }
    }
  }
  std::printf("worst relative L2 error against float64 steps: %.3g\n", worst);
}

} // namespace
