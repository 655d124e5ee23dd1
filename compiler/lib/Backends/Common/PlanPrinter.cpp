//===- PlanPrinter.cpp - The `--emit=plan` text of a Plan ------------------===//
//
// The frame both backends' texts share (the plan, backend and stencil lines)
// and the lines they both print; each room writes the rest
// (Tensor/TensorPlanPrinter.cpp, Simt/SimtPlanPrinter.cpp).
//
//===----------------------------------------------------------------------===//
#include "Backends/Common/Backend.h"
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

/// The schedule's lines: how NAME_run maps its steps onto launches, and the
/// fused kernel's tile, halo, redundant work and budgets.
void printSchedule(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  if (s.fusedSteps == 1) {
    os << fmt::format("  run        {}_run launches one step at a time{}{}{}\n", spec.name,
                      s.why.empty() ? "" : ": " + s.why,
                      spec.hasPerStepParams()
                          ? "; each launch takes its step's values of the per-step parameters, "
                            "its coefficients folded on the host"
                          : "",
                      spec.recordsReceivers
                          ? "; after each step a launch gathers the receivers' values into that "
                            "step's row of the records (one launch more a step)"
                          : "");
    return;
  }
  backendFor(plan).printFusedSchedule(plan, os);
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
  backendFor(plan).printPlanBody(plan, os);
  printSchedule(plan, os);
}

} // namespace stencilc
