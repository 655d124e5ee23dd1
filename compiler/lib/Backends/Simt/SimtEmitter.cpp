//===- SimtEmitter.cpp - The CUDA-core kernel of one stencil ---------------===//
//
// Writes a simt plan as CUDA (Simt/templates/simt.cu.tpl): the plan's
// numbers as a Params struct for runtime/include/stencilc/device/simt.cuh,
// the plan's slices as straight-line FMAs whose coefficients are literals
// (or loops over a coefficient table for very large stencils), a kernel
// that runs simt::step, and the shared C entry points (HostApi.cpp).
//
//===----------------------------------------------------------------------===//
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "llvm/ADT/APFloat.h"

#include "Backends/Common/CodeGen.h"
#include "Backends/Common/EmitterParts.h"
#include "Backends/Simt/SimtCodeGen.h"
#include "Backends/Simt/SimtEmulator.h"
#include "Backends/Simt/SimtRankOne.h"

namespace stencilc {

namespace {

constexpr std::string_view KernelTemplate = "simt.cu.tpl";

std::string_view section(std::string_view name) { return templateSection(KernelTemplate, name); }

std::string kernelName(const Plan &plan) { return plan.spec.name + "_simt_kernel"; }

bool computesInFloat(const SimtPlan &sp) { return sp.compute != Precision::FP64; }

/// The index of a read relative to `at`: "dy * kPitch + o + dx".
std::string readIndex(int dy, int dx) {
  std::string text = dy != 0 ? fmt::format("{} * kPitch + o", dy) : std::string("o");
  if (dx != 0) {
    text += fmt::format(" {} {}", dx > 0 ? '+' : '-', dx > 0 ? dx : -dx);
  }
  return text;
}

/// Whether the unrolled slices read a bf16 plane through 32-bit words
/// (readPair): items of whole 16-byte vectors, so every item's `at` is
/// 16-byte aligned and each read's half is known when the kernel compiles.
bool readsPairs(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  return plan.spec.precision == Precision::BF16 && sp.unrolled && sp.outputsX == sp.vectorWidth;
}

/// A coefficient of a packed plan (already an fp16 or bf16 value) as the
/// bit pattern of the element type: "0x3000".
std::string sixteenBitPattern(double coefficient, Precision element) {
  return fmt::format("0x{:04X}", sixteenBits(coefficient, element));
}

/// `text` without the newlines it ends with.
std::string withoutTrailingNewlines(std::string text) {
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  return text;
}

/// A slice of a packed plan (section slice_packed) into `w`: its reads as
/// __hfma2 on the pair of outputs o and o + 1.
void writePackedSlice(CodeWriter &w, const Plan &plan, const SimtSlice &slice, int entry) {
  std::string fmas;
  for (const SimtTerm &t : slice.terms) {
    if (!fmas.empty()) {
      fmas += '\n';
    }
    fmas +=
        CodeWriter::filled(section("fma_packed"),
                           fmt::arg("bits", sixteenBitPattern(t.coefficient, plan.spec.precision)),
                           fmt::arg("index", readIndex(t.dy, t.dx)),
                           fmt::arg("coefficient", formatExact(t.coefficient)));
  }
  w.fillWith(section("slice_packed"), fmt::arg("dz", slice.dz),
             fmt::arg("count", slice.terms.size()), fmt::arg("entry", entry),
             fmt::arg("fmas", fmas));
}

/// The reads of a looped plan as two tables (kOffsets, kCoefficients).
std::string termTables(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  std::vector<std::string> offsets, coefficients;
  for (const SimtSlice &slice : sp.slices) {
    for (const SimtTerm &t : slice.terms) {
      offsets.push_back(std::to_string(t.dy * sp.pitch + t.dx));
      coefficients.push_back(numberLiteral(t.coefficient, computesInFloat(sp)));
    }
  }
  return CodeWriter::filled(section("term_tables"), fmt::arg("count", offsets.size()),
                            fmt::arg("compute", computesInFloat(sp) ? "float" : "double"),
                            fmt::arg("offsets", alignedTable(offsets, 8)),
                            fmt::arg("coefficients", alignedTable(coefficients, 8)));
}

/// The body of Stencil::addPlane: each slice's reads as FMAs, or as a loop
/// over its part of the tables.
std::string lowRankAddPlane(const Plan &plan);
std::string lowRank3DAddPlane(const Plan &plan);

std::string addPlaneBody(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  if (sp.lowRank.form) {
    return sp.lowRank.form->dims == 3 ? lowRank3DAddPlane(plan) : lowRankAddPlane(plan);
  }
  const bool pairs = readsPairs(plan);
  CodeWriter w;
  int begin = 0;
  for (const SimtSlice &slice : sp.slices) {
    const int entry = sp.radiusZ - slice.dz;
    const int end = begin + static_cast<int>(slice.terms.size());
    if (sp.packed) {
      writePackedSlice(w, plan, slice, entry);
    } else if (sp.unrolled) {
      std::string fmas;
      for (const SimtTerm &t : slice.terms) {
        const std::string index = readIndex(t.dy, t.dx);
        if (!fmas.empty()) {
          fmas += '\n';
        }
        fmas += CodeWriter::filled(
            section("fma"), fmt::arg("entry", entry),
            fmt::arg("coefficient", numberLiteral(t.coefficient, computesInFloat(sp))),
            fmt::arg("read", pairs ? fmt::format("readPair(at, {})", index)
                                   : fmt::format("toCompute(at[{}])", index)));
      }
      w.fillWith(section("slice_unrolled"), fmt::arg("dz", slice.dz),
                 fmt::arg("count", slice.terms.size()), fmt::arg("entry", entry),
                 fmt::arg("fmas", fmas));
    } else {
      w.fillWith(section("slice_looped"), fmt::arg("dz", slice.dz), fmt::arg("begin", begin),
                 fmt::arg("end", end), fmt::arg("entry", entry));
    }
    begin = end;
  }
  return withoutTrailingNewlines(w.take());
}

/// The read of the input at (dy, dx) of output o in the plane window.
std::string planeRead(const Plan &plan, int dy, int dx) {
  const std::string index = readIndex(dy, dx);
  return readsPairs(plan) ? fmt::format("readPair(at, {})", index)
                          : fmt::format("toCompute(at[{}])", index);
}

/// One tap of an intermediate the low-rank form computes from 0: its
/// coefficient and what it multiplies.
struct Tap {
  double coefficient;
  std::string read;
};

/// The lines computing intermediate `name` as the kernels and the
/// emulator do: the first tap a product (none for a coefficient of 1),
/// then multiply-adds.
std::string intermediateText(const std::string &name, const std::vector<Tap> &taps, bool inFloat) {
  std::string text;
  for (size_t k = 0; k < taps.size(); ++k) {
    const std::string c = numberLiteral(taps[k].coefficient, inFloat);
    text += k == 0 ? fmt::format("Compute {} = {};\n", name,
                                 taps[k].coefficient == 1.0
                                     ? taps[k].read
                                     : fmt::format("mul({}, {})", c, taps[k].read))
                   : fmt::format("{0} = madd({1}, {2}, {0});\n", name, c, taps[k].read);
  }
  return text;
}

/// The row passes of a form, each an intermediate `pass<k>`, their inputs
/// read by `read(dx)`.
std::string rowPassesText(const LowRankForm &f, bool inFloat,
                          const std::function<std::string(int)> &read) {
  std::string text;
  for (int pass = 0; pass < f.passes; ++pass) {
    std::vector<Tap> taps;
    for (const LowRankRowTap &t : f.rowTaps) {
      if (t.pass == pass) {
        taps.push_back({t.weight, read(t.dx)});
      }
    }
    text += intermediateText(fmt::format("pass{}", pass), taps, inFloat);
  }
  return text;
}

/// Each term of a form added into its output's queue entry, in order;
/// `source(t)` is what it multiplies.
std::string queueFmas(const Plan &plan,
                      const std::function<std::string(const LowRankTerm &)> &source) {
  const SimtPlan &sp = plan.simt();
  std::string fmas;
  for (const LowRankTerm &t : sp.lowRank.form->terms) {
    fmas += CodeWriter::filled(
                section("fma"), fmt::arg("entry", sp.radiusZ - t.dy),
                fmt::arg("coefficient", numberLiteral(t.coefficient, computesInFloat(sp))),
                fmt::arg("read", source(t))) +
            "\n";
  }
  return fmas;
}

/// The body of Stencil::addPlane in the low-rank form: the row passes of
/// the plane row, then every multiply-add into its output's queue entry.
/// For each output row this adds the terms in the form's order (dy
/// ascending, one plane after the other), as the fused kernel does.
std::string lowRankAddPlane(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  const LowRankForm &f = *sp.lowRank.form;
  const std::string passes =
      rowPassesText(f, computesInFloat(sp), [&](int dx) { return planeRead(plan, 0, dx); });
  const std::string fmas = queueFmas(plan, [&](const LowRankTerm &t) {
    return t.pass >= 0 ? fmt::format("pass{}", t.pass) : planeRead(plan, 0, t.dx);
  });
  return withoutTrailingNewlines(
      CodeWriter::filled(section("low_rank_add_plane"), fmt::arg("ops", f.ops()),
                         fmt::arg("direct", plan.spec.points()), fmt::arg("row_passes", passes),
                         fmt::arg("fmas", fmas)));
}

/// A 3D form's read of row pass k at row offset dy of output o.
std::string sharedPassRead(int pass, int dy) {
  std::string index = pass ? fmt::format("{} * kPassSize + ", pass) : std::string();
  index += dy ? fmt::format("{} * kTileX + o", dy) : std::string("o");
  return fmt::format("pass[{}]", index);
}

/// The body of Stencil::addPlane in the 3D low-rank form: each plane value
/// from the shared row passes and the plane window, then every multiply-add
/// along z into its output plane's queue entry.
std::string lowRank3DAddPlane(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  const LowRankForm &f = *sp.lowRank.form;
  const auto read = [&](int pass, int dy, int dx) {
    return pass >= 0 ? sharedPassRead(pass, dy) : planeRead(plan, dy, dx);
  };
  std::string values;
  for (int value = 0; value < f.planeValues; ++value) {
    std::vector<Tap> taps;
    for (const LowRankPlaneTap &t : f.planeTaps) {
      if (t.plane == value) {
        taps.push_back({t.coefficient, read(t.pass, t.dy, t.dx)});
      }
    }
    values += intermediateText(fmt::format("value{}", value), taps, computesInFloat(sp));
  }
  const std::string fmas = queueFmas(plan, [&](const LowRankTerm &t) {
    return t.plane >= 0 ? fmt::format("value{}", t.plane) : read(t.pass, t.row, t.dx);
  });
  return withoutTrailingNewlines(
      CodeWriter::filled(section("low_rank_add_plane_3d"), fmt::arg("ops", f.ops()),
                         fmt::arg("direct", plan.spec.points()), fmt::arg("plane_values", values),
                         fmt::arg("fmas", fmas)));
}

/// Whether the plan evaluates a low-rank form in the paired order.
bool paired(const SimtPlan &sp) { return sp.lowRank.form && sp.lowRank.form->paired; }

/// Whether the plan shares row passes through shared memory (a 3D low-rank
/// form with any).
bool sharesRowPasses(const SimtPlan &sp) {
  return sp.lowRank.form && sp.lowRank.form->dims == 3 && sp.lowRank.form->passes > 0;
}

/// The paired order's row pass at an output of column parity `parity`
/// (kTileX and kOutX even: o's parity), as text: its blocks (an even
/// column and the next, else one) added left to right.
std::string pairedRowPassText(const Plan &plan, const PairedRuns &runs, int parity) {
  std::string sum;
  forPairedBlocks(parity, runs.loX, runs.hiX, [&](int d, bool pair) {
    const std::string block =
        pair ? fmt::format("add({}, {})", planeRead(plan, 0, d), planeRead(plan, 0, d + 1))
             : planeRead(plan, 0, d);
    sum = sum.empty() ? block : fmt::format("add({}, {})", sum, block);
  });
  return sum;
}

/// Stencil's members in the paired order (section add_plane_paired).
std::string pairedMembers(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  const PairedRuns runs = *pairedRuns(*sp.lowRank.form);
  const std::string c = numberLiteral(runs.c, computesInFloat(sp));
  std::string pairFmas;
  for (int dy = runs.hiY; dy > runs.loY; --dy) {
    pairFmas +=
        fmt::format("    queue[{0}][o] = madd({1}, pair, queue[{0}][o]);\n", sp.radiusZ - dy, c);
  }
  std::string atPoint;
  for (const LowRankTerm &t : runs.atPoint) {
    atPoint +=
        fmt::format("\n  queue[{0}][o] = madd({1}, {2}, queue[{0}][o]);", sp.radiusZ - t.dy,
                    numberLiteral(t.coefficient, computesInFloat(sp)), planeRead(plan, 0, t.dx));
  }
  return CodeWriter::filled(section("add_plane_paired"), fmt::arg("at_point", atPoint),
                            fmt::arg("even", pairedRowPassText(plan, runs, 0)),
                            fmt::arg("odd", pairedRowPassText(plan, runs, 1)), fmt::arg("c", c),
                            fmt::arg("end_entry", sp.radiusZ - runs.hiY),
                            fmt::arg("start_entry", sp.radiusZ - runs.loY),
                            fmt::arg("pair_fmas", withoutTrailingNewlines(pairFmas)));
}

/// Stencil's members: addPlane, and a 3D low-rank form's rowPasses.
std::string stencilMembers(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  if (paired(sp)) {
    return pairedMembers(plan);
  }
  if (!sharesRowPasses(sp)) {
    return CodeWriter::filled(section("add_plane"), fmt::arg("add_plane", addPlaneBody(plan)));
  }
  const LowRankForm &f = *sp.lowRank.form;
  std::string passes = rowPassesText(f, computesInFloat(sp),
                                     [](int dx) { return fmt::format("toCompute(at[{}])", dx); });
  for (int pass = 0; pass < f.passes; ++pass) {
    passes += fmt::format("passes[{0}][e] = pass{0};\n", pass);
  }
  return CodeWriter::filled(section("add_plane_shared_passes"),
                            fmt::arg("row_passes", withoutTrailingNewlines(passes)),
                            fmt::arg("add_plane", addPlaneBody(plan)));
}

/// The scaled coefficients' factor as a member of Stencil and FusedStencil
/// (section scale_member), or nothing.
std::string scaleMember(const SimtPlan &sp) {
  if (!sp.scaled.on()) {
    return {};
  }
  return withoutTrailingNewlines(
      CodeWriter::filled(section("scale_member"), fmt::arg("denominator", sp.scaled.denominator),
                         fmt::arg("factor", numberLiteral(sp.scaled.factor, false))));
}

/// FusedStencil's packed members (section fused_packed), or nothing.
std::string fusedPacked(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  if (!sp.packed) {
    return {};
  }
  std::vector<std::string> bits;
  for (const SimtSlice &slice : sp.slices) {
    for (const SimtTerm &t : slice.terms) {
      bits.push_back(sixteenBitPattern(t.coefficient, plan.spec.precision));
    }
  }
  return withoutTrailingNewlines(
      CodeWriter::filled(section("fused_packed"), fmt::arg("bits", alignedTable(bits, 8))));
}

/// A list of initialisers as a table's body, each followed by a comma; an
/// empty list gives `unread` (an array has at least one element).
std::string tableBody(const std::vector<std::string> &rows, std::string_view unread = {}) {
  return rows.empty() ? fmt::format("{},", unread) : fmt::format("{},", fmt::join(rows, ",\n"));
}

/// The row taps of a form as fused::RowTap<C> initialisers.
std::vector<std::string> rowTapList(const LowRankForm &f, bool inFloat) {
  std::vector<std::string> taps;
  for (const LowRankRowTap &t : f.rowTaps) {
    taps.push_back(
        fmt::format("{{{}, {}, C({})}}", t.pass, t.dx, numberLiteral(t.weight, inFloat)));
  }
  return taps;
}

/// FusedStencil's members of a 3D low-rank form (section
/// fused_low_rank_3d): its row taps, plane taps and terms in the step
/// kernel's order.
std::string fusedLowRank3D(const LowRankForm &f, bool inFloat) {
  std::vector<std::string> planeTaps, terms;
  for (const LowRankPlaneTap &t : f.planeTaps) {
    planeTaps.push_back(fmt::format("{{{}, {}, {}, {}, C({})}}", t.plane, t.dy, t.pass, t.dx,
                                    numberLiteral(t.coefficient, inFloat)));
  }
  for (const LowRankTerm &t : f.terms) {
    terms.push_back(fmt::format("{{{}, {}, {}, {}, {}, C({})}}", t.dy, t.plane, t.pass, t.row, t.dx,
                                numberLiteral(t.coefficient, inFloat)));
  }
  const std::vector<std::string> taps = rowTapList(f, inFloat);
  return withoutTrailingNewlines(CodeWriter::filled(
      section("fused_low_rank_3d"), fmt::arg("passes", f.passes), fmt::arg("values", f.planeValues),
      fmt::arg("row_count", taps.size()), fmt::arg("plane_count", planeTaps.size()),
      fmt::arg("term_count", terms.size()), fmt::arg("row_taps", tableBody(taps, "{0, 0, C(0)}")),
      fmt::arg("plane_taps", tableBody(planeTaps, "{0, 0, -1, 0, C(0)}")),
      fmt::arg("form_terms", tableBody(terms))));
}

/// FusedStencil's low-rank members (section fused_low_rank, in 3D
/// fused_low_rank_3d), or nothing.
std::string fusedLowRank(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  if (!sp.lowRank.form) {
    return {};
  }
  const LowRankForm &f = *sp.lowRank.form;
  const bool inFloat = computesInFloat(sp);
  if (f.dims == 3) {
    return fusedLowRank3D(f, inFloat);
  }
  const std::vector<std::string> taps = rowTapList(f, inFloat);
  std::vector<std::string> terms;
  for (const LowRankTerm &t : f.terms) {
    terms.push_back(fmt::format("{{{}, {}, {}, C({})}}", t.dy, t.pass, t.dx,
                                numberLiteral(t.coefficient, inFloat)));
  }
  std::string text = CodeWriter::filled(
      section("fused_low_rank"), fmt::arg("passes", f.passes), fmt::arg("row_count", taps.size()),
      fmt::arg("term_count", terms.size()), fmt::arg("row_taps", tableBody(taps)),
      fmt::arg("pass_terms", tableBody(terms)));
  return withoutTrailingNewlines(text);
}

/// The step kernel's launch (section launch).
std::string stepKernelLaunch(const Plan &plan) {
  const int dims = plan.spec.dims;
  return CodeWriter::filled(section("launch"),
                            fmt::arg("view", dims == 1   ? "1 x 1 x nx"
                                             : dims == 2 ? "ny x 1 x nx, the rows streamed"
                                                         : "nz x ny x nx, the planes streamed"),
                            fmt::arg("planes_z", dims == 1   ? "1"
                                                 : dims == 2 ? "ny"
                                                             : "nz"),
                            fmt::arg("rows_y", dims == 3 ? "ny" : "1"),
                            fmt::arg("kernel", kernelName(plan)));
}

/// NAME_step's launch: the step kernel's, or one level of the fused kernel
/// where the plan takes it for steps (in 2D and 3D the step kernel's
/// where the grid is past the fused kernel's launch limits). takesSteps
/// only where the plan fuses (planSimtFusion's promise).
std::string launchCode(const Plan &plan) {
  const int dims = plan.spec.dims;
  const std::string own = stepKernelLaunch(plan);
  const FusedKernel &k = plan.schedule.fused;
  if (!k.takesSteps) {
    return own;
  }
  return CodeWriter::filled(section(dims == 1 ? "launch_fused_1d" : "launch_fused"),
                            fmt::arg("why", k.stepWhy),
                            fmt::arg("fused", fusedKernelNamespace(dims)),
                            fmt::arg("size_args", sizeArguments(dims)), fmt::arg("launch", own));
}

} // namespace

/// The fused 2D Params' line for FusedKernel::sidesAtEntry, where set (a
/// line of its own after kMinBlocks; nothing otherwise, so that other plans'
/// code stays as it was).
constexpr const char *SidesAtEntryLine =
    "\nstatic constexpr bool kSidesAtEntry = true; // side columns shared as a row enters its "
    "window (measured faster for this kind)";

/// The fused 2D Params' line for FusedKernel::queued, where set (likewise).
constexpr const char *QueuedLine =
    "\nstatic constexpr bool kQueued = true; // each level keeps partial sums, not a window "
    "(measured faster for this kind)";

/// The fused 3D Params' line for the split barrier (FusedKernel::splitBarrier).
constexpr const char *SplitBarrierLine =
    "\nstatic constexpr bool kSplitBarrier = true; // on sm_90, passes of several levels ordered "
    "by an mbarrier a plane, arrived at and waited on apart (docs/simt-backend.md, \"The split "
    "barrier\")";

/// The fused 2D Params' line for the paired order (LowRankForm::paired).
constexpr const char *PairedLine =
    "\nstatic constexpr bool kPairedSums = true; // the low-rank form's paired order, as the "
    "step kernel's";

/// A fused Params' optional int member on a line of its own where the plan
/// sets it above `absent`, the value the kernel reads where the member is
/// missing (nothing otherwise, likewise): 2D kPrefetchRows, 3D kMinBlocks,
/// kStagedPlanes and kUnrollPlanes; `why` the plan set it.
std::string optionalIntLine(const char *name, int value, int absent, const char *comment,
                            const char *why = "measured faster for this kind") {
  if (value <= absent) {
    return "";
  }
  return fmt::format("\nstatic constexpr int {} = {}; // {} ({})", name, value, comment, why);
}

namespace {

/// The band's line of the fused Params (fused_band.cuh), where the plan
/// has a band: in 2D its tile kernel's tile; in 3D its shared memory as the
/// plan counts it (Backends/Common/Band.h, which mirrors band.cuh's
/// volumeBandBytes; fused_band.cuh asserts that the two agree).
std::string bandLine(const FusedKernel &k, int dims) {
  if (!k.band) {
    return "";
  }
  return dims == 2 ? fmt::format("\nstatic constexpr int kBandTile = {}; // the band's tile "
                                 "kernel's tile (fused_band.cuh): the points within T r of an "
                                 "edge, step by step",
                                 k.band->tile)
                   : fmt::format("\nstatic constexpr int kBandBytes = {}; // the band's shared "
                                 "memory as planned, which band.cuh's must equal",
                                 k.band->sharedBytes);
}

} // namespace

std::string fusedGeometryLines(const Plan &plan) {
  const FusedKernel &k = plan.schedule.fused;
  switch (plan.spec.dims) {
  case 1:
    return CodeWriter::filled(section("fused_geometry_1d"), fmt::arg("width", k.width),
                              fmt::arg("halo", k.halo), fmt::arg("threads", k.threads));
  case 2:
    return CodeWriter::filled(
        section("fused_geometry_2d"), fmt::arg("width", k.width), fmt::arg("halo", k.halo),
        fmt::arg("threads", k.threads), fmt::arg("batch", k.batch), fmt::arg("chunk", k.chunkRows),
        fmt::arg("min_blocks", k.minBlocks),
        fmt::arg("sides", k.sidesAtEntry ? SidesAtEntryLine : ""),
        fmt::arg("queued", k.queued ? QueuedLine : ""),
        fmt::arg("paired", paired(plan.simt()) ? PairedLine : ""),
        fmt::arg("prefetch",
                 optionalIntLine("kPrefetchRows", k.prefetchRows, 0,
                                 "an L2 prefetch that many rows ahead of the stream inside the "
                                 "grid")),
        fmt::arg("band", bandLine(k, 2)));
  default:
    return CodeWriter::filled(
        section("fused_geometry_3d"), fmt::arg("width", k.width), fmt::arg("height", k.height),
        fmt::arg("halo", k.halo), fmt::arg("halo_y", k.haloY), fmt::arg("rows", k.rows),
        fmt::arg("threads", k.threads), fmt::arg("batch", k.batch), fmt::arg("chunk", k.chunkRows),
        fmt::arg("min_blocks", optionalIntLine("kMinBlocks", k.minBlocks, 1,
                                               "per multiprocessor, for the register allocator")),
        fmt::arg("staged", optionalIntLine("kStagedPlanes", k.stagedPlanes, 0,
                                           "input planes copied that many ahead into shared "
                                           "memory by cp.async, in passes of several levels "
                                           "inside the grid")),
        fmt::arg("split", k.splitBarrier ? SplitBarrierLine : ""),
        fmt::arg("unroll", optionalIntLine("kUnrollPlanes", k.unrollPlanes, 0,
                                           "planes the stream's loop unrolls, the ring's slots in "
                                           "parts that rotate a round",
                                           "measured faster for this kind, or asked by "
                                           "--plan-option ring=rotate")),
        fmt::arg("band", bandLine(k, 3)));
  }
}

namespace {

/// The fused kernel's traits (section `fused`): the terms in the step
/// kernel's FMA order and the plan's fused geometry. Needs: a plan that
/// fuses (schedule.fusedSteps > 1).
void writeFusedStencil(CodeWriter &w, const Plan &plan, const std::string &ns,
                       const BoundaryPolicy &boundary) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  std::vector<std::string> terms;
  for (const SimtSlice &slice : sp.slices) {
    for (const SimtTerm &t : slice.terms) {
      // The slice's plane offset dz is z in 3D, y in 2D (0 in 1D).
      const std::string c = numberLiteral(t.coefficient, computesInFloat(sp));
      terms.push_back(spec.dims == 1 ? fmt::format("{{{}, C({})}}", t.dx, c)
                      : spec.dims == 2
                          ? fmt::format("{{{}, {}, C({})}}", slice.dz, t.dx, c)
                          : fmt::format("{{{}, {}, {}, C({})}}", slice.dz, t.dy, t.dx, c));
    }
  }
  w.fillWith(section("fused"), fmt::arg("name", spec.name), fmt::arg("namespace", ns),
             fmt::arg("header", plan.schedule.fused.band
                                    ? std::string("fused_band.cuh")
                                    : fmt::format("{}.cuh", fusedKernelNamespace(spec.dims))),
             fmt::arg("kernel", fusedKernelNamespace(spec.dims)),
             fmt::arg("term_fields", spec.dims == 1   ? "dx"
                                     : spec.dims == 2 ? "dy, dx"
                                                      : "dz, dy, dx"),
             fmt::arg("steps", plan.schedule.fusedSteps), fmt::arg("radius", spec.radius),
             fmt::arg("count", terms.size()),
             fmt::arg("terms", fmt::format("{},", fmt::join(terms, ",\n"))),
             fmt::arg("element", elementTypeName(spec.precision)),
             fmt::arg("compute", computesInFloat(sp) ? "float" : "double"),
             fmt::arg("boundary", boundary.type), fmt::arg("geometry", fusedGeometryLines(plan)),
             fmt::arg("low_rank", fusedLowRank(plan)), fmt::arg("packed", fusedPacked(plan)),
             fmt::arg("scale_member", scaleMember(sp)));
}

} // namespace

