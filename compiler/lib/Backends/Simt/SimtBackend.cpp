//===- SimtBackend.cpp - The CUDA-core backend behind the Backend interface ===//
//
// The simt backend's answers to what the pipeline and the shared code
// generator ask of every backend (Common/Backend.h): its planners, its plan
// printer and emitters, its header notes and its emulators, registered by
// initializeSimtBackend().
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtBackend.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <set>

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/Backend.h"
#include "Backends/Common/Band.h"
#include "Backends/Common/CodeGen.h"
#include "Backends/Common/EmitterParts.h"
#include "Backends/Common/PlanText.h"
#include "Backends/Simt/FieldsEmulator.h"
#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtCodeGen.h"
#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Simt/SimtRankOne.h"

namespace stencilc {

namespace {

/// When the fused 2D kernel shares a window row's side columns (fused.cuh's
/// SidesOf): where one row offset alone has terms that reach sideways (every
/// star), just before that row is read, unless the plan measured faster
/// sharing at entry; otherwise as each row enters its window.
const char *sidesShared(const Plan &plan) {
  std::set<int> rows; // the dy of the terms with dx != 0
  for (const Term &t : plan.spec.terms) {
    if (t.offset.d[1] != 0) {
      rows.insert(t.offset.d[0]);
    }
  }
  if (rows.empty()) {
    return "none shared (no term reaches sideways)";
  }
  if (rows.size() > 1 || plan.simt().lowRank.form || plan.schedule.fused.sidesAtEntry) {
    return "side columns shared as a row enters its window";
  }
  return "side columns shared just before the one row offset that reads them, so they hold no "
         "registers in between";
}

/// What a thread of the fused 2D kernel keeps of each level in registers.
std::string levelsKept(const Plan &plan) {
  const FusedKernel &k = plan.schedule.fused;
  const int r = plan.spec.radius;
  if (k.queued) {
    return fmt::format("T queues of {} partial rows by {} {} columns in registers (the queued "
                       "form: each row of a level, once computed, is added into the {} rows of "
                       "the next that it reaches{} and dropped; its side columns shared as it is "
                       "computed)",
                       k.batch + 2 * r, k.columnsPerThread(), elementTypeName(plan.simt().compute),
                       2 * r + 1, plan.simt().lowRank.form ? ", through its row passes," : "");
  }
  return fmt::format("T windows of {} rows by {} {} columns in registers ({})", k.batch + 2 * r,
                     k.columnsPerThread() + 2 * r, elementTypeName(plan.spec.precision),
                     sidesShared(plan));
}

/// The band's line of a plan under a folding rule (fused_band.cuh).
void printFusedBand(const Plan &plan, const BandKernel &band, llvm::raw_ostream &os) {
  const int w = plan.schedule.fusedSteps * plan.spec.radius;
  const std::string_view values = plan.spec.precision == Precision::FP64 ? "doubles" : "floats";
  const std::string how =
      plan.spec.dims == 1
          ? fmt::format("a block of 128 threads at each end of the line, two levels of {} {} "
                        "in {} bytes of shared memory (one block for a line within {} of its "
                        "size)",
                        4 * w, values, band.sharedBytes, 2 * w)
      : plan.spec.dims == 2
          ? bandKernelText(band, w, values)
          : fmt::format("patches of {} x {} positions of each face, {} x {} stored, a thread a "
                        "position walking its {} lines across (an x face's loaded and stored a "
                        "warp along them), two levels of {} lines of {} x {} + 1 {} in "
                        "{} bytes of shared memory (on an axis within {} of its size the whole "
                        "axis and {} past each end)",
                        kBandPatchRows, kBandPatchCols, kBandPatchRows - 2 * w,
                        kBandPatchCols - 2 * w, 3 * w, 3 * w, kBandPatchRows, kBandPatchCols,
                        values, band.sharedBytes, 2 * w, w);
  os << fmt::format("  band       after each pass, {}: the points within T r = {} of an edge, "
                    "the pass's levels step by step with each level folded at the edge, in the "
                    "fused kernel's arithmetic (stencilc/device/band.cuh, fused_band.cuh): {}; the "
                    "fused kernel, which reads 0 outside the grid, is exact farther inside\n",
                    keyword(plan.spec.boundary), w, how);
}

/// The fused kernel's lines of a 2D plan: warp strips, registers.
void printFused2D(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  os << fmt::format(
      "  fused      {} threads ({} warps, a strip each); strips of {} columns, {} "
      "stored: a halo of {} columns each side (T x r = {}, whole {}-byte accesses); "
      "{} output rows per block, {} rows a level at a time{}; geometry {}\n",
      k.threads, k.threads / 32, k.width, k.storedColumns(), k.halo, s.fusedSteps * spec.radius,
      k.accessBytes, k.chunkRows, k.batch,
      k.prefetchRows > 0
          ? fmt::format(", an L2 prefetch {} rows ahead inside the grid", k.prefetchRows)
          : "",
      k.source);
  os << fmt::format("  fused work {:.1f} % of the point-levels computed are redundant (the halo "
                    "columns, and the rows beside a block's own that each level recomputes); no "
                    "shared memory: each thread keeps {}, {} block{} per multiprocessor asked of "
                    "the register allocator\n",
                    100.0 * k.redundantShare, levelsKept(plan), k.minBlocks,
                    k.minBlocks == 1 ? "" : "s");
  if (k.band) {
    printFusedBand(plan, *k.band, os);
  }
}

/// The fused kernel's lines of a 1D plan: segments in shared memory.
void printFused1D(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  os << fmt::format("  fused      {} threads; segments of {} points, {} stored: a halo of {} "
                    "points each side (T x r = {}, whole 16-byte vectors); geometry {}\n",
                    k.threads, k.width, k.storedColumns(), k.halo, s.fusedSteps * spec.radius,
                    k.source);
  os << fmt::format("  fused work {:.1f} % of the point-levels computed are redundant (the halo "
                    "points); shared memory {} bytes (two buffers of the segment, levels "
                    "ping-ponging); registers: {} {} a point read per level\n",
                    100.0 * k.redundantShare, k.sharedBytes, 2 * spec.radius + 1,
                    elementTypeName(spec.precision));
  if (k.band) {
    printFusedBand(plan, *k.band, os);
  }
}

/// What a fused 3D pass of the low-rank form keeps beside the levels'
/// points (fused3d.cuh): each point's plane values of the planes still
/// read, in the arithmetic type; nothing for the direct form.
std::string formValues(const SimtPlan &sp) {
  if (!sp.lowRank.form || sp.lowRank.form->dims != 3) {
    return {};
  }
  const int values = sp.lowRank.form->planeValues;
  return fmt::format(", and their {} plane value{} ({}) of each plane still read", values,
                     values == 1 ? "" : "s", sp.compute == Precision::FP64 ? "double" : "float");
}

/// The staged input planes of a 3D pass (FusedKernel::stagedPlanes), as the
/// plan's shared-memory clause ends, or nothing.
std::string stagedPlanesText(const FusedKernel &k) {
  if (k.stagedPlanes == 0) {
    return "";
  }
  return fmt::format(", and {} slots of each thread's input points: a pass of several levels "
                     "inside the grid copies its input planes {} ahead by cp.async (measured "
                     "faster for this kind)",
                     k.stagedPlanes + 2, k.stagedPlanes);
}

/// How a 3D pass orders its planes where the split barrier does
/// (FusedKernel::splitBarrier), as the plan's shared-memory clause ends, or
/// nothing.
std::string splitBarrierText(const FusedKernel &k) {
  if (!k.splitBarrier) {
    return "";
  }
  return ", and a split barrier's: a pass of several levels orders its planes by an mbarrier that "
         "a thread arrives at after its last edge rows of a plane and waits on before it next "
         "reads any, each level's ring a plane deeper";
}

/// The fused kernel's lines of a 3D plan: windows streamed along z, each
/// thread's points of every level in registers, edge rows in shared memory.
void printFused3D(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  const int r = spec.radius;
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int cols = k.accessBytes / bytes;
  os << fmt::format("  fused      {} threads; windows of {} x {} (rows x columns), {} x {} stored: "
                    "a halo of {} rows and {} columns each side (T x r = {}, columns in whole "
                    "threads' accesses); {} output planes per block streamed along z; geometry "
                    "{}\n",
                    k.threads, k.height, k.width, k.storedRows(), k.storedColumns(), k.haloY,
                    k.halo, s.fusedSteps * r, k.chunkRows, k.source);
  os << fmt::format(
      "  fused work {:.1f} % of the point-levels computed are redundant (the halo, "
      "and the planes a block streams beside its own); shared memory {} bytes (the "
      "levels' rings of edge rows{}{}); registers: each thread keeps its {} x {} (rows "
      "x columns) {} points of every level and plane still read{}, {} block{} per "
      "multiprocessor asked of the register allocator\n",
      100.0 * k.redundantShare, k.sharedBytes, stagedPlanesText(k), splitBarrierText(k), k.rows,
      cols, elementTypeName(spec.precision), formValues(plan.simt()), k.minBlocks,
      k.minBlocks == 1 ? "" : "s");
  if (k.band) {
    printFusedBand(plan, *k.band, os);
  }
}

/// The outputs one block computes, in index order.
std::vector<int> blockTile(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  switch (plan.spec.dims) {
  case 1:
    return {sp.tileX};
  case 2: // a stencil of fields: tileY rows of threads, a chunk of rows each
    return {plan.spec.hasFields() ? sp.tileY * sp.chunkZ : sp.chunkZ, sp.tileX};
  default:
    return {sp.chunkZ, sp.tileY, sp.tileX};
  }
}

/// The extents past which NAME_step is refused: the CUDA-core kernels put
/// rows or planes of blocks along y and z.
std::string limitNote(const Plan &plan) {
  constexpr long long MostBlocks = 65535;
  const int dims = plan.spec.dims;
  if (dims == 1) {
    return {}; // blocks along x only
  }
  const SimtPlan &sp = plan.simt();
  if (plan.spec.hasFields()) { // chunks of chunkZ outputs along z (3D) or y (2D)
    const int chunk = sp.chunkZ;
    if (dims == 2) {
      const long long rows = static_cast<long long>(sp.tileY) * chunk;
      return blockLimitSentence("ny", std::min<long long>(MostBlocks * rows, INT32_MAX),
                                fmt::format("{} rows", rows));
    }
    return blockLimitSentence("ny", MostBlocks * sp.tileY, fmt::format("{} rows", sp.tileY)) +
           blockLimitSentence("nz", MostBlocks * chunk,
                              chunk == 1 ? std::string("1 plane")
                                         : fmt::format("{} planes", chunk));
  }
  std::string text = blockLimitSentence(
      dims == 2 ? "ny" : "nz", std::min<long long>(MostBlocks * sp.chunkZ, INT32_MAX),
      fmt::format("{} {}", sp.chunkZ, dims == 2 ? "rows" : "planes"));
  if (dims == 3) {
    text += blockLimitSentence("ny", MostBlocks * sp.tileY, fmt::format("{} rows", sp.tileY));
  }
  return text;
}

/// NAME_run's fused passes, for the header. The fused kernels put blocks
/// along x only (1D), rows of blocks along y (2D), or windows along y and
/// chunks of planes along z (3D).
std::string fusedRunNote(const Plan &plan) {
  const Schedule &s = plan.schedule;
  if (s.rankOne) {
    return fmt::format("\n* It runs passes of {} steps as one stencil, the {} steps composed (rank "
                       "1),\n* each with the points within T r of an edge step by step beside it, "
                       "and single\n* steps for the rest; within the rounding of the composed "
                       "weights, what as many\n* single steps give (docs/generated-code.md).",
                       s.fusedSteps, s.fusedSteps);
  }
  const auto limit = [](std::string_view axis, long long per, std::string_view unit) {
    return blockLimitSentence(axis, std::min<long long>(65535 * per, INT32_MAX),
                              fmt::format("{} {}", per, unit));
  };
  const FusedKernel &k = s.fused;
  const int dims = plan.spec.dims;
  const std::string limits =
      dims == 1   ? std::string()
      : dims == 2 ? limit("ny", k.chunkRows, "rows")
                  : limit("ny", k.storedRows(), "rows") + limit("nz", k.chunkRows, "planes");
  const std::string band =
      k.band ? std::string(",\n* each followed by the points within T r of an edge step by step")
             : std::string();
  return fmt::format("\n* It runs passes of {} fused steps over memory and one pass of the "
                     "remainder{};\n* the result is what as many single steps give.{}",
                     s.fusedSteps, band, limits);
}

/// The fused kernel's geometry in one phrase.
std::string fusedGeometryText(const Plan &plan) {
  const FusedKernel &k = plan.schedule.fused;
  switch (plan.spec.dims) {
  case 1:
    return fmt::format("segments of {} points with a halo of {}", k.width, k.halo);
  case 2:
    return fmt::format("warp strips of {} columns with a halo of {}, {} rows per block", k.width,
                       k.halo, k.chunkRows);
  default:
    return fmt::format("windows of {} x {} with halos of {} rows and {} columns, {} planes per "
                       "block",
                       k.height, k.width, k.haloY, k.halo, k.chunkRows);
  }
}

class SimtBackend final : public Backend {
public:
  BackendKind kind() const override { return BackendKind::Simt; }

