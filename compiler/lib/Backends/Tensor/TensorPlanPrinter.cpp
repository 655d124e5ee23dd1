//===- TensorPlanPrinter.cpp - The tensor-core part of `--emit=plan` -------===//
//
// The lines of a tensor-core plan after the frame (Common/PlanPrinter.cpp):
// MMA shape, tile, block, halo, window, shared memory, and every slice GEMM
// with its parameter matrix; and the plan in one paragraph.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/EmitterParts.h"
#include "Backends/Common/PlanText.h"
#include "Backends/Tensor/TensorCodeGen.h"
#include "Backends/Tensor/TensorFusion.h"
#include "Backends/Tensor/TensorPlanner.h"
#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"

namespace stencilc {

namespace {

/// A matrix as an aligned table, one row a line, each line prefixed.
void printMatrix(const ParameterMatrix &matrix, std::string_view prefix, llvm::raw_ostream &os) {
  std::vector<std::string> cells(matrix.values.size());
  std::size_t width = 1;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    cells[i] = formatExact(matrix.values[i]);
    width = std::max(width, cells[i].size());
  }
  for (int r = 0; r < matrix.rows; ++r) {
    std::string line(prefix);
    for (int c = 0; c < matrix.cols; ++c) {
      line += fmt::format("{}{:>{}}", c ? " " : "", cells[std::size_t(r) * matrix.cols + c], width);
    }
    os << line << "\n";
  }
}

std::string gemmShapeText(const TensorPlan &tp, const SliceGemm &g) {
  const int K = g.chunkCount * tp.mma.k;
  const int M = tp.tileM, N = tp.mma.n;
  if (g.kind == SliceKind::Vertical) {
    return fmt::format("P_v ({} x {}) * window rows [tile+{}, tile+{}), "
                       "cols [tile+{}, tile+{})",
                       M, K, g.firstK, g.firstK + K, tp.haloCols, tp.haloCols + N);
  }
  const int row = tp.haloRows + g.dy;
  return fmt::format("window rows [tile+{}, tile+{}), cols [tile+{}, "
                     "tile+{}) * B ({} x {})",
                     row, row + M, g.firstK, g.firstK + K, K, N);
}

/// The groups, point terms and parameters of a stencil of fields.
void printFieldsLines(const StencilSpec &spec, const TensorFieldsPlan &f, llvm::raw_ostream &os) {
  if (f.windowFields.size() > 1) {
    std::string names, groups;
    for (std::size_t w = 0; w < f.windowFields.size(); ++w) {
      names +=
          fmt::format("{}'{}'", w ? ", " : "", spec.fields[std::size_t(f.windowFields[w])].name);
    }
    for (std::size_t g = 0; g < f.groupWindow.size(); ++g) {
      const int field = f.windowFields[std::size_t(f.groupWindow[g])];
      groups +=
          fmt::format("{}acc{} over '{}'", g ? ", " : "", g, spec.fields[std::size_t(field)].name);
    }
    os << fmt::format("  fields     the slice GEMMs read a window of each of {}; {} accumulator "
                      "groups ({})\n",
                      names, f.groupCoefficientField.size(), groups);
  } else {
    os << fmt::format("  fields     the slice GEMMs read the window of '{}'; {} accumulator "
                      "group{}\n",
                      spec.fields[std::size_t(f.gemmField)].name, f.groupCoefficientField.size(),
                      f.groupCoefficientField.size() == 1 ? "" : "s");
  }
  std::string epilogue;
  for (std::size_t g = 0; g < f.groupCoefficientField.size(); ++g) {
    const int c = f.groupCoefficientField[g];
    epilogue += fmt::format("{}{}acc{}", epilogue.empty() ? "" : " + ",
                            c < 0 ? std::string() : spec.fields[std::size_t(c)].name + " * ", g);
  }
  for (int t : f.pointTerms) {
    epilogue += " + " + fieldTermText(spec, spec.fieldTerms[std::size_t(t)]);
  }
  os << "  epilogue   out = " << epilogue
     << " (coefficient fields and point terms at the output point, in the accumulator type)\n";
  os << "  matrices   "
     << (spec.params.empty()
             ? std::string("built once by the host code from the terms' coefficients (cached)")
             : std::string("built by the host code from the terms' coefficients for the "
                           "parameters' values (folded as for the CUDA cores), cached for the "
                           "last values of each host thread"))
     << ", passed with every launch; below, each element's term (-1: zero)\n";
}

/// What the L2 fetches from memory for the accelerator's reads of a mapped
/// window (TensorPlan::windowPromotion).
std::string promotionText(const TensorPlan &tp) {
  return tp.windowPromotion
             ? fmt::format("each L2 miss fetching the whole {}-byte block around it (L2 "
                           "promotion)",
                           tp.windowPromotion)
             : std::string("each L2 miss fetching only its 32-byte sectors (no L2 promotion)");
}

/// The stacked form's grid (TensorPlan::persistentGrid).
std::string_view gridText(const TensorPlan &tp) {
  return tp.persistentGrid ? "a persistent grid of the blocks that fit at once, each walking "
                             "block tiles"
                           : "a block a block tile";
}

/// The stacked form's groups (TensorPlan::stackedGroups), for its mma line:
/// each group's rows (s: from the shifted window) and chunks.
std::string stackedGroupsText(const TensorPlan &tp) {
  std::string text;
  for (const StackedGroup &g : tp.stackedGroups) {
    auto row = [](const StackedHalf &h) {
      return fmt::format("{}{}", h.row, h.window == 1 ? "s" : "");
    };
    // (Not `" " + row(...)`: GCC 12's -Wrestrict misfires on it, bug 105651.)
    const std::string second = g.paired() ? fmt::format(" {}", row(g.half[1])) : std::string();
    text += fmt::format("{}{}{} ({})", text.empty() ? "" : ", ", row(g.half[0]), second, g.count);
  }
  return text;
}

/// The stacked form's lines (stencilc/device/stacked.cuh): its MMAs, strip,
/// block, window and B.
void printStackedLines(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const int r = spec.radius;
  const TensorPlan::StackedMmas mmas = tp.stackedMmas();
  os << fmt::format("  mma        m16n8k16 and m16n8k8 {0} x {0} -> {1} (mma.sync), stacked: the "
                    "stencil's {2} rows in K, an 8-column chunk of two rows a k16 MMA, of one "
                    "row a k8; rows grouped by the chunks their weights reach (rows, chunks; "
                    "s: from the shifted window): {3}; a block of 8 outputs {4} k16 and {5} k8 "
                    "MMAs against {6} k16 for a GEMM a row\n",
                    keyword(tp.mma.operand), keyword(tp.mma.accumulator), 2 * r + 1,
                    stackedGroupsText(tp), mmas.k16, mmas.k8, tp.paramFragments());
  os << fmt::format("  strip      {} x {} outputs a warp ({} MMA blocks of 8 columns, walked along "
                    "x: a group's chunks but its last are the block before's, kept in "
                    "registers; one ldmatrix a new chunk and group), sums in {} accumulators in "
                    "turn\n",
                    tp.tileM, tp.tileN, tp.nBlocks, tp.splitAccumulators);
  // The launch bounds ask the registers of that many blocks; where fewer
  // suffice, as many more as the shared memory holds share a multiprocessor.
  os << fmt::format("  block      {} strips ({} x {} outputs), {} warps, at least {} blocks a "
                    "multiprocessor by the registers (launch bounds); {}\n",
                    tp.tileRowsPerBlock, tp.blockRows(), tp.blockCols(), tp.warps, tp.minBlocks,
                    gridText(tp));
  const std::string copy =
      tp.mappedWindows
          ? fmt::format("by the tensor memory accelerator: one thread a block copies a box of the "
                        "grid, zeros outside it, {}; cp.async from every thread where the grid's "
                        "rows are not a whole number of 16-byte vectors or its first point is "
                        "not 16-byte aligned",
                        promotionText(tp))
          : "cp.async: whole vectors of the grid, wrapped into a periodic one, zeros outside a "
            "fixed one; the boundary rule point by point elsewhere";
  const std::string stages =
      tp.persistentGrid
          ? fmt::format("twice: the next block tile's is copied ({}) while the warps compute "
                        "from the other",
                        copy)
          : fmt::format("once, copied ({})", copy);
  os << fmt::format("  window     {} x {} {} in shared memory, pitch {} ({} bytes, 128-byte "
                    "aligned), {}; {} rows and {} columns of halo{}\n",
                    tp.windowRows, tp.windowCols, elementTypeName(spec.precision), tp.windowPitch,
                    tp.windowBytes, stages, r, tp.haloCols,
                    tp.shiftedWindow ? "; with each a shifted window of the same size, its "
                                       "columns 4 right (--plan-option windows=two)"
                                     : "");
  os << fmt::format("  shared     {} bytes (dynamic); B ({} words a lane) loaded once per block "
                    "into registers from a table in global memory\n",
                    tp.sharedBytes(), tp.paramFragmentRegisters());
  if (tp.stagedStores) {
    os << fmt::format("  stores     a warp rounds each MMA block's sums into a stage of 16 x {} "
                      "{} in shared memory (pitch {}, {} bytes a warp) and stores every {} "
                      "columns of its strip as rows of 16-byte vectors\n",
                      TensorPlan::StageCols, elementTypeName(spec.precision),
                      TensorPlan::StagePitch, tp.stageBytes() / tp.warps, TensorPlan::StageCols);
  }
}

/// The names of DenseBlockOptions (PlanOptions.h), in their order.
std::string denseBlockOptionNames() {
  std::vector<std::string_view> names;
  for (int PlanOptions::*field : DenseBlockOptions) {
    for (const PlanOptionInfo &option : PlanOptionTable) {
      if (option.field == field) {
        names.push_back(option.name);
      }
    }
  }
  return joinList(names, ", ");
}

/// The MMA line of a dense or sparse plan; a dense one that could have
/// taken the sparse or the stacked form says why it did not.
void printMmaLine(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  if (tp.sparse) {
    os << fmt::format("  mma        m16n8k32 2:4 sparse {0} x {0} -> {1} (mma.sp, --plan-option "
                      "mma=sparse): each slice's coefficients, output column by input column, "
                      "as the sparse A of 16 output columns x 32 columns whose K order pairs "
                      "column x with x + 16, so that a band of {2} columns keeps at most 2 of "
                      "every 4; A derives from the slice's matrix below\n",
                      keyword(tp.mma.operand), keyword(tp.mma.accumulator), 2 * spec.radius + 1);
  } else {
    PlanOptions sparse;
    sparse.target = plan.target;
    sparse.nBlocks = tp.nBlocks;
    // Where the sparse or the stacked form was open to it, why the plan
    // took the dense one.
    const bool couldBeSparse = !sparseMmaUnavailable(spec, sparse);
    const bool couldBeStacked = !stackedMmaUnavailable(spec);
    os << "  mma        " << tp.mma.name() << " " << keyword(tp.mma.operand) << " x "
       << keyword(tp.mma.operand) << " -> " << keyword(tp.mma.accumulator) << " (mma.sync"
       << (couldBeSparse ? "; dense, as the sparse form (--plan-option mma=sparse) measured "
                           "slower on every kind (docs/performance.md)"
                         : "")
       << (couldBeStacked
               ? fmt::format("; not stacked: the stacked form (--plan-option mma=stacked) "
                             "measured faster and is taken unasked, but its geometry is fixed: "
                             "mma=dense or an option that shapes the block ({}) keeps the "
                             "dense form, as does a shared-memory limit below its two windows",
                             denseBlockOptionNames())
               : "")
       << ")\n";
  }
}

/// The lines of the kernel's geometry: MMA, tile, block, halo, window, L2
/// prefetch, shared memory and where the parameter fragments live.
void printGeometryLines(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  if (tp.stacked) {
    printStackedLines(plan, os);
    return;
  }
  printMmaLine(plan, os);
  os << fmt::format("  tile       {} x {} outputs ({} MMA{} across)\n", tp.tileM, tp.tileN,
                    tp.nBlocks, tp.nBlocks == 1 ? "" : "s");
  os << fmt::format("  block      {} x {} tiles ({} x {} outputs), {} warps, "
                    "{} tiles per warp{}\n",
                    tp.tileRowsPerBlock, tp.tileColsPerBlock, tp.blockRows(), tp.blockCols(),
                    tp.warps, (tp.tileRowsPerBlock * tp.tileColsPerBlock + tp.warps - 1) / tp.warps,
                    tp.minBlocks == 1
                        ? ""
                        : fmt::format(", {} blocks a multiprocessor asked of the register "
                                      "allocator (the edge reads' folds took one block's "
                                      "registers; measured faster on an H200)",
                                      tp.minBlocks));
  if (spec.dims == 1) {
    os << fmt::format("  halo       the line runs as rows of {} points; each "
                      "window row holds its row and {} points of halo on each "
                      "side (radius {} rounded up to a {}-element vector); "
                      "inside the GEMM (K covers the halo)\n",
                      tp.blockCols(), tp.haloCols, spec.radius, tp.vectorWidth);
  } else {
    os << fmt::format("  halo       {} rows above and below; {} columns left "
                      "and right (radius {} rounded up to a {}-element "
                      "vector, so every tile starts 16-byte aligned); inside "
                      "the GEMM (K covers the halo)\n",
                      tp.haloRows, tp.haloCols, spec.radius, tp.vectorWidth);
  }
  os << fmt::format("  window     {}{} x {} {} in shared memory, pitch {} "
                    "({} bytes); input read into rows [0, {}), cols [{}, {}) "
                    "with {}-element vectors, the rest zero\n",
                    tp.planes > 1 ? fmt::format("{} slabs (input planes z-{}..z+{}, a ring "
                                                "streamed along z) of ",
                                                tp.planes, tp.planes / 2, tp.planes / 2)
                                  : "",
                    tp.windowRows, tp.windowCols, elementTypeName(spec.precision), tp.windowPitch,
                    tp.windowBytes, tp.loadedRows, tp.loadedColBegin, tp.loadedColEnd,
                    tp.vectorWidth);
  if (tp.sparse) {
    os << "             swizzled for the sparse form: bits 3 and 5 of a column flipped by bits "
          "0 and 1 of its row, so that its 8-byte loads of 4 rows meet no bank conflict\n";
  }
  printPrefetch(tp.l2PrefetchBytes, os);
  os << fmt::format("  shared     {} bytes: window {}{}, parameters {}; the "
                    "accumulators are stored from registers\n",
                    tp.sharedBytes(), tp.windowBytes,
                    tp.windows() > 1 ? fmt::format(" x {} windows", tp.windows()) : "",
                    tp.paramBytes);
  if (tp.sparse) {
    os << fmt::format("  parameters each lane's sparse slices (A and metadata, {} registers "
                      "per thread for {} slices) derived once per block, {}\n",
                      tp.paramFragmentRegisters(), tp.gemms.size(),
                      tp.paramsInRegisters ? "kept in registers"
                                           : "kept in shared memory and re-read per tile");
    return;
  }
  os << fmt::format("  parameters {} ({} registers per thread for {} "
                    "fragments)\n",
                    tp.paramsInRegisters ? "in registers, loaded once per block"
                                         : "re-read from shared memory per "
                                           "tile",
                    tp.paramFragmentRegisters(), tp.paramFragments());
}

/// The MMAs of a tile: with several windows every group's GEMMs, each group
/// only those it holds a coefficient in.
void printMmaCount(const TensorPlan &tp, llvm::raw_ostream &os) {
  if (tp.windows() > 1) {
    int mmas = 0;
    for (std::size_t group = 0; group < tp.fields->groupRunsGemm.size(); ++group) {
      for (std::size_t i = 0; i < tp.gemms.size(); ++i) {
        mmas += tp.fields->runs(group, i) ? tp.nBlocks * tp.gemms[i].chunkCount : 0;
      }
    }
    os << fmt::format("  mmas       {} per tile, the groups' together\n", mmas);
  } else if (tp.stacked) {
    os << fmt::format("  mmas       {} per strip; each row's weights are its GEMM's B below, "
                      "read chunk by chunk\n",
                      tp.mmasPerTile());
  } else {
    os << fmt::format("  mmas       {} per tile\n", tp.mmasPerTile());
  }
}

/// Every slice GEMM with its parameter matrix; a stencil of fields' per
/// group, each element its term (the values are the host code's, per call).
void printGemms(const TensorPlan &tp, llvm::raw_ostream &os) {
  const std::size_t groups = tp.fields ? tp.fields->paramTerms.size() : 1;
  for (std::size_t group = 0; group < groups; ++group) {
    // Each group's map runs over every gemm's elements from its start.
    std::size_t element = 0;
    for (std::size_t i = 0; i < tp.gemms.size(); ++i) {
      const SliceGemm &g = tp.gemms[i];
      if (tp.fields && !tp.fields->runs(group, i)) {
        element += g.param.values.size(); // all zeros for this group: not run
        continue;
      }
      os << fmt::format("  gemm {}{} {}: {}; {}\n", i,
                        tp.fields ? fmt::format(" of group {}", group) : std::string(), g.label,
                        gemmShapeText(tp, g),
                        tp.sparse ? std::string("the sparse A of its mma.sp derives from B")
                                  : fmt::format("{} MMAs", g.chunkCount));
      ParameterMatrix shown = g.param;
      if (tp.fields) {
        for (double &v : shown.values) {
          v = tp.fields->paramTerms[group][element++];
        }
      }
      printMatrix(shown, "      ", os);
    }
  }
}

} // namespace

