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

/// The whole composed pass (band included) against the CUDA cores' fused
/// NAME_run, 8192^2, 100 steps, `fixed`, on an H100 in three runs of
/// 2026-11-25 (bench/results/2026-11-25-0317-, -0330- and
/// -0345-tcfuse-levels-h100.txt; the first run's figures here). Only the
/// 16-bit box of radius 1 won; every other kind measured (the 16-bit star,
/// tf32 and fp64) lost. Other boundaries were not measured.
struct CompositionEntry {
  Shape shape;
  int radius;
  Precision precision;
  MeasuredComposition measured;
};
constexpr CompositionEntry Compositions[] = {
    {Shape::Box, 1, Precision::FP16, {4, 1539.2, 1362.6}},
    {Shape::Box, 1, Precision::BF16, {4, 1544.9, 1335.9}},
};

} // namespace

const MeasuredComposition *measuredComposition(const StencilSpec &spec) {
  if (spec.dims != 2 || spec.boundary != BoundaryKind::Fixed) {
    return nullptr;
  }
  for (const CompositionEntry &e : Compositions) {
    if (e.shape == spec.shape && e.radius == spec.radius && e.precision == spec.precision) {
      return &e.measured;
    }
  }
  return nullptr;
}

int bandSharedBytes(const StencilSpec &spec, int steps, int tile) {
  const int side = tile + 2 * steps * spec.radius;
  return 2 * side * side * (spec.precision == Precision::FP64 ? 8 : 4);
}

void planTensorFusion(Plan &plan, const PlanOptions &options,
                      PlanOrRefusal (*planKernel)(const StencilSpec &, const PlanOptions &)) {
  const StencilSpec &spec = plan.spec;
  const MeasuredComposition *measured = measuredComposition(spec);
  const int asked = options.fusedSteps == 0 && measured ? measured->steps : options.fusedSteps;
  Schedule &s = plan.schedule = Schedule{};
  // Unasked, one step a launch, except where the whole composed pass
  // measured faster than the CUDA cores' fused kernel: a composed pass
  // rounds differently from single steps, and it measured slower for every
  // other kind tried (docs/performance.md, 2026-11-25).
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
  if (!lowered.empty()) {
    s.why = lowered;
  } else if (options.fusedSteps == 0) {
    s.why = fmt::format("measured best: the whole composed pass of {} steps ran at {:.0f} "
                        "GStencil/s on an H100, the CUDA cores' fused run at {:.0f} "
                        "(TensorFusion.cpp)",
                        steps, measured->composedGStencils, measured->simtFusedGStencils);
  } else {
    s.why = fmt::format("--plan-option fuse={}", asked);
  }
}

} // namespace stencilc
