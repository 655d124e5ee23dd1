//===- PlanPrinter.cpp - The `--emit=plan` text of a Plan ------------------===//
#include <algorithm>

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "stencilc/Plan.h"

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

std::string boundaryText(const StencilSpec &spec) {
  switch (spec.boundary) {
  case BoundaryKind::Fixed:
    return "fixed: reads outside the grid are 0 and reach only ring outputs, "
           "which are never stored; only the interior is written";
  case BoundaryKind::Constant:
    return fmt::format("constant {}: reads outside the grid are {}; every "
                       "point is written",
                       formatExact(spec.boundaryValue), formatExact(spec.boundaryValue));
  case BoundaryKind::Periodic:
    return "periodic: reads outside the grid wrap around each axis; every "
           "point is written";
  }
  return {};
}

// ---- simt plans (issue 4) ----------------------------------------------------

std::string simtStreamText(const StencilSpec &spec, const SimtPlan &sp) {
  if (spec.dims == 1) {
    return "none (1D: one plane, the line itself)";
  }
  // 2D streams its rows, 3D its planes.
  const bool rows = spec.dims == 2;
  const char *unit = rows ? "row" : "plane";
  const std::string perBlock =
      sp.minChunkZ == sp.chunkZ
          ? fmt::format("{} output {}s per block (fixed: not halved at launch)", sp.chunkZ, unit)
          : fmt::format("up to {} output {}s per block (halved at launch, not below {}, while "
                        "the grid has fewer than {} blocks)",
                        sp.chunkZ, unit, sp.minChunkZ, sp.targetBlocks);
  return fmt::format("{}, {}; the queue holds {} partial {}s per item",
                     rows ? "along y (the rows)" : "along z (2.5D blocking)", perBlock,
                     sp.queueLength(), unit);
}

/// The plan line of an L2 prefetch size (both backends); none without one.
void printPrefetch(int bytes, llvm::raw_ostream &os) {
  if (bytes) {
    os << fmt::format("  prefetch   each 16-byte read of the input asks the L2 to fetch the {} "
                      "bytes around it from memory\n",
                      bytes);
  }
}

void printSimtPlan(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  os << "plan " << spec.name << "\n";
  os << "  backend    " << keyword(plan.backend()) << " (" << plan.choice << ")\n";
  os << "  stencil    " << spec.dims << "D " << keyword(spec.shape) << " radius " << spec.radius
     << ", " << spec.points() << " points, " << keyword(spec.precision) << "\n";
  os << fmt::format("  arithmetic {} FMAs ({}), {} element loads\n", keyword(sp.compute),
                    sp.compute == Precision::FP64 ? "__fma_rn" : "__fmaf_rn",
                    elementTypeName(spec.precision));
  os << fmt::format("  block      {} threads; {} x {} outputs per plane ({} items of {} "
                    "consecutive x outputs, {} per thread)\n",
                    sp.threads, sp.tileY, sp.tileX, sp.items(), sp.outputsX, sp.itemsPerThread);
  os << "  stream     " << simtStreamText(spec, sp) << "\n";
  os << fmt::format("  halo       radius z {}, y {}, x {} (x halo {} columns: the radius "
                    "rounded up to a 16-byte vector of {})\n",
                    sp.radiusZ, sp.radiusY, sp.radiusX, sp.haloX, sp.vectorWidth);
  os << fmt::format("  plane      {} x {} {} in shared memory ({} bytes), {} buffer{}{}; "
                    "{} 16-byte loads per plane, {} per thread{}\n",
                    sp.planeRows, sp.pitch, elementTypeName(spec.precision), sp.planeBytes,
                    sp.buffers, sp.buffers > 1 ? "s" : "",
                    sp.dynamicShared()
                        ? fmt::format(" ({} bytes of dynamic shared memory: past the 48 KiB "
                                      "a block declares statically)",
                                      sp.sharedBytes())
                        : std::string(),
                    sp.groupsPerPlane(), sp.groupsPerThread,
                    sp.buffers > 2    ? fmt::format(", a ring: asynchronous copies (cp.async) "
                                                       "fetch {} planes ahead of the one computed",
                                                    sp.buffers - 1)
                    : sp.buffers == 2 ? std::string(", the next plane fetched into registers "
                                                    "while this one is computed")
                                      : std::string(", fetched straight into shared memory"));
  printPrefetch(sp.l2PrefetchBytes, os);
  os << "  boundary   " << boundaryText(spec) << "\n";
  os << fmt::format("  slices     {} ({}), coefficients rounded once to {}\n", sp.slices.size(),
                    sp.unrolled ? "straight-line FMAs with literal coefficients"
                                : "loops over a coefficient table",
                    keyword(sp.compute));
  for (const SimtSlice &slice : sp.slices) {
    std::string terms;
    for (const SimtTerm &t : slice.terms) {
      terms += fmt::format("{}({},{}) {}", terms.empty() ? "" : ", ", t.dy, t.dx,
                           formatExact(t.coefficient));
    }
    os << fmt::format("  slice dz={} -> queue entry {}: {} reads (dy,dx) c: {}\n", slice.dz,
                      sp.radiusZ - slice.dz, slice.terms.size(),
                      slice.terms.size() <= 32 ? terms : std::string("(table)"));
  }
}

