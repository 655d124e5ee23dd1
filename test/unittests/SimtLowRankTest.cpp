//===- SimtLowRankTest.cpp - the low-rank form on CUDA cores, on the CPU ----===//
//
// The planner's choice of the low-rank form (--plan-option lowrank, the
// form's operations against the analysis'), and the emulated kernels in
// the form's order: one step against the float64 direct reference within
// the bound docs/generated-code.md states ("Low-rank form"), and NAME_run's
// fused passes bit for bit the single steps of the same form. Prints the
// measured errors the docs quote:
//   build/test/unittests/SimtTests --gtest_filter='SimtLowRank*'
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtEmulator.h"
#include "Backends/Simt/SimtFusion.h"
#include "Backends/Simt/SimtPlanner.h"
#include "StencilFixtures.h"
#include "stencilc/LowRank.h"

using namespace stencilc;
using stencilc::testing::expectFused3DRunsEqualSingleSteps;
using stencilc::testing::expectFusedRunsEqualSingleSteps;
using stencilc::testing::makeStencil;
using stencilc::testing::onSm90;
using stencilc::testing::randomGridND;
using stencilc::testing::runError;
using stencilc::testing::sameBits;
using stencilc::testing::tableStencil;

namespace {

StencilSpec uniformBox(int r, Precision p, BoundaryKind b) {
  const double n = (2 * r + 1) * (2 * r + 1);
  return tableStencil(fmt::format("blur{}", r), r, p, b, [n](int, int) { return 1.0 / n; });
}

/// (1, 4, 6, 4, 1) times itself over 256.
StencilSpec gaussian5(Precision p, BoundaryKind b) {
  const int binomial[] = {1, 4, 6, 4, 1};
  return tableStencil("gauss5", 2, p, b,
                      [&](int dy, int dx) { return binomial[dy + 2] * binomial[dx + 2] / 256.0; });
}

/// The suite's boxes: the centre 0.5, every other point 0.5 / (n - 1).
StencilSpec boxPlusCentre(int r, Precision p, BoundaryKind b) {
  const double others = (2 * r + 1) * (2 * r + 1) - 1;
  return tableStencil(fmt::format("box{}", r), r, p, b,
                      [others](int dy, int dx) { return dy == 0 && dx == 0 ? 0.5 : 0.5 / others; });
}

/// EBISU's 2d49pt (examples/suite/ebisu_2d49pt_fp64.stencil): rank 5 of 7,
/// two pairs of equal rows (the form groups them); `sum` divides each
/// weight (EBISU's 118, or the weights' total 313, which makes it an
/// average that 100 steps keep bounded).
StencilSpec ebisu49(Precision p, BoundaryKind b, double sum = 118.0) {
  static const int rows[7][7] = {{1, 1, 2, 3, 4, 5, 5},     {1, 1, 2, 3, 4, 5, 5},
                                 {1, 7, 7, 5, 7, 6, 5},     {1, 8, 12, 15, 12, 12, 5},
                                 {1, 9, 9, 5, 7, 15, 5},    {1, 9, 9, 5, 7, 15, 5},
                                 {1, 10, 11, 12, 13, 14, 5}};
  return tableStencil(sum == 118.0 ? "ebisu49" : "ebisu49avg", 3, p, b,
                      [sum](int dy, int dx) { return rows[dy + 3][dx + 3] / sum; });
}

/// A 3D box of radius r with the coefficient table weight(dz, dy, dx).
StencilSpec table3D(const std::string &name, int r, Precision precision, BoundaryKind boundary,
                    const std::function<double(int, int, int)> &weight) {
  StencilSpec spec = tableStencil(name, r, precision, boundary, [](int, int) { return 0.0; });
  spec.dims = 3;
  for (int dz = -r; dz <= r; ++dz) {
    for (int dy = -r; dy <= r; ++dy) {
      for (int dx = -r; dx <= r; ++dx) {
        if (const double c = weight(dz, dy, dx); c != 0.0) {
          spec.terms.push_back(Term{Offset{{dz, dy, dx}}, c});
        }
      }
    }
  }
  return spec;
}

/// The suite's 3D boxes (box3d27p, box3d125p): the centre 0.5, every other
/// point 0.5 / (n - 1).
StencilSpec box3DPlusCentre(int r, Precision p, BoundaryKind b) {
  const int n = 2 * r + 1;
  const double others = n * n * n - 1;
  return table3D(fmt::format("box3d{}", r), r, p, b, [others](int dz, int dy, int dx) {
    return dz == 0 && dy == 0 && dx == 0 ? 0.5 : 0.5 / others;
  });
}

/// The 27-point Laplacian, weights by distance class over 30 (as
/// examples/suite/lap27_fp64.stencil).
StencilSpec laplacian27(Precision p, BoundaryKind b) {
  return table3D("lap27", 1, p, b, [](int dz, int dy, int dx) {
    static const double byClass[] = {-128.0, 14.0, 3.0, 1.0};
    return byClass[std::abs(dz) + std::abs(dy) + std::abs(dx)] / 30.0;
  });
}

/// EBISU's 3d27pt (examples/suite/ebisu_3d27pt_fp64.stencil): slice k is
/// the 3 x 3 table plus 0.01 k, over 159 (each weight rounded once, as the
/// parser does); its planes have full rank. `sum` divides the hundredths
/// (EBISU's 15900, or their total 2457, which makes it an average that 100
/// steps keep bounded).
StencilSpec ebisu27(Precision p, BoundaryKind b, double sum = 15900.0) {
  static const int hundredths[9] = {50, 70, 90, 120, 150, 120, 90, 70, 50};
  return table3D(sum == 15900.0 ? "ebisu27" : "ebisu27avg", 1, p, b, [sum](int dz, int dy, int dx) {
    return (hundredths[(dy + 1) * 3 + dx + 1] + dz + 1) / sum;
  });
}

/// A heat step u + (30 / 256) lap27 u: the centre 0.5, the others 14, 3
/// and 1 over 256 by distance class; an average, so 100 steps stay bounded.
StencilSpec heat27(Precision p, BoundaryKind b) {
  return table3D("heat27", 1, p, b, [](int dz, int dy, int dx) {
    static const double byClass[] = {128.0, 14.0, 3.0, 1.0};
    return byClass[std::abs(dz) + std::abs(dy) + std::abs(dx)] / 256.0;
  });
}

Plan planWith(const StencilSpec &spec, LowRankRequest request, int fuse = 0,
              ScaleRequest scale = ScaleRequest::Auto) {
  PlanOptions options = onSm90(fuse);
  options.lowRank = request;
  options.scale = scale;
  options.compose = ComposeRequest::Off; // the fused pass (SimtRankOneTest: the composed one)
  return planSimt(spec, options);
}

constexpr BoundaryKind Fixed = BoundaryKind::Fixed;

} // namespace

