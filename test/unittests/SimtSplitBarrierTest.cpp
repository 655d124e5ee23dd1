//===- SimtSplitBarrierTest.cpp - the fused 3D pass's split barrier -------===//
//
// A fused 3D pass of several levels for sm_90 takes the split barrier
// (fused3d.cuh's kSplitBarrier) where barrier=split asks or, by default,
// where its kind measured faster with it (MeasuredFusion::splitBarrier);
// each level's ring a plane deeper, rounded up to whole register queues,
// and 16 bytes of mbarrier; never under barrier=sync, before sm_90, for one
// level or in 2D. Under ring=rotate the rings are not rounded up.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "Backends/Simt/SimtFusion.h"
#include "Backends/Simt/SimtPlanner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil;
using stencilc::testing::onSm90;

namespace {

Plan planBarrier(const StencilSpec &spec, BarrierRequest barrier, int fuse = 0) {
  PlanOptions options = onSm90(fuse);
  options.barrier = barrier;
  return planSimt(spec, options);
}

/// A box of radius 1 in fp64, direct, at T 2 under `barrier` and `ring`.
Plan planBox(const StencilSpec &box, BarrierRequest barrier, RingRequest ring = RingRequest::Auto) {
  PlanOptions options = onSm90(2);
  options.lowRank = LowRankRequest::Off;
  options.barrier = barrier;
  options.ring = ring;
  return planSimt(box, options);
}

/// The bytes of one plane of every level's ring of `k` (fused3d.cuh's
/// kEdgePlane times the element and the levels).
int ringPlaneBytes(const StencilSpec &spec, const FusedKernel &k, int levels) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int cols = k.accessBytes / bytes, r = spec.radius;
  const int pad = (r + cols - 1) / cols * cols;
  return levels * (k.height / k.rows + 2) * 2 * r * (k.width + 2 * pad) * bytes;
}

} // namespace

TEST(SimtSplitBarrier, AStarsRingsGainAPlaneAndTheBarrier) {
  // A star of radius 1 lags 1 plane and reads 1: 2 planes a level, 3 under
  // the split barrier (its queue of 3 already whole).
  for (Precision p : {Precision::FP64, Precision::FP32}) {
    const StencilSpec spec = makeStencil(3, Shape::Star, 1, p, BoundaryKind::Fixed, 7);
    const Plan plain = planBarrier(spec, BarrierRequest::Sync, 3);
    const Plan split = planBarrier(spec, BarrierRequest::Split, 3);
    ASSERT_EQ(plain.schedule.fusedSteps, 3);
    ASSERT_EQ(split.schedule.fusedSteps, 3);
    EXPECT_FALSE(plain.schedule.fused.splitBarrier);
    EXPECT_TRUE(split.schedule.fused.splitBarrier);
    const int plane = ringPlaneBytes(spec, plain.schedule.fused, 3);
    EXPECT_EQ(split.schedule.fused.sharedBytes - plain.schedule.fused.sharedBytes,
              (3 * plane + 15) / 16 * 16 - (2 * plane + 15) / 16 * 16 + 16)
        << keyword(p);
  }
}

TEST(SimtSplitBarrier, ABoxsRingsDoubleToWholeQueues) {
  // A box of radius 1 lags 2 planes and reads 3: 4 planes a level, a queue
  // of 4; under the split barrier 5, rounded up to 8.
  const StencilSpec spec = makeStencil(3, Shape::Box, 1, Precision::FP64, BoundaryKind::Fixed, 11);
  const Plan plain = planBox(spec, BarrierRequest::Sync);
  const Plan split = planBox(spec, BarrierRequest::Split);
  ASSERT_EQ(plain.schedule.fusedSteps, 2);
  ASSERT_TRUE(split.schedule.fused.splitBarrier);
  const int plane = ringPlaneBytes(spec, plain.schedule.fused, 2);
  EXPECT_EQ(plain.schedule.fused.sharedBytes, (4 * plane + 15) / 16 * 16);
  EXPECT_EQ(split.schedule.fused.sharedBytes, (8 * plane + 15) / 16 * 16 + 16);
}

