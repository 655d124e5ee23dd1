//===- SimtEmulatorTest.cpp - simt plans compute the stencil, on the CPU ---===//
//
// For 1D/2D/3D x star/box x radii x all five precisions x every boundary,
// runs the simt plan through the emulator (the kernel's blocks, planes,
// queue and FMAs in the arithmetic type) on fresh random grids at sizes that
// are and are not multiples of the block, the smallest legal ones and grids
// thinner than one block, and compares with the float64 stencil within
// docs/generated-code.md's tolerance. Points a step must not write keep their
// poison; points it must write lose it. Also checks the planner's promises
// for every dimension, precision and radius 1..32, and --backend=auto.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <random>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Simt/SimtEmulator.h"
#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Tensor/TensorEmulator.h"
#include "Backends/Tensor/TensorFusion.h"
#include "Pipeline/BackendChoice.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil;
using stencilc::testing::randomGridND;

namespace {

constexpr double Poison = -12345.0;

std::string sizeText(const GridND &g) {
  return g.dims == 1   ? fmt::format("{}", g.n[0])
         : g.dims == 2 ? fmt::format("{}x{}", g.n[0], g.n[1])
                       : fmt::format("{}x{}x{}", g.n[0], g.n[1], g.n[2]);
}

/// Runs the emulator and the reference on one grid and checks them.
void checkOneGrid(const Plan &plan, std::array<int, 3> n, unsigned seed) {
  const StencilSpec &spec = plan.spec;
  GridND in = randomGridND(spec.dims, n, spec.precision, seed);
  SCOPED_TRACE(::testing::Message()
               << spec.name << " boundary " << keyword(spec.boundary) << " size " << sizeText(in));
  GridND emulated(spec.dims, n, Poison), reference(spec.dims, n, Poison);
  emulateSimtStep(plan, in, emulated);
  referenceStepND(spec, in, reference);
  int wrongWrites = 0;
  for (std::size_t i = 0; i < emulated.points(); ++i) {
    const std::array<long long, 3> p{static_cast<long long>(i / (std::size_t(in.n[1]) * in.n[2])),
                                     static_cast<long long>(i / in.n[2] % in.n[1]),
                                     static_cast<long long>(i % in.n[2])};
    if ((emulated.values[i] != Poison) != stepWritesPointND(spec, in, p)) {
      ++wrongWrites;
    }
  }
  EXPECT_EQ(wrongWrites, 0) << "points written that must not be, or missed";
  EXPECT_LE(relativeL2ErrorND(spec, emulated, reference), relativeTolerance(spec.precision));
}

/// Sizes for a plan: the smallest legal, odd ones, exactly one block, partial
/// blocks, and a grid thinner than one block.
std::vector<std::array<int, 3>> sizesFor(const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  const int least = spec.boundary == BoundaryKind::Fixed ? 2 * spec.radius + 1 : 1;
  switch (spec.dims) {
  case 1:
    return {{least}, {least + 2}, {sp.tileX}, {2 * sp.tileX + 37}, {std::max(least, 13)}};
  case 2:
    return {{least, least},
            {sp.chunkZ, sp.tileX},
            {sp.chunkZ + 3, sp.tileX + 5},
            {2 * sp.chunkZ + 1, std::max(least, 3)},
            {least, 2 * sp.tileX + 1}};
  default:
    return {{least, least, least},
            {sp.chunkZ, sp.tileY, sp.tileX},
            {sp.chunkZ + 2, sp.tileY + 3, sp.tileX + 5},
            {least, 2 * sp.tileY + 1, std::max(least, 3)}};
  }
}

/// Small blocks so that small grids span many blocks, planes and chunks.
PlanOptions smallBlocks(int dims) {
  PlanOptions o;
  o.threads = 32;
  o.tileX = dims == 1 ? 64 : 16;
  o.tileY = 4;
  o.chunkZ = 5;
  return o;
}

using Case = std::tuple<int, Shape, Precision, BoundaryKind>;

class SimtEmulatorMatchesReference : public ::testing::TestWithParam<Case> {};

TEST_P(SimtEmulatorMatchesReference, RadiiAndSizes) {
  auto [dims, shape, precision, boundary] = GetParam();
  // 3D boxes grow as (2r+1)^3: radii 1..2 there, 1..4 elsewhere, plus the
  // language's largest radius on a star.
  std::vector<int> radii =
      dims == 3 && shape == Shape::Box ? std::vector<int>{1, 2} : std::vector<int>{1, 2, 3, 4};
  unsigned seed = 1;
  for (int r : radii) {
    StencilSpec spec = makeStencil(dims, shape, r, precision, boundary, 100 + r);
    Plan plan = planSimt(spec, smallBlocks(dims));
    for (const std::array<int, 3> &n : sizesFor(plan)) {
      checkOneGrid(plan, n, seed++);
    }
  }
  // The default geometry, at one size per radius 1 stencil.
  StencilSpec spec = makeStencil(dims, shape, 1, precision, boundary, 7);
  Plan plan = planSimt(spec);
  const SimtPlan &sp = plan.simt();
  checkOneGrid(plan,
               dims == 1   ? std::array<int, 3>{sp.tileX + 9}
               : dims == 2 ? std::array<int, 3>{sp.chunkZ + 3, sp.tileX + 5}
                           : std::array<int, 3>{sp.chunkZ + 1, sp.tileY + 3, sp.tileX + 5},
               seed++);
}

INSTANTIATE_TEST_SUITE_P(
    AllSimtStencils, SimtEmulatorMatchesReference,
    ::testing::Combine(::testing::Values(1, 2, 3), ::testing::Values(Shape::Star, Shape::Box),
                       ::testing::Values(Precision::FP16, Precision::BF16, Precision::TF32,
                                         Precision::FP32, Precision::FP64),
                       ::testing::ValuesIn(stencilc::testing::AllBoundaries)),
    [](const ::testing::TestParamInfo<Case> &info) {
      return fmt::format("{}d_{}_{}_{}", std::get<0>(info.param), keyword(std::get<1>(info.param)),
                         keyword(std::get<2>(info.param)), keyword(std::get<3>(info.param)));
    });

/// The language's largest radius, 32, in every dimension, with the planner's
/// own geometry (queue and plane shrunk to fit).
TEST(SimtEmulatorMatchesReference, RadiusThirtyTwo) {
  // (3D fixed needs 65^3 points, too slow to emulate here; periodic covers
  // the 3D geometry with a halo wider than the grid.)
  for (int dims : {1, 2, 3}) {
    for (BoundaryKind boundary :
         {BoundaryKind::Fixed, BoundaryKind::Periodic, BoundaryKind::Clamp, BoundaryKind::Mirror}) {
      if (dims == 3 && boundary == BoundaryKind::Fixed) {
        continue;
      }
      Plan plan = planSimt(makeStencil(dims, Shape::Star, 32, Precision::FP32, boundary, 9));
      const int n = boundary == BoundaryKind::Fixed ? 67 : 23;
      checkOneGrid(plan, {n, n, n}, 10);
    }
  }
  Plan box2d =
      planSimt(makeStencil(2, Shape::Box, 32, Precision::FP64, BoundaryKind::Constant, 11));
  EXPECT_FALSE(box2d.simt().unrolled) << "4225 points should use the coefficient table";
  checkOneGrid(box2d, {70, 75, 1}, 12);
}

/// fp16/bf16 stores round once from fp32: the emulator equals the rounded
/// fp32 result, not the float64 one.
TEST(SimtEmulatorMatchesReference, NarrowTypesRoundOnceOnStore) {
  StencilSpec spec = makeStencil(1, Shape::Star, 1, Precision::FP16, BoundaryKind::Periodic, 3);
  Plan plan = planSimt(spec);
  GridND in = randomGridND(1, {100}, spec.precision, 4), out(1, {100});
  emulateSimtStep(plan, in, out);
  for (int x = 0; x < 100; ++x) {
    float acc = 0.0f;
    for (const SimtTerm &t : plan.simt().slices[0].terms) {
      acc = std::fma(static_cast<float>(t.coefficient),
                     static_cast<float>(in.at({(x + t.dx + 100) % 100, 0, 0})), acc);
    }
    EXPECT_EQ(out.at({x, 0, 0}), roundToStorage(acc, Precision::FP16)) << "x = " << x;
  }
}

/// Clamp and mirror land where docs/language.md says, however far outside
/// (mirror is Halide's mirror_image: the edge point is repeated).
TEST(BoundaryFolding, ClampAndMirrorLandings) {
  StencilSpec clamp = makeStencil(1, Shape::Star, 1, Precision::FP64, BoundaryKind::Clamp, 1);
  StencilSpec mirror = makeStencil(1, Shape::Star, 1, Precision::FP64, BoundaryKind::Mirror, 1);
  const long long n = 5;
  const std::array<std::array<long long, 3>, 9> cases = {{
      // index, clamp, mirror
      {-1, 0, 0},
      {-2, 0, 1},
      {-5, 0, 4},
      {-6, 0, 4},
      {5, 4, 4},
      {6, 4, 3},
      {10, 4, 0},
      {23, 4, 3},
      {2, 2, 2},
  }};
  for (const auto &[i, clamped, mirrored] : cases) {
    EXPECT_EQ(foldIndex(clamp, i, n), clamped) << "clamp " << i;
    EXPECT_EQ(foldIndex(mirror, i, n), mirrored) << "mirror " << i;
  }
  // One point: every read is the point itself.
  for (long long i : {-33, -1, 1, 32}) {
    EXPECT_EQ(foldIndex(mirror, i, 1), 0);
    EXPECT_EQ(foldIndex(clamp, i, 1), 0);
  }
}

/// Reflect lands where docs/language.md says (Halide's mirror_interior: the
/// edge point is not repeated), however far outside, on lines of 5, 2 and 1
/// points.
TEST(BoundaryFolding, ReflectLandings) {
  StencilSpec reflect = makeStencil(1, Shape::Star, 1, Precision::FP64, BoundaryKind::Reflect, 1);
  const std::array<std::array<long long, 2>, 10> five = {
      {{-1, 1}, {-2, 2}, {-4, 4}, {-5, 3}, {5, 3}, {6, 2}, {8, 0}, {9, 1}, {-9, 1}, {3, 3}}};
  for (const auto &[i, landed] : five) {
    EXPECT_EQ(foldIndex(reflect, i, 5), landed) << "reflect " << i << " of 5";
  }
  for (const auto &[i, landed] :
       std::array<std::array<long long, 2>, 4>{{{-1, 1}, {2, 0}, {3, 1}, {-2, 0}}}) {
    EXPECT_EQ(foldIndex(reflect, i, 2), landed) << "reflect " << i << " of 2";
  }
  for (long long i : {-33, -1, 1, 32}) {
    EXPECT_EQ(foldIndex(reflect, i, 1), 0);
  }
}

/// A 1D clamp or mirror step by hand at both ends: the emulated kernel reads
/// the edge (clamp) or the reflection (mirror).
TEST(SimtEmulatorMatchesReference, ClampAndMirrorEndsByHand) {
  for (BoundaryKind boundary : {BoundaryKind::Clamp, BoundaryKind::Mirror}) {
    StencilSpec spec = makeStencil(1, Shape::Star, 2, Precision::FP64, boundary, 2);
    Plan plan = planSimt(spec);
    GridND in(1, {7}), out(1, {7});
    for (int x = 0; x < 7; ++x) {
      in.at({x, 0, 0}) = double(1 << x); // each point its own bit
    }
    emulateSimtStep(plan, in, out);
    const bool m = boundary == BoundaryKind::Mirror;
    // in[-2], in[-1] are in[0], in[0] (clamp) or in[1], in[0] (mirror).
    const int left[2] = {m ? 1 : 0, 0};
    const int right[2] = {6, m ? 5 : 6}; // in[7], in[8]
    double first = 0.0, last = 0.0;
    for (const Term &t : spec.terms) {
      const int dx = t.offset.d[0];
      first += t.coefficient * in.at({dx >= 0 ? dx : left[dx + 2], 0, 0});
      last += t.coefficient * in.at({dx <= 0 ? 6 + dx : right[dx - 1], 0, 0});
    }
    SCOPED_TRACE(keyword(boundary));
    EXPECT_DOUBLE_EQ(out.at({0, 0, 0}), first);
    EXPECT_DOUBLE_EQ(out.at({6, 0, 0}), last);
  }
}

/// A plan that loses a read is caught: the comparison is not vacuous.
TEST(SimtEmulatorMatchesReference, DetectsADroppedRead) {
  StencilSpec spec = makeStencil(3, Shape::Star, 1, Precision::FP64, BoundaryKind::Periodic, 5);
  Plan plan = planSimt(spec, smallBlocks(3));
  plan.simt().slices.front().terms.clear(); // the dz = -1 read
  GridND in = randomGridND(3, {9, 10, 11}, spec.precision, 6);
  GridND emulated(3, {9, 10, 11}), reference(3, {9, 10, 11});
  emulateSimtStep(plan, in, emulated);
  referenceStepND(spec, in, reference);
  EXPECT_GT(relativeL2ErrorND(spec, emulated, reference), 1e-3);
}

/// What the planner promises, for every dimension, precision and radius.
TEST(SimtPlanner, GeometryInvariants) {
  for (int dims : {1, 2, 3}) {
    for (Precision p :
         {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP32, Precision::FP64}) {
      for (int r = 1; r <= 32; ++r) {
        StencilSpec spec = makeStencil(dims, Shape::Star, r, p, BoundaryKind::Fixed, 1);
        Plan plan = planSimt(spec);
        const SimtPlan &sp = plan.simt();
        SCOPED_TRACE(::testing::Message() << spec.name);
        EXPECT_EQ(sp.vectorWidth * static_cast<int>(elementBytes(p)), 16);
        EXPECT_EQ(sp.compute, p == Precision::FP64 ? Precision::FP64 : Precision::FP32);
        EXPECT_GE(sp.haloX, r);
        EXPECT_EQ(sp.haloX % sp.vectorWidth, 0);
        EXPECT_EQ(sp.tileX % sp.vectorWidth, 0);
        EXPECT_EQ(sp.tileX % sp.outputsX, 0);
        EXPECT_LE(sp.sharedBytes(), 48 * 1024);
        EXPECT_EQ(sp.threads % 32, 0);
        EXPECT_EQ(sp.radiusZ, dims >= 2 ? r : 0);
        EXPECT_EQ(sp.radiusY, dims == 3 ? r : 0);
        std::size_t reads = 0;
        for (const SimtSlice &s : sp.slices) {
          reads += s.terms.size();
        }
        EXPECT_EQ(reads, spec.points());
      }
    }
  }
}

/// Planes per block at launch: the most the plan allows on grids with
/// blocks to spare, halved (not below the floor) while the grid has too few
/// blocks (the 512^3 values are the ones measured best on an H100, see
/// bench/results/2026-11-21-simt-h100-tuning.txt).
TEST(SimtPlanner, LaunchChunkKeepsTheGridBusy) {
  Plan fp32 = planSimt(makeStencil(3, Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 1));
  Plan fp64 = planSimt(makeStencil(3, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 1));
  EXPECT_EQ(fp32.simt().chunkFor(512, 512, 512), 16);
  EXPECT_EQ(fp64.simt().chunkFor(512, 512, 512), 32);
  EXPECT_EQ(fp32.simt().chunkFor(64, 64, 64), fp32.simt().minChunkZ);
  EXPECT_EQ(fp32.simt().chunkFor(4096, 2048, 2048), fp32.simt().chunkZ);
  Plan line = planSimt(makeStencil(1, Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 1));
  EXPECT_EQ(line.simt().chunkFor(1, 1, 1000003), 1);
}

/// A chunk asked for (chunk-z) is what every launch uses, thin grid or not.
TEST(SimtPlanner, AskedChunkIsKept) {
  PlanOptions asked;
  asked.chunkZ = 64;
  Plan plan =
      planSimt(makeStencil(3, Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 1), asked);
  EXPECT_EQ(plan.simt().chunkFor(512, 512, 512), 64);
  EXPECT_EQ(plan.simt().chunkFor(64, 64, 64), 64);
}

/// The L2 prefetch size asked for reaches the plan, over a measured one
/// (TunedPlans.inc: 256 for star3d7p fp32 on sm_90); the planner's own
/// choice, where nothing was measured, is none (plain read-only loads).
TEST(SimtPlanner, AskedL2PrefetchIsKept) {
  const StencilSpec star = makeStencil(3, Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 1);
  const StencilSpec box = makeStencil(3, Shape::Box, 2, Precision::FP32, BoundaryKind::Fixed, 1);
  PlanOptions sm90;
  sm90.target = Arch::Sm90;
  EXPECT_EQ(planSimt(box, sm90).simt().l2PrefetchBytes, 0);
  EXPECT_EQ(planSimt(star, sm90).simt().l2PrefetchBytes, 256);
  PlanOptions asked = sm90;
  asked.l2Prefetch = 128;
  EXPECT_EQ(planSimt(star, asked).simt().l2PrefetchBytes, 128);
  EXPECT_EQ(planSimt(box, asked).simt().l2PrefetchBytes, 128);
}

/// Plane buffers asked for may pass the static 48 KiB up to the arch's
/// opt-in maximum (then the kernel takes dynamic shared memory); fewer
/// buffers where even that is too little; the planner's own choice stays
/// static.
TEST(SimtPlanner, AskedBuffersUseTheOptInSharedMemory) {
  const StencilSpec spec = makeStencil(3, Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 1);
  PlanOptions asked;
  asked.tileY = 32;
  asked.stages = 8;
  for (const ArchInfo &arch : Archs) {
    asked.target = arch.arch;
    const SimtPlan sp = planSimt(spec, asked).simt();
    SCOPED_TRACE(arch.name);
    EXPECT_LE(sp.sharedBytes(), arch.maxDynamicSharedBytes);
    EXPECT_TRUE(sp.dynamicShared());
    EXPECT_GT(sp.buffers, 2);
    PlanOptions options;
    options.target = arch.arch;
    const SimtPlan own = planSimt(spec, options).simt();
    EXPECT_FALSE(own.dynamicShared());
  }
  asked.target = Arch::Sm90;
  EXPECT_EQ(planSimt(spec, asked).simt().buffers, 8);
  asked.target = Arch::Sm86;
  EXPECT_EQ(planSimt(spec, asked).simt().buffers, 5);
}

/// --backend=auto: the simt path for everything the tensor path cannot take,
/// and a plan that says why.
TEST(BackendChoice, SimtWhereTensorCannot) {
  for (auto [dims, p] : {std::pair{1, Precision::FP32}, std::pair{3, Precision::FP32},
                         std::pair{2, Precision::FP32}}) {
    Plan plan = planAuto(makeStencil(dims, Shape::Star, 1, p, BoundaryKind::Fixed, 1));
    EXPECT_EQ(plan.backend(), BackendKind::Simt);
    EXPECT_NE(plan.choice.find("cannot take it"), std::string::npos) << plan.choice;
  }
  Plan large = planAuto(makeStencil(2, Shape::Star, 17, Precision::FP16, BoundaryKind::Fixed, 1));
  EXPECT_EQ(large.backend(), BackendKind::Simt);
}

/// With one step a launch (fuse=1), the single-step measurements decide.
PlanOptions oneStepALaunch() {
  PlanOptions options;
  options.fusedSteps = 1;
  return options;
}

TEST(BackendChoice, EveryTensorCandidateSaysWhy) {
  for (Precision p : {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP64}) {
    for (Shape shape : {Shape::Star, Shape::Box}) {
      for (int r = 1; r <= maxTensorRadius(p); ++r) {
        StencilSpec spec = makeStencil(2, shape, r, p, BoundaryKind::Fixed, 1);
        Plan plan = planAuto(spec, oneStepALaunch());
        std::optional<BackendMeasurement> m = measuredBackends(spec, Arch::Sm90);
        SCOPED_TRACE(::testing::Message() << spec.name << ": " << plan.choice);
        if (m) {
          EXPECT_EQ(plan.backend(), m->tensorGStencils > m->simtGStencils ? BackendKind::Tensor
                                                                          : BackendKind::Simt);
          EXPECT_NE(plan.choice.find("measured faster"), std::string::npos);
        } else {
          // Another radius of the same shape and precision, or the rule.
          EXPECT_TRUE(plan.choice.find("from the nearest measurement") != std::string::npos ||
                      plan.choice.find("by rule") != std::string::npos);
        }
      }
    }
  }
}

/// A 2D stencil whose NAME_run fuses steps on CUDA cores goes there under
/// auto, whatever the single step measured, unless the tensor cores' whole
/// composed pass measured faster still (the 16-bit stars and boxes of
/// radius 1-3, every boundary): then auto takes the composed pass at its
/// measured T, the composed step stacked.
TEST(BackendChoice, FusedStepsComeFirst) {
  for (BoundaryKind b : {BoundaryKind::Fixed, BoundaryKind::Periodic}) {
    for (Precision p : {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP64}) {
      const StencilSpec spec = makeStencil(2, Shape::Box, 1, p, b, 1);
      const Plan plan = planAuto(spec);
      SCOPED_TRACE(::testing::Message() << spec.name << ": " << plan.choice);
      EXPECT_GT(plan.schedule.fusedSteps, 1);
      const MeasuredTensorRun *won = measuredTensorRun(spec);
      EXPECT_EQ(won != nullptr, p == Precision::FP16 || p == Precision::BF16);
      if (won) {
        EXPECT_EQ(plan.backend(), BackendKind::Tensor);
        ASSERT_TRUE(plan.schedule.composed.has_value());
        EXPECT_TRUE(plan.schedule.composed->plan->tensor().stacked);
        EXPECT_EQ(plan.schedule.fusedSteps, won->steps);
        EXPECT_GT(won->tensorGStencils, won->simtFusedGStencils);
        EXPECT_NE(plan.choice.find("composed passes of 8 steps (the composed step stacked) "
                                   "measured faster"),
                  std::string::npos);
      } else {
        EXPECT_EQ(plan.backend(), BackendKind::Simt);
        EXPECT_NE(plan.choice.find("fuses"), std::string::npos);
      }
    }
  }
}

/// The 16-bit 2D stars and boxes of radius 1-3 measured faster in composed
/// passes on tensor cores (an H200; the stars of radius 3 an H100), the
/// composed step stacked: 8, 4 and 2 steps, the largest T of a composed
/// radius of at most 8, and the stars of radius 3 3 steps (a composed
/// radius of 9). Where the dense form is asked (mma=dense, or an option shaping its
/// block), the composed step would be dense, which the measurement is not
/// of: auto plans no composed pass.
TEST(BackendChoice, MeasuredComposedPassesOf16BitStarsAndBoxes) {
  for (Shape shape : {Shape::Star, Shape::Box})
    for (int r : {1, 2, 3})
      for (Precision p : {Precision::FP16, Precision::BF16}) {
        const StencilSpec spec = makeStencil(2, shape, r, p, BoundaryKind::Reflect, 1);
        const Plan plan = planAuto(spec);
        SCOPED_TRACE(::testing::Message() << spec.name << ": " << plan.choice);
        EXPECT_EQ(plan.backend(), BackendKind::Tensor);
        const bool star3 = shape == Shape::Star && r == 3;
        EXPECT_EQ(plan.schedule.fusedSteps, star3 ? 3 : 8 / r);
        EXPECT_NE(
            plan.choice.find(star3 ? "measured faster on an H100" : "measured faster on an H200"),
            std::string::npos);
        const Plan dense = planAuto(spec, stencilc::testing::dense());
        EXPECT_FALSE(dense.schedule.composed.has_value()) << dense.choice;
      }
  EXPECT_EQ(
      measuredTensorRun(makeStencil(2, Shape::Box, 4, Precision::FP16, BoundaryKind::Fixed, 1)),
      nullptr);
}

/// Every measured key of the table, 1D, 2D and 3D, is decided by its
/// measurement (with one step a launch).
TEST(BackendChoice, MeasuredKeysFollowTheTable) {
  int measured[4] = {};
  for (int dims : {1, 2, 3}) {
    for (Precision p : {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP64}) {
      for (Shape shape : {Shape::Star, Shape::Box}) {
        for (int r = 1; r <= maxTensorRadius(p); ++r) {
          StencilSpec spec = makeStencil(dims, shape, r, p, BoundaryKind::Fixed, 1);
          std::optional<BackendMeasurement> m = measuredBackends(spec, Arch::Sm90);
          if (!m) {
            continue;
          }
          ++measured[dims];
          PlanOptions options = oneStepALaunch();
          options.target = Arch::Sm90;
          EXPECT_EQ(planAuto(spec, options).backend(),
                    m->tensorGStencils > m->simtGStencils ? BackendKind::Tensor : BackendKind::Simt)
              << spec.name;
        }
      }
    }
  }
  EXPECT_GT(measured[1], 0) << "BackendTable.inc holds no 1D measurement";
  EXPECT_GT(measured[2], 0) << "BackendTable.inc holds no 2D measurement";
  EXPECT_GT(measured[3], 0) << "BackendTable.inc holds no 3D measurement";
}

} // namespace
