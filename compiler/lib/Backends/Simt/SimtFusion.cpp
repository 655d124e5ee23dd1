//===- SimtFusion.cpp - How many steps NAME_run fuses on CUDA cores ---------===//
//
// Plans the schedule of a simt plan (Plan.h's Schedule): T, the steps a pass
// of NAME_run fuses, and the geometry of the fused kernel
// (runtime/include/stencilc/device/fused.cuh). The fused kernel exists for 2D
// stencils with the fixed, constant and periodic boundaries; everything else
// keeps one launch a step.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtPlanner.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace stencilc {

namespace {

/// The planner's own T, where no --plan-option fuse or measured entry gives
/// one: the fused kernel's first measurements (docs/performance.md,
/// "Temporal fusion") peaked at T = 8 for 4-byte and 2-byte elements and
/// T = 4 for fp64 at radius 1; a radius of r widens the halo and the rings
/// r-fold, so T shrinks with it.
int defaultFusedSteps(const StencilSpec &spec) {
  const int base = spec.precision == Precision::FP64 ? 4 : 8;
  return std::max(1, base / spec.radius);
}

/// Why `spec` cannot fuse at all on CUDA cores, or empty.
std::string unfusable(const StencilSpec &spec) {
  if (spec.dims != 2) {
    return fmt::format("the CUDA-core backend has no fused kernel for {}D stencils yet", spec.dims);
  }
  switch (spec.boundary) {
  case BoundaryKind::Fixed:
  case BoundaryKind::Constant:
  case BoundaryKind::Periodic:
    return {};
  }
  return fmt::format("the fused kernel does not take boundary {}", keyword(spec.boundary));
}

/// Fills the derived sizes of `k` for T steps of `spec`.
void deriveFused(const StencilSpec &spec, int steps, FusedKernel &k) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int vec = 16 / bytes;
  const int r = spec.radius;
  k.threads = std::gcd(k.width, 256);
  k.halo = (steps * r + vec - 1) / vec * vec;
  k.sharedBytes = steps * (k.batch + 2 * r) * k.width * bytes;
  const int groups = k.batch * (k.width / vec);
  k.groupsPerThread = (groups + k.threads - 1) / k.threads;
  // Level t computes every column but the outermost r of the strip, over the
  // block's rows and the (T - t) r rows on either side that later levels
  // read; only the stored columns of the block's own rows are its share.
  double computed = 0.0;
  for (int t = 1; t <= steps; ++t) {
    computed += double(k.chunkRows + 2 * (steps - t) * r) * (k.width - 2 * r);
  }
  const double useful = double(steps) * k.chunkRows * k.storedColumns();
  k.redundantShare = computed > 0.0 ? 1.0 - useful / computed : 0.0;
}

/// The narrowest strip that still stores a whole 16-byte vector (and a
/// whole warp of columns).
int narrowestWidth(const FusedKernel &k, int vec) {
  return (2 * k.halo + std::max(vec, 32) + 31) / 32 * 32;
}

} // namespace

void planSimtFusion(Plan &plan, const PlanOptions &options) {
  const StencilSpec &spec = plan.spec;
  Schedule &s = plan.schedule;
  const int asked = options.fusedSteps;
  s = Schedule{};
  if (asked == 1) {
    s.why = "--plan-option fuse=1: one launch a step";
    return;
  }
  if (std::string reason = unfusable(spec); !reason.empty()) {
    s.why = reason;
    s.lowered = asked > 1;
    return;
  }
  int steps = asked ? asked : defaultFusedSteps(spec);
  s.why = asked ? fmt::format("--plan-option fuse={}", asked)
                : fmt::format("the planner's choice for a {} of radius {} in {}",
                              keyword(spec.shape), spec.radius, keyword(spec.precision));
  const int limit = info(options.target).maxDynamicSharedBytes;
  const int vec = 16 / static_cast<int>(elementBytes(spec.precision));
  // Give up rows per batch, then strip width, then (where T was not asked
  // for) steps, until the rings fit the shared memory a block may opt in to.
  while (steps > 1) {
    FusedKernel k;
    k.width = 256;
    k.batch = 8;
    k.chunkRows = 256;
    deriveFused(spec, steps, k);
    while (k.sharedBytes > limit && k.batch > 1) {
      k.batch /= 2;
      deriveFused(spec, steps, k);
    }
    while (k.sharedBytes > limit && k.width > narrowestWidth(k, vec)) {
      k.width = std::max(narrowestWidth(k, vec), k.width - 32);
      deriveFused(spec, steps, k);
    }
    if (k.width < narrowestWidth(k, vec)) {
      k.width = narrowestWidth(k, vec);
      deriveFused(spec, steps, k);
    }
    if (k.sharedBytes <= limit) {
      s.fusedSteps = steps;
      s.fused = k;
      return;
    }
    if (steps == asked) {
      s.why = fmt::format("fuse={} needs {} bytes of shared memory for its rings even with "
                          "strips of {} columns and batches of 1 row; {} has {}",
                          asked, k.sharedBytes, k.width, keyword(options.target), limit);
      s.lowered = true;
    }
    --steps;
  }
  if (!asked) {
    s.why = fmt::format("no T above 1 fits the {} bytes of shared memory {} has", limit,
                        keyword(options.target));
  }
}

} // namespace stencilc