TEST(SimtSplitBarrier, NotForOneLevelNorIn2D) {
  const StencilSpec star3 = makeStencil(3, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 3);
  EXPECT_FALSE(planBarrier(star3, BarrierRequest::Split, 1).schedule.fused.splitBarrier);
  const StencilSpec star2 = makeStencil(2, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 5);
  EXPECT_FALSE(planBarrier(star2, BarrierRequest::Split, 4).schedule.fused.splitBarrier);
}

TEST(SimtSplitBarrier, AutoTakesItOnSm90Only) {
  const StencilSpec spec = makeStencil(3, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 13);
  const Plan automatic = planBarrier(spec, BarrierRequest::Auto, 3);
  EXPECT_TRUE(automatic.schedule.fused.splitBarrier);
  EXPECT_EQ(automatic.schedule.fused.sharedBytes,
            planBarrier(spec, BarrierRequest::Split, 3).schedule.fused.sharedBytes);
  PlanOptions options = onSm90(3);
  options.target = Arch::Sm86;
  const Plan older = planSimt(spec, options);
  ASSERT_EQ(older.schedule.fusedSteps, 3);
  EXPECT_FALSE(older.schedule.fused.splitBarrier);
}

TEST(SimtSplitBarrier, AutoKeepsTheBarrierAPlaneWhereMeasuredSlower) {
  // The direct form of a box of radius 1 (EBISU's 3d27pt fp32 0.62 x with
  // it on an H100) and the fp32 box's low-rank form (0.95 x).
  const StencilSpec box = makeStencil(3, Shape::Box, 1, Precision::FP32, BoundaryKind::Fixed, 17);
  PlanOptions options = onSm90();
  options.lowRank = LowRankRequest::Off;
  const Plan direct = planSimt(box, options);
  ASSERT_GT(direct.schedule.fusedSteps, 1);
  EXPECT_FALSE(direct.schedule.fused.splitBarrier);
  options.lowRank = LowRankRequest::On;
  const Plan lowRank = planSimt(box, options);
  ASSERT_GT(lowRank.schedule.fusedSteps, 1);
  EXPECT_FALSE(lowRank.schedule.fused.splitBarrier);
}

TEST(SimtSplitBarrier, ARotatingRingUnrollsTheQueueAndStaysUnrounded) {
  // ring=rotate: the loop unrolls lcm(2, the queue's planes), and the
  // split ring stays a plane deeper, unrounded: a box of radius 1 a loop of
  // 4 and rings of 5 planes (8 rounded); a star of radius 2 (queues of 5)
  // a loop of 10. Never by default, nor in 2D.
  const StencilSpec box = makeStencil(3, Shape::Box, 1, Precision::FP64, BoundaryKind::Fixed, 19);
  const Plan whole = planBox(box, BarrierRequest::Split);
  const Plan rotating = planBox(box, BarrierRequest::Split, RingRequest::Rotate);
  ASSERT_TRUE(rotating.schedule.fused.splitBarrier);
  EXPECT_EQ(whole.schedule.fused.unrollPlanes, 0);
  EXPECT_EQ(rotating.schedule.fused.unrollPlanes, 4);
  const int plane = ringPlaneBytes(box, rotating.schedule.fused, 2);
  EXPECT_EQ(rotating.schedule.fused.sharedBytes, (5 * plane + 15) / 16 * 16 + 16);
  const StencilSpec star = makeStencil(3, Shape::Star, 2, Precision::FP32, BoundaryKind::Fixed, 23);
  PlanOptions starOptions = onSm90(2);
  starOptions.ring = RingRequest::Rotate;
  EXPECT_EQ(planSimt(star, starOptions).schedule.fused.unrollPlanes, 10);
  const StencilSpec star2 =
      makeStencil(2, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 29);
  PlanOptions flat = onSm90(4);
  flat.ring = RingRequest::Rotate;
  EXPECT_EQ(planSimt(star2, flat).schedule.fused.unrollPlanes, 0);
}
