//===- FieldsFusion.cpp - How many steps NAME_run fuses for a stencil of fields ===//
//
// The schedule of a stencil of fields on CUDA cores (issue 36): T, the steps
// a pass of NAME_run fuses in stencilc/device/fields_fused.cuh, and the
// geometry of that kernel, which is fused.cuh's strip with the fields'
// streams beside it (docs/design.md, "Fused passes for fields and at the
// arithmetic limit"); and its lines of `--emit=plan`, with the bytes a
// point and step moves fused and unfused.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtFusion.h"
#include "Backends/Simt/SimtPlanner.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

namespace stencilc {

int steppedReach(const StencilSpec &spec) {
  int r = 0;
  for (const FieldTerm &t : spec.fieldTerms) {
    if (t.field == spec.steppedField) {
      for (int a = 0; a < spec.dims; ++a) {
        r = std::max(r, std::abs(t.offset.d[a]));
      }
    }
  }
  return r;
}

namespace {

/// Whether term `t` reads its field off the point.
bool offPoint(const StencilSpec &spec, const FieldTerm &t) {
  for (int a = 0; a < spec.dims; ++a) {
    if (t.offset.d[a] != 0) {
      return true;
    }
  }
  return false;
}

/// Why the fused kernels cannot take `spec`, or empty: it is 2D or 3D,
/// reads the previous level at the point only (a level's window keeps the
/// stepped field alone) and never uses a level as a coefficient field.
std::string fieldsUnfusable(const StencilSpec &spec) {
  if (spec.dims == 1) {
    return "the fused kernels of stencils of fields are 2D and 3D";
  }
  if (std::string boundary = unfusable(spec); !boundary.empty()) {
    return boundary;
  }
  if (steppedReach(spec) == 0) {
    return fmt::format("{} is read at the point only: a step has no neighbours to fuse",
                       spec.fields[spec.steppedField].name);
  }
  for (const FieldTerm &t : spec.fieldTerms) {
    const bool level = t.coefficientField >= 0 && (t.coefficientField == spec.steppedField ||
                                                   t.coefficientField == spec.previousField);
    if (level) {
      return fmt::format("the fused kernel does not take {} as a coefficient field",
                         spec.fields[t.coefficientField].name);
    }
    if (t.field == spec.previousField && offPoint(spec, t)) {
      return fmt::format("the fused kernel reads the previous level {} at the point only",
                         spec.fields[spec.previousField].name);
    }
  }
  return {};
}

/// The fused geometry measured best on an H200 (NAME_run of 1000 steps at
/// 8192^2, bench/fields/run-bench.sh; bench/results/2026-11-28-2108-fields-
/// fused-variants-h200.txt) for a stencil of fields whose stepped field
/// reaches 1, by element size: wave2d fp32 (a point source field, time
/// levels) at T 6, one row a level at a time, strips of 64 columns, 4
/// blocks a multiprocessor: 459 GStencil/s, 2.11x one step a launch;
/// varheat fp64 (a coefficient field read at 5 points) at T 4, two rows,
/// 168.8 GStencil/s, 1.09x (182.8, 1.18x, once reads beside the point came
/// from the thread's own loads: bench/results/2026-11-28-2232-fields-fused-
/// beside-loads-h200.txt). 16-bit fields take fp32's; other kinds are
/// unmeasured and take these geometries with T divided by the reach.
MeasuredFusion measuredFields(const StencilSpec &spec) {
  const bool eight = elementBytes(spec.precision) == 8;
  MeasuredFusion m{};
  m.dims = spec.dims;
  m.shape = spec.shape;
  m.radius = 1;
  m.elementBytes = static_cast<int>(elementBytes(spec.precision));
  const int r = steppedReach(spec);
  m.steps = std::max(1, (eight ? 4 : 6) / r); // a larger reach divides T
  // A thread's columns hold the reach (its neighbours come from the next
  // thread only), in whole accesses: 2 columns, or 4 or 8 past a reach of 2.
  m.width = r <= 2 ? 64 : r <= 4 ? 128 : 256;
  m.threads = 128;
  m.batch = eight ? 2 : 1;
  m.chunk = 128;
  m.minBlocks = 4;
  m.gstencils = eight ? 182.8 : 459.2;
  m.stepGStencils = eight ? 154.8 : 217.2;
  return m;
}

/// The spec the single-field geometry is planned for: the stepped field's
/// reach as the radius (the window carries that field alone), and in 3D
/// its shape: a box where some read of it reaches across planes and rows
/// or columns at once (fused3d.cuh's kPlaneSpan), else a star.
StencilSpec geometrySpec(const StencilSpec &spec) {
  StencilSpec s = spec;
  s.radius = steppedReach(spec);
  s.shape = Shape::Star;
  for (const FieldTerm &t : spec.fieldTerms) {
    if (spec.dims == 3 && t.field == spec.steppedField && t.offset.d[0] != 0 &&
        (t.offset.d[1] != 0 || t.offset.d[2] != 0)) {
      s.shape = Shape::Box;
    }
  }
  return s;
}

/// The fewest grid points NAME_run fuses. On an H200, 1000 steps
/// (bench/results/2026-11-28-2146-fields-fused-sizes-h200.txt): varheat
/// fp64 fused ran at 0.44x one step a launch at 1024^2, 0.78x at 2048^2,
/// 0.89x at 4096^2 and 1.10x at 8192^2 (the one step holds 125-154
/// GStencil/s at every size, the fused pass needs long chunks of rows);
/// wave2d fp32 at 1.14-1.36x, 1.33-1.47x, 1.48-1.81x and 1.81-2.07x. fp64
/// fuses from 8192^2, fp32 and 16-bit every grid; with --plan-option
/// fuse=T every grid fuses.
long long minGridPoints(const StencilSpec &spec) {
  return elementBytes(spec.precision) == 8 ? 8192LL * 8192 : 0;
}

/// Shared memory the receivers' kernel of a pass of T steps takes a block
/// (fields_run.cuh's recordCone: 4 warps in 2D, 1 in 3D, each 3 squares or
/// cubes of side 2Tr + 1 in the arithmetic type, and with sources a list of
/// 32 of 16 bytes).
int coneBytes(const StencilSpec &spec, int steps) {
  const int side = 2 * steps * steppedReach(spec) + 1;
  const int warps = spec.dims == 3 ? 1 : 4;
  const int points = side * side * (spec.dims == 3 ? side : 1);
  return warps * (3 * points * (spec.precision == Precision::FP64 ? 8 : 4) +
                  (spec.injectsSources ? 32 * 16 : 0));
}

/// The most of `steps` whose receivers' cone fits what `target` lets a block
/// take, and why fewer where fewer ("" where all fit).
int stepsTheConeAllows(const StencilSpec &spec, int steps, Arch target, std::string &why) {
  const int most = info(target).maxDynamicSharedBytes;
  int fits = steps;
  while (spec.recordsReceivers && fits > 1 && coneBytes(spec, fits) > most) {
    --fits;
  }
  if (fits < steps) {
    why = fmt::format("the receivers' kernel of {} fused steps needs {} bytes of shared memory a "
                      "block and {} allows {}: {} steps fit",
                      steps, coneBytes(spec, steps), keyword(target), most, fits);
  }
  return fits;
}

/// The most of `steps` whose 3D window (fused3d.cuh's rule for the stepped
/// field's reads) leaves a row and a column to store and whose rings fit
/// what `target` lets a block take, and why fewer where fewer.
int stepsThe3DWindowAllows(const StencilSpec &spec, int steps, Arch target, std::string &why) {
  const int most = info(target).maxDynamicSharedBytes;
  const auto fits = [&](int t) {
    const FusedKernel k = fusedGeometry(geometrySpec(spec), t, nullptr);
    return k.storedColumns() >= 1 && k.storedRows() >= 1 && k.sharedBytes <= most;
  };
  int t = steps;
  while (t > 1 && !fits(t)) {
    --t;
  }
  if (t < steps) {
    why = fmt::format("a 3D window of {} fused steps leaves no point to store or needs more shared "
                      "memory than {} allows ({} bytes): {} steps fit",
                      steps, keyword(target), most, t);
  }
  return t;
}

/// Where the fused geometry of `spec` comes from (`exact`: its kind is the
/// one measured).
std::string geometrySource(const StencilSpec &spec, const MeasuredFusion &m, bool exact) {
  if (spec.dims == 3) {
    return "fused3d.cuh's rule for the stepped field's reads, as --plan-option fuse asked (one "
           "step a launch measured faster)";
  }
  return exact ? fmt::format("as measured best for stencils of fields in {} on an H200 "
                             "({:g} GStencil/s at T = {}, {:.2f}x one step a launch)",
                             keyword(spec.precision), m.gstencils, m.steps,
                             m.gstencils / m.stepGStencils)
               : std::string("as measured best for stencils of fields of reach 1 in "
                             "fp32 or fp64 on an H200; this kind is not measured");
}

/// Why a 3D stencil of fields runs one step a launch unless fuse=T asks
/// for passes: on an H200 (bench/fields/run-bench.sh with BENCH=3d, 512^3,
/// 1000 steps; bench/results/2026-11-29-0420-fields-fused-3d-h200.txt) the
/// fused passes ran at 0.92x one step a launch (a wave of reach 1, T 3),
/// 0.18x (reach 2, T 2) and 0.04x (reach 4, T 2): each thread's register
/// queues of every level take all 255 registers and spill (ncu: one block
/// of 256 threads a multiprocessor, 12.5 % occupancy at reach 2).
const char *const kThreeDMeasuredSlower =
    "3D stencils of fields measured faster one step a launch on an H200 than fused (a wave of "
    "reach 1: 0.92x at T = 3; reach 2: 0.18x and reach 4: 0.04x at T = 2, 512^3: the register "
    "queues of the fused levels spill); --plan-option fuse=T fuses them";

} // namespace

void planFieldsFusion(Plan &plan, const PlanOptions &options) {
  const StencilSpec &spec = plan.spec;
  Schedule &s = plan.schedule;
  const int asked = options.fusedSteps;
  if (settledUnfused(s, asked, fieldsUnfusable(spec))) {
    return;
  }
  if (spec.dims == 3 && asked == 0) {
    s.why = kThreeDMeasuredSlower;
    return;
  }
  const MeasuredFusion m = measuredFields(spec);
  std::string lowerWhy;
  int steps = stepsTheConeAllows(spec, asked ? asked : m.steps, plan.target, lowerWhy);
  if (spec.dims == 3) {
    steps = stepsThe3DWindowAllows(spec, steps, plan.target, lowerWhy);
  }
  s.lowered = asked > steps;
  if (steps == 1 && !lowerWhy.empty()) {
    s.why = lowerWhy;
    return;
  }
  if (steps == 1) {
    s.why = fmt::format("{} reaches {}: T = 6 / r (fp64: 4 / r) is 1",
                        spec.fields[spec.steppedField].name, steppedReach(spec));
    return;
  }
  s.fusedSteps = steps;
  const bool threeD = spec.dims == 3;
  s.fused = fusedGeometry(geometrySpec(spec), steps, threeD ? nullptr : &m);
  // fuse=T asks for fused passes on every grid.
  s.fused.minGridPoints = asked ? 0 : minGridPoints(spec);
  const bool exact = !threeD && steppedReach(spec) == 1 &&
                     (spec.precision == Precision::FP32 || spec.precision == Precision::FP64);
  s.fused.source = geometrySource(spec, m, exact);
  s.why = !lowerWhy.empty() ? lowerWhy
          : asked           ? fmt::format("--plan-option fuse={}", asked)
                            : fmt::format("{} for a stencil of fields whose {} reaches {}",
                                exact ? "measured best" : "as measured, T / r,",
                                          spec.fields[spec.steppedField].name, steppedReach(spec));
}

/// Bytes a point and step moves to and from memory one step a launch: every
/// field read once and the new level written.
int unfusedBytes(const StencilSpec &spec) {
  return static_cast<int>((spec.fields.size() + 1) * elementBytes(spec.precision));
}

/// The same for a pass of T fused steps, per step: the stepped field (and
/// the previous level) read and written once a pass, every other field read
/// once a pass; the halo's re-reads come on top.
double fusedBytes(const StencilSpec &spec, int steps) {
  const int levels = spec.previousField >= 0 ? 2 : 1;
  const std::size_t others = spec.fields.size() - levels;
  return double((2 * levels + others) * elementBytes(spec.precision)) / steps;
}

namespace {

/// The 3D kernel's lines: fused3d.cuh's window streamed along z.
void printFieldsFused3D(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  const int r = steppedReach(spec);
  const std::string &stepped = spec.fields[spec.steppedField].name;
  os << fmt::format("  fused      {} threads (stencilc/device/fields_fused3d.cuh); windows of {} x "
                    "{} (rows x columns), {} x {} stored: a halo of {} rows and {} columns each "
                    "side (T x {}'s reach {} = {}, columns in whole {}-byte accesses); {} output "
                    "planes per block streamed along z; geometry {}\n",
                    k.threads, k.height, k.width, k.storedRows(), k.storedColumns(), k.haloY,
                    k.halo, stepped, r, s.fusedSteps * r, k.accessBytes, k.chunkRows, k.source);
  os << fmt::format("  streams    {} in registers, each thread's {} x {} points of every level "
                    "and plane still read, the rows above and below from {} bytes of shared "
                    "memory{}; every other field read at each level's plane from global memory; "
                    "each level's coefficients folded from its step's parameters\n",
                    stepped, k.rows, k.accessBytes / static_cast<int>(elementBytes(spec.precision)),
                    k.sharedBytes,
                    spec.previousField >= 0
                        ? fmt::format(", {} read at level 1 and level t - 2's plane after",
                                      spec.fields[spec.previousField].name)
                        : std::string());
}

/// The 2D kernel's lines: fused.cuh's strips.
void printFieldsFused2D(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  const int r = steppedReach(spec);
  os << fmt::format(
      "  fused      {} threads ({} warps, a strip each; stencilc/device/"
      "fields_fused.cuh); strips of {} columns, {} stored: a halo of {} columns each "
      "side (T x {}'s reach {} = {}, whole {}-byte accesses); {} output rows per "
      "block, {} a level at a time; geometry {}\n",
      k.threads, k.threads / 32, k.width, k.storedColumns(), k.halo,
      spec.fields[spec.steppedField].name, r, s.fusedSteps * r, k.accessBytes, k.chunkRows,
      k.batch == 1 ? std::string("one row") : fmt::format("{} rows", k.batch), k.source);
  os << fmt::format("  streams    {} in a window of {} rows a level in registers{}; every other "
                    "field read at each level from global memory (L1 and L2 serve the T reads "
                    "of a point); each level's coefficients folded from its step's parameters\n",
                    spec.fields[spec.steppedField].name, k.batch + 2 * r,
                    spec.previousField >= 0
                        ? fmt::format(", {} read at level 1 and level t - 2's window after",
                                      spec.fields[spec.previousField].name)
                        : std::string());
}

} // namespace

void printFieldsFused(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const Schedule &s = plan.schedule;
  const FusedKernel &k = s.fused;
  if (spec.dims == 3) {
    printFieldsFused3D(plan, os);
  } else {
    printFieldsFused2D(plan, os);
  }
  os << fmt::format(
      "  bytes      {} a point and step one step a launch; {:.1f} fused ({} steps a "
      "pass), plus the halo's re-reads ({:.1f} % of the point-levels computed are "
      "redundant){}\n",
      unfusedBytes(spec), fusedBytes(spec, s.fusedSteps), s.fusedSteps, 100.0 * k.redundantShare,
      k.minGridPoints > 0 ? fmt::format("; grids of fewer than {} points run one step a launch, "
                                        "which measured faster there",
                                        k.minGridPoints)
                          : std::string());
}

} // namespace stencilc
