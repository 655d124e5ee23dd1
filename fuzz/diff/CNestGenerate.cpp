//===- CNestGenerate.cpp - Random loop nests for the C differential fuzzer ===//
//
// Draws a nest: its terms first (which arrays, offsets, coefficients), then
// the grid and the loop bounds the terms' radius asks for, then the other
// arrays' forms and extents. Each aspect is canonical (what stencilc must
// accept) most of the time and off it otherwise (a bound short of the
// interior, a read array of another row length), always within what C
// defines: no access leaves its array.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdio>

#include "CNest.h"
#include "Random.h"

namespace stencilc::fuzzdiff {
namespace {

/// Exact decimal text of a double (the values used are short binary fractions).
std::string exactText(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  std::string text = buffer;
  if (text.find_first_of(".e") == std::string::npos) {
    text += ".0";
  }
  return text;
}

/// A coefficient's C text: literals as C folds them, a file-scope constant,
/// or an expression of the nest's scalar parameters.
std::string drawCoefficient(Rng &rng, CNest &nest) {
  static const std::vector<std::string> literals = {
      "1", "2", "-1", "3", "0.25", "0.5", "0.1", "1.0 / 3", "(1 - 4 * 0.2)", "0.125", "-2.5"};
  int kind = uniform(rng, 0, 9);
  if (kind <= 4 || (kind >= 7 && nest.params.empty())) {
    std::string text = pick(rng, literals);
    return nest.isFloat && text == "0.25" && chance(rng, 0.5) ? "0.25f" : text;
  }
  if (kind <= 6) {
    std::string name = "c_" + nest.name + "_" + std::to_string(nest.constants.size());
    double value = uniform(rng, -16, 16) / 8.0;
    nest.constants.push_back("static const double " + name + " = " + exactText(value) + ";");
    return name;
  }
  const std::string &p = pick(rng, nest.params).name;
  static const std::vector<std::string> forms = {"P", "P * P", "P * 0.5", "-P", "(P + 1)", "2 * P"};
  std::string form = pick(rng, forms), text;
  for (char c : form) {
    text += c == 'P' ? p : std::string(1, c);
  }
  return text;
}

std::array<int, 3> drawOffset(Rng &rng, int dims) {
  std::array<int, 3> offset{0, 0, 0};
  int reach = chance(rng, 0.1) ? 3 : (chance(rng, 0.5) ? 2 : 1);
  for (int d = 0; d < dims; ++d) {
    offset[d] = uniform(rng, -reach, reach);
  }
  return offset;
}

/// The terms: every input array read alone at least once (so it is an input
/// field), coefficient arrays only as weights.
void drawTerms(Rng &rng, CNest &nest, int inputs, int weights) {
  int count = uniform(rng, std::max(inputs, 1), 6);
  for (int t = 0; t < count; ++t) {
    CTerm term;
    term.coefficient = drawCoefficient(rng, nest);
    term.read.array = 1 + (t < inputs ? t : uniform(rng, 0, inputs - 1));
    term.read.offset = drawOffset(rng, nest.dims);
    term.negated = chance(rng, 0.2);
    if (weights > 0 && t >= inputs && chance(rng, 0.6)) {
      term.weighted = true;
      term.weight.array = 1 + inputs + uniform(rng, 0, weights - 1);
      term.weight.offset = chance(rng, 0.5) ? term.read.offset : std::array<int, 3>{0, 0, 0};
    }
    nest.terms.push_back(term);
  }
  std::shuffle(nest.terms.begin(), nest.terms.end(), rng);
}

/// The most negative and most positive offset along each axis, over every
/// read and weight.
void offsetReach(const CNest &nest, std::array<int, 3> &below, std::array<int, 3> &above) {
  below = {0, 0, 0};
  above = {0, 0, 0};
  for (const CTerm &t : nest.terms) {
    for (int d = 0; d < 3; ++d) {
      for (int o : {t.read.offset[d], t.weighted ? t.weight.offset[d] : 0}) {
        below[d] = std::max(below[d], -o);
        above[d] = std::max(above[d], o);
      }
    }
  }
}

int radiusOf(const CNest &nest) {
  std::array<int, 3> below, above;
  offsetReach(nest, below, above);
  int radius = 0;
  for (int d = 0; d < 3; ++d) {
    radius = std::max({radius, below[d], above[d]});
  }
  return radius;
}

} // namespace

int nestRadius(const CNest &nest) { return radiusOf(nest); }

namespace {

/// The canonical bounds of axis `d`: from the radius to the extent less the
/// radius, written against the size parameter or, for a constant array,
/// sometimes as a literal.
void canonicalBound(Rng &rng, CNest &nest, int d, int radius) {
  LoopBound &b = nest.bounds[d];
  const SizeVar &size = nest.sizes[d];
  b.lower = radius;
  b.upper = size.value - radius;
  b.lowerText = std::to_string(radius);
  b.inclusive = chance(rng, 0.2);
  std::string base = size.name;
  if (nest.arrays[0].form == ArrayForm::Constant && chance(rng, 0.7)) {
    base = std::to_string(size.value);
  }
  int subtract = radius + (b.inclusive ? 1 : 0);
  b.upperText = subtract == 0 ? base : base + " - " + std::to_string(subtract);
  b.endVariable = base == size.name ? base : "";
}

/// A bound off the canonical one, never past what the arrays hold: a start
/// or an end nearer the middle, or an end named by half the size or by
/// another size parameter.
void offCanonicalBound(Rng &rng, CNest &nest, int d, int lowest, int highest) {
  LoopBound &b = nest.bounds[d];
  const SizeVar size = nest.sizes[d];
  if (chance(rng, 0.3)) {
    b.lower = uniform(rng, lowest, std::max(lowest, b.upper));
    b.lowerText = std::to_string(b.lower);
    return;
  }
  int kind = uniform(rng, 0, 3);
  int c = uniform(rng, 0, 3);
  b.inclusive = false;
  if (kind == 0 && size.value - c <= highest) {
    b.upper = size.value - c;
    b.upperText = c == 0 ? size.name : size.name + " - " + std::to_string(c);
    b.endVariable = size.name;
  } else if (kind == 1 && size.value / 2 - c <= highest) {
    b.upper = size.value / 2 - c;
    b.upperText = size.name + " / 2 - " + std::to_string(c);
    b.endVariable.clear();
  } else if (kind == 2) {
    b.upper = uniform(rng, b.lower, highest);
    SizeVar other{"m" + std::to_string(d) + "_" + std::to_string(nest.sizes.size()), b.upper + c};
    nest.sizes.push_back(other);
    b.upperText = other.name + " - " + std::to_string(c);
    b.endVariable = other.name;
  } else {
    b.upper = uniform(rng, b.lower, highest);
    b.upperText = std::to_string(b.upper);
    b.endVariable.clear();
  }
}

void drawBounds(Rng &rng, CNest &nest, const GenOptions &options) {
  std::array<int, 3> below, above;
  offsetReach(nest, below, above);
  int radius = radiusOf(nest);
  for (int d = 0; d < nest.dims; ++d) {
    canonicalBound(rng, nest, d, radius);
    if (chance(rng, options.offCanonical)) {
      offCanonicalBound(rng, nest, d, below[d], nest.sizes[d].value - above[d]);
    }
  }
}

} // namespace

CNest generateNest(std::mt19937_64 &rng, const std::string &name, const GenOptions &options) {
  CNest nest;
  nest.name = name;
  nest.dims = chance(rng, 0.3) ? 1 : (chance(rng, 0.6) ? 2 : 3);
  nest.isFloat = chance(rng, 0.5);
  static const std::vector<std::string> paramNames = {"dt", "alpha", "beta"};
  int paramCount = chance(rng, 0.6) ? 0 : uniform(rng, 1, 2);
  for (int p = 0; p < paramCount; ++p) {
    // Positive, so that no divisor (`/ dt`, `(dt + 1)`) is zero.
    nest.params.push_back({paramNames[p], uniform(rng, 1, 16) / 8.0});
  }
  int inputs = chance(rng, 0.6) ? 1 : uniform(rng, 2, 3);
  int weights = chance(rng, 0.7) ? 0 : 1;
  drawTerms(rng, nest, inputs, weights);
  int radius = std::max(radiusOf(nest), 1);
  static const std::array<std::array<const char *, 3>, 3> sizeNames = {
      {{"n", "", ""}, {"ny", "nx", ""}, {"nz", "ny", "nx"}}};
  for (int d = 0; d < nest.dims; ++d) {
    int extra = nest.dims == 3 ? uniform(rng, 0, 3) : uniform(rng, 0, 6);
    nest.sizes.push_back({sizeNames[nest.dims - 1][d], 2 * radius + 1 + extra});
  }
  static const std::array<std::string, 3> vars = {"i", "j", "k"};
  nest.loopVar = vars;
  if (nest.dims > 1 && chance(rng, 0.1)) {
    std::shuffle(nest.loopOrder.begin(), nest.loopOrder.begin() + nest.dims, rng);
  }
  drawWrittenArray(rng, nest, inputs + weights);
  drawBounds(rng, nest, options);
  drawReadArrays(rng, nest, options);
  int grouping = uniform(rng, 0, 5);
  if (grouping == 4 && nest.terms.size() > 1) {
    nest.grouping = Grouping::Scaled;
    nest.groupText = drawCoefficient(rng, nest);
  } else if (grouping == 5) {
    nest.grouping = Grouping::Divided;
    nest.groupText = nest.params.empty() || chance(rng, 0.5) ? "4" : nest.params[0].name;
  }
  return nest;
}

} // namespace stencilc::fuzzdiff
