//===- VerifyPlanTest.cpp - verifyPlan: sound plans pass, broken ones named ===//
//
// Every plan the planners make verifies: the stencils of the tree
// (examples/ and test/, every .stencil that compiles) and the fixtures
// (star and box, 1D to 3D, radii up to 32, every precision and boundary),
// on both backends and as --backend=auto picks, one step a launch and
// fused. And each promise verifyPlan checks is named when a plan is
// mutated to break it, one expectation a check.
//
//===----------------------------------------------------------------------===//
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Common/Backend.h"
#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Tensor/TensorCompose.h"
#include "Backends/Tensor/TensorFields.h"
#include "Backends/Tensor/TensorPlanner.h"
#include "FrontendTestUtil.h"
#include "Pipeline/BackendChoice.h"
#include "StencilFixtures.h"
#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"

using namespace stencilc;
using stencilc::testing::AllBoundaries;
using stencilc::testing::compileFilled;
using stencilc::testing::compileText;
using stencilc::testing::denseOnSm90;
using stencilc::testing::makeStencil;
using stencilc::testing::onSm90;
using stencilc::testing::tensorPlan;

namespace {

std::string listed(const std::vector<std::string> &problems) {
  std::string text;
  for (const std::string &p : problems) {
    text += "\n  " + p;
  }
  return text;
}

/// How many plans of each backend a sweep verified, so that a sweep that
/// planned nothing cannot pass.
struct Verified {
  int tensor = 0, simt = 0, fused = 0;
};

/// Plans `spec` with `options` on every backend that takes it, and as
/// --backend=auto picks (which may give up a composed pass after planning),
/// and expects verifyPlan to find nothing broken in any of them.
void expectSound(const StencilSpec &spec, const PlanOptions &options, Verified &count) {
  const auto check = [&](const Plan &plan, std::string_view how) {
    const std::vector<std::string> problems = verifyPlan(plan, options);
    EXPECT_TRUE(problems.empty()) << spec.name << " (" << how << ", " << keyword(options.target)
                                  << ", fuse=" << options.fusedSteps << "):" << listed(problems);
    ++(plan.backend() == BackendKind::Tensor ? count.tensor : count.simt);
    count.fused += plan.schedule.fusedSteps > 1;
  };
  for (BackendKind kind : AllBackends) {
    const Backend &backend = backendFor(kind);
    PlanOrRefusal planned =
        spec.hasFields() ? backend.planFields(spec, options) : backend.plan(spec, options);
    if (planned) {
      check(*planned, keyword(kind));
    }
  }
  if (!spec.hasFields()) {
    check(planAuto(spec, options), "auto");
  }
}

/// The options the sweeps plan with: the planners' own choices on the
/// architectures of each shared-memory size and MMA set, and fuse asked for.
std::vector<PlanOptions> optionVariants() {
  std::vector<PlanOptions> variants;
  for (auto [target, fuse] : {std::pair{Arch::Sm90, 0},
                              {Arch::Sm80, 0},
                              {Arch::Sm120, 0},
                              {Arch::Sm90, 1},
                              {Arch::Sm90, 2},
                              {Arch::Sm80, 4},
                              {Arch::Sm90, 8}}) {
    PlanOptions o;
    o.target = target;
    o.fusedSteps = fuse;
    variants.push_back(o);
  }
  return variants;
}

/// Every .stencil under the source tree's examples/ and test/ that
/// compiles, with its path.
std::vector<std::pair<std::string, StencilSpec>> treeStencils() {
  std::vector<std::pair<std::string, StencilSpec>> specs;
  const std::filesystem::path root(STENCILC_SOURCE_DIR);
  for (const char *folder : {"examples", "test"}) {
    for (const auto &entry : std::filesystem::recursive_directory_iterator(root / folder)) {
      if (entry.path().extension() != ".stencil") {
        continue;
      }
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      stencilc::testing::Compiled compiled = compileText(text.str());
      if (compiled.errors != 0) {
        continue; // a test of a diagnostic
      }
      for (StencilSpec &spec : compiled.specs) {
        specs.emplace_back(entry.path().lexically_relative(root).string(), std::move(spec));
      }
    }
  }
  return specs;
}

TEST(VerifyPlan, EveryStencilOfTheTreeVerifiesOnEveryBackend) {
  const std::vector<std::pair<std::string, StencilSpec>> specs = treeStencils();
  Verified count;
  int suite = 0, fields = 0;
  for (const auto &[path, spec] : specs) {
    SCOPED_TRACE(path);
    suite += path.rfind("examples/suite/", 0) == 0;
    fields += spec.hasFields();
    for (const PlanOptions &options : optionVariants()) {
      expectSound(spec, options, count);
    }
  }
  // every stencil of the suite (60, EBISU's 20, the low-rank examples 8) compiled and was planned
  EXPECT_EQ(suite, 88);
  EXPECT_GT(fields, 20);
  EXPECT_GT(count.tensor, 1000);
  EXPECT_GT(count.simt, 1000);
  EXPECT_GT(count.fused, 300);
}

/// The fixtures of one dimension: star and box (one shape in 1D), the
/// radii, every precision and boundary.
void expectFixturesSound(int dims, std::initializer_list<int> radii) {
  Verified count;
  for (Shape shape : {Shape::Star, Shape::Box}) {
    for (int r : radii) {
      if (dims == 1 && shape == Shape::Box) {
        continue; // a line's star and box are the same points
      }
      for (Precision p :
           {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP32, Precision::FP64}) {
        for (BoundaryKind boundary : AllBoundaries) {
          const StencilSpec spec = makeStencil(dims, shape, r, p, boundary, 7);
          for (const PlanOptions &options : optionVariants()) {
            expectSound(spec, options, count);
          }
        }
      }
    }
  }
  EXPECT_GT(count.tensor, 0);
  EXPECT_GT(count.simt, 0);
  EXPECT_GT(count.fused, 0);
}

TEST(VerifyPlan, FixturesOf1DVerify) { expectFixturesSound(1, {1, 2, 3, 4, 8, 16, 32}); }
TEST(VerifyPlan, FixturesOf2DVerify) { expectFixturesSound(2, {1, 2, 3, 4, 6, 8, 12}); }
TEST(VerifyPlan, FixturesOf3DVerify) { expectFixturesSound(3, {1, 2, 3, 4}); }

TEST(VerifyPlan, PlanOptionsTheDriverTakesVerify) {
  // A block, buffers and prefetch asked for: the planners' promises hold for
  // the options' values too.
  Verified count;
  for (int dims : {1, 2, 3}) {
    for (Precision p : {Precision::FP16, Precision::TF32, Precision::FP32, Precision::FP64}) {
      const StencilSpec spec = makeStencil(dims, Shape::Star, 2, p, BoundaryKind::Periodic, 3);
      for (int variant = 0; variant < 4; ++variant) {
        PlanOptions o;
        o.target = Arch::Sm90;
        o.threads = variant == 0 ? 64 : 0;
        o.tileX = variant == 1 ? 100 : 0;
        o.tileY = variant == 1 ? 4 : 0;
        o.chunkZ = variant == 1 ? 8 : 0;
        o.stages = variant == 2 ? 6 : variant == 3 ? 1 : 0;
        o.l2Prefetch = variant == 2 ? 128 : 0;
        o.tileRows = variant == 0 ? 1 : variant == 3 ? 8 : 0;
        o.tileCols = variant == 1 ? 16 : 0;
        o.warps = variant == 2 ? 2 : 0;
        o.nBlocks = variant == 3 ? 4 : variant == 0 ? 1 : 0;
        expectSound(spec, o, count);
      }
    }
  }
  EXPECT_GT(count.tensor, 0);
  EXPECT_GT(count.simt, 0);
}

TEST(VerifyPlan, PlanOptionsOfTheArithmeticAndFormVerify) {
  // arith=packed (coefficients rounded to the element type) and lowrank=on,
  // one step and fused: the planners' promises hold for them too.
  Verified count;
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    for (int fuse : {1, 3}) {
      PlanOptions o = onSm90(fuse);
      o.arith = ArithRequest::Packed;
      for (Shape shape : {Shape::Star, Shape::Box}) {
        expectSound(makeStencil(2, shape, 1, p, BoundaryKind::Fixed, 3), o, count);
      }
    }
  }
  PlanOptions lowRank = onSm90();
  lowRank.lowRank = LowRankRequest::On;
  for (int dims : {2, 3}) {
    expectSound(makeStencil(dims, Shape::Box, 1, Precision::FP32, BoundaryKind::Periodic, 3),
                lowRank, count);
  }
  EXPECT_GT(count.simt, 0);
}

