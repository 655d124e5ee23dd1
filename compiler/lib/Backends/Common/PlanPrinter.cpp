//===- PlanPrinter.cpp - The `--emit=plan` text of a Plan ------------------===//
//
// The frame both backends' texts share (the plan, backend and stencil lines)
// and the lines they both print; each room writes the rest
// (Tensor/TensorPlanPrinter.cpp, Simt/SimtPlanPrinter.cpp).
//
//===----------------------------------------------------------------------===//
#include "Backends/Common/PlanText.h"

#include "Backends/Common/EmitterParts.h"

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "stencilc/Plan.h"

namespace stencilc {

void printPrefetch(int bytes, llvm::raw_ostream &os) {
  if (bytes) {
    os << fmt::format("  prefetch   each 16-byte read of the input asks the L2 to fetch the {} "
                      "bytes around it from memory\n",
                      bytes);
  }
}

namespace {

/// The fused kernel's lines of a 2D plan: warp strips, registers.
void printFused2D(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  os << fmt::format("  fused      {} threads ({} warps, a strip each); strips of {} columns, {} "
                    "stored: a halo of {} columns each side (T x r = {}, whole {}-byte accesses); "
                    "{} output rows per block, {} rows a level at a time; geometry {}\n",
                    k.threads, k.threads / 32, k.width, k.storedColumns(), k.halo,
                    s.fusedSteps * spec.radius, k.accessBytes, k.chunkRows, k.batch, k.source);
  os << fmt::format("  fused work {:.1f} % of the point-levels computed are redundant (the halo "
                    "columns, and the rows beside a block's own that each level recomputes); no "
                    "shared memory: each thread keeps T windows of {} rows by {} {} columns in "
                    "registers, {} blocks per multiprocessor asked of the register allocator\n",
                    100.0 * k.redundantShare, k.batch + 2 * spec.radius,
                    k.columnsPerThread() + 2 * spec.radius, elementTypeName(spec.precision),
                    k.minBlocks);
}

/// The fused kernel's lines of a 1D plan: segments in shared memory.
void printFused1D(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  os << fmt::format("  fused      {} threads; segments of {} points, {} stored: a halo of {} "
                    "points each side (T x r = {}, whole 16-byte vectors); geometry {}\n",
                    k.threads, k.width, k.storedColumns(), k.halo, s.fusedSteps * spec.radius,
                    k.source);
  os << fmt::format("  fused work {:.1f} % of the point-levels computed are redundant (the halo "
                    "points); shared memory {} bytes (two buffers of the segment, levels "
                    "ping-ponging); registers: {} {} a point read per level\n",
                    100.0 * k.redundantShare, k.sharedBytes, 2 * spec.radius + 1,
                    elementTypeName(spec.precision));
}

/// The fused kernel's lines of a 3D plan: windows streamed along z, each
/// thread's points of every level in registers, edge rows in shared memory.
void printFused3D(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  const int r = spec.radius;
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int cols = k.accessBytes / bytes;
  os << fmt::format("  fused      {} threads; windows of {} x {} (rows x columns), {} x {} stored: "
                    "a halo of {} rows and {} columns each side (T x r = {}, columns in whole "
                    "threads' accesses); {} output planes per block streamed along z; geometry "
                    "{}\n",
                    k.threads, k.height, k.width, k.storedRows(), k.storedColumns(), k.haloY,
                    k.halo, s.fusedSteps * r, k.chunkRows, k.source);
  os << fmt::format("  fused work {:.1f} % of the point-levels computed are redundant (the halo, "
                    "and the planes a block streams beside its own); shared memory {} bytes (the "
                    "levels' rings of edge rows); registers: each thread keeps its {} x {} (rows x "
                    "columns) {} points of every level and plane still read\n",
                    100.0 * k.redundantShare, k.sharedBytes, k.rows, cols,
                    elementTypeName(spec.precision));
}

/// The schedule's lines: how NAME_run maps its steps onto launches, and the
/// fused kernel's tile, halo, redundant work and budgets.
void printSchedule(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  if (s.fusedSteps == 1) {
    os << fmt::format("  run        {}_run launches one step at a time{}\n", spec.name,
                      s.why.empty() ? "" : ": " + s.why);
    return;
  }
  if (s.composed) {
    printComposedSchedule(plan, os);
    return;
  }
  os << fmt::format("  run        {} steps fused a pass of {}_run ({}); {}_step is one step\n",
                    s.fusedSteps, spec.name, s.why, spec.name);
  switch (spec.dims) {
  case 1:
    printFused1D(plan, os);
    break;
  case 2:
    printFused2D(plan, os);
    break;
  default:
    printFused3D(plan, os);
    break;
  }
}

} // namespace

void printPlan(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  os << "plan " << spec.name << "\n";
  os << "  backend    " << keyword(plan.backend()) << " (" << plan.choice << ")\n";
  os << "  stencil    " << spec.dims << "D " << keyword(spec.shape) << " radius " << spec.radius
     << ", "
     << (spec.hasFields()
             ? fmt::format("{} fields, {} terms", spec.fields.size(), spec.fieldTerms.size())
             : fmt::format("{} points", spec.points()))
     << ", " << keyword(spec.precision) << "\n";
  if (plan.backend() == BackendKind::Simt) {
    printSimtPlanBody(plan, os);
  } else {
    printTensorPlanBody(plan, os);
  }
  printSchedule(plan, os);
}

std::string summarizePlan(const Plan &plan) {
  const std::string kernel =
      plan.backend() == BackendKind::Simt ? summarizeSimtPlan(plan) : summarizeTensorPlan(plan);
  if (plan.schedule.fusedSteps == 1) {
    return kernel;
  }
  if (plan.schedule.composed) {
    return kernel + "; " + summarizeComposedSchedule(plan);
  }
  const FusedKernel &k = plan.schedule.fused;
  const std::string geometry =
      plan.spec.dims == 1 ? fmt::format("segments of {} points with a halo of {}", k.width, k.halo)
      : plan.spec.dims == 2 ? fmt::format("warp strips of {} columns with a halo of {}, {} rows "
                                          "per block",
                                          k.width, k.halo, k.chunkRows)
                            : fmt::format("windows of {} x {} with halos of {} rows and {} "
                                          "columns, {} planes per block",
                                          k.height, k.width, k.haloY, k.halo, k.chunkRows);
  return fmt::format("{}; NAME_run fuses {} steps a pass (stencilc/device/{}.cuh: {})", kernel,
                     plan.schedule.fusedSteps, fusedKernelNamespace(plan.spec.dims), geometry);
}

} // namespace stencilc