TEST(SimtLowRankPlan, UsedWhereItTakesFewerOperations) {
  const Plan blur = planWith(uniformBox(3, Precision::FP64, Fixed), LowRankRequest::Auto);
  ASSERT_TRUE(blur.simt().lowRank.form) << blur.simt().lowRank.why;
  EXPECT_EQ(blur.simt().lowRank.form->ops(), 14);
  EXPECT_EQ(blur.simt().lowRank.form->passes, 1);
  EXPECT_EQ(blur.simt().lowRank.directOps, 49);
  // Radius 1 only where asked: auto measured the direct form faster.
  const Plan autoBox = planWith(boxPlusCentre(1, Precision::FP32, Fixed), LowRankRequest::Auto);
  EXPECT_FALSE(autoBox.simt().lowRank.form);
  EXPECT_NE(autoBox.simt().lowRank.why.find("radius 1: the passes measured slower"),
            std::string::npos)
      << autoBox.simt().lowRank.why;
  const Plan box = planWith(boxPlusCentre(1, Precision::FP32, Fixed), LowRankRequest::On);
  ASSERT_TRUE(box.simt().lowRank.form) << box.simt().lowRank.why;
  // One pass of 3 taps, its 3 multiply-adds along y, and the centre folded.
  EXPECT_EQ(box.simt().lowRank.form->ops(), 7);
  // Every used form takes the analysis' operations, fewer than the taps.
  for (const StencilSpec &spec :
       {uniformBox(1, Precision::FP32, Fixed), uniformBox(2, Precision::FP16, Fixed),
        gaussian5(Precision::FP64, Fixed), boxPlusCentre(2, Precision::BF16, Fixed),
        boxPlusCentre(3, Precision::FP64, Fixed)}) {
    SCOPED_TRACE(spec.name);
    const Plan plan = planWith(spec, spec.radius == 1 ? LowRankRequest::On : LowRankRequest::Auto);
    ASSERT_TRUE(plan.simt().lowRank.form) << plan.simt().lowRank.why;
    EXPECT_EQ(plan.simt().lowRank.form->ops(), analyseLowRank(spec).decomposedOps);
    EXPECT_LT(plan.simt().lowRank.form->ops(), static_cast<int>(spec.points()));
    EXPECT_FALSE(plan.simt().lowRank.fellBack);
  }
}

TEST(SimtLowRankPlan, FullRankStarsOtherDimensionsAndOffKeepTheDirectForm) {
  const auto why = [](const StencilSpec &spec, LowRankRequest request) {
    const Plan plan = planWith(spec, request);
    EXPECT_FALSE(plan.simt().lowRank.form) << spec.name;
    return plan.simt().lowRank.why;
  };
  EXPECT_NE(why(makeStencil(2, Shape::Box, 2, Precision::FP64, Fixed, 3), LowRankRequest::On)
                .find("full rank"),
            std::string::npos);
  EXPECT_NE(why(makeStencil(2, Shape::Star, 2, Precision::FP32, Fixed, 3), LowRankRequest::On)
                .find("not fewer"),
            std::string::npos);
  EXPECT_NE(why(uniformBox(3, Precision::FP64, Fixed), LowRankRequest::Off).find("lowrank=off"),
            std::string::npos);
  EXPECT_NE(
      why(makeStencil(1, Shape::Star, 2, Precision::FP32, Fixed, 3), LowRankRequest::On).find("1D"),
      std::string::npos);
  EXPECT_NE(why(makeStencil(3, Shape::Star, 1, Precision::FP32, Fixed, 3), LowRankRequest::On)
                .find("not fewer"),
            std::string::npos);
}

/// A 5 x 5 table of integers over their sum, row-major.
StencilSpec table5(const std::string &name, const std::array<int, 25> &k) {
  const double sum = std::accumulate(k.begin(), k.end(), 0.0);
  return tableStencil(name, 2, Precision::FP64, Fixed,
                      [k, sum](int dy, int dx) { return k[(dy + 2) * 5 + dx + 2] / sum; });
}