TEST(VerifyPlan, PlanOptionsOfTheSparseFormVerify) {
  // mma=sparse on every 2D 16-bit star and box of radius 1 to 7 (the slices
  // in registers, and from radius 6 in shared memory), one step and fused:
  // the planners' promises hold, and every plan is sparse.
  Verified count;
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    for (int r : {1, 3, 5, 7}) {
      for (Shape shape : {Shape::Star, Shape::Box}) {
        for (int fuse : {1, 2}) {
          PlanOptions o = onSm90(fuse);
          o.mma = MmaRequest::Sparse;
          const StencilSpec spec = makeStencil(2, shape, r, p, BoundaryKind::Periodic, 5);
          expectSound(spec, o, count);
          EXPECT_TRUE(tensorPlan(spec, o).tensor().sparse) << spec.name;
        }
      }
    }
  }
  EXPECT_GT(count.tensor, 0);
}

// ---- Each check fires on a plan mutated to break it ------------------------

/// Whether verifyPlan names `promise` (a phrase of the message, the
/// planner's name first) among what `plan` breaks.
::testing::AssertionResult breaks(const Plan &plan, const PlanOptions &options,
                                  std::string_view promise) {
  const std::vector<std::string> problems = verifyPlan(plan, options);
  for (const std::string &p : problems) {
    if (p.find(promise) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << "no '" << promise << "' in:" << listed(problems);
}

/// A plan changed by `mutate` (a copy: the planner's stays sound).
template <typename Mutate> Plan mutated(const Plan &plan, Mutate mutate) {
  Plan copy = plan;
  mutate(copy);
  return copy;
}

/// The simt plan of the 2D fp32 star of radius 1, which fuses 8 steps.
Plan fusedSimt2D() {
  return planSimt(makeStencil(2, Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 1),
                  onSm90());
}

/// The tensor plan of the 2D fp16 star of radius 2: a vertical and a
/// horizontal slice GEMM.
Plan tensorStar() {
  return tensorPlan(makeStencil(2, Shape::Star, 2, Precision::FP16, BoundaryKind::Fixed, 1),
                    denseOnSm90());
}

TEST(VerifyPlan, BaseCasesOfTheMutationsAreSound) {
  // What the mutations below start from verifies, so that each failure
  // they show is the mutation's.
  const Plan simt = fusedSimt2D();
  EXPECT_GT(simt.schedule.fusedSteps, 1);
  EXPECT_EQ(listed(verifyPlan(simt, onSm90())), "");
  EXPECT_EQ(listed(verifyPlan(tensorStar(), denseOnSm90())), "");
}

TEST(VerifyPlan, EachScheduleCheckFires) {
  const Plan simt = fusedSimt2D();
  const PlanOptions o = onSm90();
  EXPECT_TRUE(breaks(mutated(simt, [](Plan &p) { p.schedule.fusedSteps = 0; }), o,
                     "every planner promises fusedSteps >= 1"));
  EXPECT_TRUE(breaks(mutated(simt, [](Plan &p) { p.schedule.why.clear(); }), o,
                     "every planner promises a schedule that says why T is what it is"));
  EXPECT_TRUE(breaks(mutated(simt,
                             [](Plan &p) {
                               p.schedule.composed.emplace();
                               p.schedule.composed->plan = std::make_shared<const Plan>(p);
                             }),
                     o, "every planner promises a composed pass only on a tensor-core plan"));
  EXPECT_TRUE(breaks(mutated(simt, [](Plan &p) { p.choice += "\nsecond line"; }), o,
                     "every planner promises a choice that says why this backend in one line"));
  EXPECT_TRUE(breaks(mutated(simt, [](Plan &p) { p.choice.clear(); }), o,
                     "planSimt promises a choice that says why the CUDA cores"));
  EXPECT_TRUE(breaks(mutated(tensorStar(), [](Plan &p) { p.choice.clear(); }), denseOnSm90(),
                     "planTensor promises a choice that says why the tensor cores"));
  const StencilSpec wave = compileFilled(stencilc::testing::WaveFieldsText, "fp32", "fixed");
  const Plan fields = *stencilc::planFields(wave, onSm90(4));
  EXPECT_EQ(listed(verifyPlan(fields, onSm90(4))), "");
  EXPECT_TRUE(breaks(mutated(fields,
                             [](Plan &p) {
                               p.schedule.composed.emplace();
                               p.schedule.composed->plan = std::make_shared<const Plan>(p);
                             }),
                     onSm90(4),
                     "every planner of a stencil of fields promises fused passes of a stencil of "
                     "fields on CUDA cores only, never composed"));
  EXPECT_TRUE(breaks(mutated(fields, [](Plan &p) { p.schedule.lowered = true; }), onSm90(4),
                     "every planner of a stencil of fields promises lowered exactly where fuse "
                     "asked for more than the plan's T"));
  EXPECT_TRUE(breaks(mutated(fields, [](Plan &p) { p.schedule.fused.halo = 1; }), onSm90(4),
                     "planFieldsFusion promises a halo of T x the stepped field's reach"));
}

TEST(VerifyPlan, EachSimtKernelCheckFires) {
  const Plan plan = fusedSimt2D();
  const PlanOptions o = onSm90();
  const auto simtBreaks = [&](auto mutate, std::string_view promise) {
    return breaks(mutated(plan, [&](Plan &p) { mutate(p.simt()); }), o, promise);
  };
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.compute = Precision::FP64; },
                         "planSimt promises fp64 arithmetic for fp64"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.threads = 100; },
                         "planSimt promises a block of whole warps, at most 1024 threads"));
  EXPECT_TRUE(
      simtBreaks([](SimtPlan &sp) { sp.minChunkZ = 0; }, "planSimt promises chunkZ >= minChunkZ"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.vectorWidth = 2; },
                         "planSimt promises loads of whole 16-byte vectors"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.radiusY = 1; },
                         "planSimt promises the stencil's radius along every axis"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.tileX += 2; },
                         "planSimt promises tileX a multiple of vectorWidth and outputsX"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.haloX = 2; },
                         "planSimt promises haloX a multiple of vectorWidth and >= radiusX"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.planeBytes /= 2; },
                         "planSimt promises a plane of the block's outputs and their halo"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.itemsPerThread += 1; },
                         "planSimt promises every item and every 16-byte group"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.buffers = 200; },
                         "planSimt promises sharedBytes() within the limit"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.buffers = 0; },
                         "planSimt promises plane buffers a thread can fetch ahead"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.slices.front().terms.front().dx = 5; },
                         "planSimt promises slice terms within the radii the plane holds"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.slices.back().terms.pop_back(); },
                         "planSimt promises every (dz, dy, dx) with a non-zero coefficient in "
                         "exactly one slice term"));
  EXPECT_TRUE(simtBreaks([](SimtPlan &sp) { sp.slices.back().terms.back().coefficient += 1; },
                         "planSimt promises each slice term's coefficient rounded once"));
  EXPECT_TRUE(
      simtBreaks([](SimtPlan &sp) { sp.slices.front().terms.push_back(SimtTerm{0, 1, 0.0}); },
                 "planSimt promises no slice term the stencil does not read"));
}

