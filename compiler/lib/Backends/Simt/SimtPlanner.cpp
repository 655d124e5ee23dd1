//===- SimtPlanner.cpp - The CUDA-core (simt) plan of any stencil ----------===//
//
// Chooses the block geometry of the streaming kernel described at SimtPlan
// (Plan.h) and groups the stencil's reads into per-plane slices. The default
// geometry gives every block rows of 256 bytes or more, several outputs per
// thread and one 16-byte vector per item; it then shrinks where a large
// radius would overflow the registers (the queue) or shared memory (the
// plane).
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Common/PlannerRuns.h"
#include "Backends/Common/TunedPlans.h"
#include "Backends/Simt/SimtRankOne.h"

#include <algorithm>

#include <fmt/format.h>

namespace stencilc {

namespace {

int roundUp(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

int queueRegisters(const SimtPlan &sp) {
  const int perValue = sp.compute == Precision::FP64 ? 2 : 1;
  return sp.itemsPerThread * sp.queueLength() * sp.outputsX * perValue;
}

/// The stencil's reads grouped by plane offset, in the spec's offset order
/// (which the kernel and the emulator both follow).
std::vector<SimtSlice> slicesOf(const StencilSpec &spec, Precision compute) {
  std::vector<SimtSlice> slices;
  for (const Term &t : spec.terms) {
    int dz = 0, dy = 0, dx = 0;
    switch (spec.dims) {
    case 1:
      dx = t.offset.d[0];
      break;
    case 2:
      dz = t.offset.d[0];
      dx = t.offset.d[1];
      break;
    default:
      dz = t.offset.d[0];
      dy = t.offset.d[1];
      dx = t.offset.d[2];
      break;
    }
    if (slices.empty() || slices.back().dz != dz) {
      slices.push_back(SimtSlice{dz, {}});
    }
    slices.back().terms.push_back(SimtTerm{dy, dx, roundToStorage(t.coefficient, compute)});
  }
  return slices;
}

} // namespace

void deriveGeometry(const StencilSpec &spec, SimtPlan &sp) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  sp.haloX = roundUp(sp.radiusX, sp.vectorWidth);
  sp.planeRows = sp.tileY + 2 * sp.radiusY;
  sp.pitch = sp.tileX + 2 * sp.haloX;
  sp.planeBytes = sp.planeRows * sp.pitch * bytes;
  sp.itemsPerThread = ceilDiv(sp.items(), sp.threads);
  sp.groupsPerThread = ceilDiv(sp.groupsPerPlane(), sp.threads);
}

int SimtPlan::chunkFor(long long nz, long long ny, long long nx) const {
  const long long blocksXY = ((nx - 1) / tileX + 1) * ((ny - 1) / tileY + 1);
  int chunk = chunkZ;
  while (chunk > minChunkZ && blocksXY * ((nz - 1) / chunk + 1) < targetBlocks) {
    chunk = std::max(minChunkZ, chunk / 2);
  }
  return chunk;
}

namespace {

/// The block every stencil of a dimension starts from, as measured on an
/// H100: rows of 256 bytes or more, several outputs a thread, one 16-byte
/// vector an item (shrunk later where registers or shared memory run out).
void defaultBlock(const StencilSpec &spec, SimtPlan &sp) {
  const int r = spec.radius;
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  sp.compute = spec.precision == Precision::FP64 ? Precision::FP64 : Precision::FP32;
  sp.vectorWidth = 16 / bytes;
  sp.outputsX = sp.vectorWidth;
  sp.radiusX = r;
  sp.radiusY = spec.dims == 3 ? r : 0;
  sp.radiusZ = spec.dims >= 2 ? r : 0;
  switch (spec.dims) {
  case 1: // one line: 2 vectors per thread, no streaming
    sp.threads = 256;
    sp.tileX = sp.threads * sp.outputsX * 2;
    sp.tileY = 1;
    sp.chunkZ = 1;
    break;
  case 2: // rows streamed: a wide row segment, 32 rows per block
    sp.threads = 128;
    sp.tileX = sp.threads * sp.outputsX;
    sp.tileY = 1;
    sp.chunkZ = 32;
    sp.minChunkZ = 8;
    sp.targetBlocks = 4096;
    break;
  default: // planes streamed: 256-byte rows (512 for 4-byte types), 16 rows,
           // up to 64 planes per block
    sp.threads = bytes == 4 ? 256 : 128;
    sp.tileX = (bytes == 4 ? 512 : 256) / bytes;
    sp.tileY = 16;
    sp.chunkZ = 64;
    sp.minChunkZ = 16;
    sp.targetBlocks = 8192;
    break;
  }
}

/// The block the --plan-option values (or the tuned table) fix: they win
/// over the defaults, tile-x kept to whole 16-byte vectors.
void applyBlockOptions(const StencilSpec &spec, const PlanOptions &simt, SimtPlan &sp) {
  if (simt.threads) {
    sp.threads = simt.threads;
    // 1D and 2D size the row segment by the threads, as the defaults above.
    if (!simt.tileX && spec.dims <= 2) {
      sp.tileX = sp.threads * sp.outputsX * (spec.dims == 1 ? 2 : 1);
    }
  }
  if (simt.tileX) {
    sp.tileX = roundUp(simt.tileX, sp.vectorWidth);
  }
  if (simt.tileY && spec.dims == 3) {
    sp.tileY = simt.tileY;
  }
  if (simt.chunkZ && spec.dims >= 2) {
    sp.chunkZ = simt.chunkZ; // as asked, not halved at launch
    sp.minChunkZ = sp.chunkZ;
  }
}

/// The work a thread does, so that its queue of partial outputs fits the
/// registers: a queue that spills to local memory costs more than any of
/// more threads, fewer rows, then one output per item.
void fitQueueInRegisters(const StencilSpec &spec, int budget, SimtPlan &sp) {
  while (queueRegisters(sp) > budget) {
    if (sp.itemsPerThread > 1 && sp.threads < 256) {
      sp.threads *= 2;
    } else if (sp.itemsPerThread > 1 && sp.tileY > 1) {
      sp.tileY /= 2;
    } else if (sp.itemsPerThread > 1 && sp.tileX > sp.threads * sp.outputsX) {
      sp.tileX = sp.threads * sp.outputsX;
    } else if (sp.outputsX > 1 && !sp.packed) { // packed FMAs need pairs of outputs
      sp.outputsX = 1;
      sp.tileX = std::max(sp.vectorWidth, std::min(sp.tileX, sp.threads));
    } else {
      break; // one value per queue entry: the radius decides
    }
    deriveGeometry(spec, sp);
  }
}

/// The plane buffers and the block, so that the planes fit shared memory: a
/// ring of 4 filled by asynchronous copies where that measured faster (3D
/// fp32/tf32, 2D and 3D fp16/bf16 on the H100,
/// bench/results/2026-11-21-simt-h100-tuning2.txt), else two buffers, the
/// next plane fetched through registers. Give up ring stages (not below 3),
/// then the ring, then the second buffer, then rows, then columns (keeping
/// whole vectors) until it fits. (1D has one plane per block: nothing to
/// fetch ahead.) Buffers asked for may take the arch's opt-in maximum
/// (dynamic shared memory); the planner's own choice stays within the
/// static limit.
void fitPlanesInSharedMemory(const StencilSpec &spec, const PlanOptions &simt, SimtPlan &sp) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const bool ring = (spec.dims == 3 && bytes <= 4) || (spec.dims == 2 && bytes == 2);
  const int limit = simt.stages
                        ? std::max(simt.sharedMemoryLimit, info(simt.target).maxDynamicSharedBytes)
                        : simt.sharedMemoryLimit;
  sp.buffers = simt.stages ? simt.stages : ring ? 4 : 2;
  sp.l2PrefetchBytes = simt.l2Prefetch;
  while (sp.buffers > 3 && sp.sharedBytes() > limit) {
    --sp.buffers;
  }
  if (sp.buffers > 2 && sp.sharedBytes() > limit) {
    sp.buffers = 2;
  }
  if (spec.dims == 1 || sp.sharedBytes() > limit || sp.groupsPerThread > 8) {
    sp.buffers = 1;
  }
  while (sp.sharedBytes() > limit) {
    if (sp.tileY > 1) {
      sp.tileY /= 2;
    } else if (sp.tileX > sp.vectorWidth && sp.tileX > sp.outputsX) {
      sp.tileX = std::max(sp.vectorWidth, roundUp(sp.tileX / 2, sp.vectorWidth));
    } else {
      break;
    }
    deriveGeometry(spec, sp);
  }
}

/// The threads of a block with few items (large radius): idle threads only
/// take registers and barrier time. Then the fetch ahead, which a thread
/// does for at most 8 16-byte groups.
void trimThreads(const StencilSpec &spec, SimtPlan &sp) {
  while (sp.threads > 32 && sp.threads / 2 >= sp.items()) {
    sp.threads /= 2;
    deriveGeometry(spec, sp);
  }
  // A thread holds its part of the next plane in registers (two buffers) or
  // keeps where it lies (a ring): both only up to 8 16-byte groups a thread.
  if (sp.groupsPerThread > 8) {
    sp.buffers = 1;
  }
}

/// Why the block `sp` keeps the direct form although planLowRank chose the
/// low-rank form, or empty: the passes are straight-line code only; and
/// auto takes a 3D form only where a thread executes fewer operations a
/// point, counting the row passes over the plane window's halo rows.
std::string lowRankGeometryWhy(const SimtPlan &sp, const PlanOptions &simt) {
  if (!sp.lowRank.form) {
    return {};
  }
  const LowRankForm &f = *sp.lowRank.form;
  if (f.ops() * sp.outputsX * sp.itemsPerThread > simt.unrollLimit) {
    return "its passes are too many operations to unroll";
  }
  const double executed = f.executedOps(sp.planeRows, sp.tileY);
  if (simt.lowRank == LowRankRequest::Auto && executed >= sp.lowRank.directOps) {
    return fmt::format("the row passes over the plane window's {} rows for {} rows of outputs "
                       "take {:.4g} operations a point, not fewer than the direct form's {}",
                       sp.planeRows, sp.tileY, executed, sp.lowRank.directOps);
  }
  return {};
}

/// Why the CUDA cores compute the stencil as they do, in one line: the
/// arithmetic each precision gets there.
std::string simtChoice(Precision p) {
  switch (p) {
  case Precision::FP64:
    return "CUDA cores: fp64 loads and fp64 FMAs";
  case Precision::FP32:
    return "CUDA cores: fp32 loads and fp32 FMAs";
  case Precision::TF32:
    return "CUDA cores: tf32 on the simt path is plain fp32 arithmetic "
           "(inputs and coefficients are not rounded to tf32)";
  case Precision::FP16:
  case Precision::BF16:
    break;
  }
  return fmt::format("CUDA cores: {} loads in 16-byte vectors, widened to "
                     "fp32; fp32 FMAs; one rounding to {} on store",
                     keyword(p), keyword(p));
}

/// Why a plan takes packed 16-bit arithmetic, for --emit=plan.
std::string packedChoice(Precision p) {
  return fmt::format("CUDA cores: {0} loads in 16-byte vectors; packed {1} FMAs (__hfma2), two "
                     "adjacent columns an instruction, every operation rounded to {0}, as "
                     "--plan-option arith=packed asked (opt-in: two outputs an FMA instruction, "
                     "larger rounding errors than fp32 FMAs)",
                     keyword(p), p == Precision::BF16 ? "__nv_bfloat162" : "__half2");
}

/// Puts the 2D low-rank form of `plan` in the paired order (LowRankForm::
/// paired), unless `request` is Off, where it has its shape (pairedShape)
/// and both kernels keep it:
/// the step kernel's outputs of a block and an item start at even columns,
/// and a fused pass, if any, is the queued form (the only one written for
/// it) with even strips, halos, thread columns and batches, so that every
/// thread's and batch's first index is even.
void planPairedOrder(Plan &plan, PairsRequest request) {
  SimtPlan &sp = plan.simt();
  if (request == PairsRequest::Off ||
      !pairedShape(plan.spec, sp.lowRank.form ? &*sp.lowRank.form : nullptr) || sp.tileX % 2 != 0 ||
      sp.outputsX % 2 != 0) {
    return;
  }
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  if (s.fusedSteps > 1 && k.band) {
    return; // the band (fused_band.cuh) computes the unpaired order
  }
  if (s.fusedSteps > 1 && !(k.queued && k.columnsPerThread() % 2 == 0 && k.batch % 2 == 0 &&
                            k.storedColumns() % 2 == 0 && k.halo % 2 == 0)) {
    return;
  }
  sp.lowRank.form->paired = true;
}

/// The simt plan with exactly the parameters `simt` asks for.
Plan planSimtWith(const StencilSpec &spec, const PlanOptions &simt) {
  Plan plan;
  plan.spec = spec;
  plan.target = simt.target;

  SimtPlan &sp = plan.kernel.emplace<SimtPlan>();
  // The pipeline refuses arith=packed where it cannot apply
  // (packedUnavailable); a plan of anything else keeps the widened form.
  sp.packed = simt.arith == ArithRequest::Packed && spec.dims == 2 &&
              isSixteenBit(spec.precision) && !spec.hasFields();
  const auto fitBlock = [&] {
    defaultBlock(spec, sp);
    applyBlockOptions(spec, simt, sp);
    deriveGeometry(spec, sp);
    fitQueueInRegisters(spec, simt.queueRegisterBudget, sp);
    fitPlanesInSharedMemory(spec, simt, sp);
    trimThreads(spec, sp);
  };
  // The low-rank form first: in 3D its row passes take shared memory
  // beside the planes (SimtPlan::passBytes).
  sp.compute = spec.precision == Precision::FP64 ? Precision::FP64 : Precision::FP32;
  sp.lowRank = planLowRank(spec, sp.compute, sp.packed ? LowRankRequest::Off : simt.lowRank);
  if (sp.packed) {
    sp.lowRank.why = "arith=packed evaluates the terms directly";
  }
  keepMeasured3D(spec, simt, sp.lowRank);
  fitBlock();
  // Packed FMAs take their coefficients in the element type, rounded once.
  sp.slices = slicesOf(spec, sp.packed ? spec.precision : sp.compute);
  // Packed FMAs are straight-line code only (no coefficient table).
  sp.unrolled = sp.packed || static_cast<int>(spec.points()) * sp.outputsX * sp.itemsPerThread <=
                                 simt.unrollLimit;
  if (std::string why = lowRankGeometryWhy(sp, simt); !why.empty()) {
    sp.lowRank.form.reset();
    sp.lowRank.fellBack = true;
    sp.lowRank.why = std::move(why);
    fitBlock(); // the direct form's block, without the passes' shared memory
  }
  sp.scaled = planScaled(spec, sp, simt.scale);
  if (sp.scaled.on()) {
    scaleSlices(sp);
  }
  plan.choice = sp.packed ? packedChoice(spec.precision) : simtChoice(spec.precision);
  planSimtFusion(plan, simt);
  planPairedOrder(plan, simt.pairs);
  planRankOne(plan, simt);
  return plan;
}

} // namespace

