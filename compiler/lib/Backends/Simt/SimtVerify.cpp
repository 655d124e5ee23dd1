//===- SimtVerify.cpp - What a CUDA-core plan breaks of its promises -------===//
//
// The simt backend's part of verifyPlan: the promises of planSimt (the
// streaming kernel), planFields (the kernels of a stencil of fields) and
// planSimtFusion (the fused kernel), SimtPlanner.h's "Guarantees:" and what
// the kernels rely on besides.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <map>

#include "Backends/Common/Band.h"
#include "Backends/Common/VerifyPlan.h"
#include "Backends/Simt/SimtFusion.h"
#include "Backends/Simt/SimtPlanner.h"

namespace stencilc {

namespace {

int ceilDiv(int a, int b) { return b > 0 ? (a + b - 1) / b : 0; }

/// An offset as the streaming kernel sees it, (dz, dy, dx): a 1D line is x,
/// a 2D grid streams its rows (z) and holds x.
std::array<int, 3> streamedOffset(const StencilSpec &spec, const Offset &o) {
  switch (spec.dims) {
  case 1:
    return {0, 0, o.d[0]};
  case 2:
    return {o.d[0], 0, o.d[1]};
  default:
    return {o.d[0], o.d[1], o.d[2]};
  }
}

/// What every CUDA-core kernel needs of its block: whole warps, chunks of
/// at least one plane (never halved below minChunkZ).
void verifyBlock(const SimtPlan &sp, PromiseChecker &c) {
  c.require(sp.threads >= 32 && sp.threads <= 1024 && sp.threads % 32 == 0,
            "a block of whole warps, at most 1024 threads", "threads {}", sp.threads);
  c.require(sp.chunkZ >= sp.minChunkZ && sp.minChunkZ >= 1, "chunkZ >= minChunkZ >= 1",
            "chunkZ {}, minChunkZ {}", sp.chunkZ, sp.minChunkZ);
}

/// The geometry of planSimt's streaming kernel: SimtPlanner.h's promises on
/// the tile, the halo and shared memory, and the plane and the threads
/// deriveGeometry makes of them, which the kernel's loops assume.
void verifyStreamingGeometry(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int r = spec.radius;
  c.require(sp.vectorWidth == 16 / bytes, "loads of whole 16-byte vectors (vectorWidth)",
            "vectorWidth {} for {}-byte elements", sp.vectorWidth, bytes);
  c.require(sp.radiusX == r && sp.radiusY == (spec.dims == 3 ? r : 0) &&
                sp.radiusZ == (spec.dims >= 2 ? r : 0),
            "the stencil's radius along every axis the kernel holds or streams",
            "radiusZ {}, radiusY {}, radiusX {} for a {}D stencil of radius {}", sp.radiusZ,
            sp.radiusY, sp.radiusX, spec.dims, r);
  if (!c.require(sp.vectorWidth > 0 && sp.outputsX > 0 && sp.tileX > 0 &&
                     sp.tileX % sp.vectorWidth == 0 && sp.tileX % sp.outputsX == 0,
                 "tileX a multiple of vectorWidth and outputsX",
                 "tileX {}, vectorWidth {}, outputsX {}", sp.tileX, sp.vectorWidth, sp.outputsX)) {
    return; // the checks below divide by them
  }
  c.require(sp.haloX % sp.vectorWidth == 0 && sp.haloX >= sp.radiusX,
            "haloX a multiple of vectorWidth and >= radiusX",
            "haloX {}, vectorWidth {}, radiusX {}", sp.haloX, sp.vectorWidth, sp.radiusX);
  c.require(sp.planeRows == sp.tileY + 2 * sp.radiusY && sp.pitch == sp.tileX + 2 * sp.haloX &&
                sp.planeBytes == sp.planeRows * sp.pitch * bytes,
            "a plane of the block's outputs and their halo (planeRows, pitch, planeBytes)",
            "planeRows {}, pitch {}, planeBytes {} for tileY {}, tileX {}, haloX {}", sp.planeRows,
            sp.pitch, sp.planeBytes, sp.tileY, sp.tileX, sp.haloX);
  c.require(sp.itemsPerThread == ceilDiv(sp.items(), sp.threads) &&
                sp.groupsPerThread == ceilDiv(sp.groupsPerPlane(), sp.threads),
            "every item and every 16-byte group of a plane to a thread",
            "itemsPerThread {}, groupsPerThread {} for {} items, {} groups, {} threads",
            sp.itemsPerThread, sp.groupsPerThread, sp.items(), sp.groupsPerPlane(), sp.threads);
  // Plane buffers that stages asked for may take the target's opt-in
  // maximum (dynamic shared memory); the planner's own stay within the limit.
  const int limit = std::max(options.sharedMemoryLimit, info(plan.target).maxDynamicSharedBytes);
  c.require(sp.sharedBytes() <= limit, "sharedBytes() within the limit",
            "{} bytes, limit {} (opt-in maximum of {})", sp.sharedBytes(), limit,
            keyword(plan.target));
  c.require(sp.buffers >= 1 && (spec.dims != 1 || sp.buffers == 1) &&
                (sp.groupsPerThread <= 8 || sp.buffers == 1),
            "plane buffers a thread can fetch ahead (one in 1D, and past 8 16-byte groups a "
            "thread)",
            "buffers {} in {}D, groupsPerThread {}", sp.buffers, spec.dims, sp.groupsPerThread);
}

/// planSimt's promise on the slices: every (dz, dy, dx) with a non-zero
/// coefficient in exactly one slice term, its coefficient rounded once to
/// the arithmetic type; and every read within the radii the plane holds.
void verifySlices(const Plan &plan, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  std::map<std::array<int, 3>, std::vector<double>> read;
  bool inside = true;
  for (const SimtSlice &slice : sp.slices) {
    for (const SimtTerm &t : slice.terms) {
      read[{slice.dz, t.dy, t.dx}].push_back(t.coefficient);
      inside = inside && std::abs(slice.dz) <= sp.radiusZ && std::abs(t.dy) <= sp.radiusY &&
               std::abs(t.dx) <= sp.radiusX;
    }
  }
  c.require(inside, "slice terms within the radii the plane holds",
            "radiusZ {}, radiusY {}, "
            "radiusX {}",
            sp.radiusZ, sp.radiusY, sp.radiusX);
  std::size_t stencilReads = 0;
  for (const Term &t : spec.terms) {
    if (t.coefficient == 0.0) {
      continue;
    }
    ++stencilReads;
    const std::array<int, 3> at = streamedOffset(spec, t.offset);
    const auto found = read.find(at);
    const std::size_t times = found == read.end() ? 0 : found->second.size();
    if (!c.require(times == 1,
                   "every (dz, dy, dx) with a non-zero coefficient in exactly one slice term",
                   "({}, {}, {}) in {}", at[0], at[1], at[2], times)) {
      return;
    }
    // Packed FMAs take their coefficients in the element type (planSimtWith).
    // Scaled coefficients: the exact integer over the denominator instead.
    const double rounded =
        sp.scaled.on() ? scaledInteger(t.coefficient, sp.scaled.denominator).value_or(NAN)
                       : roundToStorage(t.coefficient, sp.packed ? spec.precision : sp.compute);
    if (!c.require(found->second.front() == rounded,
                   "each slice term's coefficient rounded once to the arithmetic type (the "
                   "element type where packed; where scaled, its exact integer over the "
                   "denominator)",
                   "({}, {}, {}) holds {}, not {}", at[0], at[1], at[2], found->second.front(),
                   rounded)) {
      return;
    }
  }
  c.require(read.size() == stencilReads, "no slice term the stencil does not read",
            "{} slice offsets for {} reads", read.size(), stencilReads);
}

/// planFields' promise: a block, a chunk and (the plane kernel) a ring of
/// planes that its kernel takes, else a refusal.
void verifyFieldsKernel(const Plan &plan, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  if (sp.planeField < 0) {
    c.require(sp.threads == sp.tileX * sp.tileY,
              "the chunk kernel a thread per column of a block row (threads = tile-x x tile-y)",
              "threads {}, tileX {}, tileY {}", sp.threads, sp.tileX, sp.tileY);
    return;
  }
  c.require(sp.planeField < int(spec.fields.size()), "the plane kernel streams one of the fields",
            "planeField {} of {} fields", sp.planeField, spec.fields.size());
  c.require(sp.tileY <= 32, "the plane kernel at most 32 rows a block", "tileY {}", sp.tileY);
  c.require(sp.vectorWidth > 0 && sp.tileX % sp.vectorWidth == 0,
            "the plane kernel's tileX a multiple of vectorWidth", "tileX {}, vectorWidth {}",
            sp.tileX, sp.vectorWidth);
  c.require(sp.buffers > sp.queueLength(),
            "the plane kernel's ring holds the planes a step reads and one in flight",
            "buffers {}, {} planes read", sp.buffers, sp.queueLength());
  c.require(sp.sharedBytes() <= info(plan.target).maxDynamicSharedBytes,
            "the plane kernel's ring within the target's opt-in shared memory",
            "{} bytes, {} allows {}", sp.sharedBytes(), keyword(plan.target),
            info(plan.target).maxDynamicSharedBytes);
}

/// planFieldsFusion's promise: a boundary the fused kernels of stencils of
/// fields take (they have no band).
void requireFusableBoundary(const Plan &plan, PromiseChecker &c) {
  c.require(!foldsAtEdge(plan.spec.boundary),
            "fusedSteps > 1 only for a boundary the fused kernels of fields take (fixed, "
            "constant, periodic)",
            "fusedSteps {}, boundary {}", plan.schedule.fusedSteps, keyword(plan.spec.boundary));
}

/// planSimtFusion's promise on the boundary: fixed, constant and periodic
/// fuse without a band; clamp, mirror and reflect not packed nor in the
/// paired order (the band computes neither), with the band whose shared
/// memory holds T (fittingBand).
void requireBandWhereFolded(const Plan &plan, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const FusedKernel &k = plan.schedule.fused;
  if (!foldsAtEdge(spec.boundary)) {
    c.require(!k.band, "a band only under a folding rule", "boundary {}", keyword(spec.boundary));
    return;
  }
  const SimtPlan &sp = plan.simt();
  const bool paired = sp.lowRank.form && sp.lowRank.form->paired;
  c.require(!sp.packed && !paired,
            "fused passes under a folding rule in the terms' or the unpaired low-rank order (the "
            "band's)",
            "a {}D stencil{}{}", spec.dims, sp.packed ? ", packed" : "", paired ? ", paired" : "");
  const std::optional<BandKernel> fits = fittingBand(spec, plan.schedule.fusedSteps, plan.target);
  c.require(k.band && fits && k.band->tile == fits->tile &&
                k.band->sharedBytes == fits->sharedBytes && k.band->stripBytes == fits->stripBytes,
            "the band of a folding rule's fused passes that fittingBand gives (2D: the tile whose "
            "levels fit 48 KB; 1D: a block an end; 3D: face patches within the target's shared "
            "memory)",
            "band {}, T r = {}", k.band ? fmt::format("tile {}", k.band->tile) : "none",
            plan.schedule.fusedSteps * spec.radius);
}

/// A composed rank-1 pass's promises: of 2 T r + 1 taps a factor, whole
/// tasks of 8 outputs (rank_one.cuh), its kernel's and band's shared memory
/// within the target's opt-in limit, its band in tiles of `tile` (at least
/// T r).
void verifyRankOnePass(const Plan &plan, const RankOnePass &p, int tile, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const auto taps = static_cast<std::size_t>(2 * p.steps * spec.radius + 1);
  const int most = info(plan.target).maxDynamicSharedBytes;
  c.require(p.row.size() == taps && p.column.size() == taps,
            "a rank-1 pass of 2 T r + 1 taps a factor", "T {}, {} and {} taps", p.steps,
            p.row.size(), p.column.size());
  c.require(p.batch % 8 == 0 && p.columns % 8 == 0 && p.rows % p.batch == 0 &&
                p.sharedBytes <= most,
            "whole tasks of 8 outputs and shared memory within the target's opt-in limit",
            "columns {}, batch {}, rows {}, {} bytes", p.columns, p.batch, p.rows, p.sharedBytes);
  const BandKernel band = bandKernel(spec, p.steps, tile, plan.target);
  c.require(tile >= p.steps * spec.radius && p.band.tile == band.tile &&
                p.band.sharedBytes == band.sharedBytes && p.band.stripBytes == band.stripBytes &&
                band.sharedBytes <= most,
            "a band in tiles that hold T r, within the target's opt-in limit",
            "tile {} for T r {}, {} bytes", p.band.tile, p.steps * spec.radius, p.band.sharedBytes);
}

/// planRankOne's promises: a 2D stencil not periodic, its passes' (T) band
/// the one fittingBand gives, a remainder of T - 2 steps (where that is 2
/// or more) in the same geometry and band tiles, and no fused kernel.
void verifyRankOne(const Plan &plan, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const RankOnePass &p = *s.rankOne;
  c.require(spec.dims == 2 && spec.boundary != BoundaryKind::Periodic && p.steps == s.fusedSteps &&
                s.fused.width == 0 && !s.fused.takesSteps,
            "a rank-1 pass of a 2D stencil, not periodic, of T steps, and no fused kernel",
            "{}D, {}, T {} and {}, fused width {}", spec.dims, keyword(spec.boundary), p.steps,
            s.fusedSteps, s.fused.width);
  const std::optional<BandKernel> fits = fittingBand(spec, p.steps, plan.target);
  c.require(fits && fits->tile == p.band.tile, "the passes' band in fittingBand's tiles", "tile {}",
            p.band.tile);
  verifyRankOnePass(plan, p, p.band.tile, c);
  if (const RankOnePass *r = p.remainder.get()) {
    c.require(r->steps == p.steps - 2 && r->steps >= 2 && !r->remainder &&
                  r->columns == p.columns && r->batch == p.batch && r->rows == p.rows &&
                  r->threads == p.threads && r->minBlocks == p.minBlocks,
              "a remainder of T - 2 steps in the passes' geometry", "{} steps", r->steps);
    verifyRankOnePass(plan, *r, p.band.tile, c);
  }
}

/// planSimtFusion's promises on a schedule that fuses steps: a boundary the
/// fused kernels take, their shared memory within the target's opt-in
/// limit, and halos that leave each level's r and points to store;
/// NAME_step taking the fused kernel only where the plan has one, in 2D
/// in the window form; staged input planes only where fused3d.cuh stages
/// them.
void verifyFusion(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  c.require(!s.fused.takesSteps || s.fusedSteps > 1,
            "NAME_step takes the fused kernel only where NAME_run has one", "fusedSteps {}",
            s.fusedSteps);
  if (s.fusedSteps <= 1) {
    return;
  }
  if (s.rankOne) {
    verifyRankOne(plan, c);
    return;
  }
  const FusedKernel &k = s.fused;
  requireBandWhereFolded(plan, c);
  c.require(k.sharedBytes <= info(plan.target).maxDynamicSharedBytes,
            "fused.sharedBytes within the target's opt-in limit", "{} bytes, {} allows {}",
            k.sharedBytes, keyword(plan.target), info(plan.target).maxDynamicSharedBytes);
  const int levels = s.fusedSteps * spec.radius;
  c.require(k.halo >= levels && (spec.dims != 3 || k.haloY >= levels),
            "fused halos of at least T x r (each level eats r)", "halo {}, haloY {}, T x r = {}",
            k.halo, k.haloY, levels);
  c.require(k.width > 0 && k.storedColumns() >= 1 && (spec.dims != 3 || k.storedRows() >= 1),
            "a fused pass that stores a column (3D: and a row) past its halos",
            "width {}, halo {}, height {}, haloY {}", k.width, k.halo, k.height, k.haloY);
  c.require(!k.takesSteps || !k.queued,
            "NAME_step takes the fused kernel in the window form only (the queued form stores a "
            "fixed ring)",
            "queued, and NAME_step takes it");
  c.require(!k.queued || (spec.dims == 2 && !plan.simt().packed),
            "the queued form only for a 2D stencil in the direct or low-rank form (fused.cuh adds "
            "their terms, not packed ones)",
            "a {}D stencil{}", spec.dims, plan.simt().packed ? ", packed" : "");
  c.require(k.stagedPlanes == 0 ||
                (spec.dims == 3 && k.stagedPlanes <= 6 && spec.boundary != BoundaryKind::Periodic),
            "staged input planes only in a 3D pass, 1 to 6 ahead, on a grid that is not "
            "periodic (fused3d.cuh stages the planes of blocks inside the grid)",
            "{} planes, a {}D stencil, boundary {}", k.stagedPlanes, spec.dims,
            keyword(spec.boundary));
  c.require(!k.splitBarrier || (spec.dims == 3 && info(plan.target).sm >= 90 &&
                                options.barrier != BarrierRequest::Sync),
            "the split barrier only in a 3D pass for sm_90 or later (fused3d.cuh's "
            "mbarrier.try_wait), unless --plan-option barrier=sync asks for none",
            "a {}D stencil for {}", spec.dims, keyword(plan.target));
  c.require(k.unrollPlanes == 0 ||
                (spec.dims == 3 && options.ring != RingRequest::Whole &&
                 k.unrollPlanes == queueUnrollPlanes(spec, plan.simt().lowRank.form.has_value())),
            "a stream loop unrolled as the register queues need (the ring's parts rotating) "
            "only in a 3D pass, unless --plan-option ring=whole asks for whole rings, and then "
            "lcm(2, the queue's planes)",
            "{} planes, a {}D stencil", k.unrollPlanes, spec.dims);
}

/// planFieldsFusion's promises on a stencil of fields that fuses: 2D or
/// 3D, a boundary the kernel takes, a halo of T times the stepped field's
/// reach, in 2D a thread's columns holding that reach, in 3D a thread's
/// rows holding it (fused3d.cuh's edge rows), and points left to store.
void verifyFieldsFusion(const Plan &plan, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  if (s.fusedSteps <= 1) {
    return;
  }
  const FusedKernel &k = s.fused;
  const int r = steppedReach(spec);
  c.require(spec.dims == 2 || spec.dims == 3, "fused passes of a stencil of fields in 2D or 3D",
            "a {}D stencil", spec.dims);
  requireFusableBoundary(plan, c);
  if (spec.dims == 3) {
    c.require(k.halo >= s.fusedSteps * r && k.haloY >= s.fusedSteps * r && k.rows >= r &&
                  k.storedColumns() >= 1 && k.storedRows() >= 1,
              "halos of T x the stepped field's reach, a thread's rows holding that reach, and "
              "a row and column to store",
              "halo {}, haloY {}, {} rows a thread, width {}, height {}, T {}, reach {}", k.halo,
              k.haloY, k.rows, k.width, k.height, s.fusedSteps, r);
    return;
  }
  c.require(k.halo >= s.fusedSteps * r && k.columnsPerThread() >= r && k.storedColumns() >= 1,
            "a halo of T x the stepped field's reach, a thread's columns holding that reach, and "
            "a column to store",
            "halo {}, {} columns a thread, width {}, T {}, reach {}", k.halo, k.columnsPerThread(),
            k.width, s.fusedSteps, r);
}

/// planLowRank's promises: a form only for a 2D or 3D stencil of one field,
/// with fewer operations a point than its taps, unless lowrank=off; a
/// reason either way. In 3D, a thread executes fewer operations a point
/// than the taps unless lowrank=on, and where NAME_run fuses the form its
/// shared memory is what fused3d.cuh's form takes: rings of 2r + 2 planes
/// a level (the form reads the rows beside a thread's at plane c + r, as
/// a box's terms do).
void verifyLowRank(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  const LowRankChoice &lr = sp.lowRank;
  c.require(!lr.why.empty(), "a reason for the low-rank choice", "none given");
  if (!lr.form) {
    return;
  }
  c.require(spec.dims >= 2 && !spec.hasFields() && options.lowRank != LowRankRequest::Off &&
                lr.form->dims == spec.dims,
            "the low-rank form for a 2D or 3D stencil of one field, unless lowrank=off",
            "a {}D stencil{}", spec.dims, spec.hasFields() ? " of fields" : "");
  c.require(lr.form->ops() < static_cast<int>(spec.points()) && lr.form->ops() == lr.decomposedOps,
            "the low-rank form only where it takes fewer operations than the taps, as counted",
            "{} operations against {} taps ({} counted)", lr.form->ops(), spec.points(),
            lr.decomposedOps);
  if (spec.dims != 3) {
    return;
  }
  const double executed = lr.form->executedOps(sp.planeRows, sp.tileY);
  c.require(options.lowRank == LowRankRequest::On || executed < lr.directOps,
            "under auto, a 3D form only where a thread executes fewer operations than the taps",
            "{} executed against {}", executed, lr.directOps);
  const FusedKernel &k = plan.schedule.fused;
  if (plan.schedule.fusedSteps <= 1 || k.rows <= 0) {
    return;
  }
  const int r = spec.radius, cols = k.accessBytes / static_cast<int>(elementBytes(spec.precision));
  const int pad = (r + cols - 1) / cols * cols;
  // Under the split barrier 2r + 3 planes, rounded up to whole queues of
  // 2r + 2 where the loop unrolls whole rings.
  const int planes = !k.splitBarrier ? 2 * r + 2 : k.unrollPlanes > 0 ? 2 * r + 3 : 2 * (2 * r + 2);
  const long long rings = static_cast<long long>(plan.schedule.fusedSteps) * planes *
                          (k.height / k.rows + 2) * 2 * r * (k.width + 2 * pad) *
                          static_cast<long long>(elementBytes(spec.precision));
  const long long taken = (rings + 15) / 16 * 16 + stagedPlaneBytes(k, plan.schedule.fusedSteps) +
                          (k.splitBarrier ? 16 : 0);
  c.require(k.sharedBytes == taken,
            "a fused 3D low-rank form's shared memory as fused3d.cuh takes it (2r + 2 ring planes "
            "a level, under the split barrier 4r + 4, or 2r + 3 where the ring's parts rotate, in "
            "whole 16-byte vectors, the staged input planes' slots and the barrier)",
            "{} bytes planned, {} taken", k.sharedBytes, taken);
}

/// planPairedOrder's promises: the paired order only where pairs=off did
/// not ask otherwise, for a form of its shape on a grid that does not wrap, step items that start
/// at even columns, and a fused pass, if any, in the queued form with even strips, halos, thread
/// columns and batches (fused.cuh's static assertions).
void verifyPaired(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const SimtPlan &sp = plan.simt();
  if (!sp.lowRank.form || !sp.lowRank.form->paired) {
    return;
  }
  c.require(options.pairs != PairsRequest::Off, "no paired order under pairs=off", "paired");
  const FusedKernel &k = plan.schedule.fused;
  c.require(pairedShape(plan.spec, &*sp.lowRank.form) && sp.tileX % 2 == 0 && sp.outputsX % 2 == 0,
            "the paired order for its shape on a grid that does not wrap, items at even columns",
            "boundary {}, tileX {}, outputsX {}", keyword(plan.spec.boundary), sp.tileX,
            sp.outputsX);
  c.require(plan.schedule.fusedSteps <= 1 || plan.schedule.rankOne || // no fused kernel
                (k.queued && k.columnsPerThread() % 2 == 0 && k.batch % 2 == 0 &&
                 k.storedColumns() % 2 == 0 && k.halo % 2 == 0),
            "a paired fused pass in the queued form with even strips, halos, columns and batches",
            "queued {}, width {}, halo {}, batch {}", k.queued, k.width, k.halo, k.batch);
}

/// The packed form's promises: only for a 2D fp16 or bf16 stencil of one
/// field that arith=packed asked for, never in the low-rank form, and
/// items of whole pairs of outputs.
void verifyPacked(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  if (!sp.packed) {
    return;
  }
  c.require(options.arith == ArithRequest::Packed && spec.dims == 2 &&
                isSixteenBit(spec.precision) && !spec.hasFields(),
            "packed arithmetic only where arith=packed asked, for a 2D 16-bit stencil of one field",
            "a {}D {} stencil", spec.dims, keyword(spec.precision));
  c.require(!sp.lowRank.form && sp.outputsX % 2 == 0,
            "packed arithmetic in the direct form on pairs of outputs", "{} outputs an item{}",
            sp.outputsX, sp.lowRank.form ? ", the low-rank form" : "");
}

/// planScaled's promise: scaled coefficients only where asked (not off)
/// of an fp64 stencil of one field, in the direct form, straight-line
/// FMAs, over a denominator not a power of two, its factor 1/D rounded once.
void verifyScaled(const Plan &plan, const PlanOptions &options, PromiseChecker &c) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  if (!sp.scaled.on()) {
    return;
  }
  const long long d = sp.scaled.denominator;
  c.require(options.scale != ScaleRequest::Off && spec.precision == Precision::FP64 &&
                !sp.lowRank.form && !sp.packed && sp.unrolled,
            "scaled coefficients only for an fp64 stencil in the direct form, straight-line "
            "FMAs, unless scale=off",
            "a {}D {} stencil, scale {}, {}", spec.dims, keyword(spec.precision),
            options.scale == ScaleRequest::Off ? "off" : "auto",
            sp.lowRank.form ? "the low-rank form" : "the direct form");
  c.require(d > 2 && !std::has_single_bit(static_cast<unsigned long long>(d)) &&
                d < ScaledNumeratorLimit && sp.scaled.factor == 1.0 / static_cast<double>(d),
            "a denominator not a power of two, its factor 1/D rounded once", "D {}, factor {}", d,
            sp.scaled.factor);
}

} // namespace

