//===- SimtLowRank.cpp - Whether a CUDA-core plan evaluates the passes -----===//
//
// Turns the exact analysis (stencilc/LowRank.h) of a 2D or 3D stencil into
// the form the CUDA-core kernels evaluate (LowRankForm in Plan.h). 2D: row
// passes along x into one intermediate per term and row, then the
// multiply-adds along y, the scale folded into their coefficients. 3D: the
// unfolding along z, each term's plane matrix as row passes and
// multiply-adds along y (or directly), then its z vector's multiply-adds
// into the queue. It decides, by --plan-option lowrank, whether the plan
// uses it, and says why.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtEmulator.h"
#include "Backends/Simt/SimtPlanner.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "stencilc/LowRank.h"

namespace stencilc {

namespace {

/// The most the passes may amplify the direct form's rounding errors where
/// --plan-option lowrank=auto uses them: terms that cancel (entries of both
/// signs) lose accuracy. The suite's boxes and the blurs are 1; EBISU's
/// 2d49pt, 2.4 (five times the direct form's error in
/// LowRankErrorTest), is left direct.
constexpr double MaxAutoAmplification = 1.5;

/// `x` rounded to a double, where its parts fit 64 bits.
std::optional<double> toDouble(const Rational &x) {
  const llvm::DynamicAPInt most(INT64_MAX), least(-INT64_MAX);
  if (x.numerator() > most || x.numerator() < least || x.denominator() > most) {
    return std::nullopt;
  }
  const auto n = static_cast<int64_t>(x.numerator());
  const auto d = static_cast<int64_t>(x.denominator());
  constexpr int64_t Exact = int64_t{1} << 53; // both exact as doubles: one rounding
  if (std::llabs(n) <= Exact && d <= Exact) {
    return static_cast<double>(n) / static_cast<double>(d);
  }
  return static_cast<double>(static_cast<long double>(n) / static_cast<long double>(d));
}

double magnitude(const Rational &x) { return std::fabs(toDouble(x).value_or(HUGE_VAL)); }

/// The 1-norm of a factor.
double norm1(const std::vector<Rational> &v) {
  double sum = 0.0;
  for (const Rational &e : v) {
    sum += magnitude(e);
  }
  return sum;
}

/// The sum of the magnitudes of what the form multiplies and adds, over
/// sum |c|: in 2D sum |scale| |u|_1 |v|_1 over the terms; in 3D sum |scale|
/// |u|_1 times, per plane, |P|_1 where it is evaluated directly, else sum
/// |scale| |u|_1 |v|_1 over its terms.
double amplification(const StencilSpec &spec, const LowRankAnalysis &a) {
  double passes = 0.0, direct = 0.0;
  const auto separable = [](const RankOneTerm &t) {
    return magnitude(t.scale) * norm1(t.column) * norm1(t.row);
  };
  for (size_t k = 0; k < a.terms.size(); ++k) {
    if (a.dims == 2) {
      passes += separable(a.terms[k]);
      continue;
    }
    double plane = 0.0;
    if (a.planeDirect[k]) {
      plane = norm1(a.terms[k].row);
    } else {
      for (const RankOneTerm &p : a.planes[k]) {
        plane += separable(p);
      }
    }
    passes += magnitude(a.terms[k].scale) * norm1(a.terms[k].column) * plane;
  }
  for (const Term &t : spec.terms) {
    direct += std::fabs(t.coefficient);
  }
  return direct > 0.0 ? passes / direct : 0.0;
}

/// The offsets (from -r) of a factor's non-zero entries.
std::vector<int> nonZeroOffsets(const std::vector<Rational> &f) {
  std::vector<int> at;
  const int r = static_cast<int>(f.size()) / 2;
  for (int k = 0; k < static_cast<int>(f.size()); ++k) {
    if (!f[k].isZero()) {
      at.push_back(k - r);
    }
  }
  return at;
}

const Rational &entry(const std::vector<Rational> &f, int offset) {
  return f[static_cast<size_t>(offset + static_cast<int>(f.size()) / 2)];
}

/// Adds one separable term to `form`: a row pass and its multiply-adds
/// along y, or, where a factor has one tap, that tap folded into the other
/// factor's multiply-adds on the input (separableTermOps). False where a
/// number does not fit a double.
bool addTerm(const SeparableTerm &t, Precision compute, LowRankForm &form) {
  const std::vector<int> dys = nonZeroOffsets(t.factors[0]), dxs = nonZeroOffsets(t.factors[1]);
  const auto coefficient = [&](int dy, int dx, bool withRow) -> std::optional<double> {
    Rational c = t.scale * entry(t.factors[0], dy);
    if (withRow) {
      c = c * entry(t.factors[1], dx);
    }
    std::optional<double> d = toDouble(c);
    return d ? std::optional<double>(roundToStorage(*d, compute)) : std::nullopt;
  };
  const bool folded = dys.size() == 1 || dxs.size() == 1;
  if (!folded) {
    for (int dx : dxs) {
      const std::optional<double> w = toDouble(entry(t.factors[1], dx));
      if (!w) {
        return false;
      }
      form.rowTaps.push_back(LowRankRowTap{form.passes, dx, *w});
    }
  }
  for (int dy : dys) {
    for (int dx : folded ? dxs : std::vector<int>{0}) {
      const std::optional<double> c = coefficient(dy, dx, folded);
      if (!c) {
        return false;
      }
      form.terms.push_back(LowRankTerm{dy, folded ? -1 : form.passes, dx, *c});
    }
  }
  form.passes += folded ? 0 : 1;
  return true;
}

/// `x` rounded to a double and then to `compute`, where it fits.
std::optional<double> rounded(const Rational &x, Precision compute) {
  const std::optional<double> d = toDouble(x);
  return d ? std::optional<double>(roundToStorage(*d, compute)) : std::nullopt;
}

/// One read of a 3D plane value before it is placed: coefficient times
/// intermediate `pass` of plane row dy (pass >= 0), or the input at (dy, dx).
struct PlaneRead {
  int dy = 0, pass = -1, dx = 0;
  Rational coefficient;
};

/// The reads that make up term `t`'s plane matrix (rows y, columns x):
/// each entry where the plane is evaluated directly, else each of its
/// rank-one terms as 2D's addTerm does, a row pass along x (added to
/// `form`) read at each dy, or a factor of one tap folded into the other.
/// None where a weight does not fit a double.
std::optional<std::vector<PlaneRead>> planeReads(const RankOneTerm &t,
                                                 const std::vector<RankOneTerm> &plane, bool direct,
                                                 LowRankForm &form) {
  std::vector<PlaneRead> reads;
  const int n = static_cast<int>(t.column.size()), r = n / 2;
  if (direct) {
    for (int k = 0; k < n * n; ++k) {
      if (!t.row[k].isZero()) {
        reads.push_back({k / n - r, -1, k % n - r, t.row[k]});
      }
    }
    return reads;
  }
  for (const RankOneTerm &p : plane) {
    const std::vector<int> dys = nonZeroOffsets(p.column), dxs = nonZeroOffsets(p.row);
    const bool folded = dys.size() == 1 || dxs.size() == 1;
    for (int dy : dys) {
      for (int dx : folded ? dxs : std::vector<int>{0}) {
        Rational c = p.scale * entry(p.column, dy);
        reads.push_back({dy, folded ? -1 : form.passes, dx, folded ? c * entry(p.row, dx) : c});
      }
    }
    if (folded) {
      continue;
    }
    for (int dx : dxs) {
      const std::optional<double> w = toDouble(entry(p.row, dx));
      if (!w) {
        return std::nullopt;
      }
      form.rowTaps.push_back(LowRankRowTap{form.passes, dx, *w});
    }
    ++form.passes;
  }
  return reads;
}

/// Adds one term of the unfolding along z to `form`: its z vector times its
/// plane. A plane of one read, or a z vector of one tap, is folded into the
/// multiply-adds into the queue; otherwise the plane becomes a plane value
/// (its reads' multiply-adds), which each z tap multiplies into the queue.
/// False where a number does not fit a double.
bool add3DTerm(const RankOneTerm &t, const std::vector<RankOneTerm> &plane, bool direct,
               Precision compute, LowRankForm &form) {
  const std::optional<std::vector<PlaneRead>> reads = planeReads(t, plane, direct, form);
  if (!reads) {
    return false;
  }
  const std::vector<int> dzs = nonZeroOffsets(t.column);
  const bool valued = dzs.size() > 1 && reads->size() > 1;
  for (const PlaneRead &read : *reads) {
    if (valued) {
      const std::optional<double> c = rounded(read.coefficient, compute);
      if (!c) {
        return false;
      }
      form.planeTaps.push_back({form.planeValues, read.dy, read.pass, read.dx, *c});
      continue;
    }
    for (int dz : dzs) {
      const std::optional<double> c =
          rounded(t.scale * entry(t.column, dz) * read.coefficient, compute);
      if (!c) {
        return false;
      }
      form.terms.push_back(LowRankTerm{dz, read.pass, read.dx, *c, -1, read.dy});
    }
  }
  if (valued) {
    for (int dz : dzs) {
      const std::optional<double> c = rounded(t.scale * entry(t.column, dz), compute);
      if (!c) {
        return false;
      }
      form.terms.push_back(LowRankTerm{dz, -1, 0, *c, form.planeValues, 0});
    }
    ++form.planeValues;
  }
  return true;
}

/// Whether every row-pass weight (an integer) is exact in `compute`, so
/// that the passes round only their sums.
bool weightsExact(const LowRankForm &form, Precision compute) {
  return std::all_of(form.rowTaps.begin(), form.rowTaps.end(), [&](const LowRankRowTap &t) {
    return roundToStorage(t.weight, compute) == t.weight;
  });
}

/// Why the analysis gives no form to use, or empty.
std::string noFormWhy(const LowRankAnalysis &a) {
  if (!a.analysed()) {
    return a.notAnalysed;
  }
  if (a.fullRank2D()) {
    return fmt::format("full rank ({} of {}x{}): the direct form is kept", a.rank, a.size, a.size);
  }
  if (!a.worthIt()) {
    return fmt::format("{} {}: as 1D passes {} operations a point, not fewer than the direct "
                       "form's {}",
                       a.dims == 2 ? "rank" : "unfolding along i of rank", a.rank, a.decomposedOps,
                       a.directOps);
  }
  return {};
}

/// The form of the analysis `a` (2D, or 3D unfolded along z), its terms
/// sorted by their offset along the streamed axis; none where a number does
/// not fit a double.
std::optional<LowRankForm> formOf(const LowRankAnalysis &a, Precision compute) {
  LowRankForm form;
  form.dims = a.dims;
  if (a.dims == 2) {
    for (const SeparableTerm &t : a.separableTerms()) {
      if (!addTerm(t, compute, form)) {
        return std::nullopt;
      }
    }
  } else {
    for (size_t t = 0; t < a.terms.size(); ++t) {
      if (!add3DTerm(a.terms[t], a.planes[t], a.planeDirect[t], compute, form)) {
        return std::nullopt;
      }
    }
  }
  std::stable_sort(form.terms.begin(), form.terms.end(),
                   [](const LowRankTerm &x, const LowRankTerm &y) { return x.dy < y.dy; });
  return form;
}

/// Why `request` keeps `spec` (analysed as `a`) direct before any form is
/// built, or empty.
std::string directBeforeFormWhy(const StencilSpec &spec, const LowRankAnalysis &a,
                                LowRankRequest request, bool &fellBack) {
  if (request == LowRankRequest::Off) {
    return "--plan-option lowrank=off";
  }
  if (std::string why = noFormWhy(a); !why.empty()) {
    return why;
  }
  fellBack = true;
  if (request == LowRankRequest::Auto && spec.dims == 2 && spec.radius == 1) {
    // Measured (bench/results/2026-11-29-0453-lowrank-h200.txt): the passes
    // of a 3 x 3 box save 2 of 9 operations but lose more to their row
    // intermediates' registers.
    return "radius 1: the passes measured slower than the direct form on an H200 (box2d9p "
           "fp64 764.9 against 836.3 GStencil/s; lowrank=on asks for them)";
  }
  if (request == LowRankRequest::Auto && spec.dims == 3 &&
      std::all_of(a.planeDirect.begin(), a.planeDirect.end(), [](bool d) { return d; })) {
    // Such a stencil saves only the unfolding's planes (EBISU's 3d27pt: 21 of
    // 27), and its planes have full rank: a peer's stencil that the passes
    // must not be what makes faster.
    return "every plane of the unfolding along i is evaluated directly (no plane is separable): "
           "auto keeps the direct form (lowrank=on asks for the unfolding)";
  }
  fellBack = false;
  return {};
}

/// Where lowrank=auto would refuse the elimination's terms of 2D `a` for
/// cancelling (`amplified`: their amplification, above the most auto
/// takes), its grouping of rows (or columns) that are multiples of one
/// another, which never cancels, if that still takes fewer operations.
std::optional<LowRankAnalysis> regroupedWhereCancelling(const LowRankAnalysis &a, double amplified,
                                                        LowRankRequest request) {
  if (request != LowRankRequest::Auto || a.dims != 2 ||
      a.grouped != LowRankAnalysis::Grouped::None || a.grouping.empty() ||
      a.groupingOps >= a.directOps || amplified <= MaxAutoAmplification) {
    return std::nullopt;
  }
  return a.asGrouped();
}

/// ", a pass a group of equal rows" where `a`'s terms group rows (or
/// columns) that are multiples of one another, and why where `regrouped`.
std::string groupingText(const LowRankAnalysis &a, bool regrouped) {
  if (a.grouped == LowRankAnalysis::Grouped::None) {
    return {};
  }
  return fmt::format(", a pass {}{}", groupedName(a.grouped),
                     regrouped ? " (the elimination's terms cancel)" : "");
}

} // namespace

namespace {

/// analyseLowRankAlong(spec, 0), worked out once a thread for each table of
/// terms: the planners plan one stencil many times (per backend, option and
/// fused T; VerifyPlan's fixtures thousands of times), and in 3D the exact
/// elimination, in rationals of up to 256 bits, is most of a plan's time.
/// The analysis reads the dimensions, the radius and the terms only.
const LowRankAnalysis &analysedAlongI(const StencilSpec &spec) {
  thread_local std::map<std::vector<double>, LowRankAnalysis> analysed;
  std::vector<double> key{double(spec.dims), double(spec.radius)};
  for (const Term &t : spec.terms) {
    key.insert(key.end(), {double(t.offset.d[0]), double(t.offset.d[1]), double(t.offset.d[2]),
                           t.coefficient});
  }
  auto [at, inserted] = analysed.try_emplace(std::move(key));
  if (inserted) {
    at->second = analyseLowRankAlong(spec, 0);
  }
  return at->second;
}

} // namespace

bool pairedShape(const StencilSpec &spec, const LowRankForm *form) {
  return form && form->dims == 2 && spec.boundary != BoundaryKind::Periodic &&
         pairedRuns(*form).has_value();
}

std::optional<double> roundedToCompute(const Rational &x, Precision compute) {
  return rounded(x, compute);
}

LowRankChoice planLowRank(const StencilSpec &spec, Precision compute, LowRankRequest request) {
  LowRankChoice choice;
  choice.directOps = choice.decomposedOps = static_cast<int>(spec.points());
  if (spec.dims == 1 || spec.hasFields()) {
    choice.why = spec.hasFields() ? "a stencil of fields has no one constant table to factor"
                                  : "1D: the direct form is already one pass";
    return choice;
  }
  // Analysed under lowrank=off too: the plan gives both counts. The 3D
  // kernel streams along z, so it unfolds the coefficients along i.
  const LowRankAnalysis &analysed = analysedAlongI(spec);
  choice.decomposedOps = analysed.analysed() ? analysed.decomposedOps : analysed.directOps;
  if (std::string why = directBeforeFormWhy(spec, analysed, request, choice.fellBack);
      !why.empty()) {
    choice.why = std::move(why);
    return choice;
  }
  choice.amplification = amplification(spec, analysed);
  const std::optional<LowRankAnalysis> regrouped =
      regroupedWhereCancelling(analysed, choice.amplification, request);
  if (regrouped) {
    choice.amplification = amplification(spec, *regrouped);
  }
  const LowRankAnalysis &a = regrouped ? *regrouped : analysed;
  choice.decomposedOps = a.decomposedOps;
  std::optional<LowRankForm> form = formOf(a, compute);
  choice.fellBack = true;
  if (!form) {
    choice.why = "the decomposition's numbers do not fit 64 bits";
    return choice;
  }
  if (!weightsExact(*form, compute)) {
    choice.why =
        fmt::format("the 1D factors' integer weights are not exact in {}", keyword(compute));
    return choice;
  }
  if (request == LowRankRequest::Auto && choice.amplification > MaxAutoAmplification) {
    choice.why = fmt::format("its terms cancel: the passes may round {:.2g} times as much as the "
                             "direct form (auto takes at most {:.2g}; lowrank=on asks for it)",
                             choice.amplification, MaxAutoAmplification);
    return choice;
  }
  choice.fellBack = false;
  choice.why = fmt::format(
      "{} {}{}, lowrank={}", spec.dims == 2 ? "rank" : "unfolding along i of rank", a.rank,
      groupingText(a, regrouped.has_value()), request == LowRankRequest::On ? "on" : "auto");
  choice.form = std::move(form);
  return choice;
}

} // namespace stencilc
