//===- TensorFusion.cpp - Fused steps on tensor cores: the composed pass ----===//
//
// Plans NAME_run's passes for the tensor-core backend (issue 19, item 4):
// T steps as one step of the stencil composed T times (composeSteps), whose
// own tensor-core plan runs every tile, and the band kernel of
// stencilc/device/band.cuh for the points within T·r of an edge.
// docs/design.md, "Fused steps on tensor cores".
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorFusion.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "Backends/Tensor/TensorCompose.h"
#include "Backends/Tensor/TensorPlanner.h"

namespace stencilc {

namespace {

double mmasPerPoint(const TensorPlan &tp) {
  return double(tp.mmasPerTile()) / (double(tp.tileM) * tp.tileN);
}

/// The tensor cores' NAME_run in composed passes with the composed step in
/// the stacked form, against the CUDA cores' fused NAME_run: 8192^2, 100
/// steps, `fixed`, on an H200 on 2026-12-01
/// (bench/results/2026-12-01-1728-composed-stacked-h200.txt, section 2).
/// Every 16-bit 2D suite shape won, the best T the largest whose composed
/// radius T r the stacked form takes (8); the dense composed step lost to
/// the stacked one at every T tried (box2d9p fp16 T = 4: 1545 against
/// 1959). The same T won at every other boundary measured (periodic for
/// every shape; constant, clamp, mirror and reflect for radius 1 and the
/// star of radius 3; section 3), by 1.2 to 2.8 x. (Before the stacked form,
/// on an H100 on 2026-11-25, dense composed passes won for the 16-bit box
/// of radius 1 only; docs/performance.md.) Since 18:40 the band computes
/// only what its stored lines need, and these passes ran 2-8 % faster with
/// `fixed` (bench/results/2026-12-01-1834-composed-band-regions-h200.txt);
/// the figures here are those the choice was made on. NAME_step alone: on
/// an H200 (2026-12-02 04:43) the stars of radius 1 stepped faster on the
/// CUDA cores (fp16 777.5 against 719.4, bf16 770.8 against 725.7), and
/// their plans named --backend=simt for single steps; since the single
/// step runs a block a tile, on an H100 the tensor cores' step ran
/// 1.07-1.10 x the CUDA cores' (docs/performance.md, 2026-12-06
/// 07:20-08:45), and the plans name no other backend. The stars of radius
/// 3 at T 3, a composed radius of 9 (the stacked form's 5 chunks), on an
/// H100 on 2026-12-06: 1.20-1.21 x their T 2 at fixed and constant, 1.17-1.18 x at
/// mirror, the same at periodic, and 1.09 x with the composed step in the
/// persistent grid (bench/results/2026-12-06-0944-*, -0950-*); star2d9p at
/// T 5 (radius 10) ran 0.70 x its T 4.
struct TensorRunEntry {
  Shape shape;
  int radius;
  Precision precision;
  MeasuredTensorRun measured;
};
constexpr TensorRunEntry TensorRuns[] = {
    {Shape::Star, 1, Precision::FP16, {8, 2139.0, 1959.8, "an H200"}},
    {Shape::Star, 1, Precision::BF16, {8, 2140.1, 1928.4, "an H200"}},
    {Shape::Box, 1, Precision::FP16, {8, 2105.5, 1402.7, "an H200"}},
    {Shape::Box, 1, Precision::BF16, {8, 2108.1, 1348.3, "an H200"}},
    {Shape::Star, 2, Precision::FP16, {4, 1285.1, 1151.5, "an H200"}},
    {Shape::Star, 2, Precision::BF16, {4, 1286.3, 1092.7, "an H200"}},
    {Shape::Box, 2, Precision::FP16, {4, 1218.7, 570.7, "an H200"}},
    {Shape::Box, 2, Precision::BF16, {4, 1219.5, 564.7, "an H200"}},
    {Shape::Star, 3, Precision::FP16, {3, 1386.8, 752.6, "an H100"}},
    {Shape::Star, 3, Precision::BF16, {3, 1375.9, 741.2, "an H100"}},
    {Shape::Box, 3, Precision::FP16, {2, 792.8, 433.3, "an H200"}},
    {Shape::Box, 3, Precision::BF16, {2, 795.3, 435.4, "an H200"}},
};

/// The stencil a composed pass's composed step runs: `steps` steps of
/// `spec` composed, and wherever the pass has a band (every rule but
/// periodic) under `fixed` with radius W = steps·r (the halo of W even
/// where the outermost composed weights underflow to 0). Its ring is then
/// W: it stores no point the band stores, so the band runs beside it
/// (stencilc/device/composed.cuh, composedPass), and the 0 it reads
/// outside the grid reaches only ring points.
StencilSpec composedStepSpec(const StencilSpec &spec, int steps) {
  StencilSpec composed = composeSteps(spec, steps);
  if (spec.boundary != BoundaryKind::Periodic) {
    composed.boundary = BoundaryKind::Fixed;
    composed.boundaryValue = 0.0;
    composed.radius = spec.radius * steps;
  }
  return composed;
}

/// The composed pass of `steps` steps whose composed stencil `composed`
/// plans: the band's numbers and the MMA ratio.
ComposedPass composedPass(const Plan &plan, const PlanOptions &options, int steps, Plan composed) {
  // Its MMAs bind a composed pass, not its stores: staged, the passes of
  // the 16-bit stars and boxes of radius 1 and 2 ran 1-2 % slower
  // (docs/performance.md, 2026-12-02 04:24-04:50).
  composed.tensor().stagedStores = false;
  composed.tensor().windowPromotion = stackedWindowPromotion(composed.tensor(), true);
  composed.tensor().persistentGrid =
      stackedPersistentGrid(composed.tensor(), options, composedStepInTiles(plan.spec));
  if (composed.tensor().stacked) {
    composed.tensor().splitAccumulators = StackedComposedSplit;
  }
  ComposedPass pass;
  pass.steps = steps;
  pass.plan = std::make_shared<const Plan>(std::move(composed));
  pass.band = bandKernel(plan.spec, steps, pass.band.tile, plan.target);
  pass.mmaRatio = mmasPerPoint(pass.plan->tensor()) / (steps * mmasPerPoint(plan.tensor()));
  return pass;
}

/// The shared memory a block of either of a pass's kernels uses without
/// opting in (a stacked composed step's shifted windows are held to what
/// it may opt in to: layOutStacked).
int passSharedBytes(const ComposedPass &pass) {
  return std::max(
      {pass.plan->tensor().unoptedSharedBytes(), pass.band.sharedBytes, pass.band.stripBytes});
}

/// The most of `asked` steps a composed pass may take, and in `lowered`
/// why fewer: T·r within the tile's radius, and every composed weight
/// finite as an operand (an infinite one would make every output it
/// reaches inf or NaN, where T single steps may stay finite).
int stepsThatCompose(const StencilSpec &spec, const PlanOptions &options, int asked,
                     std::string &lowered) {
  int steps = asked;
  // Past maxTensorRadius only the stacked form takes the composed stencil.
  const int maxRadius = stackedMmaChosen(spec, composedPassOptions(options))
                            ? StackedMaxRadius
                            : maxTensorRadius(spec.precision);
  if (steps * spec.radius > maxRadius) {
    lowered = fmt::format("{} steps compose into radius {}, beyond {}, the most a {} tile takes",
                          steps, steps * spec.radius, maxRadius, keyword(spec.precision));
    steps = maxRadius / spec.radius;
  }
  for (std::optional<std::string> overflow; steps > 1 && (overflow = composedOverflow(spec, steps));
       --steps) {
    lowered = *std::move(overflow);
  }
  return steps;
}

/// NAME_run's pass of T / 2 steps for its remainder (Schedule::remainder),
/// where T / 2 >= 2 and the composed stencil of T / 2 steps comes out
/// stacked, as T's does, within a block's shared memory. Measured on an
/// H200 at 8192^2 (2026-12-01 21:09): NAME_run of 7 steps at T 8 (a pass
/// of 4 and 3 single steps against 7 single) 1.67-1.80 x as fast, of 3 at
/// T 4 (a pass of 2 and one single) 1.47-1.54 x, the 16-bit stars and
/// boxes of radius 1 and 2 at fixed, constant, mirror and reflect; 100
/// steps at T 8 1.07-1.13 x
/// (bench/results/2026-12-01-2109-composed-remainder-h200.txt).
std::optional<ComposedPass> remainderPass(const Plan &plan, const PlanOptions &options,
                                          PlanKernel planKernel) {
  const int steps = plan.schedule.fusedSteps / 2;
  if (steps < 2 || !plan.schedule.composed->plan->tensor().stacked) {
    return std::nullopt;
  }
  if (composedOverflow(plan.spec, steps)) {
    return std::nullopt;
  }
  PlanOrRefusal composed =
      planKernel(composedStepSpec(plan.spec, steps), composedPassOptions(options));
  if (!composed || !composed->tensor().stacked) {
    return std::nullopt;
  }
  ComposedPass pass = composedPass(plan, options, steps, *std::move(composed));
  if (passSharedBytes(pass) > options.sharedMemoryLimit) {
    return std::nullopt;
  }
  return pass;
}

} // namespace

std::optional<std::string> composedOverflow(const StencilSpec &spec, int steps) {
  for (const Term &t : composeSteps(spec, steps).terms) {
    if (!roundsToFiniteOperand(t.coefficient, spec.precision)) {
      return fmt::format("{} steps compose into a coefficient of {} at offset ({}, {}), which "
                         "overflows {}",
                         steps, formatExact(t.coefficient), t.offset.d[0], t.offset.d[1],
                         keyword(spec.precision));
    }
  }
  return std::nullopt;
}

const MeasuredTensorRun *measuredTensorRun(const StencilSpec &spec) {
  if (spec.dims != 2) {
    return nullptr;
  }
  for (const TensorRunEntry &e : TensorRuns) {
    if (e.shape == spec.shape && e.radius == spec.radius && e.precision == spec.precision) {
      return &e.measured;
    }
  }
  return nullptr;
}

const MeasuredTensorRun *measuredRunOf(const Plan &tensorPlan) {
  const MeasuredTensorRun *measured = measuredTensorRun(tensorPlan.spec);
  const Schedule &s = tensorPlan.schedule;
  return measured && s.fusedSteps == measured->steps && s.composed &&
                 s.composed->plan->tensor().stacked
             ? measured
             : nullptr;
}

// (Declared with its contract in TensorFusion.h.) At 8192^2 on an H100,
// NAME_run of 100 steps with the composed step a block a tile against
// the persistent grid: periodic box2d9p, star2d5p and box2d25p fp16
// 1.23-1.26 x (their composed steps of radius 8 wrap, copied by
// cp.async), periodic star2d13p fp16 0.99 x; under fixed star2d13p fp16
// and bf16 1.08 x at T 2, and star2d5p, star2d9p, box2d9p, box2d25p and
// box2d49p 0.91-0.98 x (docs/performance.md, 2026-12-06 07:20-08:45). At
// T 3 star2d13p's composed step ran 0.92 x so under fixed, 1.20 x at
// periodic (2026-12-06 09:44-09:50).
bool composedStepInTiles(const StencilSpec &spec) {
  return spec.boundary == BoundaryKind::Periodic;
}

PlanOptions composedPassOptions(const PlanOptions &options) {
  PlanOptions single = options;
  single.fusedSteps = 1;
  return single;
}

void planTensorFusion(Plan &plan, const PlanOptions &options, PlanKernel planKernel) {
  const StencilSpec &spec = plan.spec;
  const MeasuredTensorRun *measured = measuredTensorRun(spec);
  const int asked = options.fusedSteps == 0 && measured ? measured->steps : options.fusedSteps;
  Schedule &s = plan.schedule = Schedule{};
  // Unasked, one step a launch, except where the whole composed pass
  // measured faster than the CUDA cores' fused kernel: a composed pass
  // rounds differently from single steps (docs/performance.md, "Fused
  // steps on tensor cores").
  if (asked <= 1) {
    s.why = options.fusedSteps == 1
                ? "--plan-option fuse=1: one launch a step"
                : "the tensor cores fuse steps unasked only where their composed passes "
                  "measured faster than the CUDA cores' fused kernel (TensorFusion.cpp); "
                  "--plan-option fuse=T asks for them";
    return;
  }
  if (spec.dims != 2) {
    s.why = fmt::format("the tensor-core backend fuses 2D stencils only (the composed stencil "
                        "and its edge band are not built for {}D)",
                        spec.dims);
    s.lowered = true;
    return;
  }
  std::string lowered;
  const int steps = stepsThatCompose(spec, options, asked, lowered);
  if (steps <= 1) {
    s.why = lowered;
    s.lowered = options.fusedSteps > 1;
    return;
  }
  PlanOrRefusal composed = planKernel(composedStepSpec(spec, steps), composedPassOptions(options));
  if (!composed) {
    s.why = fmt::format("the stencil composed {} times has no tensor-core plan: {}", steps,
                        composed.reason());
    s.lowered = true;
    return;
  }
  if (options.fusedSteps == 0 && !composed->tensor().stacked) {
    s.why = fmt::format("composed passes of {} steps measured faster than the CUDA cores' fused "
                        "run ({:.0f} against {:.0f} GStencil/s on {}) with the composed step in "
                        "the stacked form, which the options rule out here: one step a launch "
                        "unless --plan-option fuse=T asks",
                        steps, measured->tensorGStencils, measured->simtFusedGStencils,
                        measured->device);
    return;
  }
  const ComposedPass pass = composedPass(plan, options, steps, *std::move(composed));
  const int needed = passSharedBytes(pass);
  if (needed > options.sharedMemoryLimit) {
    s.why = fmt::format("a pass of {} steps needs {} bytes of shared memory in one block, and a "
                        "block may use {}",
                        steps, needed, options.sharedMemoryLimit);
    s.lowered = true;
    return;
  }
  s.fusedSteps = steps;
  s.composed = pass;
  s.remainder = remainderPass(plan, options, planKernel);
  s.lowered = options.fusedSteps > 1 && steps < options.fusedSteps;
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
