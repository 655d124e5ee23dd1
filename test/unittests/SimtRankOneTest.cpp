//===- SimtRankOneTest.cpp - composed rank-1 passes, planned and run on the CPU -===//
//
// The CUDA cores' composed rank-1 passes (SimtRankOne.h): the composed
// factors are the exact convolution powers; the planner takes the pass
// (asked for by --plan-option compose=on) only for the kind it has the
// geometry of (a rank-1 2D stencil of radius 3 in fp64), at every boundary
// but periodic, of fuse=T steps where that is asked with it, and not where
// fuse alone, lowrank=off or compose=off asks otherwise; NAME_run's model
// (passes of the composed stencil with the band, a remainder pass of T - 2
// steps, then single steps) stays within a bound of the float64 steps on
// grids of interior and band, and on grids all band.
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
    EXPECT_EQ(plan.schedule.fusedSteps, 6); // the fastest measured
    EXPECT_EQ(plan.schedule.rankOne->row.size(), 37u);
    EXPECT_EQ(plan.schedule.rankOne->row[18], 9331.0); // the column carries 1 / 49^6
    EXPECT_EQ(plan.schedule.fused.width, 0);
  }
}

TEST(SimtRankOne, NotPlannedElsewhere) {
  EXPECT_FALSE(
      planSimt(blur(Precision::FP64, BoundaryKind::Periodic), composeOn()).schedule.rankOne);
  EXPECT_FALSE(planSimt(blur(Precision::FP32, BoundaryKind::Fixed), composeOn()).schedule.rankOne);
  EXPECT_FALSE(planSimt(blur(Precision::FP64, BoundaryKind::Fixed), onSm90(4)).schedule.rankOne);
  EXPECT_FALSE(planSimt(blur(Precision::FP64, BoundaryKind::Fixed), composeOn(1)).schedule.rankOne);
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

// fuse=T with compose=on composes T steps, with a remainder pass of T - 2
// in the same geometry and band tiles; T 3 has none (T - 2 = 1).
TEST(SimtRankOne, FuseAskedWithComposeSetsTAndTheRemainder) {
  const Plan eight = planSimt(blur(Precision::FP64, BoundaryKind::Mirror), composeOn(8));
  ASSERT_TRUE(eight.schedule.rankOne);
  EXPECT_EQ(eight.schedule.fusedSteps, 8);
  EXPECT_EQ(eight.schedule.rankOne->row.size(), 49u);
  EXPECT_EQ(eight.schedule.rankOne->rows, 1024);    // its own entry's geometry
  EXPECT_EQ(eight.schedule.rankOne->band.tile, 32); // 16 < T r = 24
  ASSERT_TRUE(eight.schedule.rankOne->remainder);
  EXPECT_EQ(eight.schedule.rankOne->remainder->steps, 6);
  EXPECT_EQ(eight.schedule.rankOne->remainder->row.size(), 37u);
  EXPECT_EQ(eight.schedule.rankOne->remainder->rows, 1024);
  EXPECT_EQ(eight.schedule.rankOne->remainder->band.tile, 32);
  const Plan five = planSimt(blur(Precision::FP64, BoundaryKind::Fixed), composeOn(5));
  ASSERT_TRUE(five.schedule.rankOne); // no entry: the fastest's geometry (T 6)
  EXPECT_EQ(five.schedule.rankOne->rows, 512);
  EXPECT_EQ(five.schedule.rankOne->remainder->steps, 3);
  const Plan three = planSimt(blur(Precision::FP64, BoundaryKind::Fixed), composeOn(3));
  ASSERT_TRUE(three.schedule.rankOne);
  EXPECT_FALSE(three.schedule.rankOne->remainder);
}

/// NAME_run's model against float64 steps: relative L2 within 1e-14 at
/// step counts 1, T - 2, T - 1, T, T + 1, 3 T + 2 and 100, on grids with
/// an interior (past 2 W on both axes) and grids all band, at T 6 (the
/// default, remainder 4) and 4 (remainder 2). The worst is printed for
/// docs/generated-code.md.
TEST(SimtRankOne, RunStaysWithinBoundOfFloat64Steps) {
  double worst = 0.0;
  for (int fuse : {0, 4}) {
    for (BoundaryKind b : kBanded) {
      const StencilSpec spec = blur(Precision::FP64, b);
      const Plan plan = planSimt(spec, composeOn(fuse));
      ASSERT_TRUE(plan.schedule.rankOne);
      const int t = plan.schedule.fusedSteps;
      for (const std::array<int, 3> n :
           {std::array<int, 3>{61, 53, 1}, {20, 23, 1}, {25, 40, 1}, {83, 77, 1}}) {
        for (int steps : {1, t - 2, t - 1, t, t + 1, 3 * t + 2, 100}) {
          GridND a = randomGridND(2, n, spec.precision, 31u * n[0] + steps);
          const GridND want = referenceRunND(spec, a, steps);
          emulateRun(plan, a, steps);
          const double error = relativeL2ErrorND(spec, a, want);
          worst = std::max(worst, error);
          EXPECT_LE(error, 1e-14) << keyword(b) << " T " << t << ", " << n[0] << "x" << n[1] << ", "
                                  << steps;
        }
      }
    }
  }
  std::printf("worst relative L2 error against float64 steps: %.3g\n", worst);
}

} // namespace
