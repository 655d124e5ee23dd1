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
#include <optional>

#include <fmt/format.h>

namespace stencilc {

namespace {

/// The fused kernel's best geometry as measured on an H100 for one kind of
/// stencil (8192^2, 100 steps, bench/results/2026-11-24-2203-fused2d-bench-
/// h100.txt); tf32 runs as fp32 on CUDA cores, bf16 as fp16.
struct MeasuredFusion {
  Shape shape;
  int radius;
  int elementBytes;
  int steps, width, threads, batch, chunkRows, minBlocks;
  double gstencils;
};

constexpr MeasuredFusion Measured[] = {
    {Shape::Star, 1, 8, 8, 64, 128, 4, 96, 3, 934},
    {Shape::Star, 1, 4, 8, 128, 128, 4, 64, 2, 1888},
    {Shape::Star, 1, 2, 8, 128, 128, 4, 64, 3, 1816},
    {Shape::Box, 1, 8, 6, 64, 128, 4, 128, 3, 678},
    {Shape::Box, 1, 4, 8, 128, 64, 2, 96, 6, 1380},
    {Shape::Box, 1, 2, 8, 128, 128, 3, 96, 3, 1355},
    {Shape::Star, 2, 8, 4, 64, 128, 6, 128, 2, 473},
    {Shape::Star, 2, 4, 6, 128, 128, 2, 128, 2, 895},
    {Shape::Star, 2, 2, 4, 128, 128, 4, 96, 3, 1115},
    {Shape::Box, 2, 8, 3, 64, 128, 4, 128, 2, 260},
    {Shape::Box, 2, 4, 4, 128, 128, 2, 128, 2, 488},
    {Shape::Box, 2, 2, 2, 128, 128, 4, 128, 3, 574},
    // Radius 3 boxes measured fastest unfused (T = 1) in every precision.
    {Shape::Box, 3, 8, 1, 128, 128, 3, 64, 1, 131},
    {Shape::Box, 3, 4, 1, 128, 128, 4, 128, 1, 291},
    {Shape::Box, 3, 2, 1, 128, 128, 4, 128, 1, 308},
};

const MeasuredFusion *measured(const StencilSpec &spec) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  for (const MeasuredFusion &m : Measured) {
    if (m.shape == spec.shape && m.radius == spec.radius && m.elementBytes == bytes) {
      return &m;
    }
  }
  return nullptr;
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
  case BoundaryKind::Clamp:
  case BoundaryKind::Mirror:
    // A fused level's outside would have to be that level's own clamp or
    // mirror, not the input's: one step per launch.
    break;
  }
  return fmt::format("the fused kernel does not take boundary {}", keyword(spec.boundary));
}

/// The rule for kinds not measured: the measured T fell about as 8 / r for
/// stars and 8 / r^2 for boxes.
int ruleSteps(const StencilSpec &spec) {
  const int r = spec.radius;
  return std::max(1, spec.shape == Shape::Star ? 8 / r : 8 / (r * r));
}

/// The columns a thread owns: at least the radius (its neighbours' columns
/// come from the next thread only), whole 4-, 8- or 16-byte accesses, and
/// no fewer than the measured widths (2 fp64, 4 fp32, 4 fp16 columns).
int columnsPerThread(const StencilSpec &spec) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  int cols = std::max(spec.radius, bytes == 2 ? 4 : 16 / bytes);
  if (cols * bytes > 16) {
    cols = (cols * bytes + 15) / 16 * 16 / bytes;
  }
  while ((cols * bytes) % 4 != 0 || (cols * bytes > 8 && cols * bytes < 16)) {
    ++cols;
  }
  return cols;
}

/// Fills the derived sizes of `k` for T steps of `spec`.
void deriveFused(const StencilSpec &spec, int steps, FusedKernel &k) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int r = spec.radius;
  k.accessBytes = std::min(k.columnsPerThread() * bytes, 16);
  const int vec = k.accessBytes / bytes;
  k.halo = (steps * r + vec - 1) / vec * vec;
  // Level t computes every column of the strip, over the block's rows and
  // the (T - t) r rows on either side that later levels read; only the
  // stored columns of the block's own rows are the strip's share.
  double computed = 0.0;
  for (int t = 1; t <= steps; ++t) {
    computed += double(k.chunkRows + 2 * (steps - t) * r) * k.width;
  }
  const double useful = double(steps) * k.chunkRows * k.storedColumns();
  k.redundantShare = computed > 0.0 ? 1.0 - useful / computed : 0.0;
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
  const MeasuredFusion *m = measured(spec);
  const int steps = asked ? asked : m ? m->steps : ruleSteps(spec);
  if (steps == 1) {
    s.why =
        m ? fmt::format("a {} of radius {} in {} measured fastest unfused ({:.0f} "
                        "GStencil/s fused with T = 1 on an H100)",
                        keyword(spec.shape), spec.radius, keyword(spec.precision), m->gstencils)
          : fmt::format("by rule, a {} of radius {} fuses no steps (T = 8 / r{})",
                        keyword(spec.shape), spec.radius, spec.shape == Shape::Star ? "" : "^2");
    return;
  }
  FusedKernel k;
  if (m) {
    k.width = m->width;
    k.threads = m->threads;
    k.batch = m->batch;
    k.chunkRows = m->chunkRows;
    k.minBlocks = m->minBlocks;
    k.source = fmt::format("as measured best for this kind on an H100 ({:.0f} GStencil/s at "
                           "T = {})",
                           m->gstencils, m->steps);
  } else {
    k.width = 32 * columnsPerThread(spec);
    k.threads = 128;
    k.batch = 4;
    k.chunkRows = 128;
    k.minBlocks = 2;
    k.source = "by rule: this kind has no measurement";
  }
  // A strip must store at least one access past its halos: widen it.
  deriveFused(spec, steps, k);
  while (k.storedColumns() < k.accessBytes / static_cast<int>(elementBytes(spec.precision))) {
    k.width *= 2;
    deriveFused(spec, steps, k);
  }
  s.fusedSteps = steps;
  s.fused = k;
  s.why = asked ? fmt::format("--plan-option fuse={}", asked)
          : m   ? fmt::format("measured best for a {} of radius {} in {} on an H100",
                              keyword(spec.shape), spec.radius, keyword(spec.precision))
                : fmt::format("by rule for a {} of radius {}: no measurement of this kind",
                              keyword(spec.shape), spec.radius);
}

} // namespace stencilc