TEST(SimtLowRankPlan, AutoFallsBackWhereTermsCancelAndOnTakesThem) {
  // Rank 2, no two rows or columns multiples of one another: the
  // elimination's 18 operations cancel, and no grouping saves any.
  const StencilSpec spec = table5("cancels", {9,  16, 7,  20, 13, 6,  14, 8,  16, 14, 5,  15, 10,
                                              16, 17, 11, 24, 13, 28, 23, 11, 19, 8,  24, 15});
  const Plan automatic = planWith(spec, LowRankRequest::Auto);
  EXPECT_FALSE(automatic.simt().lowRank.form);
  EXPECT_TRUE(automatic.simt().lowRank.fellBack);
  EXPECT_GT(automatic.simt().lowRank.amplification, 1.5);
  EXPECT_NE(automatic.simt().lowRank.why.find("cancel"), std::string::npos);
  const Plan on = planWith(spec, LowRankRequest::On);
  ASSERT_TRUE(on.simt().lowRank.form);
  EXPECT_EQ(on.simt().lowRank.form->ops(), 18);
}

TEST(SimtLowRankPlan, AutoGroupsEqualRowsWhereTheEliminationCancels) {
  // Rows 1 and 5 multiples of one another, and then columns 1 and 2 of
  // the others equal: the elimination's 18 operations cancel; auto takes
  // the grouping's 21, on the 18.
  const StencilSpec spec = table5("regroups", {15, 15, 15, 21, 24, 11, 11, 8,  19, 20, 17, 17, 16,
                                               25, 28, 8,  8,  9,  10, 12, 20, 20, 20, 28, 32});
  const Plan automatic = planWith(spec, LowRankRequest::Auto);
  ASSERT_TRUE(automatic.simt().lowRank.form) << automatic.simt().lowRank.why;
  EXPECT_EQ(automatic.simt().lowRank.form->ops(), 21);
  EXPECT_NEAR(automatic.simt().lowRank.amplification, 1.0, 1e-12);
  EXPECT_NE(automatic.simt().lowRank.why.find("the elimination's terms cancel"), std::string::npos);
  EXPECT_EQ(planWith(spec, LowRankRequest::On).simt().lowRank.form->ops(), 18);
}

TEST(SimtLowRankPlan, EbisusEqualRowsAreTheFormUnderAuto) {
  // Its grouping (38 operations) is fewer than the elimination's (42), and
  // nothing in it cancels.
  const Plan automatic = planWith(ebisu49(Precision::FP64, Fixed), LowRankRequest::Auto);
  ASSERT_TRUE(automatic.simt().lowRank.form) << automatic.simt().lowRank.why;
  EXPECT_EQ(automatic.simt().lowRank.form->ops(), 38);
  EXPECT_EQ(automatic.simt().lowRank.form->passes, 3);
  EXPECT_NEAR(automatic.simt().lowRank.amplification, 1.0, 1e-12);
}

TEST(SimtLowRankPlan, FusesByTheRuleOfTheForm) {
  // The direct radius-3 box in 16 bits measured fastest unfused; its
  // passes fuse by the form's rule. In fp32 they fuse in the queued form
  // as measured for the 7 x 7 blur in the paired order (4 steps), not as
  // the direct box does (2).
  const Plan direct = planWith(uniformBox(3, Precision::FP16, Fixed), LowRankRequest::Off);
  const Plan passes = planWith(uniformBox(3, Precision::FP16, Fixed), LowRankRequest::Auto);
  EXPECT_EQ(direct.schedule.fusedSteps, 1);
  ASSERT_TRUE(passes.simt().lowRank.form) << passes.simt().lowRank.why;
  EXPECT_GT(passes.schedule.fusedSteps, 1) << passes.schedule.why;
  const Plan blur = planWith(uniformBox(3, Precision::FP32, Fixed), LowRankRequest::Auto);
  EXPECT_EQ(blur.schedule.fusedSteps, 4) << blur.schedule.why;
  EXPECT_TRUE(blur.schedule.fused.queued);
  // Past radius 3 the levels' intermediates would spill: one step a launch.
  const Plan wide = planWith(uniformBox(5, Precision::FP32, Fixed), LowRankRequest::Auto);
  ASSERT_TRUE(wide.simt().lowRank.form);
  EXPECT_EQ(wide.schedule.fusedSteps, 1);
  EXPECT_NE(wide.schedule.why.find("fuses up to radius 3"), std::string::npos);
}

