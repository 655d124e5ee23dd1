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
  case BoundaryKind::Clamp:
    return "clamp: reads outside the grid give the nearest edge point; every "
           "point is written";
  case BoundaryKind::Mirror:
    return "mirror: reads outside the grid reflect about the edge, the edge "
           "point repeated; every point is written";
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
}

std::string summarizePlan(const Plan &plan) {
  return plan.backend() == BackendKind::Simt ? summarizeSimtPlan(plan) : summarizeTensorPlan(plan);
}

} // namespace stencilc
