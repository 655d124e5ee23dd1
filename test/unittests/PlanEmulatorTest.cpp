//===- PlanEmulatorTest.cpp - Plans compute the stencil, checked on the CPU -===//
//
// For every shape x radius x precision x boundary, runs the plan through the
// emulator on fresh random grids (sizes that are and are not tile multiples,
// the smallest legal ones, several blocks) and compares with the float64
// stencil within docs/generated-code.md's tolerance; points a step must not write
// must keep their poison, points it must write must lose it.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <cmath>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "Backends/Common/TunedPlans.h"
#include "Backends/Common/VerifyPlan.h"
#include "Backends/Simt/SimtEmulator.h"
#include "Backends/Tensor/TensorEmulator.h"
#include "Backends/Tensor/TensorPlanner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::makeStencil;
using stencilc::testing::makeStencil1D;
using stencilc::testing::makeStencil2D;
using stencilc::testing::randomGrid;
using stencilc::testing::randomGridND;
using stencilc::testing::tensorPlan;
using stencilc::testing::tensorRefusal;

namespace {

constexpr double Poison = -12345.0;

std::vector<std::pair<int, int>> sizesFor(const StencilSpec &spec, const TensorPlan &tp) {
  const int minimum = spec.boundary == BoundaryKind::Fixed ? 2 * spec.radius + 1 : 1;
  return {
      {minimum, minimum},
      {17, 19},
      {tp.blockRows(), tp.blockCols()},         // exactly one block
      {2 * tp.tileM + 3, tp.blockCols() + 5},   // partial tiles and blocks
      {minimum, tp.blockCols() + tp.tileN + 1}, // thinner than one tile
  };
}

/// Runs the emulator and the reference on one grid and checks them.
void checkOneGrid(const Plan &plan, int ny, int nx, unsigned seed) {
  const StencilSpec &spec = plan.spec;
  SCOPED_TRACE(::testing::Message()
               << spec.name << " boundary " << keyword(spec.boundary) << " " << ny << "x" << nx);
  Grid2D in = randomGrid(ny, nx, spec.precision, seed);
  Grid2D emulated(ny, nx, Poison), reference(ny, nx, Poison);
  emulateStep(plan, in, emulated);
  referenceStep(spec, in, reference);
  int wrongWrites = 0;
  for (int y = 0; y < ny; ++y) {
    for (int x = 0; x < nx; ++x) {
      bool written = emulated.at(y, x) != Poison;
      if (written != stepWritesPoint(spec, ny, nx, y, x)) {
        ++wrongWrites;
      }
    }
  }
  EXPECT_EQ(wrongWrites, 0) << "points written that must not be, or missed";
  double error = relativeL2Error(spec, emulated, reference);
  EXPECT_LE(error, relativeTolerance(spec.precision));
}

/// checkOneGrid for a 3D plan: nz x ny x nx = n.
void checkOneVolume(const Plan &plan, std::array<int, 3> n, unsigned seed) {
  const StencilSpec &spec = plan.spec;
  SCOPED_TRACE(::testing::Message() << spec.name << " boundary " << keyword(spec.boundary) << " "
                                    << n[0] << "x" << n[1] << "x" << n[2]);
  GridND in = randomGridND(3, n, spec.precision, seed);
  GridND emulated(3, n, Poison), reference(3, n, Poison);
  emulateStep3D(plan, in, emulated);
  referenceStepND(spec, in, reference);
  int wrongWrites = 0;
  for (long long z = 0; z < n[0]; ++z) {
    for (long long y = 0; y < n[1]; ++y) {
      for (long long x = 0; x < n[2]; ++x) {
        const bool written = emulated.at({z, y, x}) != Poison;
        wrongWrites += written != stepWritesPointND(spec, emulated, {z, y, x});
      }
    }
  }
  EXPECT_EQ(wrongWrites, 0) << "points written that must not be, or missed";
  EXPECT_LE(relativeL2ErrorND(spec, emulated, reference), relativeTolerance(spec.precision));
}

using Case = std::tuple<Shape, Precision, BoundaryKind>;

class EmulatorMatchesReference : public ::testing::TestWithParam<Case> {};

TEST_P(EmulatorMatchesReference, EveryRadiusAndSize) {
  auto [shape, precision, boundary] = GetParam();
  for (int r = 1; r <= maxTensorRadius(precision); ++r) {
    StencilSpec spec = makeStencil2D(shape, r, precision, boundary, 100 + r);
    Plan plan = tensorPlan(spec);
    unsigned seed = 1;
    for (auto [ny, nx] : sizesFor(spec, plan.tensor())) {
      checkOneGrid(plan, ny, nx, seed++);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTensorStencils, EmulatorMatchesReference,
                         ::testing::Combine(::testing::Values(Shape::Star, Shape::Box),
                                            ::testing::Values(Precision::FP16, Precision::BF16,
                                                              Precision::TF32, Precision::FP64),
                                            ::testing::ValuesIn(stencilc::testing::AllBoundaries)),
                         [](const ::testing::TestParamInfo<Case> &info) {
                           return std::string(keyword(std::get<0>(info.param))) + "_" +
                                  std::string(keyword(std::get<1>(info.param))) + "_" +
                                  std::string(keyword(std::get<2>(info.param)));
                         });

/// A 1D line runs as rows of one block's width, each row's window with its
/// own halo: every radius, precision, boundary and both fp64 MMA shapes, on
/// lines shorter than a tile, of exactly one and of several blocks, and of
/// odd lengths that end inside a row.
TEST(EmulatorMatchesReference, Lines1D) {
  for (Arch arch : {Arch::Sm80, Arch::Sm90}) {
    for (Precision p : {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP64}) {
      if (p != Precision::FP64 && arch == Arch::Sm90) {
        continue; // only fp64 plans differ by arch
      }
      for (BoundaryKind boundary : stencilc::testing::AllBoundaries) {
        for (int r = 1; r <= maxTensorRadius(p); ++r) {
          PlanOptions options;
          options.target = arch;
          Plan plan = tensorPlan(makeStencil1D(r, p, boundary, 300 + r), options);
          ASSERT_EQ(plan.tensor().haloRows, 0);
          ASSERT_EQ(plan.tensor().gemms.size(), 1u);
          const int block = plan.tensor().blockRows() * plan.tensor().blockCols();
          const int minimum = boundary == BoundaryKind::Fixed ? 2 * r + 1 : 1;
          unsigned seed = 40;
          for (int n : {minimum, 37, plan.tensor().blockCols() + 3, block, 2 * block + 1001}) {
            checkOneGrid(plan, 1, n, seed++);
          }
        }
      }
    }
  }
}

/// A 3D stencil streams plane by plane with a window slab per input plane:
/// every shape, precision, boundary and both fp64 MMA shapes, at radii 1, 2
/// and 4 (where the planes fit shared memory) on the smallest grid, grids thinner than a tile,
/// odd sizes, and several blocks each way (a block of one tile forced).
TEST(EmulatorMatchesReference, Volumes3D) {
  for (Arch arch : {Arch::Sm80, Arch::Sm90}) {
    for (Precision p : {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP64}) {
      if (p != Precision::FP64 && arch == Arch::Sm90) {
        continue; // only fp64 plans differ by arch
      }
      for (Shape shape : {Shape::Star, Shape::Box}) {
        for (int r : {1, 2, 4}) {
          for (BoundaryKind boundary : stencilc::testing::AllBoundaries) {
            StencilSpec spec = makeStencil(3, shape, r, p, boundary, 500 + r);
            PlanOptions options;
            options.target = arch;
            if (tensorRefusal(spec, options)) {
              ASSERT_GT(r, 2) << spec.name << ": radius 1 and 2 fit every precision";
              continue; // too large for one block's shared memory
            }
            for (int oneTile : {0, 1}) {
              options.tileRows = options.tileCols = oneTile;
              Plan plan = tensorPlan(spec, options);
              ASSERT_EQ(plan.tensor().planes, 2 * r + 1);
              const int minimum = boundary == BoundaryKind::Fixed ? 2 * r + 1 : 1;
              std::vector<std::array<int, 3>> sizes = {{minimum, minimum, minimum},
                                                       {minimum + 2, 19, 21}};
              if (r <= 2) {
                sizes.push_back({5, 2 * plan.tensor().tileM + 3, plan.tensor().blockCols() + 5});
              }
              unsigned seed = 60;
              for (std::array<int, 3> n : sizes) {
                SCOPED_TRACE(::testing::Message() << keyword(arch) << " one tile " << oneTile);
                checkOneVolume(plan, n, seed++);
              }
            }
          }
        }
      }
    }
  }
}

/// Every tensor-core entry of the built-in TunedPlans.inc (the block shapes
/// the --tune sweep measured fastest, which the planner takes on that arch):
/// the plan it gives computes the stencil, for every boundary, on the
/// smallest grid, odd sizes, partial blocks and several blocks.
TEST(EmulatorMatchesReference, EveryTunedPlan) {
  int entries = 0;
  for (const TunedPlan &tuned : tunedPlans()) {
    if (tuned.dims == 0 || tuned.backend != BackendKind::Tensor) {
      continue; // the sentinel; the simt entries are SimtEmulatorTest's
    }
    ++entries;
    for (BoundaryKind boundary : stencilc::testing::AllBoundaries) {
      StencilSpec spec =
          makeStencil(tuned.dims, tuned.shape, tuned.radius, tuned.precision, boundary, 700);
      PlanOptions options;
      options.target = tuned.arch;
      options.mma = MmaRequest::Dense; // the sweep's blocks are the dense form's
      Plan plan = tensorPlan(spec, options);
      const TensorPlan &tp = plan.tensor();
      ASSERT_NE(plan.choice.find("--tune sweep"), std::string::npos)
          << spec.name << ": the tuned plan was not taken";
      const int minimum = boundary == BoundaryKind::Fixed ? 2 * tuned.radius + 1 : 1;
      unsigned seed = 80;
      switch (tuned.dims) {
      case 1:
        for (int n : {minimum, tp.blockCols() + 3, 2 * tp.blockRows() * tp.blockCols() + 1001}) {
          checkOneGrid(plan, 1, n, seed++);
        }
        break;
      case 2:
        for (auto [ny, nx] : sizesFor(spec, tp)) {
          checkOneGrid(plan, ny, nx, seed++);
        }
        break;
      default:
        for (std::array<int, 3> n : {std::array<int, 3>{minimum, minimum, minimum},
                                     {minimum + 2, 2 * tp.tileM + 3, tp.blockCols() + 5},
                                     {3, tp.blockRows() + 1, 2 * tp.blockCols() + 1}}) {
          checkOneVolume(plan, n, seed++);
        }
        break;
      }
    }
  }
  EXPECT_GT(entries, 0);
}

/// The 3D slices: a box has one row slice per (dz, dy), a star the 2D star
/// on the centre plane and one centre-only row slice per other plane, each
/// reading its plane's slab of the window.
TEST(Planner3D, SlicesPerPlane) {
  Plan box = tensorPlan(makeStencil(3, Shape::Box, 1, Precision::FP16, BoundaryKind::Fixed, 3));
  ASSERT_EQ(box.tensor().gemms.size(), 9u);
  for (const SliceGemm &g : box.tensor().gemms) {
    EXPECT_EQ(g.kind, SliceKind::Row);
    EXPECT_EQ(box.tensor().sliceWindowRow(g),
              (g.dz + 1) * box.tensor().windowRows + box.tensor().haloRows + g.dy);
  }
  Plan star = tensorPlan(makeStencil(3, Shape::Star, 2, Precision::FP64, BoundaryKind::Fixed, 3));
  int centre = 0, other = 0;
  for (const SliceGemm &g : star.tensor().gemms) {
    if (g.dz == 0) {
      ++centre;
      continue;
    }
    ++other;
    EXPECT_EQ(g.kind, SliceKind::Row);
    EXPECT_EQ(g.dy, 0);
  }
  EXPECT_EQ(centre, 2); // the vertical and the horizontal GEMM
  EXPECT_EQ(other, 4);
  EXPECT_LE(star.tensor().sharedBytes(), PlanOptions().sharedMemoryLimit);
}

/// fp64 planned for sm_90 runs on 16 x 8 tiles of the m16n8k4 MMA.
TEST(EmulatorMatchesReference, Fp64OnSm90) {
  PlanOptions sm90;
  sm90.target = Arch::Sm90;
  for (Shape shape : {Shape::Star, Shape::Box}) {
    for (BoundaryKind boundary : stencilc::testing::AllBoundaries) {
      for (int r = 1; r <= maxTensorRadius(Precision::FP64); ++r) {
        Plan plan = tensorPlan(makeStencil2D(shape, r, Precision::FP64, boundary, 200 + r), sm90);
        ASSERT_EQ(plan.tensor().mma.name(), "m16n8k4");
        unsigned seed = 21;
        for (auto [ny, nx] : sizesFor(plan.spec, plan.tensor())) {
          checkOneGrid(plan, ny, nx, seed++);
        }
      }
    }
  }
}

/// Small blocks put many blocks and block edges on a small grid.
TEST(EmulatorMatchesReference, ManySmallBlocks) {
  PlanOptions options;
  options.tileRows = 1;
  options.tileCols = 2;
  for (BoundaryKind boundary : {BoundaryKind::Fixed, BoundaryKind::Periodic}) {
    Plan plan = tensorPlan(makeStencil2D(Shape::Box, 3, Precision::FP16, boundary, 7), options);
    checkOneGrid(plan, 53, 71, 11);
  }
}

/// Tiles of 2 and 4 MMA blocks across (the A fragments of a row slice shared
/// between blocks, fp16/bf16 stored as 16-byte rows two blocks at a time),
/// in every precision and on both MMA shapes of fp64.
TEST(EmulatorMatchesReference, TilesOfSeveralMmaBlocks) {
  for (Arch arch : {Arch::Sm80, Arch::Sm90}) {
    for (Precision p : {Precision::FP16, Precision::BF16, Precision::TF32, Precision::FP64}) {
      for (int nBlocks : {2, 3, 4}) {
        PlanOptions options;
        options.target = arch;
        options.nBlocks = nBlocks;
        for (Shape shape : {Shape::Star, Shape::Box}) {
          Plan plan =
              tensorPlan(makeStencil2D(shape, 2, p, BoundaryKind::Periodic, 30 + nBlocks), options);
          ASSERT_EQ(plan.tensor().nBlocks, nBlocks);
          checkOneGrid(plan, 37, 101, 17);
        }
      }
    }
  }
}

/// The sparse form's plans (mma=sparse): every row slice, K of 32 columns
/// from the tile's first window column, the matrices the kernel derives its
/// sparse A from. Emulated as the dense sums they hold (the MMAs' grouping
/// is the hardware's), they match the reference at every radius the form
/// takes, star and box, fp16 and bf16, every boundary.
TEST(EmulatorMatchesReference, SparseFormPlans) {
  PlanOptions options;
  options.target = Arch::Sm90;
  options.mma = MmaRequest::Sparse;
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    for (BoundaryKind boundary : stencilc::testing::AllBoundaries) {
      for (int r = 1; r <= SparseMaxRadius; ++r) {
        for (Shape shape : {Shape::Star, Shape::Box}) {
          Plan plan = tensorPlan(makeStencil2D(shape, r, p, boundary, 50 + r), options);
          ASSERT_TRUE(plan.tensor().sparse);
          checkOneGrid(plan, 45, 83, 5 + r);
        }
      }
    }
  }
}

/// The stacked form's plans (mma=stacked), with one window and with the
/// shifted one (windows=two: radius 1-4, fp16): each strip's MMA blocks
/// group by group, chunk by chunk, into four accumulators in turn, match
/// the reference at every radius the form takes, star and box, fp16 and
/// bf16, every boundary, on
/// grids from the smallest to several block tiles with partial strips; and
/// the planner's promises hold for each.
TEST(EmulatorMatchesReference, StackedFormPlans) {
  PlanOptions options;
  options.target = Arch::Sm90;
  options.mma = MmaRequest::Stacked;
  for (WindowsRequest windows : {WindowsRequest::Auto, WindowsRequest::Two}) {
    options.windows = windows;
    // (The shifted window changes only the plans of radius 4 or less, and
    // nothing between fp16 and bf16.)
    const bool two = windows == WindowsRequest::Two;
    for (Precision p : {Precision::FP16, Precision::BF16}) {
      for (BoundaryKind boundary : stencilc::testing::AllBoundaries) {
        for (int r = 1; r <= (two ? 4 : maxTensorRadius(p)) && !(two && p == Precision::BF16);
             ++r) {
          for (Shape shape : {Shape::Star, Shape::Box}) {
            Plan plan = tensorPlan(makeStencil2D(shape, r, p, boundary, 70 + r), options);
            ASSERT_TRUE(plan.tensor().stacked);
            // The shifted window where asked and the rows reach 4 or less.
            EXPECT_EQ(plan.tensor().shiftedWindow, two);
            EXPECT_EQ(verifyPlan(plan, options), std::vector<std::string>{});
            checkOneGrid(plan, 45, 83, 5 + r);
            checkOneGrid(plan, 2 * plan.tensor().blockRows() + 7, 2 * plan.tensor().blockCols() + 9,
                         9 + r);
          }
        }
      }
    }
  }
}

/// Past radius 8 (maxTensorRadius) the stacked form alone, with 16 columns
/// of halo and 5 chunks a row: stars and boxes of radius 9 and 16 at a
/// fixed and a periodic grid in fp16, and of radius 12 in bf16, on grids of
/// one and several block tiles (fewer radii than StackedFormPlans: the
/// emulator's time grows with the taps).
TEST(EmulatorMatchesReference, StackedFormPastRadius8) {
  PlanOptions options;
  options.target = Arch::Sm90;
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    for (BoundaryKind boundary : {BoundaryKind::Fixed, BoundaryKind::Periodic}) {
      for (int r :
           p == Precision::FP16 ? std::vector<int>{9, StackedMaxRadius} : std::vector<int>{12}) {
        for (Shape shape : {Shape::Star, Shape::Box}) {
          Plan plan = tensorPlan(makeStencil2D(shape, r, p, boundary, 50 + r), options);
          ASSERT_TRUE(plan.tensor().stacked);
          EXPECT_EQ(plan.tensor().haloCols, 16);
          // The boxes' quads and B words take 2 blocks' registers (255).
          EXPECT_EQ(plan.tensor().minBlocks, shape == Shape::Box ? 2 : StackedMinBlocks);
          EXPECT_EQ(verifyPlan(plan, options), std::vector<std::string>{});
          checkOneGrid(plan, 2 * r + 3, 2 * r + 5, 5 + r);
          checkOneGrid(plan, plan.tensor().blockRows() + 7, 2 * plan.tensor().blockCols() + 9,
                       9 + r);
        }
      }
    }
  }
}

/// The stacked form's groups reach every weight: a star's step with its
/// rows grouped by the chunks they reach (and with the shifted window,
/// windows=two) agrees with every row on every chunk of window 0, in order,
/// within 2 units in the last place of fp16 at every point, every radius
/// and boundary (the same products, summed in fp32 in another order); and a
/// group that misses a chunk its row reaches is caught.
TEST(EmulatorMatchesReference, StackedGroupsReachEveryWeight) {
  PlanOptions options;
  options.target = Arch::Sm90;
  options.mma = MmaRequest::Stacked;
  const auto farthest = [](const Grid2D &a, const Grid2D &b) {
    double most = 0.0;
    for (std::size_t i = 0; i < a.values.size(); ++i) {
      most = std::max(most, std::abs(a.values[i] - b.values[i]));
    }
    return most;
  };
  for (WindowsRequest windows : {WindowsRequest::Auto, WindowsRequest::Two}) {
    options.windows = windows;
    for (BoundaryKind boundary : stencilc::testing::AllBoundaries) {
      for (int r : {1, 2, 3, 4, 5, 6, 7, 8, 9, StackedMaxRadius}) {
        SCOPED_TRACE(::testing::Message() << "radius " << r << " " << keyword(boundary));
        const StencilSpec spec = makeStencil2D(Shape::Star, r, Precision::FP16, boundary, 90 + r);
        const Plan grouped = tensorPlan(spec, options);
        Plan full = grouped;
        full.tensor().stackedGroups.clear();
        for (int row = 0; row <= 2 * r; row += 2) {
          full.tensor().stackedGroups.push_back(StackedGroup{
              {{row, 0, 0}, {row < 2 * r ? row + 1 : -1, 0, 0}}, stackedWindowChunks(r, 0)});
        }
        const Grid2D in = randomGrid(45, 83, spec.precision, 30 + r);
        Grid2D a(45, 83), b(45, 83);
        emulateStep(grouped, in, a);
        emulateStep(full, in, b);
        EXPECT_LE(farthest(a, b), 2.0 / 2048); // outputs below 1: fp16's ulp at most 2^-11
        // The centre row's group without its first chunk drops taps left
        // of the outputs.
        Plan wrong = grouped;
        for (StackedGroup &g : wrong.tensor().stackedGroups) {
          for (StackedHalf &h : g.half) {
            h.first += h.row == r ? 1 : 0;
          }
        }
        Grid2D c(45, 83);
        emulateStep(wrong, in, c);
        EXPECT_GT(farthest(c, b), 8.0 / 2048);
      }
    }
  }
}

/// Periodic reads wrap even when the halo is wider than the grid.
TEST(EmulatorMatchesReference, PeriodicGridNarrowerThanTheHalo) {
  Plan plan = tensorPlan(makeStencil2D(Shape::Box, 4, Precision::FP64, BoundaryKind::Periodic, 12));
  checkOneGrid(plan, 3, 2, 13);
  checkOneGrid(plan, 1, 1, 14);
}

/// Clamp and mirror reads land on the grid even when the halo is wider than
/// the grid (mirror folds more than once).
TEST(EmulatorMatchesReference, ClampAndMirrorGridNarrowerThanTheHalo) {
  for (BoundaryKind boundary : {BoundaryKind::Clamp, BoundaryKind::Mirror, BoundaryKind::Reflect}) {
    Plan plan = tensorPlan(makeStencil2D(Shape::Box, 4, Precision::FP64, boundary, 17));
    checkOneGrid(plan, 3, 2, 18);
    checkOneGrid(plan, 1, 1, 19);
  }
}

/// A plan that drops a coefficient is caught: the check is not vacuous.
TEST(EmulatorMatchesReference, DetectsAWrongParameterMatrix) {
  StencilSpec spec = makeStencil2D(Shape::Star, 2, Precision::FP64, BoundaryKind::Periodic, 15);
  Plan plan = tensorPlan(spec);
  ParameterMatrix &pv = plan.tensor().gemms[0].param;
  for (int m = 0; m < pv.rows; ++m) {
    pv.at(m, m) = 0.0; // the dy = -2 coefficient
  }
  Grid2D in = randomGrid(20, 20, spec.precision, 16);
  Grid2D emulated(20, 20), reference(20, 20);
  emulateStep(plan, in, emulated);
  referenceStep(spec, in, reference);
  EXPECT_GT(relativeL2Error(spec, emulated, reference), 1e-3);
}

TEST(Rounding, OperandTypes) {
  EXPECT_EQ(roundToStorage(1.0 + 1.0 / 4096, Precision::FP16), 1.0);
  EXPECT_EQ(roundToStorage(1.0 + 3.0 / 2048, Precision::FP16), 1.0 + 2.0 / 1024);
  EXPECT_EQ(roundToStorage(1.0 + 1.0 / 256, Precision::BF16), 1.0); // tie to even
  // tf32 keeps 10 fraction bits; inputs round ties away from zero.
  EXPECT_EQ(roundInputOperand(1.0 + 1.0 / 2048, Precision::TF32), 1.0 + 1.0 / 1024);
  EXPECT_EQ(roundCoefficient(1.0 + 1.0 / 2048, Precision::TF32), 1.0);
  EXPECT_EQ(roundInputOperand(0.3, Precision::FP64), 0.3);
}

} // namespace