TEST(VerifyPlan, EachSimtFusionCheckFires) {
  const PlanOptions o = onSm90();
  const Plan plan = fusedSimt2D();
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.spec.boundary = BoundaryKind::Clamp; }), o,
                     "planSimtFusion promises the band of a folding rule's fused passes"));
  const Plan clamp =
      planSimt(makeStencil(2, Shape::Star, 1, Precision::FP64, BoundaryKind::Clamp, 1), o);
  ASSERT_TRUE(clamp.schedule.fused.band.has_value());
  EXPECT_TRUE(breaks(mutated(clamp, [](Plan &p) { p.schedule.fused.band->tile = 16; }), o,
                     "planSimtFusion promises the band of a folding rule's fused passes"));
  EXPECT_TRUE(breaks(mutated(clamp, [](Plan &p) { p.spec.boundary = BoundaryKind::Fixed; }), o,
                     "planSimtFusion promises a band only under a folding rule"));
  EXPECT_TRUE(
      breaks(mutated(clamp, [](Plan &p) { p.simt().packed = true; }), o,
             "planSimtFusion promises fused passes under a folding rule in the terms' or the "
             "unpaired low-rank order"));
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.fused.sharedBytes = 1 << 20; }), o,
                     "planSimtFusion promises fused.sharedBytes within the target's opt-in "
                     "limit"));
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.fused.halo = 1; }), o,
                     "planSimtFusion promises fused halos of at least T x r"));
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.fused.halo = p.schedule.fused.width; }),
                     o, "planSimtFusion promises a fused pass that stores a column"));
  const Plan star3d =
      planSimt(makeStencil(3, Shape::Star, 1, Precision::FP64, BoundaryKind::Fixed, 1), o);
  ASSERT_GT(star3d.schedule.fusedSteps, 1);
  EXPECT_TRUE(breaks(mutated(star3d, [](Plan &p) { p.schedule.fused.queued = true; }), o,
                     "planSimtFusion promises the queued form only for a 2D stencil in the "
                     "direct or low-rank form"));
  const Plan unfused =
      planSimt(makeStencil(1, Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 1), onSm90(1));
  ASSERT_EQ(unfused.schedule.fusedSteps, 1);
  EXPECT_TRUE(breaks(mutated(unfused, [](Plan &p) { p.schedule.fused.takesSteps = true; }),
                     onSm90(1),
                     "planSimtFusion promises NAME_step takes the fused kernel only where "
                     "NAME_run has one"));
  EXPECT_TRUE(breaks(mutated(plan,
                             [](Plan &p) {
                               p.schedule.fused.queued = true;
                               p.schedule.fused.takesSteps = true;
                             }),
                     o,
                     "planSimtFusion promises NAME_step takes the fused kernel in the window "
                     "form only"));
}

