//===- TunedPlansTest.cpp - Looking up and applying --tune results
//---------===//
#include <gtest/gtest.h>

#include "Backends/Common/TunedPlans.h"
#include "Backends/Simt/SimtPlanner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil2D;
using stencilc::testing::tensorPlan;
using stencilc::testing::tensorRefusal;

namespace {

const TunedPlan Table[] = {
    {"sm_90", Shape::Box, 2, 1, Precision::FP16, BackendKind::Tensor, 2, 16, 4, 4, 0, 0, 0, 0, 0,
     256, 0, 600.0},
    {"sm_90", Shape::Box, 2, 1, Precision::FP16, BackendKind::Simt, 0, 0, 0, 0, 256, 0, 0, 16, 4,
     128, 0, 590.0},
};

TEST(TunedPlans, FoundOnlyForTheExactKindArchAndBackend) {
  StencilSpec spec = makeStencil2D(Shape::Box, 1, Precision::FP16, BoundaryKind::Fixed, 1);
  ASSERT_NE(findTuned(Table, spec, Arch::Sm90, BackendKind::Tensor), nullptr);
  EXPECT_EQ(findTuned(Table, spec, Arch::Sm90, BackendKind::Tensor)->tileCols, 16);
  EXPECT_EQ(findTuned(Table, spec, Arch::Sm90, BackendKind::Simt)->threads, 256);
  EXPECT_EQ(findTuned(Table, spec, Arch::Sm80, BackendKind::Tensor), nullptr);
  StencilSpec wider = makeStencil2D(Shape::Box, 2, Precision::FP16, BoundaryKind::Fixed, 2);
  EXPECT_EQ(findTuned(Table, wider, Arch::Sm90, BackendKind::Tensor), nullptr);
  StencilSpec bf16 = makeStencil2D(Shape::Box, 1, Precision::BF16, BoundaryKind::Fixed, 3);
  EXPECT_EQ(findTuned(Table, bf16, Arch::Sm90, BackendKind::Tensor), nullptr);
}

/// An entry measured on another architecture serves where the planner
/// builds the same kernel there, and only there.
TEST(TunedPlans, AnotherArchServesOnlyTheSameKernel) {
  StencilSpec spec = makeStencil2D(Shape::Box, 1, Precision::FP16, BoundaryKind::Fixed, 1);
  auto same = [](const TunedPlan &) { return true; };
  auto different = [](const TunedPlan &) { return false; };
  EXPECT_EQ(findTuned(Table, spec, Arch::Sm80, BackendKind::Tensor, same), &Table[0]);
  EXPECT_EQ(findTuned(Table, spec, Arch::Sm80, BackendKind::Tensor, different), nullptr);
  EXPECT_EQ(findTuned(Table, spec, Arch::Sm80, BackendKind::Tensor), nullptr);
  // The built-in table through the planner: an fp16 kind tuned on sm_90 is
  // planned the same for sm_80; fp64, whose MMA differs, is not. (The
  // sweep's blocks are the dense form's, which a 16-bit kind is asked for.)
  const PlanOptions dense = stencilc::testing::dense();
  for (const TunedPlan &t : tunedPlans()) {
    if (t.dims == 0 || t.backend != BackendKind::Tensor) {
      continue;
    }
    StencilSpec kind = makeStencil2D(t.shape, t.radius, t.precision, BoundaryKind::Fixed, 2);
    const Plan sm80 = tensorPlan(kind, dense);
    const bool carried =
        sm80.tensor().nBlocks == t.nBlocks && sm80.choice.find("--tune") != std::string::npos;
    EXPECT_EQ(carried, t.precision != Precision::FP64)
        << keyword(t.precision) << " radius " << t.radius;
  }
}

/// A CUDA-core entry measured on sm_90 serves sm_80 (stencilc's default),
/// whose kernel differs only in the shared memory it may opt in to: every
/// built-in one keeps to the static 48 KiB, so sm_80 gets its buffers.
TEST(TunedPlans, SimtEntriesServeAnotherArchWithinStaticSharedMemory) {
  int checked = 0;
  for (const TunedPlan &t : tunedPlans()) {
    if (t.dims != 2 || t.backend != BackendKind::Simt) {
      continue;
    }
    StencilSpec kind = makeStencil2D(t.shape, t.radius, t.precision, BoundaryKind::Fixed, 2);
    const Plan sm80 = planSimt(kind, PlanOptions{});
    EXPECT_NE(sm80.choice.find("--tune sweep on sm_90"), std::string::npos) << sm80.choice;
    if (t.stages) {
      EXPECT_EQ(sm80.simt().buffers, t.stages) << keyword(t.precision) << " radius " << t.radius;
    }
    EXPECT_EQ(sm80.simt().l2PrefetchBytes, t.l2Prefetch)
        << keyword(t.precision) << " radius " << t.radius;
    EXPECT_FALSE(sm80.simt().dynamicShared());
    ++checked;
  }
  EXPECT_GT(checked, 0) << "TunedPlans.inc holds no 2D CUDA-core entry";
}

/// tf32 on the CUDA cores is fp32 arithmetic on float elements: a tf32 kind
/// with no CUDA-core entry of its own takes fp32's (the same kernel), and
/// says so; one with its own entry takes that.
TEST(TunedPlans, Tf32OnCudaCoresTakesFp32sEntryWhereItHasNone) {
  const auto has = [](const TunedPlan &like, Precision precision) {
    for (const TunedPlan &t : tunedPlans()) {
      if (t.dims == like.dims && t.shape == like.shape && t.radius == like.radius &&
          t.precision == precision && t.backend == BackendKind::Simt) {
        return true;
      }
    }
    return false;
  };
  int borrowed = 0;
  for (const TunedPlan &t : tunedPlans()) {
    if (t.dims != 2 || t.backend != BackendKind::Simt || t.precision != Precision::FP32) {
      continue;
    }
    PlanOptions sm90;
    sm90.target = Arch::Sm90;
    const Plan fp32 =
        planSimt(makeStencil2D(t.shape, t.radius, Precision::FP32, BoundaryKind::Fixed, 2), sm90);
    const Plan tf32 =
        planSimt(makeStencil2D(t.shape, t.radius, Precision::TF32, BoundaryKind::Fixed, 2), sm90);
    const bool own = has(t, Precision::TF32);
    EXPECT_EQ(tf32.choice.find("fp32's entry") != std::string::npos, !own) << tf32.choice;
    if (own) {
      continue;
    }
    EXPECT_EQ(tf32.simt().buffers, fp32.simt().buffers) << "radius " << t.radius;
    EXPECT_EQ(tf32.simt().l2PrefetchBytes, fp32.simt().l2PrefetchBytes) << "radius " << t.radius;
    EXPECT_EQ(tf32.simt().threads, fp32.simt().threads) << "radius " << t.radius;
    EXPECT_EQ(tf32.simt().chunkZ, fp32.simt().chunkZ) << "radius " << t.radius;
    ++borrowed;
  }
  EXPECT_GT(borrowed, 0) << "no 2D fp32 CUDA-core entry without a tf32 one to check";
}

TEST(TunedPlans, FillOnlyWhatTheOptionsLeaveOpen) {
  PlanOptions options;
  options.warps = 8; // explicit: kept
  PlanOptions simt;
  simt.stages = 2;       // explicit: kept
  simt.l2Prefetch = 256; // explicit: kept
  applyTuned(Table[0], options);
  EXPECT_EQ(options.tileRows, 2);
  EXPECT_EQ(options.tileCols, 16);
  EXPECT_EQ(options.warps, 8);
  EXPECT_EQ(options.nBlocks, 4);
  EXPECT_EQ(options.l2Prefetch, 256); // both backends' plans take a prefetch size
  applyTuned(Table[1], simt);
  EXPECT_EQ(simt.threads, 256);
  EXPECT_EQ(simt.chunkZ, 16);
  EXPECT_EQ(simt.stages, 2);
  EXPECT_EQ(simt.l2Prefetch, 256);
  EXPECT_EQ(simt.tileX, 0); // the tuned entry left it to the planner
  PlanOptions open;
  applyTuned(Table[1], open);
  EXPECT_EQ(open.l2Prefetch, 128);
}

/// The built-in table holds only measured entries, each for a backend
/// that can take its kind and with the parameters of that backend only.
TEST(TunedPlans, BuiltInEntriesAreWellFormed) {
  for (const TunedPlan &t : tunedPlans()) {
    if (t.dims == 0) {
      continue; // the sentinel
    }
    EXPECT_GT(t.gstencils, 0.0);
    if (t.backend == BackendKind::Tensor) {
      EXPECT_EQ(t.threads + t.tileX + t.tileY + t.chunkZ + t.stages, 0);
    } else {
      EXPECT_EQ(t.tileRows + t.tileCols + t.warps + t.nBlocks, 0);
    }
  }
}

} // namespace
