//===- SimtRankOne.cpp - Composed rank-1 passes on CUDA cores -------------===//
//
// A stencil whose coefficient matrix has exact rank 1 (a column times a
// row: the uniform blur, the binomial Gaussian) composes over T steps into
// one of the same kind, radius T r, whose column and row are the T-fold
// convolutions of the stencil's. rank_one.cuh runs a pass of it as one
// x-pass and one y-pass, 2 (2 T r + 1) operations a point for T steps and
// no queues of levels, where the fused kernel computes T levels; the band
// kernel (band.cuh) computes the points within T r of an edge step by step.
// The composed weights are rounded once from their exact values, so a pass
// is not bit for bit T steps (docs/generated-code.md gives the error).
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtRankOne.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <llvm/Support/raw_ostream.h>

#include "Backends/Common/Band.h"
#include "Backends/Common/CodeGen.h"
#include "Backends/Common/CodeWriter.h"
#include "Backends/Common/Emulation.h"
#include "Backends/Simt/SimtPlanner.h"
#include "stencilc/Target.h"

namespace stencilc {

namespace {

/// A kind whose composed rank-1 pass was measured against its fused pass
/// (NAME_run of 100 steps at 8192^2, every point x step counted), with the
/// geometry measured best. The kernel does not depend on the weights: an
/// entry serves every rank-1 stencil of its radius and element size.
/// `gstencils` is the plan's, its band beside each pass, 0 where that has
/// not run yet; `kernelGStencils` the pass's kernel alone (no band).
struct MeasuredRankOne {
  int radius = 0, elementBytes = 0, steps = 0;
  int columns = 0, batch = 0, rows = 0, threads = 0, minBlocks = 1;
  double gstencils = 0.0, kernelGStencils = 0.0, fusedGStencils = 0.0;
  const char *device = "an H100";
  const char *results = "";
};

constexpr MeasuredRankOne kMeasuredRankOne[] = {
    // The uniform 7 x 7 blur in fp64 as generated on an H100, its band
    // beside each pass in strips of separable levels, in one run with the
    // fused pass of 4 steps (405.2-406.0): T 4 491.7-492.1, T 6
    // 536.8-537.4 (the kernel alone 578.1-579.7). T 8 ran with the band's
    // levels in the stencil's 49 terms (T 6 then 504.5-506.7): 476.3-481.0,
    // its 100 steps ending in 4 single ones.
    {.radius = 3,
     .elementBytes = 8,
     .steps = 4,
     .columns = 128,
     .batch = 16,
     .rows = 1024,
     .threads = 256,
     .minBlocks = 2,
     .gstencils = 491.7,
     .kernelGStencils = 538.2,
     .fusedGStencils = 405.2,
     .results = "bench/results/2026-12-06-2329-blur-separable-band-h100.txt"},
    {.radius = 3,
     .elementBytes = 8,
     .steps = 6,
     .columns = 128,
     .batch = 16,
     .rows = 512,
     .threads = 256,
     .minBlocks = 2,
     .gstencils = 536.8,
     .kernelGStencils = 578.1,
     .fusedGStencils = 405.2,
     .results = "bench/results/2026-12-06-2329-blur-separable-band-h100.txt"},
    {.radius = 3,
     .elementBytes = 8,
     .steps = 8,
     .columns = 128,
     .batch = 16,
     .rows = 1024,
     .threads = 256,
     .minBlocks = 2,
     .gstencils = 476.3,
     .fusedGStencils = 404.1,
     .results = "bench/results/2026-12-06-2228-blur-composed-rank1-t6-h100.txt"},
};

/// The entry of the spec's radius and element size that `steps` asks for
/// (0: the fastest measured with its band, else the first), or none.
const MeasuredRankOne *measuredRankOne(const StencilSpec &spec, int steps) {
  const MeasuredRankOne *best = nullptr;
  for (const MeasuredRankOne &m : kMeasuredRankOne) {
    if (m.radius != spec.radius ||
        m.elementBytes != static_cast<int>(elementBytes(spec.precision))) {
      continue;
    }
    if (m.steps == steps) {
      return &m;
    }
    if (!best || m.gstencils > best->gstencils) {
      best = &m;
    }
  }
  return best;
}

/// rank_one.cuh's Shape::kSharedBytes.
int rankOneSharedBytes(const StencilSpec &spec, const RankOnePass &p) {
  const int w = p.steps * spec.radius;
  const int lag = (2 * w + p.batch - 1) / p.batch;
  const int compute = spec.precision == Precision::FP64 ? 8 : 4;
  return static_cast<int>(elementBytes(spec.precision)) * 2 * p.batch * ((p.columns + 2 * w) | 1) +
         compute * p.batch * (lag + 1) * (p.columns | 1);
}

/// Why `plan` takes no composed rank-1 pass, or empty (`a`: its analysis).
std::string whyNot(const Plan &plan, const PlanOptions &options, const LowRankAnalysis &a) {
  const StencilSpec &spec = plan.spec;
  if (spec.dims != 2 || spec.hasFields() || plan.simt().packed) {
    return "not a 2D stencil of one input in widened arithmetic";
  }
  if ((options.fusedSteps > 0 && options.compose != ComposeRequest::On) ||
      options.fusedSteps == 1 || options.lowRank == LowRankRequest::Off ||
      options.compose == ComposeRequest::Off) {
    return "--plan-option fuse (without compose=on, or of 1 step), lowrank=off or compose=off "
           "asked";
  }
  if (spec.boundary == BoundaryKind::Periodic) {
    return "periodic: the pass does not wrap";
  }
  if (!a.analysed() || a.rank != 1 || a.terms.size() != 1) {
    return "not of exact rank 1";
  }
  return measuredRankOne(spec, 0) ? "" : "no geometry of it for the radius and precision";
}

/// The composed factors of T steps, rounded once each to the arithmetic
/// type: the row as it is, the column with the scale. None where a value
/// does not fit.
bool composeFactors(const RankOneTerm &term, int steps, Precision compute, RankOnePass &p) {
  Rational scale(1);
  for (int t = 0; t < steps; ++t) {
    scale = scale * term.scale;
  }
  for (const Rational &v : convolvedPower(term.row, steps)) {
    const std::optional<double> d = roundedToCompute(v, compute);
    if (!d) {
      return false;
    }
    p.row.push_back(*d);
  }
  for (const Rational &v : convolvedPower(term.column, steps)) {
    const std::optional<double> d = roundedToCompute(scale * v, compute);
    if (!d) {
      return false;
    }
    p.column.push_back(*d);
  }
  return true;
}

} // namespace

std::vector<Rational> convolvedPower(const std::vector<Rational> &factor, int times) {
  std::vector<Rational> power{Rational(1)};
  for (int t = 0; t < times; ++t) {
    std::vector<Rational> next(power.size() + factor.size() - 1);
    for (std::size_t i = 0; i < power.size(); ++i) {
      for (std::size_t j = 0; j < factor.size(); ++j) {
        next[i + j] = next[i + j] + power[i] * factor[j];
      }
    }
    power = std::move(next);
  }
  return power;
}

namespace {

/// The pass of `steps` steps in m's geometry, its band in tiles of `tile`
/// (0: fittingBand's); none where the band, the shared memory or a
/// composed weight does not fit.
std::optional<RankOnePass> passOf(const Plan &plan, const MeasuredRankOne &m, int steps,
                                  const RankOneTerm &term, int tile) {
  const StencilSpec &spec = plan.spec;
  const std::optional<BandKernel> band =
      tile > 0 ? std::optional(bandKernel(spec, steps, tile, plan.target))
               : fittingBand(spec, steps, plan.target);
  RankOnePass p;
  p.steps = steps;
  p.columns = m.columns, p.batch = m.batch, p.rows = m.rows;
  p.threads = m.threads, p.minBlocks = m.minBlocks;
  p.sharedBytes = rankOneSharedBytes(spec, p);
  const int most = info(plan.target).maxDynamicSharedBytes;
  RankOnePass own; // the stencil's own factors (its 1-fold power), the band's
  if (!band || band->sharedBytes > most || p.sharedBytes > most ||
      !composeFactors(term, steps, plan.simt().compute, p) ||
      !composeFactors(term, 1, plan.simt().compute, own)) {
    return std::nullopt;
  }
  p.band = *band;
  p.bandRow = std::move(own.row);
  p.bandColumn = std::move(own.column);
  return p;
}

/// Where the pass's geometry and the choice come from.
std::string sourceOf(const MeasuredRankOne &m, int steps, bool faster) {
  if (faster) {
    return fmt::format("measured on {}: {:.1f} GStencil/s against the fused pass's {:.1f} ({})",
                       m.device, m.gstencils, m.fusedGStencils, m.results);
  }
  if (m.steps == steps && m.gstencils > 0.0) {
    return fmt::format("asked for (compose=on): measured slower on {}, {:.1f} GStencil/s against "
                       "the fused pass's {:.1f} ({})",
                       m.device, m.gstencils, m.fusedGStencils, m.results);
  }
  if (m.steps != steps) {
    return fmt::format("asked for (compose=on, fuse={}): not measured, the geometry of the pass "
                       "of {} steps ({})",
                       steps, m.steps, m.results);
  }
  return fmt::format("asked for (compose=on): not yet measured with its band, the kernel alone "
                     "{:.1f} GStencil/s against the fused pass's {:.1f} on {} ({})",
                     m.kernelGStencils, m.fusedGStencils, m.device, m.results);
}

/// The pass `options` asks for: fuse=T's steps, else the table's fastest
/// entry's, with its remainder of T - 2 steps where that is 2 or more. None
/// where auto keeps the fused pass (not measured faster) or nothing fits
/// (then `why` says so).
std::optional<RankOnePass> chosenPass(const Plan &plan, const PlanOptions &options,
                                      const RankOneTerm &term, std::string &why) {
  const int asked = options.fusedSteps > 1 ? options.fusedSteps : 0;
  const MeasuredRankOne &m = *measuredRankOne(plan.spec, asked);
  const int steps = asked > 0 ? asked : m.steps;
  const bool faster = m.steps == steps && m.gstencils > m.fusedGStencils;
  std::optional<RankOnePass> p = passOf(plan, m, steps, term, 0);
  if (!p) {
    why = fmt::format("its band, shared memory or weights do not fit {} steps", steps);
    return std::nullopt;
  }
  if (options.compose == ComposeRequest::Auto && !faster) {
    return std::nullopt;
  }
  p->source = sourceOf(m, steps, faster);
  if (const int rest = steps - 2; rest >= 2) { // in the same geometry and band tiles
    if (std::optional<RankOnePass> r = passOf(plan, m, rest, term, p->band.tile)) {
      p->remainder = std::make_shared<const RankOnePass>(std::move(*r));
    }
  }
  return p;
}

} // namespace

void planRankOne(Plan &plan, const PlanOptions &options) {
  const StencilSpec &spec = plan.spec;
  const LowRankAnalysis a = spec.dims == 2 ? analyseLowRank(spec) : LowRankAnalysis{};
  std::string why = whyNot(plan, options, a);
  std::optional<RankOnePass> p;
  if (why.empty()) {
    p = chosenPass(plan, options, a.terms.front(), why);
  }
  if (!p) {
    if (!why.empty() && options.compose == ComposeRequest::On) { // the plan says why not
      plan.schedule.why += fmt::format("; --plan-option compose=on: no composed pass, {}", why);
    }
    return;
  }
  Schedule &s = plan.schedule;
  s = Schedule{};
  s.fusedSteps = p->steps;
  const int w = p->steps * spec.radius;
  s.why = fmt::format("the stencil has rank 1, so {} steps compose into one stencil of rank 1 and "
                      "radius {}, two 1D passes of {} taps: {:.1f} operations a point and step",
                      p->steps, w, 2 * w + 1, 2.0 * (2 * w + 1) / p->steps);
  s.rankOne = std::move(p);
}

void printRankOne(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const RankOnePass &p = *plan.schedule.rankOne;
  const int w = p.steps * spec.radius;
  const std::string_view values = spec.precision == Precision::FP64 ? "doubles" : "floats";
  os << fmt::format("  rank-one   stencilc/device/rank_one.cuh: strips of {} columns, batches of "
                    "{} rows copied a batch ahead, {} output rows and {} threads a block, {} "
                    "blocks a multiprocessor, {} bytes of shared memory; {}\n",
                    p.columns, p.batch, p.rows, p.threads, p.minBlocks, p.sharedBytes, p.source);
  os << fmt::format("  weights    the composed row and column ({} taps from offset -{}), each "
                    "rounded once from its exact value: not bit for bit {} steps\n",
                    p.row.size(), w, p.steps);
  os << fmt::format("  band       beside each pass, on a stream of its own: the points within T "
                    "r = {} of an edge, {} steps, each an x-pass and a y-pass of the stencil's own "
                    "row and column "
                    "(stencilc/device/band.cuh, composed.cuh): {}\n",
                    w, p.steps, bandKernelText(p.band, w, values));
  if (const RankOnePass *r = p.remainder.get()) {
    os << fmt::format("  remainder  where {} or more steps remain after the passes of {}: one "
                      "pass of the stencil composed {} times ({} taps a factor, {} bytes of "
                      "shared memory), its band within {} of an edge: {}; then single steps\n",
                      r->steps, p.steps, r->steps, r->row.size(), r->sharedBytes,
                      r->steps * spec.radius,
                      bandKernelText(r->band, r->steps * spec.radius, values));
  }
}

namespace {

/// `values` as literals of the plan's arithmetic type.
std::vector<std::string> literals(const Plan &plan, const std::vector<double> &values) {
  std::vector<std::string> cells;
  for (double v : values) {
    cells.push_back(numberLiteral(v, plan.simt().compute != Precision::FP64));
  }
  return cells;
}

/// The band traits' separable levels (band.cuh's kSeparable): the
/// stencil's own row and column.
std::string separableMembers(const Plan &plan, const RankOnePass &p) {
  const bool asFloat = plan.simt().compute != Precision::FP64;
  const auto list = [&](const std::vector<double> &values) {
    return fmt::format("{}", fmt::join(literals(plan, values), ", "));
  };
  const std::string_view type = asFloat ? "float" : "double";
  return fmt::format("\n// Each level an x-pass and a y-pass of the stencil's own factors.\n"
                     "static constexpr bool kSeparable = true;\n"
                     "static __device__ __forceinline__ {0} row(int k) {{\n"
                     "  constexpr {0} kRow[{1}] = {{{2}}};\n"
                     "  return kRow[k];\n}}\n"
                     "static __device__ __forceinline__ {0} column(int k) {{\n"
                     "  constexpr {0} kColumn[{1}] = {{{3}}};\n"
                     "  return kColumn[k];\n}}",
                     type, p.bandRow.size(), list(p.bandRow), list(p.bandColumn));
}

/// One pass's weights, traits, launch and band traits (section
/// rank_one_pass): `traits` names its traits, the launch is `launch` and
/// the band's traits `band`.
std::string rankOnePassCode(const Plan &plan, const RankOnePass &p, std::string_view traits,
                            std::string_view launch, std::string_view band,
                            std::string_view boundary) {
  const StencilSpec &spec = plan.spec;
  const bool asFloat = plan.simt().compute != Precision::FP64;
  const auto table = [&](const std::vector<double> &values) {
    return alignedTable(literals(plan, values), 4);
  };
  return CodeWriter::filled(
      templateSection("simt.cu.tpl", "rank_one_pass"), fmt::arg("traits", traits),
      fmt::arg("launch", launch), fmt::arg("steps", p.steps),
      fmt::arg("halo", p.steps * spec.radius), fmt::arg("taps", p.row.size()),
      fmt::arg("compute", asFloat ? "float" : "double"),
      fmt::arg("element", elementTypeName(spec.precision)), fmt::arg("row", table(p.row)),
      fmt::arg("column", table(p.column)), fmt::arg("columns", p.columns),
      fmt::arg("batch", p.batch), fmt::arg("rows", p.rows), fmt::arg("threads", p.threads),
      fmt::arg("min_blocks", p.minBlocks),
      fmt::arg("source", p.source.empty() ? "the remainder's, in the passes' geometry" : p.source),
      fmt::arg("band_traits",
               bandTraits(spec, band, p.steps, boundary, separableMembers(plan, p))));
}

} // namespace

PassBodies writeRankOne(CodeWriter &w, const Plan &plan, std::string_view ns,
                        std::string_view boundary) {
  const StencilSpec &spec = plan.spec;
  const RankOnePass &p = *plan.schedule.rankOne;
  std::string passes = rankOnePassCode(plan, p, "RankOne", "rankOnePass", "Band", boundary);
  if (p.remainder) {
    passes += '\n';
    passes += rankOnePassCode(plan, *p.remainder, "RankOneRemainder", "rankOneRemainderPass",
                              "RemainderBand", boundary);
  }
  const std::string_view tpl = "simt.cu.tpl";
  w.fillWith(templateSection(tpl, "rank_one"), fmt::arg("name", spec.name),
             fmt::arg("namespace", ns), fmt::arg("steps", p.steps), fmt::arg("passes", passes),
             fmt::arg("band_tile", p.band.tile));
  const std::string remainderNote =
      p.remainder ? fmt::format("one pass of {} where that many remain, ", p.remainder->steps)
                  : std::string();
  PassBodies bodies;
  for (auto [body, name] :
       {std::pair{&bodies.run, "run_rank_one"}, {&bodies.pass, "pass_rank_one"}}) {
    *body = CodeWriter::filled(
        templateSection(tpl, name), fmt::arg("steps", p.steps),
        fmt::arg("size_args", sizeArguments(2)), fmt::arg("name", spec.name),
        fmt::arg("remainder_note", remainderNote),
        fmt::arg("remainder_band", p.remainder ? "RemainderBand" : "void"),
        fmt::arg("remainder_pass", p.remainder ? "rankOneRemainderPass" : "nullptr"));
  }
  return bodies;
}

namespace {

/// One band level over the whole grid, as band.cuh's separable levels:
/// each point a step writes is the multiply-adds of the band's column over
/// the x-passes (the band's row's multiply-adds over the level before, read
/// with the boundary rule) of its column of rows, rounded to the element
/// type (rowSum, columnSum).
GridND bandLevel(const Plan &plan, const RankOnePass &p, const GridND &in) {
  const StencilSpec &spec = plan.spec;
  const Precision compute = plan.simt().compute;
  const long long r = spec.radius;
  GridND out = in;
  forEachWrittenPoint(spec, in, [&](const std::array<long long, 3> &i) {
    double acc = 0.0;
    for (long long dy = -r; dy <= r; ++dy) {
      double row = 0.0;
      for (long long dx = -r; dx <= r; ++dx) {
        row = multiplyAdd(p.bandRow[dx + r], boundaryReadND(spec, in, {i[0] + dy, i[1] + dx, 0}),
                          row, compute);
      }
      acc = multiplyAdd(p.bandColumn[dy + r], row, acc, compute);
    }
    out.at(i) = roundToStorage(acc, spec.precision);
  });
  return out;
}

/// The kernel's points, W or more inside the grid: each row's x-pass, then
/// each output's y-pass, in rank_one.cuh's order and arithmetic.
void rankOneInterior(const Plan &plan, const RankOnePass &p, const GridND &in, GridND &out) {
  const Precision compute = plan.simt().compute;
  const long long ny = in.n[0], nx = in.n[1], w = p.steps * plan.spec.radius;
  GridND rows = in; // each row's x-pass at the columns W or more inside
  for (long long y = 0; y < ny; ++y) {
    for (long long x = w; x < nx - w; ++x) {
      double s = 0.0;
      for (std::size_t k = 0; k < p.row.size(); ++k) {
        s = multiplyAdd(p.row[k], in.at({y, x - w + static_cast<long long>(k), 0}), s, compute);
      }
      rows.at({y, x, 0}) = s;
    }
  }
  for (long long y = w; y < ny - w; ++y) {
    for (long long x = w; x < nx - w; ++x) {
      double s = 0.0;
      for (std::size_t k = 0; k < p.column.size(); ++k) {
        s = multiplyAdd(p.column[k], rows.at({y - w + static_cast<long long>(k), x, 0}), s,
                        compute);
      }
      out.at({y, x, 0}) = roundToStorage(s, plan.spec.precision);
    }
  }
}

} // namespace

void emulateRankOnePass(const Plan &plan, const RankOnePass &p, const GridND &in, GridND &out) {
  const StencilSpec &spec = plan.spec;
  const long long ny = in.n[0], nx = in.n[1];
  const long long w = static_cast<long long>(p.steps) * spec.radius;
  if (ny > 2 * w && nx > 2 * w) { // else all band (composed.cuh)
    rankOneInterior(plan, p, in, out);
  }
  GridND level = in;
  for (int l = 0; l < p.steps; ++l) {
    level = bandLevel(plan, p, level);
  }
  forEachWrittenPoint(spec, in, [&](const std::array<long long, 3> &i) {
    if (i[0] < w || i[0] >= ny - w || i[1] < w || i[1] >= nx - w) {
      out.at(i) = level.at(i);
    }
  });
}

} // namespace stencilc