Plan planSimt(const StencilSpec &spec, const PlanOptions &options) {
  ++plannerRuns().simt;
  const auto planWith = [&](const PlanOptions &o) { return planSimtWith(spec, o); };
  // A CUDA-core kernel depends on the architecture only through the shared
  // memory it may opt in to: an entry measured on another architecture
  // serves here when its plan keeps to the static 48 KiB every one has.
  const auto sameKernelOn = [&](const TunedPlan &t) {
    PlanOptions withTuned = options;
    applyTuned(t, withTuned);
    return !planWith(withTuned).simt().dynamicShared();
  };
  const TunedPlan *tuned =
      findTuned(tunedPlans(), spec, options.target, BackendKind::Simt, sameKernelOn);
  if (tuned || spec.precision != Precision::TF32) {
    return planTuned(tuned, options, planWith);
  }
  // tf32 on the CUDA cores is fp32 arithmetic on float elements, fp32's
  // kernel: where tf32 has no entry of its own, fp32's serves (box2d49p tf32
  // stepped 309 GStencil/s with the default block, fp32 391 with its entry,
  // on an H200, docs/performance.md).
  StencilSpec asFP32 = spec;
  asFP32.precision = Precision::FP32;
  tuned = findTuned(tunedPlans(), asFP32, options.target, BackendKind::Simt, sameKernelOn);
  Plan plan = planTuned(tuned, options, planWith);
  if (tuned) {
    plan.choice += ", fp32's entry (the same kernel)";
  }
  return plan;
}

} // namespace stencilc
