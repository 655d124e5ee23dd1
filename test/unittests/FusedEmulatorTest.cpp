//===- FusedEmulatorTest.cpp - fused plans run as single steps do, on the CPU -===//
//
// For every shape, radius (2D 1-3, 1D and 3D 1-2), precision and boundary
// the fused kernels take, runs NAME_run's model (FusedEmulator.h: passes of
// T fused steps and the remainder, block by block, strip, segment or window
// and lag as planned) and checks it against single steps of the step
// kernel's model, bit for bit, and against float64 steps within the steps
// times the one-step tolerance: at step counts 1, T - 1, T, T + 1 and
// 3T + 2, on grids smaller than the fused halo, odd grids, and grids of
// several blocks each way (the plans' blocks made narrow so small grids
// have many). Also the planner's choices of T, its fit into shared memory,
// and its refusals.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Common/Band.h"
#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtPlanner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil;
using stencilc::testing::onSm90;
using stencilc::testing::randomGridND;
using stencilc::testing::referenceRunND;

namespace {

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
                 << spec.name << " " << keyword(spec.boundary) << " " << n[0] << "x" << n[1] << "x"
                 << n[2] << " T " << t << " width " << plan.schedule.fused.width << " height "
                 << plan.schedule.fused.height << " chunk " << plan.schedule.fused.chunkRows
                 << " steps " << steps);
    const GridND in = randomGridND(spec.dims, n, spec.precision, seed + steps);
    GridND fused = in, single = in;
    emulateRun(plan, fused, steps);
    emulateRun(unfused(plan), single, steps);
    EXPECT_FALSE(anyNaN(fused)) << "a stored point read a value the block does not hold";
    EXPECT_TRUE(sameBits(fused, single)) << "the fused passes differ from single steps";
    const GridND reference = referenceRunND(spec, in, steps);
    EXPECT_LE(relativeL2ErrorND(spec, fused, reference), relativeTolerance(spec.precision) * steps);
  }
}

/// Whether 3 fused steps of a periodic fp64 radius-1 star of `dims`,
/// its plan changed by `breakIt`, store a NaN on a random grid of `n`: a
/// point the block does not hold, read by a stored point.
template <class Change> bool storesNaN(int dims, std::array<int, 3> n, Change breakIt) {
  const StencilSpec spec =
      makeStencil(dims, Shape::Star, 1, Precision::FP64, BoundaryKind::Periodic, 11);
  PlanOptions options;
  options.fusedSteps = 3;
  Plan plan = planSimt(spec, options);
  EXPECT_EQ(plan.schedule.fusedSteps, 3);
  breakIt(plan.schedule.fused);
  GridND grid = randomGridND(dims, n, spec.precision, 5);
  emulateRun(plan, grid, 3);
  return anyNaN(grid);
}

// The model notices a plan whose halo is short of T x r (one column, point
// or row): a block's stored points next to its edge read values it does
// not hold (NaN in the model).
TEST(FusedPlans, AHaloShortOfTStepsShows) {
  EXPECT_TRUE(storesNaN(2, {9, 30, 1}, [](FusedKernel &k) {
    k.halo = 2;
    k.width = 2 * k.halo + 8;
    k.chunkRows = 4;
  }));
  EXPECT_TRUE(storesNaN(1, {30, 1, 1}, [](FusedKernel &k) {
    k.halo = 2;
    k.width = 2 * k.halo + 8;
  }));
  EXPECT_TRUE(storesNaN(3, {5, 9, 6}, [](FusedKernel &k) {
    k.haloY = 2;
    k.height = 2 * k.haloY + 3;
  }));
  // As planned, none.
  EXPECT_FALSE(storesNaN(3, {5, 9, 6}, [](FusedKernel &) {}));
}

