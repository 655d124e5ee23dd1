//===- PlannerTest.cpp - The tensor-core plans the planner builds ----------===//
#include <map>

#include <gtest/gtest.h>

#include "stencilc/Planner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil2D;

namespace {

const Precision TensorPrecisions[] = {Precision::FP16, Precision::BF16,
                                      Precision::TF32, Precision::FP64};

/// For output (m, n) of a tile, the coefficient each input offset receives
/// over all slice GEMMs of the plan.
std::map<std::pair<int, int>, double> effectiveStencil(const Plan &plan, int m,
                                                       int n) {
  const TensorPlan &tp = plan.tensor;
  const int k = tp.mma.k, r = plan.spec.radius;
  std::map<std::pair<int, int>, double> weights;
  for (const SliceGemm &g : tp.gemms) {
    for (int kIndex = 0; kIndex < g.chunkCount * k; ++kIndex) {
      if (g.kind == SliceKind::Vertical) {
        double w = g.param.at(m, kIndex);
        if (w != 0.0) {
          weights[{g.firstChunk * k + kIndex - m - r, 0}] += w;
        }
      } else {
        double w = g.param.at(kIndex, n);
        if (w != 0.0) {
          weights[{g.dy, g.firstChunk * k + kIndex - tp.haloCols - n}] += w;
        }
      }
    }
  }
  return weights;
}

TEST(Planner, StarHeatSplitsIntoVerticalAndHorizontalGemms) {
  StencilSpec spec = makeStencil2D(Shape::Star, 1, Precision::FP16,
                                   BoundaryKind::Fixed, 1);
  Plan plan = planTensor(spec);
  const TensorPlan &tp = plan.tensor;
  EXPECT_EQ(tp.mma.name(), "m16n16k16");
  EXPECT_EQ(tp.tile, 16);
  EXPECT_EQ(tp.haloCols, 16);
  ASSERT_EQ(tp.gemms.size(), 2u);
  EXPECT_EQ(tp.gemms[0].kind, SliceKind::Vertical);
  EXPECT_EQ(tp.gemms[0].chunkCount, 2); // K = 16 + 2 -> 32
  EXPECT_EQ(tp.gemms[0].param.rows, 16);
  EXPECT_EQ(tp.gemms[0].param.cols, 32);
  EXPECT_EQ(tp.gemms[1].kind, SliceKind::Row);
  EXPECT_EQ(tp.gemms[1].label, "horizontal");
  EXPECT_EQ(tp.gemms[1].chunkCount, 3); // one aligned chunk of halo each side
  // P_v[m][m + r + dy] = v[dy]: the centre sits on the diagonal m + 1.
  double centre = roundCoefficient(spec.coefficient(Offset{{0, 0, 0}}),
                                   Precision::FP16);
  double above = roundCoefficient(spec.coefficient(Offset{{-1, 0, 0}}),
                                  Precision::FP16);
  EXPECT_EQ(tp.gemms[0].param.at(5, 6), centre);
  EXPECT_EQ(tp.gemms[0].param.at(5, 5), above);
  EXPECT_EQ(tp.gemms[0].param.at(5, 9), 0.0);
  // The horizontal GEMM leaves the centre out.
  EXPECT_EQ(tp.gemms[1].param.at(tp.haloCols + 5, 5), 0.0);
}

TEST(Planner, BoxHasOneRowSlicePerRow) {
  Plan plan = planTensor(makeStencil2D(Shape::Box, 2, Precision::FP64,
                                       BoundaryKind::Periodic, 2));
  const TensorPlan &tp = plan.tensor;
  EXPECT_EQ(tp.mma.name(), "m8n8k4");
  EXPECT_EQ(tp.mma.accumulator, Precision::FP64);
  ASSERT_EQ(tp.gemms.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(tp.gemms[i].kind, SliceKind::Row);
    EXPECT_EQ(tp.gemms[i].dy, i - 2);
  }
  EXPECT_EQ(tp.mmasPerTile(), 5 * 4);
}

TEST(Planner, CoefficientsAreRoundedOnceToTheOperandType) {
  StencilSpec spec = makeStencil2D(Shape::Star, 1, Precision::TF32,
                                   BoundaryKind::Fixed, 3);
  spec.terms[0].coefficient = 0.1;
  Plan plan = planTensor(spec);
  double rounded = roundCoefficient(0.1, Precision::TF32);
  EXPECT_NE(rounded, 0.1);
  EXPECT_NE(rounded, static_cast<double>(0.1f));
  // terms[0] is offset (-1, 0): P_v[0][0].
  EXPECT_EQ(plan.tensor.gemms[0].param.at(0, 0), rounded);
}

TEST(Planner, RefusesWhatTensorCoresCannotDo) {
  StencilSpec fp32 = makeStencil2D(Shape::Star, 1, Precision::FP32,
                                   BoundaryKind::Fixed, 4);
  ASSERT_TRUE(tensorUnsupportedReason(fp32).has_value());
  EXPECT_NE(tensorUnsupportedReason(fp32)->find("fp32"), std::string::npos);

  StencilSpec wide = makeStencil2D(Shape::Box, 5, Precision::FP64,
                                   BoundaryKind::Fixed, 5);
  ASSERT_TRUE(tensorUnsupportedReason(wide).has_value());
  EXPECT_NE(tensorUnsupportedReason(wide)->find("radius 5"), std::string::npos);
  EXPECT_FALSE(tensorUnsupportedReason(makeStencil2D(
      Shape::Box, 8, Precision::FP16, BoundaryKind::Fixed, 6)));
  EXPECT_TRUE(tensorUnsupportedReason(makeStencil2D(
      Shape::Box, 9, Precision::BF16, BoundaryKind::Fixed, 6)));

  StencilSpec threeD = makeStencil2D(Shape::Star, 1, Precision::FP16,
                                     BoundaryKind::Fixed, 7);
  threeD.dims = 3;
  ASSERT_TRUE(tensorUnsupportedReason(threeD).has_value());
  EXPECT_NE(tensorUnsupportedReason(threeD)->find("3D"), std::string::npos);
}

/// Every plan the tensor path makes: each coefficient lands exactly once on
/// its offset for every output of a tile, every fragment pointer is 256-bit
/// aligned, every window element a GEMM reads exists, and the block fits in
/// static shared memory.
TEST(Planner, EveryPlanIsExactAlignedAndFits) {
  for (Shape shape : {Shape::Star, Shape::Box}) {
    for (Precision p : TensorPrecisions) {
      for (int r = 1; r <= maxTensorRadius(p); ++r) {
        StencilSpec spec = makeStencil2D(shape, r, p, BoundaryKind::Fixed, r);
        Plan plan = planTensor(spec);
        const TensorPlan &tp = plan.tensor;
        SCOPED_TRACE(spec.name);
        const int bytes = elementBytes(p);
        const int k = tp.mma.k, L = tp.tile;
        EXPECT_EQ(tp.haloCols % k, 0);
        EXPECT_GE(tp.haloCols, r);
        EXPECT_EQ(tp.windowPitch * bytes % 32, 0);
        // Padded so consecutive rows start 8 banks apart.
        EXPECT_TRUE(tp.windowPitch * bytes % 128 == 32 || tp.windowPitch * bytes % 128 == 96);
        EXPECT_GE(tp.windowPitch, tp.windowCols);
        EXPECT_EQ(k * bytes, 32);
        EXPECT_LE(tp.sharedBytes(), 48 * 1024);
        EXPECT_GE(tp.warps, 1);
        EXPECT_LE(tp.warps, tp.tileRowsPerBlock * tp.tileColsPerBlock);
        EXPECT_EQ(tp.loadedColBegin % tp.vectorWidth, 0);
        EXPECT_EQ(tp.loadedColEnd % tp.vectorWidth, 0);
        EXPECT_LE(tp.loadedColBegin, tp.haloCols - r);
        EXPECT_GE(tp.loadedColEnd, tp.haloCols + tp.blockCols() + r);
        for (const SliceGemm &g : tp.gemms) {
          const int K = g.chunkCount * k;
          const int lastTileRow = (tp.tileRowsPerBlock - 1) * L;
          const int lastTileCol = (tp.tileColsPerBlock - 1) * L;
          if (g.kind == SliceKind::Vertical) {
            EXPECT_LE(lastTileRow + g.firstChunk * k + K, tp.windowRows);
            EXPECT_LE(lastTileCol + tp.haloCols + L, tp.windowCols);
          } else {
            EXPECT_GE(r + g.dy, 0);
            EXPECT_LE(lastTileRow + r + g.dy + L, tp.windowRows);
            EXPECT_LE(lastTileCol + g.firstChunk * k + K, tp.windowCols);
          }
        }
        for (int m : {0, 3, L - 1}) {
          for (int n : {0, 5, L - 1}) {
            auto weights = effectiveStencil(plan, m, n);
            EXPECT_EQ(weights.size(), spec.terms.size());
            for (const Term &t : spec.terms) {
              auto it = weights.find({t.offset.d[0], t.offset.d[1]});
              ASSERT_NE(it, weights.end());
              EXPECT_EQ(it->second, roundCoefficient(t.coefficient, p));
            }
          }
        }
      }
    }
  }
}

TEST(Planner, LargeParameterSetsMoveToSharedMemory) {
  Plan small = planTensor(makeStencil2D(Shape::Star, 1, Precision::FP16,
                                        BoundaryKind::Fixed, 8));
  EXPECT_TRUE(small.tensor.paramsInRegisters);
  Plan large = planTensor(makeStencil2D(Shape::Box, 7, Precision::FP16,
                                        BoundaryKind::Fixed, 9));
  EXPECT_FALSE(large.tensor.paramsInRegisters);
  EXPECT_LE(large.tensor.sharedBytes(), 48 * 1024);
}

TEST(Planner, BlockOverridesAreHonoured) {
  PlannerOptions options;
  options.tileRowsPerBlock = 2;
  options.tileColsPerBlock = 1;
  options.warps = 4;
  Plan plan = planTensor(makeStencil2D(Shape::Star, 2, Precision::BF16,
                                       BoundaryKind::Constant, 10),
                         options);
  EXPECT_EQ(plan.tensor.blockRows(), 32);
  EXPECT_EQ(plan.tensor.blockCols(), 16);
  EXPECT_EQ(plan.tensor.warps, 2); // never more warps than tiles
}

} // namespace