TEST(SimtLowRankPlan, MeasuredGeometriesPrefetchOrNarrowTheStrips) {
  // As measured on an H200 (2026-12-01 04:43-04:52): an L2 prefetch a
  // batch ahead of the stream for the 7 x 7 blur (fp64, fp32), the suite's
  // 7 x 7 box in fp32 and the 5 x 5 Gaussian in fp64; the Gaussian in fp32
  // in strips of 96 columns, 3 a thread in 4-byte accesses, so that its
  // halo is T r exactly. EBISU's 2d49pt in fp64 prefetches 2 rows ahead
  // as measured on an H100 (2026-12-06 about 13:50), in fp32 not. Kinds
  // measured without either keep neither.
  const FusedKernel blur =
      planWith(uniformBox(3, Precision::FP64, Fixed), LowRankRequest::Auto).schedule.fused;
  EXPECT_EQ(blur.prefetchRows, blur.batch);
  EXPECT_EQ(planWith(boxPlusCentre(3, Precision::FP32, Fixed), LowRankRequest::Auto)
                .schedule.fused.prefetchRows,
            2);
  const FusedKernel gauss64 =
      planWith(gaussian5(Precision::FP64, Fixed), LowRankRequest::Auto).schedule.fused;
  EXPECT_EQ(gauss64.prefetchRows, 4);
  EXPECT_EQ(gauss64.accessBytes, 16);
  const Plan gauss32 = planWith(gaussian5(Precision::FP32, Fixed), LowRankRequest::Auto);
  const FusedKernel &g = gauss32.schedule.fused;
  EXPECT_EQ(g.width, 96);
  EXPECT_EQ(g.accessBytes, 4);
  EXPECT_EQ(g.halo, gauss32.schedule.fusedSteps * 2);
  EXPECT_EQ(g.prefetchRows, 0);
  EXPECT_EQ(
      planWith(ebisu49(Precision::FP64, Fixed), LowRankRequest::Auto).schedule.fused.prefetchRows,
      2);
  EXPECT_EQ(
      planWith(ebisu49(Precision::FP32, Fixed), LowRankRequest::Auto).schedule.fused.prefetchRows,
      0);
  for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
    SCOPED_TRACE(keyword(b));
    expectFusedRunsEqualSingleSteps(planWith(gaussian5(Precision::FP32, b), LowRankRequest::Auto));
  }
}

TEST(SimtLowRankPlan, PairedOrderWhereBothKernelsKeepIt) {
  // The 7 x 7 blur's one pass of weight-1 taps and one coefficient along y
  // pairs where the grid does not wrap, fused in the queued form as
  // measured (T 4) or one step a launch, and so does the box beside its
  // centre (a term at the point); the periodic blur, EBISU's 2d49pt (three
  // passes) and a window form do not.
  for (Precision p : {Precision::FP64, Precision::FP32}) {
    for (BoundaryKind b : {Fixed, BoundaryKind::Constant}) {
      SCOPED_TRACE(keyword(b));
      const Plan blur = planWith(uniformBox(3, p, b), LowRankRequest::Auto);
      ASSERT_TRUE(blur.simt().lowRank.form);
      EXPECT_TRUE(blur.simt().lowRank.form->paired);
      EXPECT_EQ(blur.schedule.fusedSteps, 4);
      EXPECT_TRUE(blur.schedule.fused.queued);
      EXPECT_TRUE(
          planWith(uniformBox(3, p, b), LowRankRequest::Auto, 1).simt().lowRank.form->paired);
    }
    const Plan periodic = planWith(uniformBox(3, p, BoundaryKind::Periodic), LowRankRequest::Auto);
    EXPECT_FALSE(periodic.simt().lowRank.form->paired);
    EXPECT_EQ(periodic.schedule.fusedSteps, 3); // the unpaired order's measurement
    EXPECT_TRUE(
        planWith(boxPlusCentre(3, p, Fixed), LowRankRequest::Auto).simt().lowRank.form->paired);
    EXPECT_FALSE(planWith(ebisu49(p, Fixed), LowRankRequest::Auto).simt().lowRank.form->paired);
  }
  // fp16 fuses by the rule in windows, which the order is not written for.
  const Plan half = planWith(uniformBox(3, Precision::FP16, Fixed), LowRankRequest::Auto);
  ASSERT_GT(half.schedule.fusedSteps, 1);
  EXPECT_FALSE(half.schedule.fused.queued);
  EXPECT_FALSE(half.simt().lowRank.form->paired);
}