/// The 3D stencil of fields whose u the plane kernel streams (k is read at
/// the point only).
const char *const VarHeat3D =
    R"(stencil varheat3d { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
       param dt;
       out[i, j, l] = u[i, j, l] + dt * k[i, j, l] *
           (u[i-1, j, l] + u[i+1, j, l] + u[i, j-1, l] + u[i, j+1, l] + u[i, j, l-1]
            + u[i, j, l+1] - 6 * u[i, j, l]); })";

TEST(VerifyPlan, EachSimtFieldsCheckFires) {
  const PlanOptions o = onSm90();
  const Plan chunk =
      *stencilc::planFields(compileFilled(stencilc::testing::WaveFieldsText, "fp32", "fixed"), o);
  ASSERT_LT(chunk.simt().planeField, 0);
  EXPECT_EQ(listed(verifyPlan(chunk, o)), "");
  EXPECT_TRUE(breaks(mutated(chunk, [](Plan &p) { p.simt().tileY *= 2; }), o,
                     "planFields promises the chunk kernel a thread per column"));
  const Plan planes = *stencilc::planFields(compileFilled(VarHeat3D, "fp32", "fixed"), o);
  ASSERT_GE(planes.simt().planeField, 0);
  EXPECT_EQ(listed(verifyPlan(planes, o)), "");
  EXPECT_TRUE(breaks(mutated(planes, [](Plan &p) { p.simt().planeField = 7; }), o,
                     "planFields promises the plane kernel streams one of the fields"));
  EXPECT_TRUE(breaks(mutated(planes, [](Plan &p) { p.simt().tileY = 64; }), o,
                     "planFields promises the plane kernel at most 32 rows a block"));
  EXPECT_TRUE(breaks(mutated(planes, [](Plan &p) { p.simt().tileX += 1; }), o,
                     "planFields promises the plane kernel's tileX a multiple of vectorWidth"));
  EXPECT_TRUE(breaks(mutated(planes, [](Plan &p) { p.simt().buffers = p.simt().queueLength(); }), o,
                     "planFields promises the plane kernel's ring holds the planes"));
  EXPECT_TRUE(breaks(mutated(planes, [](Plan &p) { p.simt().buffers = 400; }), o,
                     "planFields promises the plane kernel's ring within the target's opt-in"));
}