void printTensorPlanBody(const Plan &plan, llvm::raw_ostream &os) {
  const TensorPlan &tp = plan.tensor();
  printGeometryLines(plan, os);
  os << "  boundary   " << boundaryPlanText(plan.spec) << "\n";
  printMmaCount(tp, os);
  if (tp.fields) {
    printFieldsLines(plan.spec, *tp.fields, os);
  }
  printGemms(tp, os);
}

std::string summarizeTensorPlan(const Plan &plan) {
  const TensorPlan &tp = plan.tensor();
  std::string gemms;
  for (const SliceGemm &g : tp.gemms) {
    gemms += fmt::format("{}{} ({})", gemms.empty() ? "" : ", ", g.label,
                         tp.sparse ? std::string("mma.sp") : fmt::format("{} MMAs", g.chunkCount));
  }
  if (tp.fields) {
    gemms += fmt::format(" for each of {} accumulator groups", tp.fields->paramTerms.size());
  }
  if (tp.stacked) {
    return fmt::format("{} backend, {} m16n8k16 and m16n8k8 MMAs ({} accumulation), the "
                       "stencil's {} rows stacked in K (stencilc/device/stacked.cuh); strips of "
                       "{}x{} outputs, {} a block; {} bytes of shared memory",
                       keyword(plan.backend()), keyword(tp.mma.operand),
                       keyword(tp.mma.accumulator), tp.gemms.size(), tp.tileM, tp.tileN,
                       tp.tileRowsPerBlock, tp.sharedBytes());
  }
  return fmt::format("{} backend, {} {} MMA ({} accumulation); {}x{} output tiles, {}x{} "
                     "tiles per block, {} warps; halo {} rows / {} columns inside the GEMM; "
                     "slice GEMMs per tile: {}; {} bytes of shared memory; parameter "
                     "fragments {}",
                     keyword(plan.backend()), keyword(tp.mma.operand), tp.mma.name(),
                     keyword(tp.mma.accumulator), tp.tileM, tp.tileN, tp.tileRowsPerBlock,
                     tp.tileColsPerBlock, tp.warps, tp.haloRows, tp.haloCols, gemms,
                     tp.sharedBytes(), tp.paramsInRegisters ? "in registers" : "in shared memory");
}

} // namespace stencilc