namespace {

/// The bound of docs/generated-code.md ("Low-rank form") on one step's
/// error at any point, against the exact step on the same input: (b + p +
/// N + 2) u M max|in|, b the most taps of a row pass, p the most taps of a
/// plane value (3D; 1 in 2D), N the multiply-adds along the streamed axis,
/// u the arithmetic's unit roundoff, M the sum of the magnitudes the form
/// multiplies (the amplification times sum |c|); plus, for 16-bit
/// elements, the rounding of the result to the element type.
double stepBound(const Plan &plan, const GridND &in, double reference) {
  const SimtPlan &sp = plan.simt();
  const LowRankForm &f = *sp.lowRank.form;
  int taps = 0, valueTaps = 1;
  for (int k = 0; k < f.passes; ++k) {
    taps = std::max<int>(
        taps, static_cast<int>(std::count_if(f.rowTaps.begin(), f.rowTaps.end(),
                                             [k](const LowRankRowTap &t) { return t.pass == k; })));
  }
  for (int k = 0; k < f.planeValues; ++k) {
    valueTaps = std::max<int>(
        valueTaps,
        static_cast<int>(std::count_if(f.planeTaps.begin(), f.planeTaps.end(),
                                       [k](const LowRankPlaneTap &t) { return t.plane == k; })));
  }
  double sumAbs = 0.0;
  for (const Term &t : plan.spec.terms) {
    sumAbs += std::fabs(t.coefficient);
  }
  double maxIn = 0.0;
  for (double v : in.values) {
    maxIn = std::max(maxIn, std::fabs(v));
  }
  const double u = sp.compute == Precision::FP64 ? 0x1p-53 : 0x1p-24;
  const double element = plan.spec.precision == Precision::FP16   ? 0x1p-11
                         : plan.spec.precision == Precision::BF16 ? 0x1p-8
                                                                  : 0.0;
  const double arithmetic = (taps + valueTaps + static_cast<double>(f.terms.size()) + 1) * u *
                            sp.lowRank.amplification * sumAbs * maxIn;
  return arithmetic + element * (std::fabs(reference) + arithmetic);
}

/// The largest error of one emulated step of `plan` against the float64
/// direct reference, over maxIn; fails where a point passes stepBound.
double stepError(const Plan &plan, std::array<int, 3> n, unsigned seed) {
  const StencilSpec &spec = plan.spec;
  const GridND in = randomGridND(spec.dims, n, spec.precision, seed);
  GridND emulated = in, reference = in;
  emulateSimtStep(plan, in, emulated);
  referenceStepND(spec, in, reference);
  double worst = 0.0;
  int over = 0;
  for (std::size_t i = 0; i < in.points(); ++i) {
    const double error = std::fabs(emulated.values[i] - reference.values[i]);
    over += error > stepBound(plan, in, reference.values[i]);
    worst = std::max(worst, error);
  }
  EXPECT_EQ(over, 0) << spec.name << ": points past the stated bound";
  return worst; // the inputs lie in [0, 1): relative to max |in| about 1
}

struct ErrorCase {
  StencilSpec spec;
  LowRankRequest request;
};

/// Prints the largest error of one step and of 100 steps (NAME_run) of the
/// direct form (its coefficients as given: scale=off) and of `c`'s form
/// against the float64 direct reference, on
/// a periodic grid of n values in [0, 1) (n[2] 1 in 2D); fails where the
/// form's 100 steps pass the per-step tolerance the GPU tests hold a run to.
void measureErrors(const ErrorCase &c, std::array<int, 3> n) {
  const Precision p = c.spec.precision;
  double errors[2][2];
  for (int form = 0; form < 2; ++form) {
    const Plan plan = planWith(c.spec, form ? c.request : LowRankRequest::Off, 0,
                               form ? ScaleRequest::Auto : ScaleRequest::Off);
    ASSERT_EQ(plan.simt().lowRank.form.has_value(), form == 1);
    for (int k = 0; k < 2; ++k) {
      const int steps = k ? 100 : 1;
      errors[form][k] = runError(plan, n, steps, 99);
    }
  }
  const bool paired = planWith(c.spec, c.request).simt().lowRank.form->paired;
  fmt::print("low-rank error {:<17} {:<8} direct 1 step {:.1e}, 100 steps {:.1e}; low-rank{} 1 "
             "step {:.1e}, 100 steps {:.1e}\n",
             c.spec.name, keyword(c.spec.boundary), errors[0][0], errors[0][1],
             paired ? " paired" : "", errors[1][0], errors[1][1]);
  EXPECT_LE(errors[1][1], 100 * relativeTolerance(p));
}

} // namespace

TEST(SimtLowRankEmulator, OneStepWithinTheStatedBound) {
  for (Precision p : {Precision::FP64, Precision::FP32, Precision::FP16, Precision::BF16}) {
    for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
      const ErrorCase cases[] = {{uniformBox(3, p, b), LowRankRequest::Auto},
                                 {uniformBox(1, p, b), LowRankRequest::On},
                                 {gaussian5(p, b), LowRankRequest::Auto},
                                 {boxPlusCentre(1, p, b), LowRankRequest::On},
                                 {boxPlusCentre(3, p, b), LowRankRequest::Auto},
                                 {ebisu49(p, b), LowRankRequest::On}};
      for (const ErrorCase &c : cases) {
        SCOPED_TRACE(fmt::format("{} {}", c.spec.name, keyword(b)));
        Plan plan = planWith(c.spec, c.request);
        ASSERT_TRUE(plan.simt().lowRank.form) << plan.simt().lowRank.why;
        for (std::array<int, 3> n : {std::array<int, 3>{7, 7, 1}, {37, 141, 1}}) {
          stepError(plan, n, 17u * n[0] + n[1]);
        }
      }
    }
  }
}

// The measured error of the form against the direct one, which
// docs/generated-code.md quotes: one step and 100 steps (NAME_run's fused
// passes) on a periodic 64 x 64 grid of values in [0, 1), the largest
// difference from the float64 direct reference.
TEST(SimtLowRankEmulator, MeasuredErrorAgainstTheDirectForm) {
  for (Precision p : {Precision::FP64, Precision::FP32}) {
    const ErrorCase cases[] = {{uniformBox(3, p, BoundaryKind::Periodic), LowRankRequest::Auto},
                               {uniformBox(3, p, BoundaryKind::Constant), LowRankRequest::Auto},
                               {boxPlusCentre(3, p, BoundaryKind::Constant), LowRankRequest::Auto},
                               {gaussian5(p, BoundaryKind::Periodic), LowRankRequest::Auto},
                               {boxPlusCentre(1, p, BoundaryKind::Periodic), LowRankRequest::On},
                               {ebisu49(p, BoundaryKind::Periodic, 313.0), LowRankRequest::On}};
    for (const ErrorCase &c : cases) {
      measureErrors(c, {64, 64, 1});
    }
  }
}