  PlanOrRefusal plan(const StencilSpec &spec, const PlanOptions &options) const override {
    return verified(planSimt(spec, options), options);
  }
  PlanOrRefusal planFields(const StencilSpec &spec, const PlanOptions &options) const override {
    return verified(stencilc::planFields(spec, options), options);
  }
  void verify(const Plan &plan, const PlanOptions &options,
              std::vector<std::string> &problems) const override {
    verifySimtPlan(plan, options, problems);
  }
  bool takesOption(const StencilSpec &spec, const PlanOptionInfo &option) const override {
    return spec.hasFields() ? fieldsPlanTakesOption(spec, option.name)
                            : option.appliesTo(BackendKind::Simt);
  }

  std::string optionsText(const StencilSpec &spec) const override {
    return fieldsPlanOptionsText(spec);
  }

  void printPlanBody(const Plan &plan, llvm::raw_ostream &os) const override {
    printSimtPlanBody(plan, os);
  }
  void printFusedSchedule(const Plan &plan, llvm::raw_ostream &os) const override {
    const StencilSpec &spec = plan.spec;
    const Schedule &s = plan.schedule;
    os << fmt::format("  run        {} steps fused a pass of {}_run ({}); {}_step is one step\n",
                      s.fusedSteps, spec.name, s.why, spec.name);
    if (spec.hasFields()) {
      printFieldsFused(plan, os);
      return;
    }
    if (s.rankOne) {
      printRankOne(plan, os);
      return;
    }
    switch (spec.dims) {
    case 1:
      printFused1D(plan, os);
      break;
    case 2:
      printFused2D(plan, os);
      break;
    default:
      printFused3D(plan, os);
      break;
    }
    if (s.fused.takesSteps) {
      os << fmt::format("  step       {}_step launches the fused kernel for one level: {}\n",
                        spec.name, s.fused.stepWhy);
    }
  }
  std::string summarizePlan(const Plan &plan) const override {
    const std::string kernel = summarizeSimtPlan(plan);
    if (plan.schedule.fusedSteps == 1) {
      return kernel;
    }
    if (plan.schedule.rankOne) {
      return fmt::format("{}; NAME_run runs passes of {} steps composed (rank 1: "
                         "stencilc/device/rank_one.cuh, the band beside each)",
                         kernel, plan.schedule.fusedSteps);
    }
    return fmt::format("{}; NAME_run fuses {} steps a pass (stencilc/device/{}.cuh: {})", kernel,
                       plan.schedule.fusedSteps,
                       plan.spec.hasFields() ? "fields_fused"
                                             : fusedKernelNamespace(plan.spec.dims),
                       fusedGeometryText(plan));
  }

