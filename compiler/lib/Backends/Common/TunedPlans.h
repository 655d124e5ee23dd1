//===- TunedPlans.h - Plan parameters the --tune sweep measured best -*- C++
//-*-===//
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

#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Tensor/TensorPlanner.h"
#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// The best measured parameters for one stencil kind on one architecture and
/// backend; 0 leaves a parameter to the planner.
struct TunedPlan {
  std::string_view arch;
  Shape shape;
  int dims;
  int radius;
  Precision precision;
  BackendKind backend;
  int tileRows, tileCols, warps, nBlocks;    ///< tensor
  int threads, tileX, tileY, chunkZ, stages; ///< simt
  int l2Prefetch;                            ///< both
  double gstencils;                          ///< what it measured
};

/// The entry of `table` for this shape, dims, radius, precision and
/// backend on `arch`; failing that, one measured on another architecture
/// for which `sameKernelOn(entry)` says the planner builds the same kernel
/// with it on `arch` (so the measurement is of the code `arch` gets); else
/// null.
const TunedPlan *findTuned(llvm::ArrayRef<TunedPlan> table, const StencilSpec &spec,
                           std::string_view arch, BackendKind backend,
                           llvm::function_ref<bool(const TunedPlan &)> sameKernelOn = nullptr);

/// The built-in table (TunedPlans.inc).
llvm::ArrayRef<TunedPlan> tunedPlans();

/// Sets the tensor-core parameters `options` leaves open (0) from `tuned`.
void applyTuned(const TunedPlan &tuned, PlannerOptions &options);
/// Sets the CUDA-core parameters `simt` leaves open (0) from `tuned`.
void applyTuned(const TunedPlan &tuned, SimtOptions &simt);

/// What a plan for `arch` built from `tuned` adds to its `choice`.
std::string tunedChoice(const TunedPlan &tuned, std::string_view arch);

/// `planWith(options)`, or with `tuned` (if any) filling what `options`
/// leaves open, the plan's choice then saying so.
template <typename Options, typename PlanWith>
Plan planTuned(const TunedPlan *tuned, const Options &options, std::string_view arch,
               PlanWith planWith) {
  if (!tuned) {
    return planWith(options);
  }
  Options withTuned = options;
  applyTuned(*tuned, withTuned);
  Plan plan = planWith(withTuned);
  plan.choice += tunedChoice(*tuned, arch);
  return plan;
}

} // namespace stencilc