TEST(VerifyPlan, EachTensorKernelCheckFires) {
  const Plan plan = tensorStar();
  const PlanOptions o = denseOnSm90();
  ASSERT_EQ(plan.tensor().gemms.size(), 2u);
  ASSERT_EQ(plan.tensor().gemms[0].kind, SliceKind::Vertical);
  EXPECT_EQ(listed(verifyPlan(plan, o)), "");
  const auto tensorBreaks = [&](auto mutate, std::string_view promise) {
    return breaks(mutated(plan, [&](Plan &p) { mutate(p.tensor()); }), o, promise);
  };
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.spec.radius = 9; }), o,
                     "planTensor promises a precision the MMAs take"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.tileN = 24; },
                           "planTensor promises output tiles of "
                           "whole MMAs"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.warps = 100; },
                           "planTensor promises a block of whole tiles and between one warp"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.haloRows = 1; },
                           "planTensor promises halos of the radius"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.gemms[1].param.cols = 16; },
                           "planTensor promises slice matrices of their operand's shape"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.gemms.clear(); },
                           "planTensor promises at least one slice GEMM"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.fields.emplace(); },
                           "planTensor promises accumulator groups exactly for a stencil of "
                           "fields"));
}

TEST(VerifyPlan, EachSparseCheckFires) {
  PlanOptions o = onSm90();
  o.mma = MmaRequest::Sparse;
  const StencilSpec box = makeStencil(2, Shape::Box, 7, Precision::FP16, BoundaryKind::Fixed, 1);
  const Plan plan = tensorPlan(box, o);
  ASSERT_TRUE(plan.tensor().sparse);
  ASSERT_FALSE(plan.tensor().paramsInRegisters); // 15 slices of 5 registers
  EXPECT_EQ(listed(verifyPlan(plan, o)), "");
  const auto tensorBreaks = [&](auto mutate, std::string_view promise) {
    return breaks(mutated(plan, [&](Plan &p) { mutate(p.tensor()); }), o, promise);
  };
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.sparse = false; },
                           "planTensor promises the sparse form exactly where mma=sparse asked"));
  const PlanOptions dense = denseOnSm90(); // (unasked, this box takes the stacked form)
  EXPECT_TRUE(breaks(tensorPlan(box, dense), o,
                     "planTensor promises the sparse form exactly where mma=sparse asked"));
  const std::string_view slices = "planTensor promises the sparse form's slices";
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.gemms.pop_back(); }, slices));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.gemms[3].firstK = 4; }, slices));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.windowPitch -= tp.vectorWidth; }, slices));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.paramsInRegisters = true; },
                           "planTensor promises the sparse slices in registers exactly where"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.paramBytes -= 4; },
                           "planTensor promises sharedBytes() counting the whole window"));
}