TEST(SimtLowRankEmulator, PairedOrderAddsPairsOfAnEvenIndex) {
  // A run of 7 fp32 taps: 1 at offset -3, 2^-24 at the others. Added one
  // by one, each 2^-24 ties to the even 1; in pairs two of them make 2^-23,
  // which 1 keeps. At an even column the pairs start at -2 (1 + 3 2^-23);
  // at an odd one at -3, where 1 + 2^-24 ties to 1 (1 + 2^-22 after).
  const PairedRuns runs{-3, 3, -3, 3, 1.0, {}};
  const auto read = [](int dx) { return dx == -3 ? 1.0 : 0x1p-24; };
  EXPECT_EQ(pairedRowPass(runs, Precision::FP32, 10, read), 1.0 + 3 * 0x1p-23);
  EXPECT_EQ(pairedRowPass(runs, Precision::FP32, -7, read), 1.0 + 0x1p-22);
  // Along y the same blocks, each a multiply-add of c from 0.
  const auto grid = [&](int dy, int dx) { return dy == -3 ? read(dx) : 0.0; };
  EXPECT_EQ(pairedPoint(runs, Precision::FP32, 4, 10, grid), 1.0 + 3 * 0x1p-23);
  const PairedRuns column{0, 0, -3, 3, 1.0, {}};
  const auto rows = [](int dy, int) { return dy == -3 ? 1.0 : 0x1p-24; };
  EXPECT_EQ(pairedPoint(column, Precision::FP32, 4, 0, rows), 1.0 + 3 * 0x1p-23);
  EXPECT_EQ(pairedPoint(column, Precision::FP32, 3, 0, rows), 1.0 + 0x1p-22);
}

TEST(SimtLowRankEmulator, FusedRunsEqualSingleStepsOfTheForm) {
  for (Precision p : {Precision::FP64, Precision::FP32, Precision::FP16}) {
    for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
      for (const StencilSpec &spec :
           {uniformBox(3, p, b), boxPlusCentre(1, p, b), boxPlusCentre(3, p, b), ebisu49(p, b)}) {
        Plan plan = planWith(spec, LowRankRequest::On, 3);
        ASSERT_TRUE(plan.simt().lowRank.form);
        ASSERT_EQ(plan.schedule.fusedSteps, 3);
        SCOPED_TRACE(keyword(b));
        expectFusedRunsEqualSingleSteps(plan);
      }
    }
  }
}

// ---- 3D: the unfolding along z in the step kernel ----

TEST(SimtLowRank3DPlan, UsedWhereAThreadExecutesFewerOperations) {
  // box3d27p: a uniform box (a pass of 3, 3 along y, 3 along z) and the
  // centre folded into one multiply-add; the pass is computed for 18 rows
  // of the plane window a 16-row tile.
  const Plan box = planWith(box3DPlusCentre(1, Precision::FP64, Fixed), LowRankRequest::Auto);
  ASSERT_TRUE(box.simt().lowRank.form) << box.simt().lowRank.why;
  const LowRankForm &f = *box.simt().lowRank.form;
  EXPECT_EQ(f.ops(), 10);
  EXPECT_EQ(f.passes, 1);
  EXPECT_EQ(f.planeValues, 1);
  EXPECT_DOUBLE_EQ(f.executedOps(box.simt().planeRows, box.simt().tileY), 3.0 * 18 / 16 + 7);
  EXPECT_EQ(box.schedule.fusedSteps, 2); // as measured fused on an H200
  EXPECT_GT(box.simt().passBytes(), 0);
  // Every used form takes the analysis' operations along i.
  for (const StencilSpec &spec :
       {laplacian27(Precision::FP64, Fixed), box3DPlusCentre(2, Precision::FP64, Fixed),
        laplacian27(Precision::FP16, BoundaryKind::Periodic)}) {
    SCOPED_TRACE(spec.name);
    const Plan plan = planWith(spec, LowRankRequest::On);
    ASSERT_TRUE(plan.simt().lowRank.form) << plan.simt().lowRank.why;
    EXPECT_EQ(plan.simt().lowRank.form->ops(), analyseLowRankAlong(spec, 0).decomposedOps);
    // The 3D form fuses 2 steps at radius 1 in fp64 and fp32 (measured
    // faster so), none at radius 2 (measured slower fused) or in 16 bits.
    EXPECT_EQ(plan.schedule.fusedSteps,
              spec.precision == Precision::FP16 || spec.radius == 2 ? 1 : 2);
  }
  EXPECT_EQ(planWith(laplacian27(Precision::FP64, Fixed), LowRankRequest::Auto)
                .simt()
                .lowRank.form->ops(),
            15);
  EXPECT_EQ(planWith(box3DPlusCentre(2, Precision::FP64, Fixed), LowRankRequest::Auto)
                .simt()
                .lowRank.form->ops(),
            16);
}