namespace stencilc {

namespace {

/// Of the point-levels a band tile on one band computes (the W lines of its
/// tile it stores, widened by r for each level still to come), the share
/// that no stored point's level is: the margin its levels need.
double bandRedundantShare(const Plan &plan) {
  const ComposedPass &pass = *plan.schedule.composed;
  const int r = plan.spec.radius, steps = plan.schedule.fusedSteps, w = steps * r;
  double computed = 0.0;
  for (int l = 1; l <= steps; ++l) {
    const int grow = 2 * (steps - l) * r;
    computed += double(w + grow) * (pass.band.tile + grow);
  }
  return 1.0 - double(steps) * w * pass.band.tile / computed;
}

/// Of the point-levels a band strip computes inside the grid (its W lines
/// across and S along, widened by r a level still to come, inward and along
/// the edge), the share that no stored point's level is.
double stripRedundantShare(const Plan &plan) {
  const int r = plan.spec.radius, steps = plan.schedule.fusedSteps, w = steps * r;
  const int along = kBandStripThreads - 2 * w;
  double computed = 0.0;
  for (int l = 1; l <= steps; ++l) {
    const int grow = (steps - l) * r;
    computed += double(w + grow) * (along + 2 * grow);
  }
  return 1.0 - double(steps) * w * along / computed;
}

/// The band's line: its strips, and the tiles that take a grid within 2 W
/// of its size on an axis (or every grid, where the strips would pass the
/// static shared memory); none under periodic.
void printBand(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  if (spec.boundary == BoundaryKind::Periodic) {
    os << "  band       none: periodic composes at every point\n";
    return;
  }
  const ComposedPass &pass = *plan.schedule.composed;
  const int steps = plan.schedule.fusedSteps, halo = steps * spec.radius;
  const std::string_view values = spec.precision == Precision::FP64 ? "doubles" : "floats";
  const std::string tiles = fmt::format(
      "{} x {} output tiles, 256 threads, two levels of {} x {} {} in {} bytes of shared memory; "
      "a tile on one band computes only what its stored lines need, {:.1f} % of those "
      "point-levels redundant (the margin its levels need)",
      pass.band.tile, pass.band.tile, pass.band.tile + 2 * halo, pass.band.tile + 2 * halo, values,
      pass.band.sharedBytes, 100.0 * bandRedundantShare(plan));
  const std::string how =
      pass.band.stripBytes == 0
          ? tiles
          : fmt::format("in strips of {} lines along each edge (the top and bottom ones whole, "
                        "with the corners), {} threads a line across the band, {} threads, two "
                        "windows of {} x {} {} (a side strip's lines {} apart) in {} bytes of "
                        "shared memory, {:.1f} % of the point-levels redundant; a grid within {} "
                        "of its size on an axis in {}",
                        kBandStripThreads - 2 * halo, kBandStripSplit,
                        kBandStripThreads * kBandStripSplit, 3 * halo, kBandStripThreads, values,
                        (3 * halo) | 1, pass.band.stripBytes, 100.0 * stripRedundantShare(plan),
                        2 * halo, tiles);
  os << fmt::format("  band       beside the composed step in NAME_run (a second stream; the "
                    "two store disjoint points), after it in NAME_pass: the points within {} of "
                    "an edge, {} "
                    "single steps on CUDA cores (stencilc/device/band.cuh): {}\n",
                    halo, steps, how);
}

/// The remainder pass's line (Schedule::remainder), if the plan has one.
void printRemainderPass(const Plan &plan, llvm::raw_ostream &os) {
  const Schedule &s = plan.schedule;
  if (!s.remainder) {
    return;
  }
  const ComposedPass &pass = *s.remainder;
  const Plan &composed = *pass.plan;
  os << fmt::format(
      "  remainder  where {} to {} of {}_run's steps remain after its passes of {}: one "
      "composed pass of {} (the stencil composed {} times, 2D {} radius {}, in the stacked form: "
      "{} MMAs a strip, {:.2f} x the MMAs per point of {} single steps; {} bytes of shared "
      "memory; its band the points within {} of an edge, {} levels in {} bytes), then single "
      "steps: NAME_run of 7 steps at T 8 and of 3 at T 4 measured 1.5-1.8 x as fast with it "
      "(TensorFusion.cpp)\n",
      pass.steps, s.fusedSteps - 1, plan.spec.name, s.fusedSteps, pass.steps, pass.steps,
      keyword(composed.spec.shape), composed.spec.radius, composed.tensor().mmasPerTile(),
      pass.mmaRatio, pass.steps, composed.tensor().sharedBytes(), pass.steps * plan.spec.radius,
      pass.steps, pass.band.sharedBytes);
}

} // namespace

void printComposedSchedule(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const ComposedPass &pass = *s.composed;
  const Plan &composed = *pass.plan;
  const TensorPlan &ct = composed.tensor();
  const int halo = s.fusedSteps * spec.radius;
  os << fmt::format("  run        {} steps fused a pass of {}_run ({}); {}_step is one step\n",
                    s.fusedSteps, spec.name, s.why, spec.name);
  const std::string step =
      ct.stacked
          ? fmt::format(
                "in the stacked form (the composed stencil's {} rows in K, grouped as its mma "
                "line would say: {}): strips of {} x {} outputs a warp, {} warps a block, {} "
                "accumulators an MMA block{}{}{}",
                2 * composed.spec.radius + 1, stackedGroupsText(ct), ct.tileM, ct.tileN, ct.warps,
                ct.splitAccumulators, ct.persistentGrid ? "" : ", a block a block tile",
                ct.mappedWindows
                    ? ", its windows copied by the tensor memory accelerator, " + promotionText(ct)
                    : "",
                ct.shiftedWindow ? ", with a shifted window 4 columns right of each" : "")
          : fmt::format("on every tile: {} x {} output tiles, {} x {} tiles per block, "
                        "{} warps",
                        ct.tileM, ct.tileN, ct.tileRowsPerBlock, ct.tileColsPerBlock, ct.warps);
  os << fmt::format(
      "  composed   the stencil composed {} times (2D {} radius {}, {} points, "
      "coefficients exact, rounded once to double), a tensor-core step of its own {}; halo "
      "{} rows / {} columns (T x r = {}){}; {} MMAs a {}, {:.2f} x the MMAs per point "
      "of {} single steps; {} bytes of shared memory; parameter fragments {} ({} "
      "registers per thread)\n",
      s.fusedSteps, keyword(composed.spec.shape), composed.spec.radius, composed.spec.points(),
      step, ct.haloRows, ct.haloCols, halo,
      composed.spec.boundary != BoundaryKind::Fixed
          ? ""
          : fmt::format(", planned under fixed: it stores only the points at least {} inside "
                        "the grid, reading 0 outside",
                        composed.spec.ring()),
      ct.mmasPerTile(), ct.stacked ? "strip" : "tile", pass.mmaRatio, s.fusedSteps,
      ct.sharedBytes(), ct.paramsInRegisters ? "in registers" : "re-read from shared memory",
      ct.paramFragmentRegisters());
  printBand(plan, os);
  printRemainderPass(plan, os);
}

std::string summarizeComposedSchedule(const Plan &plan) {
  const Schedule &s = plan.schedule;
  return fmt::format("NAME_run fuses {} steps a pass (stencilc/device/composed.cuh): the stencil "
                     "composed {} times on tensor cores ({}) and beside it the points within {} "
                     "of an edge step by step on CUDA cores{}",
                     s.fusedSteps, s.fusedSteps, summarizeTensorPlan(*s.composed->plan),
                     s.fusedSteps * plan.spec.radius,
                     s.remainder ? fmt::format("; where {} or more steps remain, one such pass "
                                               "of {}",
                                               s.remainder->steps, s.remainder->steps)
                                 : "");
}

} // namespace stencilc
