//===- TunedPlans.h - Plan parameters the --tune sweep measured best -*- C++ -*-===//
//
// scripts/tune.sh runs, on a GPU, every suite stencil with a grid of
// --plan-option variants and writes the fastest variant per stencil kind
// and backend into compiler/lib/Backends/Common/TunedPlans.inc. The planners take
// those parameters where the caller left a choice open (0 in the options);
// an explicit option always wins.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include "Backends/Common/TableNames.h"
#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// The best measured parameters for one stencil kind on one architecture and
/// backend: one field per --plan-option, in PlanOptions.def's order (a
/// backend's entry leaves the other backend's at 0); 0 leaves a parameter to
/// the planner.
struct TunedPlan {
  table::ArchName arch;
  Shape shape;
  int dims;
  int radius;
  Precision precision;
  BackendKind backend;
#define STENCILC_PLAN_OPTION(Field, Name, Backends, Min, Max, MultipleOf, PowerOfTwo, Help)        \
  int Field;
#include "stencilc/PlanOptions.def"
  double gstencils; ///< what it measured
};

/// The entry of `table` for this shape, dims, radius, precision and
/// backend on `arch`; failing that, one measured on another architecture
/// for which `sameKernelOn(entry)` says the planner builds the same kernel
/// with it on `arch` (so the measurement is of the code `arch` gets); else
/// null.
const TunedPlan *findTuned(llvm::ArrayRef<TunedPlan> table, const StencilSpec &spec, Arch arch,
                           BackendKind backend,
                           llvm::function_ref<bool(const TunedPlan &)> sameKernelOn = nullptr);

/// The built-in table (TunedPlans.inc).
llvm::ArrayRef<TunedPlan> tunedPlans();

/// Sets the parameters of `tuned`'s backend that `options` leaves open (0)
/// from `tuned`.
void applyTuned(const TunedPlan &tuned, PlanOptions &options);

/// What a plan for `arch` built from `tuned` adds to its `choice`.
std::string tunedChoice(const TunedPlan &tuned, Arch arch);

/// `planWith(options)`, or with `tuned` (if any) filling what `options`
/// leaves open, the plan's choice then saying so.
template <typename PlanWith>
Plan planTuned(const TunedPlan *tuned, const PlanOptions &options, PlanWith planWith) {
  if (!tuned) {
    return planWith(options);
  }
  PlanOptions withTuned = options;
  applyTuned(*tuned, withTuned);
  Plan plan = planWith(withTuned);
  plan.choice += tunedChoice(*tuned, options.target);
  return plan;
}

} // namespace stencilc
