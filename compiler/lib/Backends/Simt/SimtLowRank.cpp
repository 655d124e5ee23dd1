//===- SimtLowRank.cpp - Whether a CUDA-core plan evaluates the passes -----===//
//
// Turns the exact analysis (stencilc/LowRank.h) of a 2D stencil into the
// form the CUDA-core kernels evaluate (LowRankForm in Plan.h): row passes
// along x into one intermediate per term and row, then the multiply-adds
// along y, the scale folded into their coefficients. It decides, by
// --plan-option lowrank, whether the plan uses it, and says why.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtPlanner.h"

#include <algorithm>
#include <climits>
#include <cmath>

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

/// sum |scale| |u|_1 |v|_1 over the terms, over sum |c|.
double amplification(const StencilSpec &spec, const std::vector<SeparableTerm> &terms) {
  double passes = 0.0, direct = 0.0;
  for (const SeparableTerm &t : terms) {
    passes += magnitude(t.scale) * norm1(t.factors[0]) * norm1(t.factors[1]);
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
    return fmt::format("rank {}: as 1D passes {} operations a point, not fewer than the direct "
                       "form's {}",
                       a.rank, a.decomposedOps, a.directOps);
  }
  return {};
}

} // namespace

LowRankChoice planLowRank(const StencilSpec &spec, Precision compute, LowRankRequest request) {
  LowRankChoice choice;
  choice.directOps = choice.decomposedOps = static_cast<int>(spec.points());
  if (spec.dims != 2 || spec.hasFields()) {
    choice.why = spec.hasFields() ? "a stencil of fields has no one constant table to factor"
                 : spec.dims == 1 ? "1D: the direct form is already one pass"
                                  : "the CUDA-core kernels take the low-rank form in 2D only";
    return choice;
  }
  // Analysed under lowrank=off too: the plan gives both counts.
  const LowRankAnalysis a = analyseLowRank(spec);
  choice.decomposedOps = a.analysed() ? a.decomposedOps : a.directOps;
  if (request == LowRankRequest::Off) {
    choice.why = "--plan-option lowrank=off";
    return choice;
  }
  if (std::string why = noFormWhy(a); !why.empty()) {
    choice.why = std::move(why);
    return choice;
  }
  if (request == LowRankRequest::Auto && spec.radius == 1) {
    // Measured (bench/results/2026-11-29-0453-lowrank-h200.txt): the passes
    // of a 3 x 3 box save 2 of 9 operations but lose more to their row
    // intermediates' registers.
    choice.why = "radius 1: the passes measured slower than the direct form on an H200 (box2d9p "
                 "fp64 764.9 against 836.3 GStencil/s; lowrank=on asks for them)";
    choice.fellBack = true;
    return choice;
  }
  const std::vector<SeparableTerm> terms = a.separableTerms();
  choice.amplification = amplification(spec, terms);
  LowRankForm form;
  for (const SeparableTerm &t : terms) {
    if (!addTerm(t, compute, form)) {
      choice.why = "the decomposition's numbers do not fit 64 bits";
      choice.fellBack = true;
      return choice;
    }
  }
  std::stable_sort(form.terms.begin(), form.terms.end(),
                   [](const LowRankTerm &x, const LowRankTerm &y) { return x.dy < y.dy; });
  if (!weightsExact(form, compute)) {
    choice.why =
        fmt::format("the 1D factors' integer weights are not exact in {}", keyword(compute));
    choice.fellBack = true;
    return choice;
  }
  if (request == LowRankRequest::Auto && choice.amplification > MaxAutoAmplification) {
    choice.why = fmt::format("its terms cancel: the passes may round {:.2g} times as much as the "
                             "direct form (auto takes at most {:.2g}; lowrank=on asks for it)",
                             choice.amplification, MaxAutoAmplification);
    choice.fellBack = true;
    return choice;
  }
  choice.why =
      fmt::format("rank {}, lowrank={}", a.rank, request == LowRankRequest::On ? "on" : "auto");
  choice.form = std::move(form);
  return choice;
}

} // namespace stencilc