void verifySimtPlan(const Plan &plan, const PlanOptions &options,
                    std::vector<std::string> &problems) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  PromiseChecker c(problems, spec.hasFields() ? "planFields" : "planSimt");
  c.require(sp.compute == (spec.precision == Precision::FP64 ? Precision::FP64 : Precision::FP32),
            "fp64 arithmetic for fp64, fp32 for every other precision", "compute {} for {}",
            keyword(sp.compute), keyword(spec.precision));
  verifyBlock(sp, c);
  c.require(!plan.choice.empty(), "a choice that says why the CUDA cores", "choice is empty");
  if (spec.hasFields()) {
    verifyFieldsKernel(plan, c);
    PromiseChecker fusion = c.forPlanner("planFieldsFusion");
    verifyFieldsFusion(plan, fusion);
    return;
  }
  verifyStreamingGeometry(plan, options, c);
  verifySlices(plan, c);
  PromiseChecker lowRank = c.forPlanner("planLowRank");
  verifyLowRank(plan, options, lowRank);
  PromiseChecker paired = c.forPlanner("planPairedOrder");
  verifyPaired(plan, options, paired);
  PromiseChecker packed = c.forPlanner("planSimt");
  verifyPacked(plan, options, packed);
  PromiseChecker scaled = c.forPlanner("planScaled");
  verifyScaled(plan, options, scaled);
  PromiseChecker fusion = c.forPlanner("planSimtFusion");
  verifyFusion(plan, options, fusion);
}

} // namespace stencilc
