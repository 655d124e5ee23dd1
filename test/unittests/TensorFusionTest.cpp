//===- TensorFusionTest.cpp - Fused steps on tensor cores ------------------===//
//
// The composed pass (Backends/Tensor/TensorFusion.h, stencilc/device/
// composed.cuh): what the planner makes of --plan-option fuse, and NAME_run
// of such plans on the CPU (emulateRun) against as many float64 single steps,
// for every shape, precision and boundary, at odd sizes, grids within the
// fused halo, and step counts around T.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "Backends/Tensor/TensorCompose.h"
#include "Backends/Tensor/TensorFusion.h"
#include "StencilFixtures.h"

namespace stencilc {
namespace {

using testing::AllBoundaries;
using testing::makeStencil;
using testing::randomGrid;

Plan fusedPlan(const StencilSpec &spec, int steps, MmaRequest mma = MmaRequest::Auto,
               WindowsRequest windows = WindowsRequest::Auto) {
  PlanOptions options;
  options.target = Arch::Sm90;
  options.fusedSteps = steps;
  options.mma = mma;
  options.windows = windows;
  PlanOrRefusal plan = planTensor(spec, options);
  EXPECT_TRUE(plan) << spec.name;
  return *std::move(plan);
}

/// `steps` float64 single steps of the spec.
Grid2D referenceRun(const StencilSpec &spec, Grid2D a, int steps) {
  for (int s = 0; s < steps; ++s) {
    Grid2D out = a;
    referenceStep(spec, a, out);
    a = std::move(out);
  }
  return a;
}

/// emulateRun against the reference at every step count around T, within
/// the documented tolerance (steps x the one-step tolerance).
void checkRuns(const Plan &plan, int ny, int nx) {
  const StencilSpec &spec = plan.spec;
  const int t = plan.schedule.fusedSteps;
  for (int steps : {1, t - 1, t, t + 1, 3 * t + 2}) {
    SCOPED_TRACE(::testing::Message() << spec.name << " " << keyword(spec.boundary) << " " << ny
                                      << "x" << nx << " T=" << t << " steps=" << steps);
    const Grid2D in = randomGrid(ny, nx, spec.precision, 100 * ny + nx + steps);
    Grid2D emulated = in;
    emulateRun(plan, emulated, steps);
    const Grid2D reference = referenceRun(spec, in, steps);
    EXPECT_LE(relativeL2Error(spec, emulated, reference),
              steps * relativeTolerance(spec.precision));
    if (spec.boundary == BoundaryKind::Fixed) {
      for (int y = 0; y < ny; ++y) {
        for (int x = 0; x < nx; ++x) {
          if (!stepWritesPoint(spec, ny, nx, y, x)) {
            ASSERT_EQ(emulated.at(y, x), in.at(y, x)) << "ring point " << y << "," << x;
          }
        }
      }
    }
  }
}

TEST(TensorFusion, PlansTheComposedPass) {
  const StencilSpec star = makeStencil(2, Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 1);
  const Plan plan = fusedPlan(star, 4);
  ASSERT_TRUE(plan.schedule.composed);
  EXPECT_EQ(plan.schedule.fusedSteps, 4);
  EXPECT_FALSE(plan.schedule.lowered);
  const Plan &composed = *plan.schedule.composed->plan;
  EXPECT_EQ(composed.spec.radius, 4);
  EXPECT_EQ(composed.spec.points(), composeSteps(star, 4).points());
  EXPECT_GT(plan.schedule.composed->band.sharedBytes, 0);
  // fuse=1 and the planner's choice without a measurement fuse nothing.
  EXPECT_EQ(fusedPlan(star, 1).schedule.fusedSteps, 1);
  const StencilSpec tf32 = makeStencil(2, Shape::Box, 1, Precision::TF32, BoundaryKind::Fixed, 1);
  EXPECT_EQ(fusedPlan(tf32, 0).schedule.fusedSteps, 1);
}

/// Unasked, a kind with a measured composed pass fuses its measured T with
/// the composed step stacked; where the options rule the stacked form out
/// (mma=dense), one step a launch, saying why: the measurement is the
/// stacked form's.
TEST(TensorFusion, MeasuredTOnlyWithTheStackedComposedStep) {
  const StencilSpec wide = makeStencil(2, Shape::Box, 3, Precision::FP16, BoundaryKind::Fixed, 1);
  const Plan plan = fusedPlan(wide, 0);
  EXPECT_EQ(plan.schedule.fusedSteps, 2);
  ASSERT_TRUE(plan.schedule.composed);
  EXPECT_TRUE(plan.schedule.composed->plan->tensor().stacked);
  EXPECT_NE(plan.schedule.why.find("measured best: the whole composed pass of 2 steps"),
            std::string::npos)
      << plan.schedule.why;
  const Plan dense = fusedPlan(wide, 0, MmaRequest::Dense);
  EXPECT_EQ(dense.schedule.fusedSteps, 1);
  EXPECT_FALSE(dense.schedule.lowered);
  EXPECT_NE(dense.schedule.why.find("with the composed step in the stacked form, which the "
                                    "options rule out here"),
            std::string::npos)
      << dense.schedule.why;
  // Asked, the dense composed pass is planned.
  EXPECT_FALSE(fusedPlan(wide, 2, MmaRequest::Dense).schedule.composed->plan->tensor().stacked);
}

TEST(TensorFusion, LowersWhatDoesNotFit) {
  // fp64 tiles take radius 4: 8 steps of radius 1 are lowered to 4.
  const Plan fp64 =
      fusedPlan(makeStencil(2, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 2), 8);
  EXPECT_TRUE(fp64.schedule.lowered);
  EXPECT_EQ(fp64.schedule.fusedSteps, 4);
  EXPECT_NE(fp64.schedule.why.find("radius 8, beyond 4"), std::string::npos) << fp64.schedule.why;
  // 1D and 3D are not built: one step a launch, lowered when asked.
  for (int dims : {1, 3}) {
    const Plan plan =
        fusedPlan(makeStencil(dims, Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 3), 2);
    EXPECT_TRUE(plan.schedule.lowered);
    EXPECT_EQ(plan.schedule.fusedSteps, 1);
    EXPECT_FALSE(plan.schedule.composed);
  }
}

/// The 2D fp16 star of radius 1 with centre weight `centre` and 0.5 on the
/// axes: two steps compose into a centre of centre^2 + 1.
StencilSpec heavyCentre(double centre, Precision precision = Precision::FP16) {
  StencilSpec spec = makeStencil(2, Shape::Star, 1, precision, BoundaryKind::Fixed, 1);
  for (Term &t : spec.terms) {
    t.coefficient = t.offset.isCentre() ? centre : 0.5;
  }
  return spec;
}

// Composed weights grow with T, and one that rounds to inf as an fp16
// operand would poison every output it reaches: fewer steps, asked or not,
// down to one a launch. 255^2 + 1 = 65026 rounds to 65024; 256^2 + 1 to
// inf. bf16 reaches 3.4e38: its 8 steps stay.
TEST(TensorFusion, LowersWhereAComposedWeightOverflows) {
  EXPECT_EQ(composedOverflow(heavyCentre(255), 2), std::nullopt);
  EXPECT_EQ(fusedPlan(heavyCentre(255), 2).schedule.fusedSteps, 2);
  const Plan asked = fusedPlan(heavyCentre(256), 2);
  EXPECT_EQ(asked.schedule.fusedSteps, 1);
  EXPECT_TRUE(asked.schedule.lowered);
  EXPECT_EQ(asked.schedule.why,
            "2 steps compose into a coefficient of 65537 at offset (0, 0), which overflows fp16");
  // Unasked (the measured T, 8): the most steps that stay finite, 3 (a
  // centre of 40^3 + 120 = 64120; 4 steps reach 40^4).
  const Plan unasked = fusedPlan(heavyCentre(40), 0);
  EXPECT_EQ(unasked.schedule.fusedSteps, 3);
  EXPECT_FALSE(unasked.schedule.lowered);
  EXPECT_NE(unasked.schedule.why.find("4 steps compose into a coefficient of"), std::string::npos)
      << unasked.schedule.why;
  EXPECT_EQ(fusedPlan(heavyCentre(256, Precision::BF16), 8).schedule.fusedSteps, 8);
}

// A pass whose block needs more shared memory than the limit is lowered to
// one step a launch, with the bytes needed and the bytes there (the band of
// 4 fp16 steps at a fixed boundary: its strips' two windows of 128 x 13
// floats, 13312 bytes, beside its tiles' two levels of 40 x 40, 12800).
TEST(TensorFusion, LowersWhatOverflowsSharedMemory) {
  PlanOptions options;
  options.target = Arch::Sm90;
  options.fusedSteps = 4;
  options.sharedMemoryLimit = 12000;
  PlanOrRefusal plan =
      planTensor(makeStencil(2, Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 4), options);
  ASSERT_TRUE(plan);
  EXPECT_TRUE(plan->schedule.lowered);
  EXPECT_EQ(plan->schedule.fusedSteps, 1);
  EXPECT_NE(plan->schedule.why.find("needs 13312 bytes of shared memory in one block, and a "
                                    "block may use 12000"),
            std::string::npos)
      << plan->schedule.why;
}

TEST(TensorFusion, RunsMatchSingleStepsEveryKind) {
  for (Shape shape : {Shape::Star, Shape::Box})
    for (Precision p : {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP64})
      for (BoundaryKind b : AllBoundaries) {
        const StencilSpec spec = makeStencil(2, shape, 1, p, b, 7);
        // The 16-bit types' composed step is stacked unasked: their dense
        // one too.
        const bool is16 = p == Precision::FP16 || p == Precision::BF16;
        for (MmaRequest mma : {MmaRequest::Auto, MmaRequest::Dense}) {
          if (mma == MmaRequest::Dense && !is16) {
            continue;
          }
          const Plan plan = fusedPlan(spec, p == Precision::FP64 ? 3 : 4, mma);
          ASSERT_TRUE(plan.schedule.composed);
          EXPECT_EQ(plan.schedule.composed->plan->tensor().stacked,
                    is16 && mma == MmaRequest::Auto);
          checkRuns(plan, 17, 19);
          checkRuns(plan, 5, 7); // smaller than the fused halo: all band
        }
      }
}

/// On sm_90 a single step runs a block a block tile at every rule; a
/// composed pass's step does where that measured faster
/// (composedStepInTiles: a periodic grid) and walks tiles in a persistent
/// grid elsewhere; --plan-option grid overrides both
/// (stackedPersistentGrid).
TEST(TensorFusion, StackedGridAsMeasured) {
  const auto grids = [](const Plan &plan) {
    return std::pair{plan.tensor().persistentGrid,
                     plan.schedule.composed->plan->tensor().persistentGrid};
  };
  using Grids = std::pair<bool, bool>; // single step, composed step: persistent
  for (BoundaryKind b : AllBoundaries) {
    const StencilSpec star = makeStencil(2, Shape::Star, 1, Precision::FP16, b, 5);
    EXPECT_EQ(grids(fusedPlan(star, 4)), Grids(false, b != BoundaryKind::Periodic));
  }
  const StencilSpec star3 = makeStencil(2, Shape::Star, 3, Precision::BF16, BoundaryKind::Fixed, 5);
  EXPECT_EQ(grids(fusedPlan(star3, 3)), Grids(false, true));
  const StencilSpec box3 = makeStencil(2, Shape::Box, 3, Precision::FP16, BoundaryKind::Fixed, 5);
  EXPECT_EQ(grids(fusedPlan(box3, 2)), Grids(false, true));
  PlanOptions tiles;
  tiles.target = Arch::Sm90;
  tiles.fusedSteps = 2;
  tiles.grid = GridRequest::Tiles;
  EXPECT_EQ(grids(*planTensor(box3, tiles)), Grids(false, false));
  tiles.grid = GridRequest::Persistent;
  EXPECT_EQ(grids(*planTensor(star3, tiles)), Grids(true, true));
}

/// A composed pass runs the composed stencil in the stacked form (radius T
/// r, at most 16; 8 in the dense form) unless the dense one is asked. Its
/// runs match the single steps as the dense form's do, every 16-bit shape
/// and boundary, grids with more than one strip and block tile and grids
/// that are all band.
TEST(TensorFusion, StackedComposedPassUnlessDenseAsked) {
  const StencilSpec star = makeStencil(2, Shape::Star, 2, Precision::FP16, BoundaryKind::Fixed, 5);
  EXPECT_TRUE(fusedPlan(star, 4).schedule.composed->plan->tensor().stacked);
  EXPECT_FALSE(fusedPlan(star, 4, MmaRequest::Dense).schedule.composed->plan->tensor().stacked);
  // Its MMAs bind a composed pass: its step stores from registers, where a
  // single step of the same form stages its stores.
  EXPECT_FALSE(fusedPlan(star, 4).schedule.composed->plan->tensor().stagedStores);
  EXPECT_TRUE(fusedPlan(star, 4).tensor().stagedStores);
  // It sums an MMA block in 3 accumulators, a single step in 4.
  EXPECT_EQ(fusedPlan(star, 4).schedule.composed->plan->tensor().splitAccumulators, 3);
  EXPECT_EQ(fusedPlan(star, 4).tensor().splitAccumulators, 4);
  // Planned under fixed, the composed step copies its windows by the
  // tensor memory accelerator on sm_90 (fusedPlan's target) under any rule.
  const StencilSpec mirrored =
      makeStencil(2, Shape::Star, 2, Precision::FP16, BoundaryKind::Mirror, 5);
  EXPECT_TRUE(fusedPlan(mirrored, 4).schedule.composed->plan->tensor().mappedWindows);
  EXPECT_FALSE(fusedPlan(mirrored, 4).tensor().mappedWindows);
  // Its mapped windows are read with an L2 promotion of 128 bytes, a
  // single step's without (stackedWindowPromotion); unmapped, none.
  EXPECT_EQ(fusedPlan(star, 4).schedule.composed->plan->tensor().windowPromotion, 128);
  EXPECT_TRUE(fusedPlan(star, 4).tensor().mappedWindows);
  EXPECT_EQ(fusedPlan(star, 4).tensor().windowPromotion, 0);
  EXPECT_EQ(fusedPlan(mirrored, 4).tensor().windowPromotion, 0);
  for (Shape shape : {Shape::Star, Shape::Box})
    for (Precision p : {Precision::FP16, Precision::BF16})
      for (BoundaryKind b : AllBoundaries) {
        const StencilSpec spec = makeStencil(2, shape, 2, p, b, 13);
        const Plan plan = fusedPlan(spec, 4);
        ASSERT_TRUE(plan.schedule.composed);
        ASSERT_TRUE(plan.schedule.composed->plan->tensor().stacked);
        EXPECT_EQ(plan.schedule.composed->plan->spec.radius, 8);
        checkRuns(plan, 70, 150);
        checkRuns(plan, 9, 11); // within the fused halo: all band
      }
}

/// With the shifted window asked for (windows=two), a composed star's step
/// reads it (its rows that reach 4 columns or less), and its runs match
/// the single steps at every boundary, T 8 of star2d5p and T 4 of a star of
/// radius 2.
TEST(TensorFusion, ComposedStepReadsTheShiftedWindowWhereAsked) {
  for (BoundaryKind b : AllBoundaries) {
    for (auto [radius, t] : {std::pair{1, 8}, std::pair{2, 4}}) {
      const StencilSpec star = makeStencil(2, Shape::Star, radius, Precision::FP16, b, 21);
      const Plan plan = fusedPlan(star, t, MmaRequest::Auto, WindowsRequest::Two);
      ASSERT_TRUE(plan.schedule.composed);
      EXPECT_TRUE(plan.schedule.composed->plan->tensor().shiftedWindow);
      checkRuns(plan, 70, 150);
    }
  }
}

TEST(TensorFusion, RunsMatchSingleStepsRadius2AndLargerGrids) {
  for (BoundaryKind b : AllBoundaries) {
    const StencilSpec star = makeStencil(2, Shape::Star, 2, Precision::FP16, b, 9);
    checkRuns(fusedPlan(star, 2), 37, 70);
    const StencilSpec box = makeStencil(2, Shape::Box, 1, Precision::BF16, b, 11);
    checkRuns(fusedPlan(box, 8), 80, 150); // more than one block and band tile
  }
}

/// NAME_run's remainder of T / 2 or more steps is one composed pass of T / 2
/// where T / 2 >= 2 and the composed step is stacked; none at T = 2 or 3,
/// or with the dense form. Runs with it match the single steps (checkRuns:
/// T - 1 steps take it), and the auto plans of T = 8 have it.
TEST(TensorFusion, RemainderPassOfHalfTBesideAStackedStep) {
  const StencilSpec star = makeStencil(2, Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 3);
  for (int t : {8, 4}) {
    const Plan plan = fusedPlan(star, t);
    ASSERT_TRUE(plan.schedule.remainder) << t;
    const ComposedPass &half = *plan.schedule.remainder;
    EXPECT_EQ(half.steps, t / 2);
    EXPECT_EQ(half.plan->spec.radius, t / 2);
    EXPECT_TRUE(half.plan->tensor().stacked);
    EXPECT_EQ(half.band.sharedBytes, bandSharedBytes(star, t / 2, half.band.tile));
    checkRuns(plan, 70, 150);
  }
  EXPECT_FALSE(fusedPlan(star, 2).schedule.remainder);
  EXPECT_FALSE(fusedPlan(star, 3).schedule.remainder);
  EXPECT_FALSE(fusedPlan(star, 8, MmaRequest::Dense).schedule.remainder);
  EXPECT_EQ(fusedPlan(star, 0).schedule.remainder->steps, 4);
}

/// The one-step tensor plan of `spec` composed `steps` times (a composed
/// pass's plan, to put in the place of the right one).
std::shared_ptr<const Plan> composedStepPlan(const StencilSpec &spec, int steps) {
  PlanOptions options;
  options.target = Arch::Sm90;
  options.fusedSteps = 1;
  return std::make_shared<const Plan>(*planTensor(composeSteps(spec, steps), options));
}

// The check has teeth: a remainder pass of one step too few is off by far
// more than the right one where it runs (7 steps: 4 of it and 3 single; 13:
// 8, 4 and 1), and unseen where it does not (10: 8 and 2 single).
TEST(TensorFusion, DetectsAWrongRemainderPass) {
  const StencilSpec spec = makeStencil(2, Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 5);
  const Plan right = fusedPlan(spec, 8);
  Plan wrong = right;
  wrong.schedule.remainder->plan = composedStepPlan(spec, 3);
  const Grid2D in = randomGrid(40, 41, spec.precision, 3);
  auto error = [&](const Plan &plan, int steps) {
    Grid2D emulated = in;
    emulateRun(plan, emulated, steps);
    return relativeL2Error(spec, emulated, referenceRun(spec, in, steps));
  };
  for (int steps : {7, 13}) {
    EXPECT_GT(error(wrong, steps), 10 * error(right, steps)) << steps;
  }
  EXPECT_EQ(error(wrong, 10), error(right, 10));
}

// The check has teeth: a composed plan of one step too few is far off.
TEST(TensorFusion, DetectsAWrongComposedStencil) {
  const StencilSpec spec =
      makeStencil(2, Shape::Star, 1, Precision::FP64, BoundaryKind::Periodic, 5);
  Plan plan = fusedPlan(spec, 3);
  plan.schedule.composed->plan = composedStepPlan(spec, 2);
  const Grid2D in = randomGrid(17, 19, spec.precision, 3);
  Grid2D emulated = in;
  emulateRun(plan, emulated, 3);
  EXPECT_GT(relativeL2Error(spec, emulated, referenceRun(spec, in, 3)), 1e-3);
}

} // namespace

// The band runs in strips wherever there is one (every rule but periodic):
// two windows of 128 lines along by 3 T r + 1 across in the arithmetic type.
// Periodic has no band, and strips past what the target lets a block opt in
// to, or that store no line (2 T r >= 128), leave the band to the tiles.
TEST(TensorFusion, BandStripsWhereThereIsABand) {
  const auto bytes = [](BoundaryKind boundary, Precision precision, int steps,
                        Arch target = Arch::Sm90) {
    return bandStripBytes(makeStencil(2, Shape::Star, 1, precision, boundary, 4), steps, target);
  };
  EXPECT_EQ(bytes(BoundaryKind::Fixed, Precision::FP16, 8), 2 * 128 * 25 * 4);
  EXPECT_EQ(bytes(BoundaryKind::Constant, Precision::BF16, 4), 2 * 128 * 13 * 4);
  EXPECT_EQ(bytes(BoundaryKind::Fixed, Precision::FP64, 4), 2 * 128 * 13 * 8);
  EXPECT_EQ(bytes(BoundaryKind::Mirror, Precision::FP16, 8), 2 * 128 * 25 * 4);
  EXPECT_EQ(bytes(BoundaryKind::Clamp, Precision::FP16, 2), 2 * 128 * 7 * 4);
  EXPECT_EQ(bytes(BoundaryKind::Reflect, Precision::FP32, 3), 2 * 128 * 10 * 4);
  EXPECT_EQ(bytes(BoundaryKind::Periodic, Precision::FP16, 8), 0);
  // Past 48 KB (8-byte values, W 8): opted in to.
  EXPECT_EQ(bytes(BoundaryKind::Fixed, Precision::FP64, 8), 2 * 128 * 25 * 8);
  // W 17 in 8 bytes, 106496: within sm_90's 227 KB, past sm_86's 99 KB.
  EXPECT_EQ(bytes(BoundaryKind::Fixed, Precision::FP64, 17), 2 * 128 * 52 * 8);
  EXPECT_EQ(bytes(BoundaryKind::Fixed, Precision::FP64, 17, Arch::Sm86), 0);
  // W 64 stores no line along a strip of 128.
  EXPECT_EQ(bytes(BoundaryKind::Fixed, Precision::FP16, 64), 0);
}

} // namespace stencilc