TEST(FusedPlans, FoldingRulesFuseWithABand) {
  for (int dims : {1, 2, 3}) {
    for (BoundaryKind boundary :
         {BoundaryKind::Clamp, BoundaryKind::Mirror, BoundaryKind::Reflect}) {
      const StencilSpec spec = makeStencil(dims, Shape::Star, 1, Precision::FP64, boundary, 3);
      const Plan plan = planSimt(spec);
      EXPECT_FALSE(plan.schedule.lowered);
      EXPECT_GT(plan.schedule.fusedSteps, 1) << plan.schedule.why;
      ASSERT_TRUE(plan.schedule.fused.band.has_value());
      // 1D: a block an end; 3D: patches of 32 rows of each face.
      EXPECT_EQ(plan.schedule.fused.band->tile, dims == 1 ? 0 : 32);
      PlanOptions asked;
      asked.fusedSteps = 4;
      const Plan four = planSimt(spec, asked);
      if (dims <= 2) {
        EXPECT_EQ(four.schedule.fusedSteps, 4);
        EXPECT_FALSE(four.schedule.lowered);
        continue;
      }
      // sm_80 lets a block opt in to 163 KB: two levels of 4 T r lines of
      // 32 x 32 doubles hold T r 2 (128 KB), not 3 (192 KB).
      EXPECT_EQ(four.schedule.fusedSteps, 2);
      EXPECT_TRUE(four.schedule.lowered);
      EXPECT_NE(four.schedule.why.find("fits no patch of 32 rows"), std::string::npos)
          << four.schedule.why;
    }
  }
  // Fixed, constant and periodic need no band.
  for (BoundaryKind boundary :
       {BoundaryKind::Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
    const Plan plan = planSimt(makeStencil(2, Shape::Star, 1, Precision::FP64, boundary, 3));
    EXPECT_GT(plan.schedule.fusedSteps, 1);
    EXPECT_FALSE(plan.schedule.fused.band.has_value());
  }
}

// A pass of two or more levels under a folding rule reads 0 outside the
// grid (fused.cuh's ReadsOutside): on a grid of ones its first point,
// before the band, is short of the middle's value; the band restores it.
// A pass of one level (NAME_step's) reads the folds and is exact alone.
TEST(FusedPlans, PassesOfLevelsReadZeroOutsideBeforeTheBand) {
  for (int dims : {1, 2, 3}) {
    SCOPED_TRACE(dims);
    const StencilSpec spec =
        makeStencil(dims, Shape::Star, 1, Precision::FP64, BoundaryKind::Mirror, 3);
    const Plan plan = planSimt(spec);
    ASSERT_TRUE(plan.schedule.fused.band.has_value());
    const GridND ones(dims, {12, dims >= 2 ? 12 : 1, dims == 3 ? 12 : 1}, 1.0);
    const std::array<long long, 3> first{0, 0, 0};
    const std::array<long long, 3> middle{6, dims >= 2 ? 6 : 0, dims == 3 ? 6 : 0};
    for (int levels : {1, 2}) {
      SCOPED_TRACE(levels);
      GridND banded = ones, pass = ones;
      emulateFusedPass(plan, ones, banded, levels);
      emulateFusedKernel(plan, ones, pass, levels);
      const double inside = banded.at(middle);
      EXPECT_EQ(pass.at(middle), inside);
      EXPECT_EQ(banded.at(first), inside);
      if (levels == 1) {
        EXPECT_EQ(pass.at(first), inside);
      } else {
        EXPECT_LT(pass.at(first), inside);
      }
    }
  }
}

TEST(FusedPlans, PackedArithmeticDoesNotFuseUnderAFoldingRule) {
  PlanOptions packed;
  packed.arith = ArithRequest::Packed;
  packed.fusedSteps = 4;
  const Plan plan =
      planSimt(makeStencil(2, Shape::Star, 1, Precision::FP16, BoundaryKind::Mirror, 3), packed);
  EXPECT_EQ(plan.schedule.fusedSteps, 1);
  EXPECT_TRUE(plan.schedule.lowered);
  EXPECT_NE(plan.schedule.why.find("packed"), std::string::npos) << plan.schedule.why;
}

// The band's tile kernel holds two levels of (tile + 2 T r)^2 values: 32
// where that fits 48 KB, else 16 where T r allows it, else the smallest
// tile of 16, 32 and 64 that holds T r and fits the target's opt-in.
TEST(FusedPlans, TheBandTakesTheTileThatFits) {
  const StencilSpec star = makeStencil(2, Shape::Star, 2, Precision::FP64, BoundaryKind::Clamp, 3);
  EXPECT_EQ(fittingBand(star, 4, Arch::Sm90)->tile, 32); // 2 (32 + 16)^2 8 = 36864
  EXPECT_EQ(fittingBand(star, 6, Arch::Sm90)->tile, 16); // 32: 2 (32 + 24)^2 8 = 50176
  EXPECT_EQ(fittingBand(star, 6, Arch::Sm90)->sharedBytes, 2 * 40 * 40 * 8);
  EXPECT_EQ(fittingBand(star, 6, Arch::Sm90)->stripBytes, 2 * 128 * 37 * 8); // opted in to
  // T r 18: past 16, and 32's levels (2 68^2 8 = 73984) past 48 KB.
  EXPECT_EQ(fittingBand(star, 9, Arch::Sm90)->tile, 32);
  EXPECT_EQ(fittingBand(star, 9, Arch::Sm90)->sharedBytes, 2 * 68 * 68 * 8);
  EXPECT_EQ(fittingBand(star, 9, Arch::Sm86)->stripBytes, 0); // 2 128 55 8 past 99 KB
  // T r 34: 64's levels (2 132^2 8 = 278784) past every target's opt-in.
  EXPECT_FALSE(fittingBand(star, 17, Arch::Sm90).has_value());
}

// A 3D band's block holds two levels of a 32 x 32 patch's lines across in
// dynamic shared memory, 4 T r lines where an axis is within 2 T r: T r
// must leave a patch a row to store and those lines fit the target's opt-in.
TEST(FusedPlans, TheVolumeBandFitsTheTarget) {
  const StencilSpec fp64 = makeStencil(3, Shape::Star, 1, Precision::FP64, BoundaryKind::Clamp, 3);
  ASSERT_TRUE(fittingBand(fp64, 3, Arch::Sm90).has_value()); // 2 12 1025 8 = 196800
  EXPECT_EQ(fittingBand(fp64, 3, Arch::Sm90)->tile, 32);
  EXPECT_EQ(fittingBand(fp64, 3, Arch::Sm90)->sharedBytes, 2 * 9 * 1025 * 8); // 3 T r lines
  EXPECT_EQ(fittingBand(fp64, 3, Arch::Sm90)->stripBytes, 0);
  EXPECT_FALSE(fittingBand(fp64, 3, Arch::Sm80).has_value()); // past sm_80's 163 KB
  EXPECT_TRUE(fittingBand(fp64, 2, Arch::Sm80).has_value());  // 2 8 1025 8 = 131200
  const StencilSpec r8 = makeStencil(3, Shape::Star, 8, Precision::FP32, BoundaryKind::Mirror, 3);
  EXPECT_FALSE(fittingBand(r8, 2, Arch::Sm90).has_value()); // 2 T r = 32: no row stored
}

// 1D fuses 8 steps where it measured best; so do the 3D kinds whose fused
// kernel measured faster than one step a launch (star3d7p fp64, T 3; the
// fp32 box, T 2 (T 3 on a periodic grid), the fp64 box, T 2, and the fp32
// and 16-bit stars of radius 2, T 2, on an H200), and the others (the fp16
// box, the fp64 star of radius 2) keep T = 1 and say why, and fuse only
// when asked.
TEST(FusedPlans, DefaultsFollowTheMeasurements) {
  PlanOptions sm90;
  sm90.target = Arch::Sm90;
  const Plan heat1d =
      planSimt(makeStencil(1, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 3), sm90);
  EXPECT_EQ(heat1d.schedule.fusedSteps, 8);
  const Plan star3d =
      planSimt(makeStencil(3, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 3), sm90);
  EXPECT_EQ(star3d.schedule.fusedSteps, 3);
  // The measured geometry (an H100, 2026-12-07): 32 rows x 64 columns, a
  // thread's points 2 rows of 2 columns.
  EXPECT_EQ(star3d.schedule.fused.rows, 2);
  EXPECT_EQ(star3d.schedule.fused.width, 64);
  EXPECT_EQ(star3d.schedule.fused.accessBytes, 16);
  // Its rings take 117504 bytes at T 3 without the split barrier: past
  // sm_86's 99 KB, which keeps T 3 in the geometry measured before (64
  // rows x 32 columns, 4 rows of 1 column), and says why.
  PlanOptions sm86;
  sm86.target = Arch::Sm86;
  const Plan star3d86 = planSimt(star3d.spec, sm86);
  EXPECT_EQ(star3d86.schedule.fusedSteps, 3);
  EXPECT_EQ(star3d86.schedule.fused.rows, 4);
  EXPECT_EQ(star3d86.schedule.fused.width, 32);
  EXPECT_NE(star3d86.schedule.fused.source.find("needs 117504 bytes of shared memory a block at "
                                                "T = 3, past the 101376 of sm_86"),
            std::string::npos)
      << star3d86.schedule.fused.source;
  const Plan box3d =
      planSimt(makeStencil(3, Shape::Box, 1, Precision::FP32, BoundaryKind::Fixed, 3), sm90);
  EXPECT_EQ(box3d.schedule.fusedSteps, 2);
  EXPECT_EQ(box3d.schedule.fused.rows, 4); // the measured geometry: 64 x 64
  EXPECT_EQ(box3d.schedule.fused.width, 64);
  EXPECT_NE(box3d.schedule.why.find("measured best for a box of radius 1 in fp32 on an H200"),
            std::string::npos)
      << box3d.schedule.why;
  // A periodic grid keeps the geometry measured faster there (T 3, 32
  // columns).
  const Plan box3dWrapped =
      planSimt(makeStencil(3, Shape::Box, 1, Precision::FP32, BoundaryKind::Periodic, 3), sm90);
  EXPECT_EQ(box3dWrapped.schedule.fusedSteps, 3);
  EXPECT_EQ(box3dWrapped.schedule.fused.width, 32);
  const Plan box3d16 =
      planSimt(makeStencil(3, Shape::Box, 1, Precision::FP16, BoundaryKind::Fixed, 3), sm90);
  EXPECT_EQ(box3d16.schedule.fusedSteps, 1);
  EXPECT_NE(box3d16.schedule.why.find("measured faster one step a launch"), std::string::npos)
      << box3d16.schedule.why;
  // The star of radius 2 (EBISU's 3d13pt): fp32 fuses T 2 in rows of 2,
  // fp64 too with the split barrier and the rotating ring (measured faster
  // so on an H100), but on a periodic grid, where one step a launch
  // measured faster on an H200 and those were not measured.
  const Plan wide32 =
      planSimt(makeStencil(3, Shape::Star, 2, Precision::FP32, BoundaryKind::Fixed, 3), sm90);
  EXPECT_EQ(wide32.schedule.fusedSteps, 2) << wide32.schedule.why;
  EXPECT_EQ(wide32.schedule.fused.rows, 2);
  EXPECT_EQ(wide32.schedule.fused.threads, 512);
  const Plan wide64 =
      planSimt(makeStencil(3, Shape::Star, 2, Precision::FP64, BoundaryKind::Fixed, 3), sm90);
  EXPECT_EQ(wide64.schedule.fusedSteps, 2) << wide64.schedule.why;
  EXPECT_TRUE(wide64.schedule.fused.splitBarrier);
  EXPECT_EQ(wide64.schedule.fused.unrollPlanes, 10);
  const Plan wide64Wrapped =
      planSimt(makeStencil(3, Shape::Star, 2, Precision::FP64, BoundaryKind::Periodic, 3), sm90);
  EXPECT_EQ(wide64Wrapped.schedule.fusedSteps, 1);
  EXPECT_NE(wide64Wrapped.schedule.why.find("measured faster one step a launch on an H200"),
            std::string::npos)
      << wide64Wrapped.schedule.why;
  const Plan wide16 =
      planSimt(makeStencil(3, Shape::Star, 2, Precision::FP16, BoundaryKind::Fixed, 3), sm90);
  EXPECT_EQ(wide16.schedule.fusedSteps, 2) << wide16.schedule.why;
  EXPECT_EQ(wide16.schedule.fused.minBlocks, 2);
  // The fp64 box at its H200 geometry: 256 threads, 2 blocks a
  // multiprocessor.
  const Plan box64 =
      planSimt(makeStencil(3, Shape::Box, 1, Precision::FP64, BoundaryKind::Fixed, 3), sm90);
  ASSERT_FALSE(box64.simt().lowRank.form) << box64.simt().lowRank.why;
  EXPECT_EQ(box64.schedule.fusedSteps, 2) << box64.schedule.why;
  EXPECT_EQ(box64.schedule.fused.threads, 256);
  EXPECT_EQ(box64.schedule.fused.minBlocks, 2);
  sm90.fusedSteps = 2;
  const Plan asked = planSimt(box3d16.spec, sm90);
  EXPECT_EQ(asked.schedule.fusedSteps, 2);
  EXPECT_EQ(asked.schedule.fused.rows, 2); // the measured geometry
}

// The full-rank 2D boxes of radius 2 and 3 (fp64, fp32) take the queued
// form, as measured on an H200; the radius-3 boxes fuse only so (in fp64
// the windows did not fit; in fp32 the queued pass beat one step a launch
// once its levels joined where read). Radius 1, stars, 16 bits and the
// low-rank form keep the windows, or one step a launch.
TEST(FusedPlans, WideBoxesAreQueuedWhereMeasured) {
  PlanOptions sm90;
  sm90.target = Arch::Sm90;
  const auto plan = [&](Shape shape, int r, Precision precision) {
    return planSimt(makeStencil(2, shape, r, precision, BoundaryKind::Fixed, 7), sm90);
  };
  struct Queued {
    int r;
    Precision precision;
    int steps;
  };
  for (const Queued &q : {Queued{2, Precision::FP64, 3}, Queued{2, Precision::FP32, 3},
                          Queued{3, Precision::FP64, 2}, Queued{3, Precision::FP32, 2}}) {
    const Plan box = plan(Shape::Box, q.r, q.precision);
    ASSERT_FALSE(box.simt().lowRank.form) << box.simt().lowRank.why;
    EXPECT_EQ(box.schedule.fusedSteps, q.steps) << box.schedule.why;
    EXPECT_TRUE(box.schedule.fused.queued) << q.r << " " << keyword(q.precision);
  }
  EXPECT_EQ(plan(Shape::Box, 3, Precision::FP16).schedule.fusedSteps, 1);
  EXPECT_FALSE(plan(Shape::Box, 1, Precision::FP64).schedule.fused.queued);
  EXPECT_FALSE(plan(Shape::Star, 2, Precision::FP64).schedule.fused.queued);
  EXPECT_FALSE(plan(Shape::Box, 2, Precision::FP16).schedule.fused.queued);
}

TEST(FusedPlans, StepsTakeTheFusedKernelWhereMeasuredFaster) {
  // One level of the fused kernel measured faster than the step kernel on
  // an H200 for the 1D stars of radius 1 and 2 in fp64 and fp32 (tf32 is
  // fp32 arithmetic on CUDA cores), not in fp16, and for the 2D star of
  // radius 2 in fp64 (the window form), not in fp32; never on a periodic
  // grid, whose passes load wrapped.
  const PlanOptions o = onSm90();
  for (Precision p : {Precision::FP64, Precision::FP32, Precision::TF32, Precision::FP16}) {
    for (int r : {1, 2}) {
      const Plan line = planSimt(makeStencil(1, Shape::Star, r, p, BoundaryKind::Fixed, 7), o);
      ASSERT_GT(line.schedule.fusedSteps, 1);
      EXPECT_EQ(line.schedule.fused.takesSteps, p != Precision::FP16) << keyword(p) << " r " << r;
    }
  }
  const Plan star =
      planSimt(makeStencil(2, Shape::Star, 2, Precision::FP64, BoundaryKind::Fixed, 7), o);
  EXPECT_TRUE(star.schedule.fused.takesSteps) << star.schedule.why;
  EXPECT_FALSE(star.schedule.fused.queued);
  EXPECT_NE(star.schedule.fused.stepWhy.find("star2d9p fp64 on an H200"), std::string::npos)
      << star.schedule.fused.stepWhy;
  EXPECT_TRUE(
      planSimt(makeStencil(2, Shape::Star, 2, Precision::FP64, BoundaryKind::Constant, 7), o)
          .schedule.fused.takesSteps);
  EXPECT_FALSE(
      planSimt(makeStencil(2, Shape::Star, 2, Precision::FP64, BoundaryKind::Periodic, 7), o)
          .schedule.fused.takesSteps);
  EXPECT_FALSE(planSimt(makeStencil(2, Shape::Star, 2, Precision::FP32, BoundaryKind::Fixed, 7), o)
                   .schedule.fused.takesSteps);
  EXPECT_FALSE(
      planSimt(makeStencil(1, Shape::Star, 1, Precision::FP64, BoundaryKind::Periodic, 7), o)
          .schedule.fused.takesSteps);
}

// A 3D pass keeps T rings of edge rows in shared memory: a T whose rings
// pass what the target lets a block opt in to is lowered to the most that
// fit, and the schedule says so (an error where the backend was requested).
// A star of radius 2 in fp32: its measured window's rings take 57 KB a
// level, so 8 levels pass both targets' limits.
TEST(FusedPlans, SharedMemoryBoundsTheThreeDimensionalT) {
  const StencilSpec spec =
      makeStencil(3, Shape::Star, 2, Precision::FP32, BoundaryKind::Periodic, 3);
  PlanOptions options;
  options.fusedSteps = 8;
  for (Arch arch : {Arch::Sm80, Arch::Sm90}) {
    options.target = arch;
    const Plan plan = planSimt(spec, options);
    EXPECT_TRUE(plan.schedule.lowered);
    EXPECT_GT(plan.schedule.fusedSteps, 1);
    EXPECT_LT(plan.schedule.fusedSteps, 8);
    EXPECT_LE(plan.schedule.fused.sharedBytes, info(arch).maxDynamicSharedBytes);
    EXPECT_NE(plan.schedule.why.find("bytes of shared memory"), std::string::npos)
        << plan.schedule.why;
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

/// The 1D and 3D kernels' rules (fused1d.cuh's and fused3d.cuh's
/// static_asserts) for every plan: whole accesses, a halo of T x r or more,
/// points left to store, whole bands of at least r rows, a window row of
/// whole lanes of one warp, and a pass that fits the target's shared
/// memory.
TEST(FusedPlans, OneAndThreeDimensionalGeometryKeepsTheKernelsRules) {
  for (int dims : {1, 3}) {
    for (Precision p : {Precision::FP64, Precision::FP32, Precision::FP16}) {
      for (int r : {1, 2, 3, 8, 32}) {
        for (int fuse : {0, 2, 8}) {
          const StencilSpec spec = makeStencil(dims, Shape::Star, r, p, BoundaryKind::Fixed, r);
          PlanOptions options;
          options.fusedSteps = fuse;
          const Plan plan = planSimt(spec, options);
          const Schedule &s = plan.schedule;
          SCOPED_TRACE(::testing::Message() << dims << "D " << keyword(p) << " r " << r << " fuse "
                                            << fuse << ": " << s.why);
          EXPECT_GE(s.fusedSteps, 1);
          EXPECT_LE(s.fusedSteps, 8);
          if (s.fusedSteps == 1) {
            continue;
          }
          const FusedKernel &k = s.fused;
          // 1D: whole 16-byte vectors; 3D: whole accesses of a thread's
          // columns (2-16 bytes), a window row whole lanes of one warp.
          const int bytes = static_cast<int>(elementBytes(p));
          const int vec = dims == 1 ? 16 / bytes : k.accessBytes / bytes;
          EXPECT_EQ(k.width % vec, 0);
          EXPECT_EQ(k.halo % vec, 0);
          EXPECT_GE(k.halo, s.fusedSteps * r);
          EXPECT_GE(k.storedColumns(), dims == 1 ? vec : 1);
          EXPECT_LE(k.sharedBytes, info(plan.target).maxDynamicSharedBytes);
          EXPECT_GE(k.redundantShare, 0.0);
          EXPECT_LT(k.redundantShare, 1.0);
          if (dims == 1) {
            EXPECT_EQ(k.width % k.threads, 0);
          } else {
            EXPECT_EQ(k.haloY, s.fusedSteps * r);
            EXPECT_GE(k.storedRows(), 1);
            EXPECT_EQ(k.height % k.rows, 0);
            EXPECT_GE(k.rows, r);
            EXPECT_TRUE(k.accessBytes == 2 || k.accessBytes == 4 || k.accessBytes == 8 ||
                        k.accessBytes == 16);
            EXPECT_EQ(32 % (k.width / vec), 0);
            EXPECT_EQ(k.threads, k.width / vec * (k.height / k.rows));
            EXPECT_EQ(k.threads % 32, 0);
            EXPECT_GE(k.batch, 1);
            EXPECT_GE(k.chunkRows, 1);
          }
        }
      }
    }
  }
}

class FusedRuns
    : public ::testing::TestWithParam<std::tuple<int, Shape, int, Precision, BoundaryKind>> {};

TEST_P(FusedRuns, EqualSingleSteps) {
  const auto [dims, shape, r, precision, boundary] = GetParam();
  const StencilSpec spec = makeStencil(dims, shape, r, precision, boundary, 40 + r);
  const int least = boundary == BoundaryKind::Fixed ? 2 * r + 1 : 1;
  using N = std::array<int, 3>;
  for (int fuse : {0, 3}) {
    PlanOptions options;
    options.target = Arch::Sm90;
    options.fusedSteps = fuse;
    const Plan plan = planSimt(spec, options);
    if (fuse == 0 && plan.schedule.fusedSteps == 1) {
      continue; // the planner's own T is 1 (3D; 2D fp32 at radius 3): nothing fused
    }
    ASSERT_GT(plan.schedule.fusedSteps, 1) << plan.schedule.why;
    // As planned (one block on these grids, all smaller than the fused
    // halo) ...
    const std::vector<N> small =
        dims == 1   ? std::vector<N>{{least, 1, 1}, {least + 2, 1, 1}}
        : dims == 2 ? std::vector<N>{{least, least, 1}, {least + 2, least + 1, 1}}
                    : std::vector<N>{{least, least, least}, {least + 2, least + 1, least + 3}};
    for (const N &n : small) {
      checkRuns(plan, n, 7u * n[0] + n[1]);
    }
    // ... and with narrow blocks and short chunks, so that the grids have
    // many blocks each way.
    Plan narrow = plan;
    FusedKernel &k = narrow.schedule.fused;
    k.width = 2 * k.halo + (dims == 2 ? 8 : 16 / static_cast<int>(elementBytes(precision)));
    k.chunkRows = 3;
    k.height = 2 * k.haloY + 2; // 3D
    const std::vector<N> many = dims == 1   ? std::vector<N>{{17, 1, 1}, {1001, 1, 1}}
                                : dims == 2 ? std::vector<N>{{17, 19, 1}, {23, 41, 1}}
                                            : std::vector<N>{{7, 9, 11}, {10, 5, 13}};
    for (const N &n : many) {
      checkRuns(narrow, n, 7u * n[0] + n[1]);
    }
  }
}

// Every precision, and the boundaries the fused kernels take without a band.
const auto Precisions = ::testing::Values(Precision::FP64, Precision::FP32, Precision::TF32,
                                          Precision::FP16, Precision::BF16);
const auto FusedBoundaries =
    ::testing::Values(BoundaryKind::Fixed, BoundaryKind::Constant, BoundaryKind::Periodic);
// The folding rules, whose passes have a band.
const auto FoldingBoundaries =
    ::testing::Values(BoundaryKind::Clamp, BoundaryKind::Mirror, BoundaryKind::Reflect);

const auto FusedName = [](const auto &info) {
  return fmt::format("{}d_{}_r{}_{}_{}", std::get<0>(info.param), keyword(std::get<1>(info.param)),
                     std::get<2>(info.param), keyword(std::get<3>(info.param)),
                     keyword(std::get<4>(info.param)));
};

INSTANTIATE_TEST_SUITE_P(TwoD, FusedRuns,
                         ::testing::Combine(::testing::Values(2),
                                            ::testing::Values(Shape::Star, Shape::Box),
                                            ::testing::Values(1, 2, 3), Precisions,
                                            FusedBoundaries),
                         FusedName);

// Under the folding rules, a band after each pass.
INSTANTIATE_TEST_SUITE_P(TwoDFolds, FusedRuns,
                         ::testing::Combine(::testing::Values(2),
                                            ::testing::Values(Shape::Star, Shape::Box),
                                            ::testing::Values(1, 2, 3), Precisions,
                                            FoldingBoundaries),
                         FusedName);

INSTANTIATE_TEST_SUITE_P(OneDFolds, FusedRuns,
                         ::testing::Combine(::testing::Values(1), ::testing::Values(Shape::Star),
                                            ::testing::Values(1, 2), Precisions, FoldingBoundaries),
                         FusedName);

INSTANTIATE_TEST_SUITE_P(OneD, FusedRuns,
                         ::testing::Combine(::testing::Values(1), ::testing::Values(Shape::Star),
                                            ::testing::Values(1, 2), Precisions, FusedBoundaries),
                         FusedName);

INSTANTIATE_TEST_SUITE_P(ThreeD, FusedRuns,
                         ::testing::Combine(::testing::Values(3),
                                            ::testing::Values(Shape::Star, Shape::Box),
                                            ::testing::Values(1, 2), Precisions, FusedBoundaries),
                         FusedName);

// Radius 1: the 3D band's block holds T r <= 3 in fp64 (fittingBand).
INSTANTIATE_TEST_SUITE_P(ThreeDFolds, FusedRuns,
                         ::testing::Combine(::testing::Values(3),
                                            ::testing::Values(Shape::Star, Shape::Box),
                                            ::testing::Values(1), Precisions, FoldingBoundaries),
                         FusedName);

} // namespace
