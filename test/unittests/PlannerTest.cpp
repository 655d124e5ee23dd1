//===- PlannerTest.cpp - The tensor-core plans the planner builds ----------===//
#include <map>

#include <gtest/gtest.h>

#include "Backends/Tensor/TensorCompose.h"
#include "Backends/Tensor/TensorPlanner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil;
using stencilc::testing::makeStencil2D;
using stencilc::testing::tensorPlan;
using stencilc::testing::tensorRefusal;

namespace {

const Precision TensorPrecisions[] = {Precision::FP16, Precision::BF16, Precision::TF32,
                                      Precision::FP64};

/// For output (m, n) of a tile, the coefficient each input offset receives
/// over all slice GEMMs of the plan.
std::map<std::pair<int, int>, double> effectiveStencil(const Plan &plan, int m, int n) {
  const TensorPlan &tp = plan.tensor();
  const int k = tp.mma.k, r = plan.spec.radius;
  std::map<std::pair<int, int>, double> weights;
  for (const SliceGemm &g : tp.gemms) {
    for (int kIndex = 0; kIndex < g.chunkCount * k; ++kIndex) {
      if (g.kind == SliceKind::Vertical) {
        double w = g.param.at(m, kIndex);
        if (w != 0.0) {
          weights[{g.firstK + kIndex - m - r, 0}] += w;
        }
      } else {
        double w = g.param.at(kIndex, n);
        if (w != 0.0) {
          weights[{g.dy, g.firstK + kIndex - tp.haloCols - n}] += w;
        }
      }
    }
  }
  return weights;
}

TEST(Planner, StarSplitsIntoVerticalAndHorizontalGemms) {
  StencilSpec spec = makeStencil2D(Shape::Star, 2, Precision::FP16, BoundaryKind::Fixed, 1);
  PlanOptions defaults;
  defaults.nBlocks = 2; // the planner's default (the tuned table asks for 4)
  Plan plan = tensorPlan(spec, defaults);
  const TensorPlan &tp = plan.tensor();
  EXPECT_EQ(tp.mma.name(), "m16n8k16");
  EXPECT_EQ(tp.tileM, 16);
  EXPECT_EQ(tp.tileN, 16); // two MMAs across
  EXPECT_EQ(tp.nBlocks, 2);
  EXPECT_EQ(tp.haloCols, 8); // one 16-byte vector of fp16
  ASSERT_EQ(tp.gemms.size(), 2u);
  EXPECT_EQ(tp.gemms[0].kind, SliceKind::Vertical);
  EXPECT_EQ(tp.gemms[0].chunkCount, 2); // K = 16 + 4 -> 32
  EXPECT_EQ(tp.gemms[0].param.rows, 16);
  EXPECT_EQ(tp.gemms[0].param.cols, 32);
  EXPECT_EQ(tp.gemms[1].kind, SliceKind::Row);
  EXPECT_EQ(tp.gemms[1].label, "horizontal");
  // K starts at column 8 - 2 = 6 and must reach column 8 + 7 + 2 = 17: one
  // chunk of 16.
  EXPECT_EQ(tp.gemms[1].firstK, 6);
  EXPECT_EQ(tp.gemms[1].chunkCount, 1);
  // P_v[m][m + r + dy] = v[dy]: the centre sits on the diagonal m + 2.
  double centre = roundCoefficient(spec.coefficient(Offset{{0, 0, 0}}), Precision::FP16);
  double above = roundCoefficient(spec.coefficient(Offset{{-1, 0, 0}}), Precision::FP16);
  EXPECT_EQ(tp.gemms[0].param.at(5, 7), centre);
  EXPECT_EQ(tp.gemms[0].param.at(5, 6), above);
  EXPECT_EQ(tp.gemms[0].param.at(5, 10), 0.0);
  // The horizontal GEMM leaves the centre out.
  EXPECT_EQ(tp.gemms[1].param.at(tp.haloCols - tp.gemms[1].firstK + 5, 5), 0.0);
}

TEST(Planner, StarOfRadiusOneRunsAsRowsWhereThatCostsNoMore) {
  // fp16: three rows of one MMA each, as many as vertical (2) + horizontal (1).
  Plan fp16 = tensorPlan(makeStencil2D(Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 1));
  ASSERT_EQ(fp16.tensor().gemms.size(), 3u);
  for (const SliceGemm &g : fp16.tensor().gemms) {
    EXPECT_EQ(g.kind, SliceKind::Row);
    EXPECT_EQ(g.chunkCount, 1);
  }
  // tf32: rows would take 3 x 2 MMAs, vertical + horizontal 3 + 2.
  Plan tf32 = tensorPlan(makeStencil2D(Shape::Star, 1, Precision::TF32, BoundaryKind::Fixed, 1));
  ASSERT_EQ(tf32.tensor().gemms.size(), 2u);
  EXPECT_EQ(tf32.tensor().gemms[0].kind, SliceKind::Vertical);
}

TEST(Planner, BoxHasOneRowSlicePerRow) {
  Plan plan = tensorPlan(makeStencil2D(Shape::Box, 2, Precision::FP64, BoundaryKind::Periodic, 2));
  const TensorPlan &tp = plan.tensor();
  EXPECT_EQ(tp.mma.name(), "m8n8k4");
  EXPECT_EQ(tp.mma.accumulator, Precision::FP64);
  ASSERT_EQ(tp.gemms.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(tp.gemms[i].kind, SliceKind::Row);
    EXPECT_EQ(tp.gemms[i].dy, i - 2);
  }
  // Each output row of 8 reads 8 + 2r = 12 columns, from column haloCols - r
  // = 0 on: three k = 4 chunks.
  EXPECT_EQ(tp.mmasPerTile(), 5 * 3);
}

TEST(Planner, Sm90RunsFp64OnTheLargerMma) {
  StencilSpec spec = makeStencil2D(Shape::Box, 3, Precision::FP64, BoundaryKind::Fixed, 2);
  PlanOptions sm90;
  sm90.target = Arch::Sm90;
  sm90.nBlocks = 1; // one MMA block a tile (the tuned table asks for 4)
  const TensorPlan tp = tensorPlan(spec, sm90).tensor();
  EXPECT_EQ(tp.mma.name(), "m16n8k4");
  EXPECT_EQ(tp.tileM, 16);
  EXPECT_EQ(tp.tileN, 8);
  // 8 + 2r = 14 columns from column haloCols - r = 1: four chunks of 4, each
  // B fragment one double (2 registers) a lane.
  EXPECT_EQ(tp.mmasPerTile(), 7 * 4);
  EXPECT_EQ(tp.paramFragmentRegisters(), 7 * 4 * 2);
  EXPECT_EQ(tensorPlan(spec).tensor().mma.name(), "m8n8k4"); // sm_80
}

TEST(Planner, CoefficientsAreRoundedOnceToTheOperandType) {
  StencilSpec spec = makeStencil2D(Shape::Star, 1, Precision::TF32, BoundaryKind::Fixed, 3);
  spec.terms[0].coefficient = 0.1;
  Plan plan = tensorPlan(spec);
  double rounded = roundCoefficient(0.1, Precision::TF32);
  EXPECT_NE(rounded, 0.1);
  EXPECT_NE(rounded, static_cast<double>(0.1f));
  // terms[0] is offset (-1, 0): P_v[0][0].
  EXPECT_EQ(plan.tensor().gemms[0].param.at(0, 0), rounded);
}

TEST(Planner, RefusesWhatTensorCoresCannotDo) {
  StencilSpec fp32 = makeStencil2D(Shape::Star, 1, Precision::FP32, BoundaryKind::Fixed, 4);
  ASSERT_TRUE(tensorRefusal(fp32).has_value());
  EXPECT_NE(tensorRefusal(fp32)->find("fp32"), std::string::npos);

  StencilSpec wide = makeStencil2D(Shape::Box, 5, Precision::FP64, BoundaryKind::Fixed, 5);
  ASSERT_TRUE(tensorRefusal(wide).has_value());
  EXPECT_NE(tensorRefusal(wide)->find("radius 5"), std::string::npos);
  EXPECT_FALSE(
      tensorRefusal(makeStencil2D(Shape::Box, 8, Precision::FP16, BoundaryKind::Fixed, 6)));
  // Past radius 8 the stacked form alone, to 16: 2D 16-bit stencils of one
  // field (a 3D one is refused).
  EXPECT_FALSE(
      tensorRefusal(makeStencil2D(Shape::Box, 16, Precision::BF16, BoundaryKind::Fixed, 6)));
  EXPECT_TRUE(
      tensorRefusal(makeStencil2D(Shape::Box, 17, Precision::BF16, BoundaryKind::Fixed, 6)));
  EXPECT_TRUE(
      tensorRefusal(makeStencil(3, Shape::Star, 9, Precision::FP16, BoundaryKind::Fixed, 6)));

  // 3D: the 2r + 1 window slabs and every plane's parameter matrices must
  // fit one block's shared memory.
  EXPECT_FALSE(
      tensorRefusal(makeStencil(3, Shape::Box, 2, Precision::FP64, BoundaryKind::Fixed, 7)));
  EXPECT_FALSE(
      tensorRefusal(makeStencil(3, Shape::Star, 4, Precision::FP16, BoundaryKind::Fixed, 7)));
  StencilSpec bigBox = makeStencil(3, Shape::Box, 8, Precision::FP16, BoundaryKind::Fixed, 7);
  ASSERT_TRUE(tensorRefusal(bigBox).has_value());
  EXPECT_NE(tensorRefusal(bigBox)->find("shared memory"), std::string::npos);
}

/// Every plan the tensor path makes: each coefficient lands exactly once on
/// its offset for every output of a tile, every fragment load is aligned to
/// its unit, every window element a GEMM reads exists, and the block fits in
/// static shared memory. (The slice GEMMs' plans: a 16-bit stencil of radius
/// 7 or 8 takes the stacked form unasked, which EmulatorMatchesReference's
/// StackedFormPlans and VerifyPlan check.)
TEST(Planner, EveryPlanIsExactAlignedAndFits) {
  const PlanOptions dense = stencilc::testing::dense();
  for (Shape shape : {Shape::Star, Shape::Box}) {
    for (Precision p : TensorPrecisions) {
      for (int r = 1; r <= maxTensorRadius(p); ++r) {
        StencilSpec spec = makeStencil2D(shape, r, p, BoundaryKind::Fixed, r);
        Plan plan = tensorPlan(spec, dense);
        const TensorPlan &tp = plan.tensor();
        SCOPED_TRACE(spec.name);
        const int bytes = elementBytes(p);
        const int k = tp.mma.k, M = tp.tileM, N = tp.tileN;
        EXPECT_EQ(tp.haloCols % tp.vectorWidth, 0);
        EXPECT_EQ(tp.tileN % tp.vectorWidth, 0);
        EXPECT_GE(tp.haloCols, r);
        EXPECT_LT(tp.haloCols, r + tp.vectorWidth);
        // Rows 16-byte aligned and padded so that 8 rows of a fragment load
        // fall in different banks.
        if (p == Precision::FP64) {
          EXPECT_EQ(tp.windowPitch * bytes % 64, 32);
        } else {
          EXPECT_EQ(tp.windowPitch * bytes % 32, 16);
        }
        EXPECT_GE(tp.windowPitch, tp.windowCols);
        EXPECT_LE(tp.sharedBytes(), 48 * 1024);
        EXPECT_GE(tp.warps, 1);
        EXPECT_LE(tp.warps, tp.tileRowsPerBlock * tp.tileColsPerBlock);
        EXPECT_EQ(tp.loadedColBegin % tp.vectorWidth, 0);
        EXPECT_EQ(tp.loadedColEnd % tp.vectorWidth, 0);
        EXPECT_LE(tp.loadedColBegin, tp.haloCols - r);
        EXPECT_GE(tp.loadedColEnd, tp.haloCols + tp.blockCols() + r);
        for (const SliceGemm &g : tp.gemms) {
          const int K = g.chunkCount * k;
          const int lastTileRow = (tp.tileRowsPerBlock - 1) * M;
          const int lastBlockCol = (tp.tileColsPerBlock - 1) * N + N - tp.mma.n;
          if (g.kind == SliceKind::Vertical) {
            EXPECT_LE(lastTileRow + g.firstK + K, tp.windowRows);
            EXPECT_LE(lastBlockCol + tp.haloCols + tp.mma.n, tp.windowCols);
          } else {
            EXPECT_GE(r + g.dy, 0);
            EXPECT_LE(lastTileRow + r + g.dy + M, tp.windowRows);
            EXPECT_LE(lastBlockCol + g.firstK + K, tp.windowCols);
            // fp16/bf16 A fragments load pairs: K starts on an even column.
            if (bytes == 2) {
              EXPECT_EQ(g.firstK % 2, 0);
            }
          }
        }
        for (int m : {0, 3, M - 1}) {
          for (int n : {0, 5, tp.mma.n - 1}) {
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
  // (unasked, a 16-bit box of radius 8 takes the stacked form)
  const PlanOptions dense = stencilc::testing::dense();
  Plan small = tensorPlan(makeStencil2D(Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 8));
  EXPECT_TRUE(small.tensor().paramsInRegisters);
  Plan large =
      tensorPlan(makeStencil2D(Shape::Box, 8, Precision::FP16, BoundaryKind::Fixed, 9), dense);
  EXPECT_FALSE(large.tensor().paramsInRegisters);
  EXPECT_LE(large.tensor().sharedBytes(), 48 * 1024);
}

TEST(Planner, BlockOverridesAreHonoured) {
  PlanOptions options;
  options.tileRows = 2;
  options.tileCols = 1;
  options.warps = 4;
  options.nBlocks = 2;
  Plan plan = tensorPlan(makeStencil2D(Shape::Star, 2, Precision::BF16, BoundaryKind::Constant, 10),
                         options);
  EXPECT_EQ(plan.tensor().blockRows(), 32);
  EXPECT_EQ(plan.tensor().blockCols(), 16);
  EXPECT_EQ(plan.tensor().warps, 2); // never more warps than tiles
}

/// Unasked, a 2D 16-bit stencil takes the stacked form (measured faster at
/// every radius); the dense form where an option shapes its block, or where
/// the stacked form's two windows pass the shared memory a block may use.
TEST(Planner, AutoTakesTheStackedFormUnlessShapedOrTooLarge) {
  const StencilSpec box = makeStencil2D(Shape::Box, 3, Precision::FP16, BoundaryKind::Fixed, 3);
  PlanOptions options;
  options.target = Arch::Sm90;
  const Plan unasked = tensorPlan(box, options);
  EXPECT_TRUE(unasked.tensor().stacked);
  options.nBlocks = 2;
  EXPECT_FALSE(tensorPlan(box, options).tensor().stacked);
  options.nBlocks = 0;
  options.sharedMemoryLimit = 2 * unasked.tensor().windowBytes - 1; // (its stages aside)
  const Plan small = tensorPlan(box, options);
  EXPECT_FALSE(small.tensor().stacked);
  EXPECT_LE(small.tensor().sharedBytes(), options.sharedMemoryLimit);
}

/// The stacked form's single step stages its stores (16 rows of 64
/// outputs a warp) where the blocks its launch bounds ask for still fit a
/// multiprocessor with them: on sm_90 and sm_80, not on sm_86 (100 KB),
/// where the plan is the same but for the stages and the grid (sm_90's
/// single step runs a block a tile, one window; sm_86's two windows walk
/// tiles); nor on a periodic grid at radius 7 or 8 (its copy stores pairs).
TEST(Planner, StackedStepStagesItsStoresWhereItsBlocksStillFit) {
  const StencilSpec star = makeStencil2D(Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 1);
  PlanOptions options;
  options.target = Arch::Sm90;
  const TensorPlan sm90 = tensorPlan(star, options).tensor();
  ASSERT_TRUE(sm90.stacked);
  EXPECT_TRUE(sm90.stagedStores);
  EXPECT_EQ(sm90.stageBytes(), 4 * 16 * 72 * 2);
  EXPECT_EQ(sm90.sharedBytes(), sm90.windowBytes + sm90.stageBytes());
  options.target = Arch::Sm80;
  EXPECT_TRUE(tensorPlan(star, options).tensor().stagedStores);
  options.target = Arch::Sm86;
  const TensorPlan sm86 = tensorPlan(star, options).tensor();
  EXPECT_TRUE(sm86.stacked);
  EXPECT_FALSE(sm86.stagedStores);
  EXPECT_EQ(sm86.sharedBytes(), 2 * sm86.windowBytes);
  EXPECT_EQ(sm86.windowBytes, sm90.windowBytes);
  options.target = Arch::Sm90;
  for (int radius : {6, 7, 8}) {
    const StencilSpec box =
        makeStencil2D(Shape::Box, radius, Precision::FP16, BoundaryKind::Periodic, 1);
    const TensorPlan periodic = tensorPlan(box, options).tensor();
    ASSERT_TRUE(periodic.stacked) << radius;
    EXPECT_EQ(periodic.stagedStores, radius < 7) << radius;
  }
}

/// The stacked form's windows are copied by the tensor memory accelerator
/// on sm_90 at a fixed grid, whose reads outside are the accelerator's
/// zeros; by cp.async before sm_90, under every other rule and where
/// copy=threads asks; never in the dense form. The windows are 128-byte
/// aligned either way.
TEST(Planner, StackedWindowsByTheAcceleratorOnSm90AtAFixedGrid) {
  PlanOptions options;
  options.target = Arch::Sm90;
  for (int radius : {1, 3, 6, 8}) {
    const StencilSpec box =
        makeStencil2D(Shape::Box, radius, Precision::BF16, BoundaryKind::Fixed, 1);
    const TensorPlan tp = tensorPlan(box, options).tensor();
    ASSERT_TRUE(tp.stacked) << radius;
    EXPECT_TRUE(tp.mappedWindows) << radius;
    EXPECT_EQ(tp.windowBytes % 128, 0) << radius;
    EXPECT_LT(tp.windowBytes - tp.windowRows * tp.windowPitch * 2, 128) << radius;
  }
  const StencilSpec star = makeStencil2D(Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 1);
  for (BoundaryKind rule : stencilc::testing::AllBoundaries) {
    const StencilSpec spec = makeStencil2D(Shape::Star, 1, Precision::FP16, rule, 1);
    EXPECT_EQ(tensorPlan(spec, options).tensor().mappedWindows, rule == BoundaryKind::Fixed);
  }
  options.target = Arch::Sm80;
  EXPECT_FALSE(tensorPlan(star, options).tensor().mappedWindows);
  options.target = Arch::Sm90;
  options.copy = CopyRequest::Threads; // --plan-option copy=threads
  EXPECT_FALSE(tensorPlan(star, options).tensor().mappedWindows);
  options.copy = CopyRequest::Auto;
  options.mma = MmaRequest::Dense;
  EXPECT_FALSE(tensorPlan(star, options).tensor().mappedWindows);
}

/// A stacked group as text: "rows (chunks)", s after a row of window 1,
/// @first after a half that does not start at chunk 0.
std::string groupText(const StackedGroup &g) {
  // Appended piece by piece: GCC 12's -Wrestrict misfires on
  // `"@" + std::to_string(...)` (bug 105651), an error under -Werror.
  auto half = [](std::string &text, const StackedHalf &h) {
    text += std::to_string(h.row);
    text += h.window == 1 ? "s" : "";
    if (h.first) {
      text += '@';
      text += std::to_string(h.first);
    }
  };
  std::string text;
  half(text, g.half[0]);
  if (g.paired()) {
    text += ' ';
    half(text, g.half[1]);
  }
  text += " (";
  text += std::to_string(g.count);
  text += ')';
  return text;
}

std::vector<std::string> groupsText(const TensorPlan &tp) {
  std::vector<std::string> text;
  for (const StackedGroup &g : tp.stackedGroups) {
    text.push_back(groupText(g));
  }
  return text;
}

// The stacked form groups the rows by the chunks their weights reach: a
// box's rows all reach 3 chunks and keep their order (2p and 2p + 1, row 2r
// alone); a star's rows off its centre reach only the chunk under the
// outputs (chunk 1), so they pair with each other, and the centre row goes
// alone; a composed star (a diamond) pairs rows of equal reach.
TEST(Planner, StackedGroupsRowsByTheChunksTheyReach) {
  PlanOptions options;
  options.target = Arch::Sm90;
  const auto plan = [&](const StencilSpec &spec) {
    const TensorPlan tp = tensorPlan(spec, options).tensor();
    EXPECT_TRUE(tp.stacked);
    EXPECT_FALSE(tp.shiftedWindow);
    EXPECT_EQ(tp.nBlocks, StackedBlocks);
    return tp;
  };
  const auto box = [](int r) {
    return makeStencil2D(Shape::Box, r, Precision::FP16, BoundaryKind::Fixed, 1);
  };
  const auto star = [](int r) {
    return makeStencil2D(Shape::Star, r, Precision::FP16, BoundaryKind::Fixed, 1);
  };
  using Texts = std::vector<std::string>;
  EXPECT_EQ(groupsText(plan(box(1))), (Texts{"0 1 (3)", "2 (3)"}));
  EXPECT_EQ(groupsText(plan(box(2))), (Texts{"0 1 (3)", "2 3 (3)", "4 (3)"}));
  EXPECT_EQ(groupsText(plan(star(1))), (Texts{"0@1 2@1 (1)", "1 (3)"}));
  EXPECT_EQ(groupsText(plan(star(3))),
            (Texts{"0@1 1@1 (1)", "2@1 4@1 (1)", "3 (3)", "5@1 6@1 (1)"}));
  // 3 k16 and 3 k8 MMAs a block, against 3 (r + 1) = 12 with every chunk.
  EXPECT_EQ(plan(star(3)).mmasPerTile(), StackedBlocks * 6);
  // Two steps of star2d5p: rows 0 and 4 reach the outputs' column, 1 and 3
  // one column each way, row 2 two.
  const TensorPlan diamond = plan(composeSteps(star(1), 2));
  EXPECT_EQ(groupsText(diamond), (Texts{"0@1 4@1 (1)", "1 2 (3)", "3 (3)"}));
  // Past radius 8 a window of 16 columns of halo, 5 chunks: a box's rows
  // take all 5; three steps of star2d13p (radius 9), too many rows to try
  // every pairing, pair the rows of as many chunks in order: those that
  // reach only the outputs' column (chunk 2), those that reach 3 or 6
  // columns (chunks 1-3), and the centre row, which reaches 9, alone.
  EXPECT_EQ(plan(box(9)).haloCols, 16);
  EXPECT_EQ(groupsText(plan(box(9)))[0], "0 1 (5)");
  EXPECT_EQ(groupsText(plan(composeSteps(star(3), 3))),
            (Texts{"0@2 1@2 (1)", "2@2 16@2 (1)", "3@1 4@1 (3)", "5@1 6@1 (3)", "7@1 8@1 (3)",
                   "9 (5)", "10@1 11@1 (3)", "12@1 13@1 (3)", "14@1 15@1 (3)", "17@2 18@2 (1)"}));
}

// Asked for (--plan-option windows=two), the stacked form reads a second
// window 4 columns right of the first where its rows then take fewer
// chunks: rows that reach 4 columns or less take 2 there, not 3; its strips
// are then StackedShiftedBlocks MMA blocks. Rows that reach 5 or more, and
// a star's rows that reach only the outputs' column, stay in window 0.
TEST(Planner, StackedShiftedWindowWhereItTakesFewerChunks) {
  PlanOptions options;
  options.target = Arch::Sm90;
  options.windows = WindowsRequest::Two;
  const auto plan = [&](const StencilSpec &spec) { return tensorPlan(spec, options).tensor(); };
  using Texts = std::vector<std::string>;
  // star2d5p's weights (1/5 each): every one of its composed weights is a
  // nonzero fp16 (random ones may round to 0 at the corners).
  StencilSpec star = makeStencil2D(Shape::Star, 1, Precision::FP16, BoundaryKind::Fixed, 1);
  for (Term &t : star.terms) {
    t.coefficient = 0.2;
  }
  const TensorPlan step = plan(star);
  EXPECT_TRUE(step.shiftedWindow);
  EXPECT_EQ(step.nBlocks, StackedShiftedBlocks);
  EXPECT_EQ(groupsText(step), (Texts{"0@1 2@1 (1)", "1s (2)"}));
  const TensorPlan box =
      plan(makeStencil2D(Shape::Box, 4, Precision::FP16, BoundaryKind::Fixed, 1));
  EXPECT_EQ(groupsText(box), (Texts{"0s 1s (2)", "2s 3s (2)", "4s 5s (2)", "6s 7s (2)", "8s (2)"}));
  // Radius 5 and more: window 0 alone, as without the option.
  const TensorPlan wide =
      plan(makeStencil2D(Shape::Box, 5, Precision::FP16, BoundaryKind::Fixed, 1));
  EXPECT_FALSE(wide.shiftedWindow);
  EXPECT_EQ(wide.nBlocks, StackedBlocks);
  // Eight steps of star2d5p (radius 8): rows 0 and 16 reach the outputs'
  // column (window 0, chunk 1), rows 1-4 and 12-15 reach 1-4 columns (the
  // shifted window, 2 chunks), rows 5-11 reach 5-8 (window 0, 3 chunks).
  const TensorPlan diamond = plan(composeSteps(star, 8));
  EXPECT_TRUE(diamond.shiftedWindow);
  EXPECT_EQ(groupsText(diamond),
            (Texts{"0@1 16@1 (1)", "1s 2s (2)", "3s 4s (2)", "5 6 (3)", "7 8 (3)", "9 10 (3)",
                   "11 (3)", "12s 13s (2)", "14s 15s (2)"}));
  int k16 = 0, k8 = 0;
  for (const StackedGroup &g : diamond.stackedGroups) {
    (g.paired() ? k16 : k8) += g.count;
  }
  EXPECT_EQ(k16, 18);
  EXPECT_EQ(k8, 3);
  // Without the option: 22 k16 and 3 k8 (rows 0 and 16 paired, 15 rows of
  // 3 chunks), against 24 k16 and 3 k8 with rows 2p and 2p + 1 paired.
  options.windows = WindowsRequest::Auto;
  k16 = k8 = 0;
  for (const StackedGroup &g : plan(composeSteps(star, 8)).stackedGroups) {
    (g.paired() ? k16 : k8) += g.count;
  }
  EXPECT_EQ(k16, 22);
  EXPECT_EQ(k8, 3);
}

// The fp64 radius-1 tile kernels under a folding rule ask two blocks a
// multiprocessor of the register allocator on sm_90 (measured there);
// nothing else does: fixed, constant and periodic grids, radius 2 (which
// spilled), other precisions, sm_80.
TEST(Planner, FoldingFp64RadiusOneTilesAskTwoBlocksOnSm90) {
  PlanOptions sm90;
  sm90.target = Arch::Sm90;
  for (Shape shape : {Shape::Star, Shape::Box}) {
    for (BoundaryKind b : stencilc::testing::AllBoundaries) {
      const bool folds =
          b == BoundaryKind::Clamp || b == BoundaryKind::Mirror || b == BoundaryKind::Reflect;
      const StencilSpec spec = makeStencil2D(shape, 1, Precision::FP64, b, 1);
      const TensorPlan tp = tensorPlan(spec, sm90).tensor();
      EXPECT_EQ(tp.minBlocks, folds ? 2 : 1) << keyword(b);
      EXPECT_LE(tp.minBlocks * tp.sharedBytes(), info(Arch::Sm90).maxDynamicSharedBytes);
      EXPECT_EQ(tensorPlan(spec).tensor().minBlocks, 1) << keyword(b); // sm_80
    }
  }
  const auto minBlocks = [&](int radius, Precision p) {
    return tensorPlan(makeStencil2D(Shape::Box, radius, p, BoundaryKind::Clamp, 1), sm90)
        .tensor()
        .minBlocks;
  };
  EXPECT_EQ(minBlocks(2, Precision::FP64), 1);
  EXPECT_EQ(minBlocks(1, Precision::TF32), 1);
  sm90.warps = 4; // 128 threads: two blocks fit the registers as they are
  EXPECT_EQ(minBlocks(1, Precision::FP64), 1);
}

/// The options that shape the dense block, by name (the warning's test)
/// and by value (the planner's): one list, PlanOptions.h's.
TEST(Planner, DenseBlockOptionsByNameAndValue) {
  for (std::string_view name : {"tile-rows", "tile-cols", "warps", "n-blocks", "l2-prefetch"}) {
    EXPECT_TRUE(shapesDenseBlock(name)) << name;
  }
  for (std::string_view name : {"fuse", "mma", "threads", "no-such-option"}) {
    EXPECT_FALSE(shapesDenseBlock(name)) << name;
  }
  PlanOptions options;
  options.fusedSteps = 2;
  EXPECT_FALSE(givesDenseBlockOption(options));
  options.l2Prefetch = 128;
  EXPECT_TRUE(givesDenseBlockOption(options));
}

} // namespace
