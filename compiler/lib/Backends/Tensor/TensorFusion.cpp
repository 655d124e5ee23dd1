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

/// The tensor cores' NAME_run against the CUDA cores' fused NAME_run,
/// 8192^2, 100 steps, `fixed`. On an H100 in three runs of 2026-11-25
/// (bench/results/2026-11-25-0317-, -0330- and -0345-tcfuse-levels-h100.txt;
/// the first run's figures here) the whole composed pass won for the
/// 16-bit box of radius 1 only (the 16-bit star, tf32 and fp64 lost). On an
/// H200 on 2026-11-29 (bench/variants, the suite's 16-bit shapes,
/// bench/results/2026-11-29-1243-variants-h200.txt) the composed pass of 2
/// steps won for the 16-bit box of radius 2 (3 and 4 steps ran at 619 and
/// 633), and one step a launch for the box of radius 3 (2 steps composed:
/// 414), against the CUDA cores' fused low-rank form; the stars of radius 2
/// and 3 lost (star2d9p fp16 838 composed against 1139, star2d13p fp16 one
/// step 710 against 735). Other boundaries were not measured.
struct TensorRunEntry {
  Shape shape;
  int radius;
  Precision precision;
  MeasuredTensorRun measured;
};
constexpr TensorRunEntry TensorRuns[] = {
    {Shape::Box, 1, Precision::FP16, {4, 1539.2, 1362.6, "an H100"}},
    {Shape::Box, 1, Precision::BF16, {4, 1544.9, 1335.9, "an H100"}},
    {Shape::Box, 2, Precision::FP16, {2, 815.4, 558.6, "an H200"}},
    {Shape::Box, 2, Precision::BF16, {2, 823.2, 561.2, "an H200"}},
    {Shape::Box, 3, Precision::FP16, {1, 576.9, 393.3, "an H200"}},
    {Shape::Box, 3, Precision::BF16, {1, 577.4, 391.4, "an H200"}},
};

} // namespace

const MeasuredTensorRun *measuredTensorRun(const StencilSpec &spec) {
  if (spec.dims != 2 || spec.boundary != BoundaryKind::Fixed) {
    return nullptr;
  }
  for (const TensorRunEntry &e : TensorRuns) {
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

PlanOptions composedPassOptions(const PlanOptions &options) {
  PlanOptions single = options;
  single.fusedSteps = 1;
  const bool asked = options.mma == MmaRequest::Sparse || options.mma == MmaRequest::Stacked;
  single.mma = asked ? options.mma : MmaRequest::Dense;
  return single;
}

void planTensorFusion(Plan &plan, const PlanOptions &options,
                      PlanOrRefusal (*planKernel)(const StencilSpec &, const PlanOptions &)) {
  const StencilSpec &spec = plan.spec;
  const MeasuredTensorRun *measured = measuredTensorRun(spec);
  const int asked = options.fusedSteps == 0 && measured ? measured->steps : options.fusedSteps;
  Schedule &s = plan.schedule = Schedule{};
  // Unasked, one step a launch, except where the whole composed pass
  // measured faster than the CUDA cores' fused kernel: a composed pass
  // rounds differently from single steps, and it measured slower for every
  // other kind tried (docs/performance.md, 2026-11-25 and 2026-11-29).
  if (asked <= 1) {
    s.why =
        options.fusedSteps == 1 ? "--plan-option fuse=1: one launch a step"
        : measured
            ? fmt::format("measured best: one step a launch ran at {:.0f} GStencil/s on {}, "
                          "the CUDA cores' fused run at {:.0f} (TensorFusion.cpp){}",
                          measured->tensorGStencils, measured->device, measured->simtFusedGStencils,
                          plan.tensor().stacked
                              ? "; that step was the dense form's, and the stacked form it "
                                "takes now measured faster than the dense one"
                              : "")
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
  PlanOrRefusal composed = planKernel(composeSteps(spec, steps), composedPassOptions(options));
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
                        "GStencil/s on {}, the CUDA cores' fused run at {:.0f} "
                        "(TensorFusion.cpp)",
                        steps, measured->tensorGStencils, measured->device,
                        measured->simtFusedGStencils);
  } else {
    s.why = fmt::format("--plan-option fuse={}", asked);
  }
}

} // namespace stencilc