void writeSimtStencil(CodeWriter &w, const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  const bool fixed = spec.boundary == BoundaryKind::Fixed;
  const std::string ns = stencilNamespace(plan);
  const BoundaryPolicy boundary = boundaryPolicy(spec);
  w.fillWith(
      section("stencil"), fmt::arg("guard_begin", kernelGuardBegin(plan)),
      fmt::arg("guard_end", kernelGuardEnd(plan)), fmt::arg("name", spec.name),
      fmt::arg("namespace", ns), fmt::arg("boundary_value", boundary.valueStruct),
      fmt::arg("element", elementTypeName(spec.precision)),
      fmt::arg("compute", computesInFloat(sp) ? "float" : "double"),
      fmt::arg("boundary", boundary.type), fmt::arg("radius_z", sp.radiusZ),
      fmt::arg("radius_y", sp.radiusY), fmt::arg("radius_x", sp.radiusX),
      fmt::arg("tile_x", sp.tileX), fmt::arg("tile_y", sp.tileY), fmt::arg("chunk_z", sp.chunkZ),
      fmt::arg("min_chunk_z", sp.minChunkZ), fmt::arg("target_blocks", sp.targetBlocks),
      fmt::arg("threads", sp.threads), fmt::arg("outputs_x", sp.outputsX),
      fmt::arg("halo_x", sp.haloX), fmt::arg("stages", sp.buffers),
      fmt::arg("prefetch_bytes", sp.l2PrefetchBytes), fmt::arg("ring_z", fixed ? sp.radiusZ : 0),
      fmt::arg("ring_y", fixed ? sp.radiusY : 0), fmt::arg("ring_x", fixed ? sp.radiusX : 0),
      fmt::arg("min_size", spec.smallestExtent()),
      fmt::arg("term_tables", sp.unrolled || sp.lowRank.form ? std::string() : termTables(plan)),
      fmt::arg("row_passes_param",
               sharesRowPasses(sp)
                   ? fmt::format("static constexpr int kRowPasses = {}; // the low-rank form's "
                                 "row passes, shared a plane",
                                 sp.lowRank.form->passes)
                   : std::string()),
      fmt::arg("members", stencilMembers(plan)), fmt::arg("kernel", kernelName(plan)),
      fmt::arg("packed_member", sp.packed ? std::string(section("packed_member")) : std::string()),
      fmt::arg("scale_member", scaleMember(sp)));
  w.line();
  std::optional<PassBodies> rankOne;
  if (plan.schedule.rankOne) {
    rankOne = writeRankOne(w, plan, ns, boundary.type);
    w.line();
  } else if (plan.schedule.fusedSteps > 1) {
    writeFusedStencil(w, plan, ns, boundary);
    w.line();
  }
  writeEntryPoints(w, plan, ns, launchCode(plan), rankOne ? &*rankOne : nullptr);
  w.line();
}

} // namespace stencilc
