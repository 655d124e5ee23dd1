//===- SimtScale.cpp - An fp64 stencil's coefficients as integers x 1/D ----===//
//
// An fp64 FMA takes its multiplier as an immediate only where the double's
// low 32 bits are 0; a coefficient such as 7/118 is not one, so it sits in
// a register and the FMA reads three registers, which an H200 feeds at
// about 65 % of the FP64 pipe's rate (bench/fp64pipe/dfma_rate.cu). Where
// the exact coefficients share a denominator D with small numerators, the
// kernels take the numerators as the multipliers (immediates) and multiply
// each finished sum by 1/D once (docs/generated-code.md, "Scaled
// coefficients").
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtPlanner.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include <fmt/format.h>

#include "stencilc/LowRank.h"

namespace stencilc {

namespace {

/// Whether an fp64 FMA takes `c` as an immediate: its low 32 bits are 0.
bool fmaImmediate(double c) { return (std::bit_cast<std::uint64_t>(c) & 0xFFFFFFFFu) == 0; }

/// Why the plan keeps the coefficients as given, or "" where it scales
/// them (or where nothing is worth saying: not fp64).
std::string keptWhy(const StencilSpec &spec, const SimtPlan &sp, ScaleRequest request) {
  if (request == ScaleRequest::Off) {
    return "as given (--plan-option scale=off)";
  }
  if (sp.lowRank.form) {
    return "as given: the low-rank form has coefficients of its own";
  }
  if (!sp.unrolled) {
    return "as given: a coefficient table, not FMA immediates";
  }
  const bool allImmediate = std::all_of(spec.terms.begin(), spec.terms.end(),
                                        [](const Term &t) { return fmaImmediate(t.coefficient); });
  return allImmediate ? "as given: every one is already an fp64 FMA immediate" : "";
}

/// The least common denominator of the coefficients' simplest rationals,
/// where it and every numerator over it are small enough; 0 otherwise.
long long commonDenominator(const StencilSpec &spec) {
  const llvm::DynamicAPInt limit(ScaledNumeratorLimit);
  llvm::DynamicAPInt d(1);
  for (const Term &t : spec.terms) {
    d = lcm(d, Rational::simplestRoundingTo(t.coefficient).denominator());
    if (d >= limit) {
      return 0;
    }
  }
  for (const Term &t : spec.terms) {
    if (!scaledInteger(t.coefficient, static_cast<long long>(int64_t(d)))) {
      return 0;
    }
  }
  return static_cast<long long>(int64_t(d));
}

} // namespace

std::optional<double> scaledInteger(double coefficient, long long denominator) {
  const Rational k =
      Rational::simplestRoundingTo(coefficient) * Rational(static_cast<int64_t>(denominator));
  const llvm::DynamicAPInt limit(ScaledNumeratorLimit);
  if (!k.isInteger() || k.numerator() >= limit || -k.numerator() >= limit) {
    return std::nullopt;
  }
  return static_cast<double>(int64_t(k.numerator()));
}

ScaledCoefficients planScaled(const StencilSpec &spec, const SimtPlan &sp, ScaleRequest request) {
  ScaledCoefficients s;
  if (spec.precision != Precision::FP64 || spec.hasFields()) {
    return s; // fp32 FMAs take any coefficient as an immediate
  }
  s.why = keptWhy(spec, sp, request);
  if (!s.why.empty()) {
    return s;
  }
  const long long d = commonDenominator(spec);
  if (d == 0 || std::has_single_bit(static_cast<unsigned long long>(d))) {
    s.why = fmt::format("as given: no common denominator other than a power of two leaves every "
                        "numerator below {} in magnitude",
                        ScaledNumeratorLimit);
    return s;
  }
  s.denominator = d;
  s.factor = 1.0 / static_cast<double>(d);
  s.why = fmt::format("integers k over {0}: each k an fp64 FMA immediate (two register operands, "
                      "not three), a point's sum times 1/{0} rounded once (--plan-option "
                      "scale=off keeps them as given)",
                      d);
  return s;
}

void scaleSlices(SimtPlan &sp) {
  for (SimtSlice &slice : sp.slices) {
    for (SimtTerm &t : slice.terms) {
      t.coefficient = *scaledInteger(t.coefficient, sp.scaled.denominator);
    }
  }
}

} // namespace stencilc
