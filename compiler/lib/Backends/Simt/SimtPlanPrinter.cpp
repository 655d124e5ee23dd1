//===- SimtPlanPrinter.cpp - The CUDA-core part of `--emit=plan` -----------===//
//
// The lines of a simt plan after the frame (Common/PlanPrinter.cpp):
// arithmetic, block, streaming, halo, plane buffers and the slices; and the
// plan in one paragraph.
//
//===----------------------------------------------------------------------===//
#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/PlanText.h"
#include "Backends/Simt/SimtCodeGen.h"
#include "Backends/Simt/SimtEmulator.h"
#include "stencilc/Plan.h"

namespace stencilc {

namespace {

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

/// A read of the low-rank form in --emit=plan: "pass 0", "x+1" (2D), or
/// "value 0", "pass 0 y-1", "y-1 x+1" (3D).
std::string lowRankSource(const LowRankForm &f, int plane, int row, int pass, int dx) {
  if (f.dims == 2) {
    return pass >= 0 ? fmt::format("pass {}", pass) : fmt::format("x{:+}", dx);
  }
  if (plane >= 0) {
    return fmt::format("value {}", plane);
  }
  return pass >= 0 ? fmt::format("pass {} y{:+}", pass, row) : fmt::format("y{:+} x{:+}", row, dx);
}

/// The form's row passes and (3D) plane values, a line each.
void printLowRankPasses(const LowRankForm &f, llvm::raw_ostream &os) {
  for (int pass = 0; pass < f.passes; ++pass) {
    std::string taps;
    for (const LowRankRowTap &t : f.rowTaps) {
      if (t.pass == pass) {
        taps += fmt::format("{}({}) {}", taps.empty() ? "" : ", ", t.dx, formatExact(t.weight));
      }
    }
    os << fmt::format("  row pass {} an intermediate a row, along x (dx) weight: {}{}\n", pass,
                      taps,
                      f.dims == 3 ? "; once a row of the plane window, in shared memory" : "");
  }
  for (int value = 0; value < f.planeValues; ++value) {
    std::string taps;
    for (const LowRankPlaneTap &t : f.planeTaps) {
      if (t.plane == value) {
        taps += fmt::format("{}({}) {}", taps.empty() ? "" : ", ",
                            lowRankSource(f, -1, t.dy, t.pass, t.dx), formatExact(t.coefficient));
      }
    }
    os << fmt::format("  plane value {} a point of each plane, from 0 (source) c: {}\n", value,
                      taps);
  }
}

/// The plan's low-rank lines: the operations a point of both forms (and
/// what a thread executes), which the kernels use and why, and the form's
/// passes where it is used.
void printLowRankLines(const SimtPlan &sp, llvm::raw_ostream &os) {
  const LowRankChoice &c = sp.lowRank;
  const std::string passes = c.decomposedOps < c.directOps || c.form
                                 ? std::to_string(c.form ? c.form->ops() : c.decomposedOps)
                                 : std::string("no fewer");
  const std::string executed =
      c.form && c.form->dims == 3
          ? fmt::format(" (a thread executes {:.4g}: the row passes of {} rows for {})",
                        c.form->executedOps(sp.planeRows, sp.tileY), sp.planeRows, sp.tileY)
          : std::string();
  os << fmt::format("  lowrank    {}: operations a point: direct {}, as 1D passes {}{}; {}\n",
                    c.form ? "used" : "direct form", c.directOps, passes, executed, c.why);
  if (!c.form) {
    return;
  }
  const LowRankForm &f = *c.form;
  printLowRankPasses(f, os);
  std::string terms;
  for (const LowRankTerm &t : f.terms) {
    terms +=
        fmt::format("{}({}, {}) {}", terms.empty() ? "" : ", ", t.dy,
                    lowRankSource(f, t.plane, t.row, t.pass, t.dx), formatExact(t.coefficient));
  }
  os << fmt::format("  along {}    {} multiply-adds from 0 ({}, source) c: {}; rounds otherwise "
                    "than the direct form (docs/generated-code.md, \"Low-rank form\")\n",
                    f.dims == 2 ? 'y' : 'z', f.terms.size(), f.dims == 2 ? "dy" : "dz",
                    f.terms.size() <= 64 ? terms : std::string("(many)"));
  if (f.paired) {
    // A point of a run of n taps has (n + 1) / 2 blocks on average over the
    // two parities, and a pair's sum serves two points: a row pass takes
    // (n + 1) / 2 - 1 + 1 / 2 additions, the rows (n + 1) / 2 multiply-adds
    // and half an addition; the terms at the point stay as they are.
    const PairedRuns runs = *pairedRuns(f);
    const int nx = runs.hiX - runs.loX + 1, ny = runs.hiY - runs.loY + 1;
    os << fmt::format(
        "  paired     the row pass adds its columns, and each point its rows' passes, in "
        "pairs of an even index of the grid and the next (neighbours share them): a point "
        "takes {:g} additions and {:g} multiply-adds instead of {} and {} "
        "(docs/generated-code.md, \"Paired sums\")\n",
        nx / 2.0 + 0.5, (ny + 1) / 2.0 + runs.atPoint.size(), nx - 1, f.terms.size());
  }
}

} // namespace

void printSimtPlanBody(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  if (spec.hasFields()) {
    printFieldsPlanBody(plan, os); // FieldsPlanner.cpp
    return;
  }
  const SimtPlan &sp = plan.simt();
  if (sp.packed) {
    os << fmt::format("  arithmetic packed {0} FMAs (__hfma2) on two adjacent outputs, every "
                      "operation rounded to {0} (arith=packed), {1} element loads\n",
                      keyword(spec.precision), elementTypeName(spec.precision));
  } else {
    os << fmt::format("  arithmetic {} FMAs ({}), {} element loads\n", keyword(sp.compute),
                      sp.compute == Precision::FP64 ? "__fma_rn" : "__fmaf_rn",
                      elementTypeName(spec.precision));
  }
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
  os << "  boundary   " << boundaryPlanText(spec) << "\n";
  os << fmt::format("  slices     {} ({}), {}\n", sp.slices.size(),
                    sp.unrolled ? "straight-line FMAs with literal coefficients"
                                : "loops over a coefficient table",
                    sp.scaled.on()
                        ? fmt::format("coefficients the integers over {}", sp.scaled.denominator)
                        : fmt::format("coefficients rounded once to {}",
                                      keyword(sp.packed ? spec.precision : sp.compute)));
  if (!sp.scaled.why.empty()) {
    os << "  scale      coefficients " << sp.scaled.why << "\n";
  }
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
  if (spec.dims >= 2) {
    printLowRankLines(sp, os);
  }
}

std::string summarizeSimtPlan(const Plan &plan) {
  if (plan.spec.hasFields()) {
    return summarizeFieldsPlan(plan);
  }
  const SimtPlan &sp = plan.simt();
  return fmt::format(
      "simt backend, {} arithmetic; {} threads, {} x {} outputs per plane, up to {} planes "
      "per block streamed with a queue of {}; {} x {} plane in shared memory ({} buffer{}); "
      "{} outputs per item, {} items per thread; {}",
      keyword(sp.compute), sp.threads, sp.tileY, sp.tileX, sp.chunkZ, sp.queueLength(),
      sp.planeRows, sp.pitch, sp.buffers, sp.buffers > 1 ? "s" : "", sp.outputsX, sp.itemsPerThread,
      sp.lowRank.form
          ? fmt::format("the low-rank form: {} row pass{} along x, then the "
                        "multiply-adds along {}, {} operations a point instead of {}",
                        sp.lowRank.form->passes, sp.lowRank.form->passes == 1 ? "" : "es",
                        sp.lowRank.form->dims == 2 ? "y" : "y and z", sp.lowRank.form->ops(),
                        sp.lowRank.directOps)
      : sp.unrolled ? "literal coefficients in straight-line FMAs"
                    : "a coefficient table");
}

} // namespace stencilc