TEST(VerifyPlan, EachStackedCheckFires) {
  PlanOptions o = onSm90();
  o.mma = MmaRequest::Stacked;
  const StencilSpec star = makeStencil(2, Shape::Star, 3, Precision::BF16, BoundaryKind::Fixed, 1);
  const Plan plan = tensorPlan(star, o);
  ASSERT_TRUE(plan.tensor().stacked);
  EXPECT_EQ(listed(verifyPlan(plan, o)), "");
  const auto tensorBreaks = [&](auto mutate, std::string_view promise) {
    return breaks(mutated(plan, [&](Plan &p) { mutate(p.tensor()); }), o, promise);
  };
  const std::string_view chosen = "planTensor promises the stacked form exactly where";
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.stacked = false; }, chosen));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.sparse = true; }, chosen));
  const PlanOptions dense = denseOnSm90();
  EXPECT_TRUE(breaks(tensorPlan(star, dense), o, chosen));
  EXPECT_TRUE(breaks(plan, dense, chosen));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.nBlocks = 8; },
                           "planTensor promises the stacked form's strips"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.warps = 8; },
                           "planTensor promises the stacked form's strips"));
  const std::string_view window = "planTensor promises the stacked form's window";
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.windowPitch += tp.vectorWidth; }, window));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.loadedColEnd -= 8; }, window));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.windowRows -= 1; }, window));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.windowBytes *= 3; },
                           "planTensor promises the stacked form's windows within"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.gemms.pop_back(); },
                           "planTensor promises the stacked form's rows"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.minBlocks = 2; },
                           "planTensor promises the stacked form's blocks a multiprocessor"));
  // Every weighted row in exactly one group, whose chunks reach its
  // weights; the shifted window exactly where a group reads it, and only
  // where asked; the groups stackedGroups chose.
  const std::string_view groups = "planTensor promises the stacked form's groups: each row";
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.stackedGroups.pop_back(); }, groups));
  EXPECT_TRUE(tensorBreaks(
      [](TensorPlan &tp) { tp.stackedGroups.push_back(tp.stackedGroups.front()); }, groups));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.stackedGroups.back().count -= 1; }, groups));
  EXPECT_TRUE(
      tensorBreaks([](TensorPlan &tp) { tp.stackedGroups.back().half[0].first += 1; }, groups));
  const std::string_view shifted = "planTensor promises the shifted window exactly where";
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.shiftedWindow = true; }, shifted));
  EXPECT_TRUE(tensorBreaks(
      [](TensorPlan &tp) {
        tp.stackedGroups.back().half[0].window = 1;
        tp.stackedGroups.back().count = 2;
        tp.stackedGroups.back().half[0].first = 0;
        tp.shiftedWindow = true;
        tp.nBlocks = StackedShiftedBlocks;
      },
      shifted));
  EXPECT_TRUE(tensorBreaks(
      [](TensorPlan &tp) { std::swap(tp.stackedGroups.front(), tp.stackedGroups.back()); },
      "planTensor promises the stacked form's groups those stackedGroups chooses"));
  // Stages only where the launch bounds' blocks fit with them (not sm_86),
  // and only in the stacked form.
  ASSERT_TRUE(plan.tensor().stagedStores);
  PlanOptions sm86 = o;
  sm86.target = Arch::Sm86;
  // (In sm_86's persistent grid: two windows, as planned there.)
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.tensor().persistentGrid = true; }), sm86,
                     "planTensor promises the stacked form's windows within"));
  EXPECT_TRUE(breaks(
      mutated(tensorPlan(star, denseOnSm90()), [](Plan &p) { p.tensor().stagedStores = true; }),
      denseOnSm90(), "planTensor promises stores staged only in the stacked form"));
  // Windows by the tensor memory accelerator exactly where the planner
  // takes them: on sm_90 at a fixed grid, not before sm_90, not dense.
  const std::string_view mapped = "planTensor promises windows copied by the tensor memory";
  ASSERT_TRUE(plan.tensor().mappedWindows);
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.mappedWindows = false; }, mapped));
  EXPECT_TRUE(breaks(plan, sm86, mapped));
  PlanOptions threads = o;
  threads.copy = CopyRequest::Threads;
  EXPECT_TRUE(breaks(plan, threads, mapped));
  EXPECT_TRUE(breaks(
      mutated(tensorPlan(star, denseOnSm90()), [](Plan &p) { p.tensor().mappedWindows = true; }),
      denseOnSm90(), mapped));
  // A single step's mapped windows read without L2 promotion.
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.windowPromotion = 128; },
                           "planTensor promises a single step's mapped windows read with"));
  // A single step whose windows are mapped runs a block a tile.
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.persistentGrid = true; },
                           "planTensor promises a single step in stackedPersistentGrid's grid"));
}

