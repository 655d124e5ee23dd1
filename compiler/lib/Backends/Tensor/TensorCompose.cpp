//===- TensorCompose.cpp - T steps of a stencil as one stencil --------------===//
//
// Exact composition: every double coefficient is an integer times a power of
// two, so with all of them over the smallest such power (2^e) a composed
// coefficient is an integer (a sum of products of T integers) times 2^(T·e).
// The integers are held in APInts wide enough never to wrap, and each result
// is rounded once to double.
//
//===----------------------------------------------------------------------===//
#include "TensorCompose.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

namespace stencilc {

namespace {

using llvm::APFloat;
using llvm::APInt;

/// A coefficient as mantissa · 2^exponent with an integer mantissa.
struct Dyadic {
  std::int64_t mantissa;
  int exponent;
};

Dyadic dyadic(double c) {
  int e = 0;
  const double m = std::frexp(c, &e); // c = m · 2^e, 0.5 <= |m| < 1
  return {static_cast<std::int64_t>(std::ldexp(m, 53)), e - 53};
}

/// value · 2^exponent rounded once to double (value != 0). The magnitude is
/// first cut to 62 bits with a sticky bit for what was cut, which rounds as
/// the whole would, then converted and scaled.
double toDouble(const APInt &value, int exponent) {
  const bool negative = value.isNegative();
  APInt magnitude = value.abs();
  const unsigned bits = magnitude.getActiveBits();
  if (bits > 62) {
    const unsigned cut = bits - 62;
    const bool sticky = magnitude.countr_zero() < cut;
    magnitude.lshrInPlace(cut);
    if (sticky)
      magnitude.setBit(0);
    exponent += static_cast<int>(cut);
  }
  APFloat f(APFloat::IEEEdouble());
  f.convertFromAPInt(magnitude.zextOrTrunc(64), /*IsSigned=*/false, APFloat::rmNearestTiesToEven);
  const double d = llvm::scalbn(f, exponent, APFloat::rmNearestTiesToEven).convertToDouble();
  return negative ? -d : d;
}

} // namespace

StencilSpec composeSteps(const StencilSpec &spec, int steps) {
  StencilSpec out = spec;
  out.radius = spec.radius * steps;
  if (spec.dims > 1)
    out.shape = Shape::Box;
  if (steps <= 1 || spec.terms.empty())
    return out;

  int base = 0;
  for (const Term &t : spec.terms)
    base = std::min(base, dyadic(t.coefficient).exponent);
  // Each factor is below 2^(53 + spread) in magnitude; a sum of at most
  // points^steps products fits with the log of that count, plus the sign.
  int spread = 0;
  for (const Term &t : spec.terms)
    spread = std::max(spread, dyadic(t.coefficient).exponent - base);
  const unsigned countBits = static_cast<unsigned>(std::ceil(std::log2(spec.terms.size() + 1)));
  const unsigned width = static_cast<unsigned>(steps) * (53 + spread + countBits) + 2;

  std::vector<std::pair<Offset, APInt>> factors;
  for (const Term &t : spec.terms) {
    const Dyadic d = dyadic(t.coefficient);
    APInt m(width, static_cast<std::uint64_t>(d.mantissa), /*isSigned=*/true);
    factors.emplace_back(t.offset, m.shl(static_cast<unsigned>(d.exponent - base)));
  }

  std::map<Offset, APInt> current;
  for (const auto &[offset, m] : factors)
    current.emplace(offset, m);
  for (int step = 1; step < steps; ++step) {
    std::map<Offset, APInt> next;
    for (const auto &[a, ma] : current)
      for (const auto &[b, mb] : factors) {
        Offset sum;
        for (int k = 0; k < 3; ++k)
          sum.d[k] = a.d[k] + b.d[k];
        auto [it, inserted] = next.try_emplace(sum, APInt(width, 0));
        it->second += ma * mb;
      }
    current = std::move(next);
  }

  out.terms.clear();
  out.radius = 0;
  for (const auto &[offset, m] : current) {
    const double c = m.isZero() ? 0.0 : toDouble(m, steps * base);
    if (c != 0.0) {
      out.terms.push_back({offset, c});
      out.radius = std::max(out.radius, offset.chebyshevNorm());
    }
  }
  return out;
}

} // namespace stencilc
