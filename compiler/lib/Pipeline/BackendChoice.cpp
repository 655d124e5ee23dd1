//===- BackendChoice.cpp - What `--backend=auto` picks, and why -------------===//
//
// The tensor-core path takes only what planTensor() can plan; for
// those stencils the choice between it and the simt path comes from
// measurements (BackendTable.inc, written from the benchmark's output on a
// GPU, keyed by shape x dims x radius x precision x arch). A stencil with no
// measurement falls back to a rule, and the plan says so.
//
//===----------------------------------------------------------------------===//
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Pipeline/BackendChoice.h"

#include "Backends/Common/Backend.h"
#include "Backends/Common/TableNames.h"
// The measured compositions are the tensor backend's data; the choice
// between the backends is the pipeline's.
#include "Backends/Tensor/TensorFusion.h"

namespace stencilc {

namespace {

struct TableEntry {
  table::ArchName arch;
  Shape shape;
  int dims;
  int radius;
  Precision precision;
  double tensorGStencils;
  double simtGStencils;
};

using namespace table;

const std::vector<TableEntry> Table = {
#include "BackendTable.inc"
};

/// Without any measurement of the shape and precision: tensor cores for
/// stencils of 25 points or more, where the CUDA cores' FMAs (not the bytes)
/// may start to bound a single step; below that a single step is memory bound
/// and the simt kernel, which moves each byte once without MMA padding, is
/// the expected winner.
constexpr std::size_t RulePoints = 25;

bool sameKind(const TableEntry &e, const StencilSpec &spec) {
  return e.shape == spec.shape && e.dims == spec.dims && e.precision == spec.precision;
}

/// The measured entry of the same shape, dimension and precision whose
/// radius is nearest to the spec's (the larger radius on a tie), preferring
/// the target arch.
const TableEntry *nearestRadius(const StencilSpec &spec, Arch arch) {
  const TableEntry *best = nullptr;
  auto better = [&](const TableEntry &e) {
    if (!best) {
      return true;
    }
    const int d = std::abs(e.radius - spec.radius), bd = std::abs(best->radius - spec.radius);
    if (d != bd) {
      return d < bd;
    }
    if (e.radius != best->radius) {
      return e.radius > best->radius;
    }
    return e.arch == arch && best->arch != arch;
  };
  for (const TableEntry &e : Table) {
    if (sameKind(e, spec) && better(e)) {
      best = &e;
    }
  }
  return best;
}

/// The CUDA-core plan, which every single-field stencil has.
Plan planSimt(const StencilSpec &spec, const PlanOptions &options) {
  return *backendFor(BackendKind::Simt).plan(spec, options);
}

/// Why the tensor cores' composed passes, measured faster for `spec`'s
/// kind, are not what --backend=auto takes.
std::string composedPassesGivenUp(const StencilSpec &spec, const MeasuredTensorRun &measured) {
  if (std::optional<std::string> overflow = composedOverflow(spec, measured.steps)) {
    return "; the tensor cores' composed passes measured faster for this kind, but " + *overflow;
  }
  return "; the tensor cores' composed passes measured faster with the composed step stacked, "
         "which the options rule out";
}

/// NAME_step alone under a folding rule, where the tensor cores' step
/// measured faster than the CUDA cores' that auto takes for NAME_run's
/// fused passes: 8192^2 on an H200, 2026-12-04 (docs/performance.md): the
/// CUDA cores' at 07:23, the tensor tiles' in the same lease at 07:23
/// where it has them (box clamp and mirror, star clamp), else at 05:13.
struct FoldedStepEntry {
  Shape shape;
  BoundaryKind boundary;
  Precision precision;
  double tensorStep, simtStep;
};
constexpr FoldedStepEntry FoldedSteps[] = {
    {Shape::Box, BoundaryKind::Clamp, Precision::FP64, 228.2, 200.1},
    {Shape::Box, BoundaryKind::Mirror, Precision::FP64, 225.6, 197.1},
    {Shape::Box, BoundaryKind::Reflect, Precision::FP64, 225.2, 197.0},
    {Shape::Star, BoundaryKind::Clamp, Precision::FP64, 230.5, 199.7},
    {Shape::Star, BoundaryKind::Mirror, Precision::FP64, 209.0, 196.8},
    {Shape::Star, BoundaryKind::Reflect, Precision::FP64, 207.8, 197.5},
};

/// The plan's note where NAME_step alone runs faster on tensor cores
/// (FoldedSteps, measured for sm_90), or empty.
std::string foldedStepNote(const StencilSpec &spec, Arch target) {
  // Radius 1 on sm_90: where the tiles take their second block (tileMinBlocks).
  if (spec.dims != 2 || spec.radius != 1 || info(target).sm < 90) {
    return {};
  }
  for (const FoldedStepEntry &e : FoldedSteps) {
    if (e.shape == spec.shape && e.boundary == spec.boundary && e.precision == spec.precision) {
      return fmt::format("; under {} NAME_step alone measured faster on the tensor cores ({:.0f} "
                         "vs {:.0f} GStencil/s a step on an H200): a program of single steps "
                         "runs faster with --backend=tensor",
                         keyword(spec.boundary), e.tensorStep, e.simtStep);
    }
  }
  return {};
}

/// Why --backend=auto takes a CUDA-core plan that fuses steps (and, where
/// it has one, in the low-rank form).
std::string fusedSimtReason(const Plan &simt) {
  const LowRankChoice &lowRank = simt.simt().lowRank;
  const MeasuredTensorRun *measured = measuredTensorRun(simt.spec);
  return fmt::format(", chosen by --backend=auto because NAME_run fuses {} steps a pass on CUDA "
                     "cores{}{}",
                     simt.schedule.fusedSteps,
                     lowRank.form ? fmt::format(" in the low-rank form ({} operations a point "
                                                "instead of {})",
                                                lowRank.form->ops(), lowRank.directOps)
                                  : std::string(),
                     simt.spec.dims != 2 ? " and the tensor-core backend fuses none yet"
                     : measured          ? composedPassesGivenUp(simt.spec, *measured)
                                : ", faster than the tensor cores' composed passes measured") +
         foldedStepNote(simt.spec, simt.target);
}

} // namespace

std::optional<BackendMeasurement> measuredBackends(const StencilSpec &spec, Arch arch) {
  const TableEntry *e = nearestRadius(spec, arch);
  if (!e || e->radius != spec.radius) {
    return std::nullopt;
  }
  return BackendMeasurement{e->tensorGStencils, e->simtGStencils};
}

Plan planAuto(const StencilSpec &spec, PlanOrRefusal tensorPlan, const PlanOptions &options) {
  if (!tensorPlan) {
    Plan plan = planSimt(spec, options);
    plan.choice += fmt::format(", chosen by --backend=auto because the tensor-core "
                               "path cannot take it: {}",
                               tensorPlan.reason());
    return plan;
  }
  // Where the tensor cores' composed passes of the measured T, the composed
  // step stacked, won against the CUDA cores' fused run (the 16-bit 2D
  // stars and boxes of radius 1-3), auto takes them. (On tensor cores only
  // a composed pass fuses steps.)
  if (const MeasuredTensorRun *won = measuredRunOf(*tensorPlan)) {
    tensorPlan->choice += fmt::format(
        ", chosen by --backend=auto because NAME_run in composed passes of {} steps (the "
        "composed step stacked) measured faster on {} than the CUDA cores' fused run: {:.0f} "
        "vs {:.0f} GStencil/s (docs/performance.md)",
        won->steps, won->device, won->tensorGStencils, won->simtFusedGStencils);
    return *std::move(tensorPlan);
  }
  // Elsewhere the tensor cores' composed passes measured slower than the
  // CUDA cores' fused kernel: auto runs the tensor cores one step a launch
  // (a remark with -v where fuse was asked).
  if (tensorPlan->schedule.composed) {
    const int asked = tensorPlan->schedule.fusedSteps;
    tensorPlan->schedule = Schedule{};
    tensorPlan->schedule.why = fmt::format(
        "--backend=auto fuses no steps on tensor cores: their composed passes of {} steps "
        "measured slower than the CUDA cores' fused kernel (docs/performance.md)",
        asked);
    tensorPlan->schedule.lowered = true;
  }
  // NAME_run is what iterates: where the CUDA cores fuse steps, a pass moves
  // the bytes of one step for T of them, which no single-step kernel makes
  // up for, and the tensor cores' composed passes measured slower for every
  // kind tried (docs/performance.md, "Fused steps on tensor cores").
  Plan simt = planSimt(spec, options);
  if (simt.schedule.fusedSteps > 1) {
    simt.choice += fusedSimtReason(simt);
    return simt;
  }
  const auto chosen = [&](bool tensor) { return tensor ? *std::move(tensorPlan) : simt; };
  if (const TableEntry *e = nearestRadius(spec, options.target)) {
    const bool tensor = e->tensorGStencils > e->simtGStencils;
    Plan plan = chosen(tensor);
    const std::string where =
        e->arch == options.target
            ? fmt::format("on {}", keyword(e->arch))
            : fmt::format("on {} (no {} measurement)", keyword(e->arch), keyword(options.target));
    if (e->radius == spec.radius) {
      plan.choice += fmt::format(", chosen by --backend=auto because it measured faster {}: "
                                 "tensor {:.0f} vs simt {:.0f} GStencil/s (BackendTable.inc)",
                                 where, e->tensorGStencils, e->simtGStencils);
    } else {
      plan.choice += fmt::format(
          ", chosen by --backend=auto from the nearest measurement (no radius {} entry in "
          "BackendTable.inc): the {}D {} {} of radius {} measured tensor {:.0f} vs simt "
          "{:.0f} GStencil/s {}",
          spec.radius, spec.dims, keyword(spec.shape), keyword(spec.precision), e->radius,
          e->tensorGStencils, e->simtGStencils, where);
    }
    return plan;
  }
  const bool tensor = spec.points() >= RulePoints;
  Plan plan = chosen(tensor);
  plan.choice +=
      fmt::format(", chosen by --backend=auto by rule (no measurement of a {}D {} {} stencil in "
                  "BackendTable.inc): {} points is {} {}, so the step is expected to be {}",
                  spec.dims, keyword(spec.shape), keyword(spec.precision), spec.points(),
                  tensor ? "at least" : "fewer than", RulePoints,
                  tensor ? "arithmetic bound, where tensor cores pay"
                         : "memory bound, where the simt kernel moves each byte once");
  return plan;
}

Plan planAuto(const StencilSpec &spec, const PlanOptions &options) {
  return planAuto(spec, backendFor(BackendKind::Tensor).plan(spec, options), options);
}

bool fieldsOnTensorCores(const Plan &tensor, std::string &why) {
  // H100, 2026-11-25 10:17 UTC, one step (bench/fieldstc, both backends in
  // one run): on tensor cores the 2D wave equation, the heat step with its
  // conductivity at the output point and a step reading two fields at
  // neighbours (8192^2), and the 3D wave equation of radius 4 (512^3), ran at
  // 0.40-0.79x the CUDA cores' in fp16, bf16, tf32 and fp64. (At 03:46 the
  // 16-bit 2D forms of radius 1 had measured 1.06-1.28x, against the CUDA-core
  // kernel of before the chunk kernel.) 1D was not measured.
  const StencilSpec &spec = tensor.spec;
  why = spec.dims == 1 ? std::string("the tensor-core kernel of a 1D stencil of fields is not "
                                     "measured (--backend=tensor asks for it)")
                       : std::string("the tensor-core kernel of a stencil of fields measured "
                                     "0.40-0.79x the CUDA cores' on the H100 (--backend=tensor "
                                     "asks for it)");
  return false;
}

} // namespace stencilc