TEST(SimtLowRank3DPlan, AutoFollowsTheMeasurements) {
  // Measured: at radius 1 in fp64 and fp32 the form fused beat the fused
  // direct form, so auto takes it, fp64 T 2 (on an H200), fp32 T 3 (on an
  // H100; tf32, fp32 arithmetic on CUDA cores, with fp32's entry); one step
  // a launch in fp32 arithmetic it lost, so auto keeps the direct form where
  // the form does not fuse (16 bits); under a folding rule it fuses with a
  // band, and auto keeps it (fp32); at radius 2 it won one step a launch in
  // both.
  for (Precision p : {Precision::FP64, Precision::FP32, Precision::TF32}) {
    const Plan fused = planWith(box3DPlusCentre(1, p, Fixed), LowRankRequest::Auto);
    ASSERT_TRUE(fused.simt().lowRank.form) << fused.simt().lowRank.why;
    EXPECT_EQ(fused.schedule.fusedSteps, p == Precision::FP64 ? 2 : 3);
    EXPECT_NE(fused.schedule.why.find("measured best for the low-rank form"), std::string::npos)
        << fused.schedule.why;
  }
  const Plan clamp =
      planWith(box3DPlusCentre(1, Precision::FP32, BoundaryKind::Clamp), LowRankRequest::Auto);
  EXPECT_TRUE(clamp.simt().lowRank.form);
  EXPECT_EQ(clamp.schedule.fusedSteps, 3);
  EXPECT_TRUE(clamp.schedule.fused.band.has_value());
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    const Plan direct = planWith(box3DPlusCentre(1, p, Fixed), LowRankRequest::Auto);
    EXPECT_FALSE(direct.simt().lowRank.form);
    EXPECT_TRUE(direct.simt().lowRank.fellBack);
    EXPECT_NE(direct.simt().lowRank.why.find("measured slower at radius 1"), std::string::npos)
        << direct.simt().lowRank.why;
  }
  EXPECT_TRUE(planWith(box3DPlusCentre(2, Precision::FP32, Fixed), LowRankRequest::Auto)
                  .simt()
                  .lowRank.form);
  // lowrank=on takes the form where auto does not, fused as fuse asks.
  const Plan on = planWith(box3DPlusCentre(1, Precision::FP32, Fixed), LowRankRequest::On, 2);
  ASSERT_TRUE(on.simt().lowRank.form);
  EXPECT_EQ(on.schedule.fusedSteps, 2);
  EXPECT_FALSE(on.schedule.lowered);
  // fuse=T asked under auto where the fused form is not measured faster
  // (radius 2): the direct form, fused.
  const Plan asked = planWith(box3DPlusCentre(2, Precision::FP64, Fixed), LowRankRequest::Auto, 2);
  EXPECT_FALSE(asked.simt().lowRank.form);
  EXPECT_EQ(asked.schedule.fusedSteps, 2);
  EXPECT_NE(asked.simt().lowRank.why.find("measured faster only at radius 1"), std::string::npos)
      << asked.simt().lowRank.why;
  // The direct block where the form is not used: as under lowrank=off.
  const Plan off = planWith(box3DPlusCentre(2, Precision::FP64, Fixed), LowRankRequest::Off, 2);
  EXPECT_EQ(asked.simt().buffers, off.simt().buffers);
  EXPECT_EQ(asked.simt().tileY, off.simt().tileY);
}

TEST(SimtLowRank3DPlan, StepsTakeTheFusedKernelWhereMeasuredFaster) {
  // One level of the fused kernel measured faster than the step kernel for
  // the form at radius 1 in fp32 arithmetic (box3d27p fp32 on an H200), not
  // in fp64 (slower) nor on a periodic grid; and only at the measured
  // geometry (not where fuse asks another T).
  for (Precision p : {Precision::FP32, Precision::TF32}) {
    const Plan fused = planWith(box3DPlusCentre(1, p, Fixed), LowRankRequest::Auto);
    EXPECT_TRUE(fused.schedule.fused.takesSteps) << keyword(p);
    EXPECT_NE(fused.schedule.fused.stepWhy.find("box3d27p fp32 on an H200"), std::string::npos)
        << fused.schedule.fused.stepWhy;
  }
  EXPECT_FALSE(planWith(box3DPlusCentre(1, Precision::FP64, Fixed), LowRankRequest::Auto)
                   .schedule.fused.takesSteps);
  EXPECT_FALSE(planWith(box3DPlusCentre(1, Precision::FP32, Fixed), LowRankRequest::On, 3)
                   .schedule.fused.takesSteps);
  const Plan periodic =
      planWith(box3DPlusCentre(1, Precision::FP32, BoundaryKind::Periodic), LowRankRequest::Auto);
  ASSERT_GT(periodic.schedule.fusedSteps, 1);
  EXPECT_FALSE(periodic.schedule.fused.takesSteps);
}

TEST(SimtLowRank3DPlan, InputPlanesStagedWhereMeasured) {
  // As measured on an H100 (2026-12-07 about 00:45): the fused passes of
  // the fp32 box's low-rank form stage their input planes 3 ahead in
  // shared memory, the fp32 stars of radius 1 2 ahead and of radius 2 3;
  // fp64, a periodic grid and a target whose shared memory the slots do
  // not fit (sm_86) stage none, at the same T. (barrier=sync: the shared
  // memory without the split barrier's deeper rings, SimtSplitBarrierTest.)
  const auto fused = [](const StencilSpec &spec, Arch arch) {
    PlanOptions options = onSm90();
    options.target = arch;
    options.compose = ComposeRequest::Off;
    options.barrier = BarrierRequest::Sync;
    return planSimt(spec, options).schedule;
  };
  const Schedule box = fused(box3DPlusCentre(1, Precision::FP32, Fixed), Arch::Sm90);
  EXPECT_EQ(box.fusedSteps, 3);
  EXPECT_EQ(box.fused.stagedPlanes, 3);
  const Schedule star =
      fused(makeStencil(3, Shape::Star, 1, Precision::FP32, Fixed, 3), Arch::Sm90);
  EXPECT_EQ(star.fused.stagedPlanes, 2);
  // The slots: two more than the planes staged, each thread's 4 rows of 2
  // floats.
  EXPECT_EQ(stagedPlaneBytes(star.fused, star.fusedSteps), 4 * 4 * 512 * 8);
  const Schedule star86 =
      fused(makeStencil(3, Shape::Star, 1, Precision::FP32, Fixed, 3), Arch::Sm86);
  EXPECT_EQ(star86.fusedSteps, star.fusedSteps);
  EXPECT_EQ(star86.fused.stagedPlanes, 0);
  EXPECT_EQ(star.fused.sharedBytes,
            star86.fused.sharedBytes + stagedPlaneBytes(star.fused, star.fusedSteps));
  EXPECT_EQ(fused(makeStencil(3, Shape::Star, 2, Precision::FP32, Fixed, 3), Arch::Sm90)
                .fused.stagedPlanes,
            3);
  EXPECT_EQ(fused(makeStencil(3, Shape::Star, 1, Precision::FP64, Fixed, 3), Arch::Sm90)
                .fused.stagedPlanes,
            0);
  EXPECT_EQ(
      fused(makeStencil(3, Shape::Star, 1, Precision::FP32, BoundaryKind::Periodic, 3), Arch::Sm90)
          .fused.stagedPlanes,
      0);
}