TEST(VerifyPlan, EachTensorGuaranteeFires) {
  // TensorPlanner.h's three promises, each way a plan can break them.
  const Plan plan = tensorStar();
  const PlanOptions o = denseOnSm90();
  const auto tensorBreaks = [&](auto mutate, std::string_view promise) {
    return breaks(mutated(plan, [&](Plan &p) { mutate(p.tensor()); }), o, promise);
  };
  const std::string_view aligned = "planTensor promises every fragment load aligned to its unit";
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.vectorWidth = 4; }, aligned));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.windowPitch += 2; }, aligned));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.haloCols = 4; }, aligned));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.loadedColBegin += 1; }, aligned));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.gemms[1].firstK += 1; }, aligned));
  const std::string_view filled = "planTensor promises every window element a GEMM reads filled";
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.loadedRows = tp.windowRows + 1; }, filled));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.windowRows -= 1; }, filled));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.windowCols -= tp.vectorWidth; }, filled));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.loadedColEnd -= tp.vectorWidth; },
                           "planTensor promises every window element a non-zero parameter "
                           "multiplies loaded from the input"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.paramBytes += 2; },
                           "planTensor promises sharedBytes() counting the whole window"));
  EXPECT_TRUE(breaks(
      plan,
      [] {
        PlanOptions smaller = onSm90();
        smaller.sharedMemoryLimit = 1024;
        return smaller;
      }(),
      "planTensor promises sharedBytes() within the limit"));
  EXPECT_TRUE(tensorBreaks([](TensorPlan &tp) { tp.gemms[1].param.values[20] += 1; },
                           "planTensor promises slice GEMMs that sum to the stencil"));
}

/// The tensor plan of the fp16 Laplacians of u and v (two windows, a group
/// each).
Plan tensorTwoWindows() {
  const StencilSpec uv = compileFilled(
      R"(stencil uv { precision PRECISION; boundary BOUNDARY; field u, v; coefficient k;
       param w;
       out[i, j] = w * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j])
                 + k[i, j] * (v[i-1, j] + v[i+1, j] + v[i, j-1] + v[i, j+1] - 4 * v[i, j])
                 + 0.5 * u[i, j]; })",
      "fp16", "fixed");
  PlanOrRefusal planned = planTensorFields(uv, onSm90());
  EXPECT_TRUE(planned) << (planned ? "" : planned.reason());
  return *std::move(planned);
}

TEST(VerifyPlan, EachTensorFieldsCheckFires) {
  const PlanOptions o = onSm90();
  const Plan plan = tensorTwoWindows();
  const TensorFieldsPlan &f = *plan.tensor().fields;
  ASSERT_EQ(f.windowFields.size(), 2u);
  ASSERT_FALSE(f.groupRunsGemm.empty());
  EXPECT_EQ(listed(verifyPlan(plan, o)), "");
  const auto fieldsBreaks = [&](auto mutate, std::string_view promise) {
    return breaks(mutated(plan, [&](Plan &p) { mutate(*p.tensor().fields); }), o, promise);
  };
  EXPECT_TRUE(fieldsBreaks([](TensorFieldsPlan &fp) { fp.groupWindow[0] = 5; },
                           "planTensorFields promises accumulator groups each with a window"));
  EXPECT_TRUE(fieldsBreaks([](TensorFieldsPlan &fp) { fp.pointTerms.push_back(0); },
                           "planTensorFields promises every term computed in exactly one place"));
  // A group told to skip a GEMM it holds terms in loses them.
  EXPECT_TRUE(fieldsBreaks(
      [](TensorFieldsPlan &fp) {
        for (std::vector<bool> &runs : fp.groupRunsGemm) {
          runs.assign(runs.size(), false);
        }
      },
      "planTensorFields promises a group skips only the GEMMs it holds no term in"));
  // Group 0's terms swapped with group 1's: right places, wrong window.
  EXPECT_TRUE(
      fieldsBreaks([](TensorFieldsPlan &fp) { std::swap(fp.groupWindow[0], fp.groupWindow[1]); },
                   "planTensorFields promises each group's matrices hold its terms at "
                   "their offsets"));
  EXPECT_TRUE(breaks(
      mutated(plan, [](Plan &p) { p.tensor().paramBytes = MaxKernelParamBytes; }),
      [] {
        PlanOptions roomy = onSm90();
        roomy.sharedMemoryLimit = 1 << 20;
        return roomy;
      }(),
      "planTensorFields promises a launch's arguments within a kernel's "
      "parameters"));
}

/// The composed pass of the 2D fp16 box of radius 1 (4 steps, measured to
/// win).
Plan composedBox() {
  return tensorPlan(makeStencil(2, Shape::Box, 1, Precision::FP16, BoundaryKind::Fixed, 1),
                    onSm90(4));
}