  std::string requirementLine(const std::vector<const Plan *> &) const override {
    return "// sm_80 or newer (CUDA cores only).";
  }
  std::string_view fileIncludes() const override {
    return templateSection("simt.cu.tpl", "file_includes");
  }
  void writeStencil(CodeWriter &w, const Plan &plan) const override { writeSimtStencil(w, plan); }
  void writeFieldsKernels(CodeWriter &w, const Plan &plan,
                          const FieldsNames &names) const override {
    writeSimtFieldsKernels(w, plan, names);
  }
  bool stepKernelTakesRange() const override { return true; }

  HeaderNotes headerNotes(const Plan &plan) const override {
    HeaderNotes notes;
    notes.tile = blockTile(plan);
    notes.limits = limitNote(plan);
    if (plan.schedule.fusedSteps > 1) {
      notes.fusedRun = fusedRunNote(plan);
    }
    if (plan.spec.hasFields()) {
      notes.fieldsKernels = fieldsThreadText(plan);
    }
    return notes;
  }

  void emulateRun(const Plan &plan, GridND &grid, int steps) const override {
    stencilc::emulateRun(plan, grid, steps);
  }
  void emulateFieldsStep(const Plan &plan, const std::vector<GridND> &fields,
                         const std::vector<double> &params, GridND &out) const override {
    stencilc::emulateFieldsStep(plan, fields, params, out);
  }
};

} // namespace

void initializeSimtBackend() {
  static const TemplateFile templates[] = {
#include "SimtTemplates.inc"
  };
  static const SimtBackend backend;
  registerTemplates(templates);
  registerBackend(backend);
}

} // namespace stencilc
