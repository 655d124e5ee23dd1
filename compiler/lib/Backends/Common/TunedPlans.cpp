//===- TunedPlans.cpp - Plan parameters the --tune sweep measured best ----===//
#include "Backends/Common/TunedPlans.h"

#include <iterator>

#include <fmt/format.h>

namespace stencilc {

namespace {

using namespace table;

const TunedPlan Table[] = {
#include "TunedPlans.inc"
    // A sentinel, never matched (dims 0), so that an empty table compiles.
    {},
};

} // namespace

const TunedPlan *findTuned(llvm::ArrayRef<TunedPlan> table, const StencilSpec &spec, Arch arch,
                           BackendKind backend,
                           llvm::function_ref<bool(const TunedPlan &)> sameKernelOn) {
  const TunedPlan *elsewhere = nullptr;
  for (const TunedPlan &t : table) {
    if (t.shape != spec.shape || t.dims != spec.dims || t.radius != spec.radius ||
        t.precision != spec.precision || t.backend != backend) {
      continue;
    }
    if (t.arch == arch) {
      return &t;
    }
    if (!elsewhere && sameKernelOn && sameKernelOn(t)) {
      elsewhere = &t;
    }
  }
  return elsewhere;
}

llvm::ArrayRef<TunedPlan> tunedPlans() { return Table; }

void applyTuned(const TunedPlan &tuned, PlanOptions &options) {
  // TunedPlan's option fields are PlanOptions.def's, in its order.
  const int fields[] = {
#define STENCILC_PLAN_OPTION(Field, Name, Backends, Min, Max, MultipleOf, PowerOfTwo, Help)        \
  tuned.Field,
#include "stencilc/PlanOptions.def"
  };
  for (std::size_t i = 0; i < std::size(PlanOptionTable); ++i) {
    const PlanOptionInfo &option = PlanOptionTable[i];
    int &field = options.*option.field;
    if (option.appliesTo(tuned.backend) && field == 0) {
      field = fields[i];
    }
  }
}

std::string tunedChoice(const TunedPlan &tuned, Arch arch) {
  return fmt::format("; block from the --tune sweep{} (TunedPlans.inc: {:.0f} GStencil/s)",
                     tuned.arch == arch ? std::string()
                                        : fmt::format(" on {}, whose kernel for this stencil "
                                                      "is the same",
                                                      keyword(tuned.arch)),
                     tuned.gstencils);
}

} // namespace stencilc