TEST(VerifyPlan, EachTensorFusionCheckFires) {
  const PlanOptions o = onSm90(4);
  const Plan plan = composedBox();
  ASSERT_TRUE(plan.schedule.composed);
  EXPECT_EQ(listed(verifyPlan(plan, o)), "");
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.fusedSteps = 1; }), o,
                     "planTensorFusion promises fusedSteps > 1 exactly with a composed pass"));
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.fusedSteps = 16; }), o,
                     "planTensorFusion promises a composed pass only in 2D, of a radius steps x "
                     "r"));
  // The plan with its composed step's plan changed by `change`.
  const auto composedChanged = [&](auto change) {
    return mutated(plan, [&](Plan &p) {
      Plan other = *p.schedule.composed->plan;
      change(other);
      p.schedule.composed->plan = std::make_shared<const Plan>(other);
    });
  };
  EXPECT_TRUE(breaks(composedChanged([](Plan &other) { other.spec.name = "another"; }), o,
                     "planTensorFusion promises a composed pass planned on tensor cores"));
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.composed->band.sharedBytes += 4; }), o,
                     "planTensorFusion promises a pass's kernels within the shared memory"));
  EXPECT_TRUE(breaks(composedChanged([](Plan &other) { other.tensor().stagedStores = true; }), o,
                     "planTensorFusion promises a composed pass's stores not staged"));
  EXPECT_TRUE(breaks(composedChanged([](Plan &other) { other.tensor().windowPromotion = 0; }), o,
                     "planTensorFusion promises a composed pass's mapped windows read with"));
  EXPECT_TRUE(breaks(composedChanged([](Plan &other) { other.tensor().persistentGrid = false; }), o,
                     "planTensorFusion promises a composed pass's step in"));
  ASSERT_TRUE(plan.schedule.composed->plan->tensor().stacked);
  EXPECT_TRUE(
      breaks(composedChanged([](Plan &other) { other.tensor().splitAccumulators = StackedSplit; }),
             o, "planTensorFusion promises a composed pass's stacked step sums in"));
  EXPECT_TRUE(breaks(
      composedChanged([](Plan &other) { other.tensor().splitAccumulators = StackedSplit + 1; }), o,
      "promises the stacked form's strips"));
  EXPECT_TRUE(breaks(composedChanged([](Plan &other) { other.tensor().windowPitch += 2; }), o,
                     "the composed pass's plan: planTensor promises the stacked form's "
                     "window"));
  // A stencil whose 4 steps compose into a weight past fp16's 65504.
  EXPECT_TRUE(breaks(mutated(plan,
                             [](Plan &p) {
                               for (Term &t : p.spec.terms) {
                                 t.coefficient = t.offset.isCentre() ? 20.0 : 0.5;
                               }
                             }),
                     o, "planTensorFusion promises a composed pass's coefficients finite"));
}

/// The remainder pass (T / 2 steps) beside the composed box's passes of 4.
TEST(VerifyPlan, EachRemainderPassCheckFires) {
  const PlanOptions o = onSm90(4);
  const Plan plan = composedBox();
  ASSERT_TRUE(plan.schedule.remainder);
  EXPECT_EQ(plan.schedule.remainder->steps, 2);
  EXPECT_EQ(listed(verifyPlan(plan, o)), "");
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.remainder->steps = 3; }), o,
                     "planTensorFusion promises a composed pass only in 2D, of a radius steps x "
                     "r"));
  EXPECT_TRUE(breaks(mutated(plan,
                             [](Plan &p) {
                               p.schedule.fusedSteps = 1;
                               p.schedule.composed.reset();
                             }),
                     o, "planTensorFusion promises a remainder pass only beside a composed pass"));
  EXPECT_TRUE(breaks(mutated(plan,
                             [](Plan &p) {
                               Plan dense = tensorPlan(composeSteps(p.spec, 2), [] {
                                 PlanOptions single = onSm90(1);
                                 single.mma = MmaRequest::Dense;
                                 return single;
                               }());
                               p.schedule.remainder->plan = std::make_shared<const Plan>(dense);
                             }),
                     o, "planTensorFusion promises a remainder pass of T / 2 >= 2 steps, stacked"));
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.remainder->band.sharedBytes += 4; }), o,
                     "planTensorFusion promises a pass's kernels within the shared memory"));
  EXPECT_TRUE(breaks(mutated(plan, [](Plan &p) { p.schedule.remainder->band.tile = 16; }), o,
                     "planTensorFusion promises a remainder pass of T / 2 >= 2 steps, stacked"));
}

TEST(VerifyPlan, BrokenPromisesAreAnInternalErrorWithAssertions) {
#ifdef NDEBUG
  GTEST_SKIP() << "assertPlanVerifies checks only in builds with assertions";
#else
  const Plan broken = mutated(fusedSimt2D(), [](Plan &p) { p.simt().tileX += 2; });
  EXPECT_DEATH(assertPlanVerifies(broken, onSm90()),
               "planSimt promises tileX a multiple of vectorWidth");
#endif
}

} // namespace