std::string summarizeSimtPlan(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  return fmt::format(
      "simt backend, {} arithmetic; {} threads, {} x {} outputs per plane, up to {} planes "
      "per block streamed with a queue of {}; {} x {} plane in shared memory ({} buffer{}); "
      "{} outputs per item, {} items per thread; {}",
      keyword(sp.compute), sp.threads, sp.tileY, sp.tileX, sp.chunkZ, sp.queueLength(),
      sp.planeRows, sp.pitch, sp.buffers, sp.buffers > 1 ? "s" : "", sp.outputsX, sp.itemsPerThread,
      sp.unrolled ? "literal coefficients in straight-line FMAs" : "a coefficient table");
}

} // namespace

void printPlan(const Plan &plan, llvm::raw_ostream &os) {
  if (plan.backend() == BackendKind::Simt) {
    printSimtPlan(plan, os);
    return;
  }
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  os << "plan " << spec.name << "\n";
  os << "  backend    " << keyword(plan.backend()) << " (" << plan.choice << ")\n";
  os << "  stencil    " << spec.dims << "D " << keyword(spec.shape) << " radius " << spec.radius
     << ", " << spec.points() << " points, " << keyword(spec.precision) << "\n";
  os << "  mma        " << tp.mma.name() << " " << keyword(tp.mma.operand) << " x "
     << keyword(tp.mma.operand) << " -> " << keyword(tp.mma.accumulator) << " (mma.sync)\n";
  os << fmt::format("  tile       {} x {} outputs ({} MMA{} across)\n", tp.tileM, tp.tileN,
                    tp.nBlocks, tp.nBlocks == 1 ? "" : "s");
  os << fmt::format("  block      {} x {} tiles ({} x {} outputs), {} warps, "
                    "{} tiles per warp\n",
                    tp.tileRowsPerBlock, tp.tileColsPerBlock, tp.blockRows(), tp.blockCols(),
                    tp.warps,
                    (tp.tileRowsPerBlock * tp.tileColsPerBlock + tp.warps - 1) / tp.warps);
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
  printPrefetch(tp.l2PrefetchBytes, os);
  os << fmt::format("  shared     {} bytes: window {}, parameters {}; the "
                    "accumulators are stored from registers\n",
                    tp.sharedBytes(), tp.windowBytes, tp.paramBytes);
  os << fmt::format("  parameters {} ({} registers per thread for {} "
                    "fragments)\n",
                    tp.paramsInRegisters ? "in registers, loaded once per block"
                                         : "re-read from shared memory per "
                                           "tile",
                    tp.paramFragmentRegisters(), tp.paramFragments());
  os << "  boundary   " << boundaryText(spec) << "\n";
  os << fmt::format("  mmas       {} per tile\n", tp.mmasPerTile());
  for (std::size_t i = 0; i < tp.gemms.size(); ++i) {
    const SliceGemm &g = tp.gemms[i];
    os << fmt::format("  gemm {} {}: {}; {} MMAs\n", i, g.label, gemmShapeText(tp, g),
                      g.chunkCount);
    printMatrix(g.param, "      ", os);
  }
}

std::string summarizePlan(const Plan &plan) {
  if (plan.backend() == BackendKind::Simt) {
    return summarizeSimtPlan(plan);
  }
  const TensorPlan &tp = plan.tensor();
  std::string gemms;
  for (const SliceGemm &g : tp.gemms) {
    gemms += fmt::format("{}{} ({} MMAs)", gemms.empty() ? "" : ", ", g.label, g.chunkCount);
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
