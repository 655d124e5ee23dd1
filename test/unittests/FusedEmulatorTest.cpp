//===- FusedEmulatorTest.cpp - fused plans run as single steps do, on the CPU -===//
//
// For every 2D shape, radius 1-3, precision and boundary the fused kernel
// takes, runs NAME_run's model (FusedEmulator.h: passes of T fused steps
// and the remainder, block by block, strip and lag as planned) and checks
// it against T single steps of the step kernel's model, bit for bit, and
// against T float64 steps within T times the one-step tolerance: at step
// counts 1, T - 1, T, T + 1 and 3T + 2, on grids smaller than the fused
// halo, odd grids, and grids of several strips and row chunks (the plans'
// strips and chunks made narrow so small grids have many blocks). Also the
// planner's choices of T, its fit into shared memory, and its refusals.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtPlanner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil;
using stencilc::testing::randomGridND;

namespace {

/// `steps` float64 steps of the spec (the ring of a fixed grid kept).
GridND referenceRun(const StencilSpec &spec, GridND a, int steps) {
  for (int s = 0; s < steps; ++s) {
    GridND b = a;
    referenceStepND(spec, a, b);
    a = std::move(b);
  }
  return a;
}

/// The plan with one step a launch: what NAME_run would do without fusion.
Plan unfused(Plan plan) {
  plan.schedule = Schedule{};
  return plan;
}

bool sameBits(const GridND &a, const GridND &b) {
  for (std::size_t i = 0; i < a.points(); ++i) {
    if (std::memcmp(&a.values[i], &b.values[i], sizeof(double)) != 0) {
      return false;
    }
  }
  return true;
}

bool anyNaN(const GridND &g) {
  for (double v : g.values) {
    if (std::isnan(v)) {
      return true;
    }
  }
  return false;
}

void checkRuns(const Plan &plan, std::array<int, 3> n, unsigned seed) {
  const StencilSpec &spec = plan.spec;
  const int t = plan.schedule.fusedSteps;
  for (int steps : {1, t - 1, t, t + 1, 3 * t + 2}) {
    if (steps < 1) {
      continue;
    }
    SCOPED_TRACE(::testing::Message()
                 << spec.name << " " << keyword(spec.boundary) << " " << n[0] << "x" << n[1]
                 << " T " << t << " width " << plan.schedule.fused.width << " chunk "
                 << plan.schedule.fused.chunkRows << " steps " << steps);
    const GridND in = randomGridND(2, n, spec.precision, seed + steps);
    GridND fused = in, single = in;
    emulateRun(plan, fused, steps);
    emulateRun(unfused(plan), single, steps);
    EXPECT_FALSE(anyNaN(fused)) << "a stored point read a value the block does not hold";
    EXPECT_TRUE(sameBits(fused, single)) << "the fused passes differ from single steps";
    const GridND reference = referenceRun(spec, in, steps);
    EXPECT_LE(relativeL2ErrorND(spec, fused, reference), relativeTolerance(spec.precision) * steps);
  }
}

class FusedRuns : public ::testing::TestWithParam<std::tuple<Shape, int, Precision, BoundaryKind>> {
};

TEST_P(FusedRuns, EqualSingleSteps) {
  const auto [shape, r, precision, boundary] = GetParam();
  const StencilSpec spec = makeStencil(2, shape, r, precision, boundary, 40 + r);
  for (int fuse : {0, 3}) {
    PlanOptions options;
    options.target = Arch::Sm90;
    options.fusedSteps = fuse;
    const Plan plan = planSimt(spec, options);
    if (fuse == 0 && plan.schedule.fusedSteps == 1) {
      continue; // the planner's own T is 1 (fp64 at radius 3): nothing fused
    }
    ASSERT_GT(plan.schedule.fusedSteps, 1) << plan.schedule.why;
    const int least = boundary == BoundaryKind::Fixed ? 2 * r + 1 : 1;
    // As planned (one strip, one chunk on these grids, all smaller than the
    // fused halo) ...
    for (std::array<int, 3> n : {std::array<int, 3>{least, least, 1}, {least + 2, least + 1, 1}}) {
      checkRuns(plan, n, 7u * n[0] + n[1]);
    }
    // ... and with narrow strips and short chunks, so that the grids have
    // many blocks each way.
    Plan narrow = plan;
    narrow.schedule.fused.width = 2 * narrow.schedule.fused.halo + 8;
    narrow.schedule.fused.chunkRows = 3;
    for (std::array<int, 3> n : {std::array<int, 3>{17, 19, 1}, {23, 41, 1}}) {
      checkRuns(narrow, n, 7u * n[0] + n[1]);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Stencils, FusedRuns,
    ::testing::Combine(::testing::Values(Shape::Star, Shape::Box), ::testing::Values(1, 2, 3),
                       ::testing::Values(Precision::FP64, Precision::FP32, Precision::TF32,
                                         Precision::FP16, Precision::BF16),
                       ::testing::Values(BoundaryKind::Fixed, BoundaryKind::Constant,
                                         BoundaryKind::Periodic)),
    [](const auto &info) {
      return fmt::format("{}_r{}_{}_{}", keyword(std::get<0>(info.param)), std::get<1>(info.param),
                         keyword(std::get<2>(info.param)), keyword(std::get<3>(info.param)));
    });

// The model notices a plan whose halo or chunk is wrong: with a halo one
// column short of T x r, a block's stored columns next to the strip's edge
// read values it does not hold (NaN in the model).
TEST(FusedPlans, AHaloShortOfTStepsShows) {
  const StencilSpec spec =
      makeStencil(2, Shape::Box, 1, Precision::FP64, BoundaryKind::Periodic, 11);
  PlanOptions options;
  options.fusedSteps = 3;
  Plan plan = planSimt(spec, options);
  ASSERT_EQ(plan.schedule.fusedSteps, 3);
  plan.schedule.fused.halo = 3 * spec.radius - 1;
  plan.schedule.fused.width = 2 * plan.schedule.fused.halo + 8;
  plan.schedule.fused.chunkRows = 4;
  GridND grid = randomGridND(2, {9, 30, 1}, spec.precision, 5);
  emulateRun(plan, grid, 3);
  EXPECT_TRUE(anyNaN(grid));
}

TEST(FusedPlans, OnlyTwoDimensionalStencilsFuse) {
  for (int dims : {1, 3}) {
    const StencilSpec spec =
        makeStencil(dims, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 3);
    const Plan plan = planSimt(spec);
    EXPECT_EQ(plan.schedule.fusedSteps, 1);
    EXPECT_FALSE(plan.schedule.lowered);
    PlanOptions asked;
    asked.fusedSteps = 4;
    const Plan lowered = planSimt(spec, asked);
    EXPECT_EQ(lowered.schedule.fusedSteps, 1);
    EXPECT_TRUE(lowered.schedule.lowered) << "fuse=4 asked of a " << dims << "D stencil";
  }
}

TEST(FusedPlans, FuseOneIsTheStepKernel) {
  const StencilSpec spec = makeStencil(2, Shape::Box, 1, Precision::FP32, BoundaryKind::Fixed, 5);
  PlanOptions options;
  options.fusedSteps = 1;
  const Plan plan = planSimt(spec, options);
  EXPECT_EQ(plan.schedule.fusedSteps, 1);
  EXPECT_FALSE(plan.schedule.lowered);
}

/// Every fused plan keeps fused.cuh's rules: whole warps, a thread's
/// columns at least the radius and whole 4-, 8- or 16-byte accesses, a halo
/// of T x r or more in whole accesses, and columns left to store.
TEST(FusedPlans, GeometryKeepsTheKernelsRules) {
  for (Precision p : {Precision::FP64, Precision::FP32, Precision::FP16, Precision::BF16}) {
    for (Shape shape : {Shape::Star, Shape::Box}) {
      for (int r : {1, 2, 3, 4, 6, 8, 16, 32}) {
        for (int fuse : {0, 2, 8}) {
          const StencilSpec spec = makeStencil(2, shape, r, p, BoundaryKind::Periodic, r);
          PlanOptions options;
          options.fusedSteps = fuse;
          const Plan plan = planSimt(spec, options);
          const Schedule &s = plan.schedule;
          SCOPED_TRACE(::testing::Message() << keyword(shape) << " " << keyword(p) << " r " << r
                                            << " fuse " << fuse << ": " << s.why);
          EXPECT_GE(s.fusedSteps, 1);
          EXPECT_LE(s.fusedSteps, 8);
          EXPECT_EQ(s.fusedSteps, fuse ? fuse : s.fusedSteps);
          EXPECT_FALSE(s.lowered);
          if (s.fusedSteps > 1) {
            const FusedKernel &k = s.fused;
            const int bytes = static_cast<int>(elementBytes(p));
            const int vec = k.accessBytes / bytes;
            EXPECT_EQ(k.threads % 32, 0);
            EXPECT_EQ(k.width % 32, 0);
            EXPECT_GE(k.columnsPerThread(), r);
            EXPECT_TRUE(k.accessBytes == 4 || k.accessBytes == 8 || k.accessBytes == 16);
            EXPECT_EQ(k.columnsPerThread() % vec, 0);
            EXPECT_GE(k.halo, s.fusedSteps * r);
            EXPECT_EQ(k.halo % vec, 0);
            EXPECT_GE(k.storedColumns(), vec);
            EXPECT_GE(k.redundantShare, 0.0);
            EXPECT_LT(k.redundantShare, 1.0);
          }
        }
      }
    }
  }
}

} // namespace
