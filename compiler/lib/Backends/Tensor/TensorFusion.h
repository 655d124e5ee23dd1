//===- TensorFusion.h - Fused steps on tensor cores --------------*- C++ -*-===//
//
// The schedule of a tensor-core plan: how many steps NAME_run fuses a pass
// (the composed stencil and its edge band; docs/design.md, "Fused steps on
// tensor cores").
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

#include "Backends/Common/Band.h"
#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"

namespace stencilc {

/// A kind whose tensor-core NAME_run measured faster than the CUDA cores'
/// fused NAME_run on a GPU: composed passes of T steps (band included) with
/// the composed step in the stacked form, both figures and the GPU, as the
/// plan names them.
struct MeasuredTensorRun {
  int steps;
  double tensorGStencils;
  double simtFusedGStencils;
  const char *device;
};

/// The measurement of `spec`'s kind where its tensor-core NAME_run won, or
/// null.
const MeasuredTensorRun *measuredTensorRun(const StencilSpec &spec);

/// The measurement of `tensorPlan`'s kind where its NAME_run is what was
/// measured (composed passes of the measured T, the composed step stacked),
/// or null.
const MeasuredTensorRun *measuredRunOf(const Plan &tensorPlan);

/// Whether a composed pass's step of `spec` (the stencil stepped) runs a
/// block a block tile where --plan-option grid leaves it to the planner
/// (stackedPersistentGrid's `tilesFaster`): on a periodic grid, whose
/// composed step wraps (the one case measured faster so).
bool composedStepInTiles(const StencilSpec &spec);

/// The options a composed pass's kernel is planned with: one step, the MMA
/// form as asked. (Its kernel is the composed stencil's own step, which
/// composed.cuh launches before the band; under mma=auto the stacked form
/// wherever it is open, as for single steps: the composed passes measured
/// faster in it at every T tried, TensorFusion.cpp.)
PlanOptions composedPassOptions(const PlanOptions &options);

/// Where a coefficient of `spec` composed `steps` times rounds to infinity
/// as the tensor cores' operand (fp16 past 65504), which coefficient: a
/// composed pass would multiply by it (its weights grow with T, where a
/// step's rounding to 16 bits between steps would not); else nothing.
std::optional<std::string> composedOverflow(const StencilSpec &spec, int steps);

/// A backend's planner of one kernel (the composed stencil's step).
using PlanKernel = PlanOrRefusal (*)(const StencilSpec &, const PlanOptions &);

/// Fills plan.schedule for `options.fusedSteps` (0, not asked: the T of
/// measuredTensorRun where the composed step comes out stacked as measured,
/// else one step a launch): T and the composed stencil's plan (made by
/// `planKernel` with fuse=1), or T = 1 with the reason; fewer steps where
/// the composed radius T·r passes maxTensorRadius or a composed
/// coefficient overflows (composedOverflow), asked or not, and one step a
/// launch where a block's shared memory is short; `lowered` where that is
/// fewer than asked.
void planTensorFusion(Plan &plan, const PlanOptions &options, PlanKernel planKernel);

} // namespace stencilc
