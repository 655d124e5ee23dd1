//===- PlanPrinter.cpp - The `--emit=plan` text of a Plan ------------------===//
//
// The frame both backends' texts share (the plan, backend and stencil lines)
// and the lines they both print; each room writes the rest
// (Tensor/TensorPlanPrinter.cpp, Simt/SimtPlanPrinter.cpp).
//
//===----------------------------------------------------------------------===//
#include "Backends/Common/PlanText.h"

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "stencilc/Plan.h"

namespace stencilc {

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

void printPrefetch(int bytes, llvm::raw_ostream &os) {
  if (bytes) {
    os << fmt::format("  prefetch   each 16-byte read of the input asks the L2 to fetch the {} "
                      "bytes around it from memory\n",
                      bytes);
  }
}

namespace {

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
  const FusedKernel &k = s.fused;
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  os << fmt::format("  run        {} steps fused a pass of {}_run ({}); {}_step is one step\n",
                    s.fusedSteps, spec.name, s.why, spec.name);
  os << fmt::format("  fused      {} threads; strips of {} columns, {} stored: a halo of {} "
                    "columns each side (T x r = {}, whole 16-byte vectors of {}); {} output rows "
                    "per block, {} rows a level at a time\n",
                    k.threads, k.width, k.storedColumns(), k.halo, s.fusedSteps * spec.radius,
                    16 / bytes, k.chunkRows, k.batch);
  os << fmt::format("  fused work {:.1f} % of the point-levels computed are redundant (the halo "
                    "columns, and the rows beside a block's own that each level recomputes); "
                    "shared memory {} rings of {} x {} {}: {} bytes{}; {} 16-byte loads staged "
                    "in registers per thread and batch\n",
                    100.0 * k.redundantShare, s.fusedSteps, k.batch + 2 * spec.radius, k.width,
                    elementTypeName(spec.precision), k.sharedBytes,
                    k.sharedBytes > StaticSharedMemoryBytes
                        ? " (dynamic: past the 48 KiB a block declares statically)"
                        : "",
                    k.groupsPerThread);
}

} // namespace

void printPlan(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  os << "plan " << spec.name << "\n";
  os << "  backend    " << keyword(plan.backend()) << " (" << plan.choice << ")\n";
  os << "  stencil    " << spec.dims << "D " << keyword(spec.shape) << " radius " << spec.radius
     << ", " << spec.points() << " points, " << keyword(spec.precision) << "\n";
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
  const FusedKernel &k = plan.schedule.fused;
  return fmt::format("{}; NAME_run fuses {} steps a pass (stencilc/device/fused.cuh: strips of {} "
                     "columns with a halo of {}, {} rows per block)",
                     kernel, plan.schedule.fusedSteps, k.width, k.halo, k.chunkRows);
}

} // namespace stencilc