TEST(SimtLowRank3DPlan, EbisuStaysDirectUnderAuto) {
  // Its unfolding has rank 2 but both planes full rank: 21 operations of 27
  // only by the unfolding; auto keeps a peer's stencil direct.
  for (Precision p : {Precision::FP64, Precision::FP32}) {
    const Plan automatic = planWith(ebisu27(p, Fixed), LowRankRequest::Auto);
    EXPECT_FALSE(automatic.simt().lowRank.form);
    EXPECT_NE(automatic.simt().lowRank.why.find("no plane is separable"), std::string::npos)
        << automatic.simt().lowRank.why;
    const Plan on = planWith(ebisu27(p, Fixed), LowRankRequest::On);
    ASSERT_TRUE(on.simt().lowRank.form) << on.simt().lowRank.why;
    EXPECT_EQ(on.simt().lowRank.form->ops(), 21);
    EXPECT_EQ(on.simt().lowRank.form->passes, 0);
  }
}

TEST(SimtLowRank3DEmulator, OneStepWithinTheStatedBound) {
  for (Precision p : {Precision::FP64, Precision::FP32, Precision::FP16, Precision::BF16}) {
    for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
      const ErrorCase cases[] = {{box3DPlusCentre(1, p, b), LowRankRequest::On},
                                 {laplacian27(p, b), LowRankRequest::On},
                                 {box3DPlusCentre(2, p, b), LowRankRequest::Auto},
                                 {ebisu27(p, b), LowRankRequest::On}};
      for (const ErrorCase &c : cases) {
        SCOPED_TRACE(fmt::format("{} {}", c.spec.name, keyword(b)));
        const Plan plan = planWith(c.spec, c.request);
        ASSERT_TRUE(plan.simt().lowRank.form) << plan.simt().lowRank.why;
        for (std::array<int, 3> n : {std::array<int, 3>{5, 6, 7}, {11, 21, 37}}) {
          stepError(plan, n, 17u * n[0] + n[1]);
        }
      }
    }
  }
}

// NAME_run of a 3D form fuses T steps a pass (fused3d.cuh with the form's
// row passes and plane values): bit for bit as many single steps of the
// step kernel's form, at every boundary that fuses, in fp64, fp32 and
// fp16, for forms with shared row passes (the boxes, the Laplacian's heat
// step: the bare Laplacian's steps grow past fp16 and store NaN either
// way) and without (EBISU's 3d27pt: plane values of the input's taps), at
// T 2 and 3 (radius 2: T 2, whose rings fit the shared memory).
TEST(SimtLowRank3DEmulator, FusedRunsEqualSingleStepsOfTheForm) {
  for (Precision p : {Precision::FP64, Precision::FP32, Precision::FP16}) {
    for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
      const std::pair<StencilSpec, int> cases[] = {{box3DPlusCentre(1, p, b), 3},
                                                   {heat27(p, b), 2},
                                                   {box3DPlusCentre(2, p, b), 2},
                                                   {ebisu27(p, b, 2457.0), 2}};
      for (const auto &[spec, fuse] : cases) {
        SCOPED_TRACE(fmt::format("{} {}", spec.name, keyword(b)));
        const Plan plan = planWith(spec, LowRankRequest::On, fuse);
        ASSERT_TRUE(plan.simt().lowRank.form) << plan.simt().lowRank.why;
        ASSERT_EQ(plan.schedule.fusedSteps, fuse) << plan.schedule.why;
        expectFused3DRunsEqualSingleSteps(plan);
      }
    }
  }
}

// The measured error of the 3D form against the direct one, which
// docs/generated-code.md quotes: one step and 100 steps on a periodic
// 12 x 16 x 20 grid of values in [0, 1), the largest difference from the
// float64 direct reference (the Laplacian's sum is 0 and its steps grow, so
// the 100 steps are a heat step's of the same structure, heat27).
TEST(SimtLowRank3DEmulator, MeasuredErrorAgainstTheDirectForm) {
  for (Precision p : {Precision::FP64, Precision::FP32}) {
    const ErrorCase cases[] = {{box3DPlusCentre(1, p, BoundaryKind::Periodic), LowRankRequest::On},
                               {heat27(p, BoundaryKind::Periodic), LowRankRequest::On},
                               {box3DPlusCentre(2, p, BoundaryKind::Periodic), LowRankRequest::On},
                               {ebisu27(p, BoundaryKind::Periodic, 2457.0), LowRankRequest::On}};
    for (const ErrorCase &c : cases) {
      measureErrors(c, {12, 16, 20});
    }
  }
}
