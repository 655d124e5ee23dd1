//===- TensorFusion.cpp - Fused steps on tensor cores: the composed pass ----===//
//
// Plans NAME_run's passes for the tensor-core backend (issue 19, item 4):
// T steps as one step of the stencil composed T times (composeSteps), whose
// own tensor-core plan runs every tile, and the band kernel of
// stencilc/device/composed.cuh for the points within T·r of an edge.
// docs/design.md, "Fused steps on tensor cores".
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorFusion.h"

#include <fmt/format.h>

#include "Backends/Tensor/TensorCompose.h"
#include "Backends/Tensor/TensorPlanner.h"

namespace stencilc {

namespace {

double mmasPerPoint(const TensorPlan &tp) {
  return double(tp.mmasPerTile()) / (double(tp.tileM) * tp.tileN);
}

} // namespace

int bandSharedBytes(const StencilSpec &spec, int steps, int tile) {
  const int side = tile + 2 * steps * spec.radius;
  return 2 * side * side * (spec.precision == Precision::FP64 ? 8 : 4);
}

void planTensorFusion(Plan &plan, const PlanOptions &options,
                      PlanOrRefusal (*planKernel)(const StencilSpec &, const PlanOptions &)) {
  const StencilSpec &spec = plan.spec;
  const int asked = options.fusedSteps;
  Schedule &s = plan.schedule = Schedule{};
  // Unasked, one step a launch: a composed pass rounds differently from
  // single steps, and it measured slower than the CUDA cores' fused kernel
  // for every kind tried (docs/performance.md, 2026-11-25).
  if (asked <= 1) {
    s.why = asked == 1 ? "--plan-option fuse=1: one launch a step"
                       : "the tensor cores fuse steps only when asked (--plan-option fuse=T): "
                         "their composed passes measured slower than the CUDA cores' fused kernel";
    return;
  }
  if (spec.dims != 2) {
    s.why = fmt::format("the tensor-core backend fuses 2D stencils only (the composed stencil "
                        "and its edge band are not built for {}D)",
                        spec.dims);
    s.lowered = true;
    return;
  }
  int steps = asked;
  const int maxRadius = maxTensorRadius(spec.precision);
  std::string lowered;
  if (steps * spec.radius > maxRadius) {
    lowered = fmt::format("{} steps compose into radius {}, beyond {}, the most a {} tile takes",
                          steps, steps * spec.radius, maxRadius, keyword(spec.precision));
    steps = maxRadius / spec.radius;
  }
  if (steps <= 1) {
    s.why = lowered;
    s.lowered = true;
    return;
  }
  ComposedPass pass;
  PlanOptions single = options;
  single.fusedSteps = 1;
  PlanOrRefusal composed = planKernel(composeSteps(spec, steps), single);
  if (!composed) {
    s.why = fmt::format("the stencil composed {} times has no tensor-core plan: {}", steps,
                        composed.reason());
    s.lowered = true;
    return;
  }
  pass.plan = std::make_shared<const Plan>(*std::move(composed));
  pass.bandSharedBytes = bandSharedBytes(spec, steps, pass.bandTile);
  const int needed = std::max(pass.plan->tensor().sharedBytes(), pass.bandSharedBytes);
  if (needed > options.sharedMemoryLimit) {
    s.why = fmt::format("a pass of {} steps needs {} bytes of shared memory in one block, and a "
                        "block may use {}",
                        steps, needed, options.sharedMemoryLimit);
    s.lowered = true;
    return;
  }
  s.fusedSteps = steps;
  s.composed = pass;
  s.composed->mmaRatio = mmasPerPoint(pass.plan->tensor()) / (steps * mmasPerPoint(plan.tensor()));
  s.lowered = !lowered.empty();
  s.why = !lowered.empty() ? lowered : fmt::format("--plan-option fuse={}", asked);
}

} // namespace stencilc
