//===- FieldsGenerate.cpp - Random stencils of fields and their text ------===//
//
// The update is a sum of groups: a term (a coefficient expression times a
// read, or times a coefficient field's read times a read), a coefficient
// times a parenthesised sum of reads, or such a sum divided by a
// coefficient. Coefficients are built from positive literals, parameters
// (positive values) and lets by products, quotients and sums, so none is
// zero; each (field, offset) is read once, so no two terms merge. Hence the
// radius is the largest offset read, whatever the coefficients' values.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "FieldsStencil.h"
#include "Random.h"

namespace stencilc::fuzzdiff {
namespace {

FExpr number(const std::string &text) {
  FExpr e;
  e.kind = FExpr::Kind::Number;
  e.text = text;
  e.value = std::strtod(text.c_str(), nullptr);
  return e;
}

FExpr binary(FExpr::Kind kind, FExpr lhs, FExpr rhs) {
  FExpr e;
  e.kind = kind;
  e.args = {std::move(lhs), std::move(rhs)};
  return e;
}

FExpr named(FExpr::Kind kind, const std::string &name) {
  FExpr e;
  e.kind = kind;
  e.text = name;
  return e;
}

/// A non-zero coefficient of constants, parameters and the first `lets` lets.
FExpr coefficient(Rng &rng, const FieldsStencil &s, size_t lets, int depth) {
  static const std::vector<std::string> literals = {
      "2", "0.5", "0.25", "3", "0.1", "1.5", "1e-3", "0.75", "4", "1.0", "7", "0.3", "10", "2.5e1"};
  int kind = uniform(rng, 0, depth > 2 ? 2 : 6);
  if (kind == 1 && !s.params.empty()) {
    return named(FExpr::Kind::Param, pick(rng, s.params));
  }
  if (kind == 2 && lets > 0) {
    return named(FExpr::Kind::Let, s.lets[uniform(rng, 0, int(lets) - 1)].first);
  }
  if (kind <= 2 && chance(rng, 0.1)) {
    // Constant calls, folded by Sema in quad precision: the interpretation
    // takes the double functions (one rounding apart).
    static const std::vector<std::pair<std::string, double>> calls = {
        {"sqrt(2)", std::sqrt(2.0)}, {"pow(2, 3)", 8.0},  {"pi", M_PI},
        {"pow(0.5, 2)", 0.25},       {"sqrt(0.25)", 0.5}, {"pow(3, 0.5)", std::sqrt(3.0)}};
    const auto &[text, value] = pick(rng, calls);
    FExpr e = number(text);
    e.value = value;
    return e;
  }
  if (kind <= 2) {
    return number(pick(rng, literals));
  }
  FExpr lhs = coefficient(rng, s, lets, depth + 1), rhs = coefficient(rng, s, lets, depth + 1);
  static const std::vector<FExpr::Kind> ops = {FExpr::Kind::Mul, FExpr::Kind::Div,
                                               FExpr::Kind::Add};
  return binary(pick(rng, ops), lhs, rhs);
}

FExpr read(int field, const std::array<int, 3> &offset) {
  FExpr e;
  e.kind = FExpr::Kind::Read;
  e.field = field;
  e.offset = offset;
  return e;
}

/// Reads of input fields at distinct offsets: draws until one is new.
struct ReadPool {
  std::set<std::pair<int, std::array<int, 3>>> used;
  int inputs = 1, dims = 1, reach = 1;

  bool draw(Rng &rng, FExpr &out) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      std::array<int, 3> offset{0, 0, 0};
      for (int d = 0; d < dims; ++d) {
        offset[d] = uniform(rng, -reach, reach);
      }
      int field = uniform(rng, 0, inputs - 1);
      if (used.insert({field, offset}).second) {
        out = read(field, offset);
        return true;
      }
    }
    return false;
  }
};

/// One group of the update (see the file's comment); false when no new
/// read is left.
bool group(Rng &rng, FieldsStencil &s, ReadPool &pool, int weights, FExpr &out) {
  FExpr r;
  if (!pool.draw(rng, r)) {
    return false;
  }
  int kind = uniform(rng, 0, 5);
  if (kind <= 2) {
    out = kind == 0 ? r : binary(FExpr::Kind::Mul, coefficient(rng, s, s.lets.size(), 0), r);
    if (weights > 0 && chance(rng, 0.4)) {
      int w = static_cast<int>(s.fields.size()) - weights + uniform(rng, 0, weights - 1);
      FExpr weight = read(w, chance(rng, 0.5) ? r.offset : std::array<int, 3>{0, 0, 0});
      out = binary(FExpr::Kind::Mul, weight, out);
    }
    return true;
  }
  FExpr sum = r;
  for (int more = uniform(rng, 1, 3); more > 0 && pool.draw(rng, r); --more) {
    sum = binary(chance(rng, 0.7) ? FExpr::Kind::Add : FExpr::Kind::Sub, sum, r);
  }
  FExpr c = coefficient(rng, s, s.lets.size(), 0);
  out = kind == 5 ? binary(FExpr::Kind::Div, sum, c) : binary(FExpr::Kind::Mul, c, sum);
  return true;
}

bool usesField(const FExpr &e, int field) {
  if (e.kind == FExpr::Kind::Read) {
    return e.field == field;
  }
  return std::any_of(e.args.begin(), e.args.end(),
                     [&](const FExpr &a) { return usesField(a, field); });
}

void drawDeclarations(Rng &rng, FieldsStencil &s, int &inputs, int &weights) {
  std::vector<std::string> inputNames = {"u", "v", "w_prev", "phi", "src"};
  std::vector<std::string> weightNames = {"kd", "c2", "kappa"};
  std::shuffle(inputNames.begin(), inputNames.end(), rng);
  inputs = chance(rng, 0.5) ? 1 : uniform(rng, 2, 3);
  weights = chance(rng, 0.6) ? 0 : uniform(rng, 1, 2);
  static const std::vector<std::string> paramNames = {"dt", "alpha", "h2"};
  for (int p = uniform(rng, 0, 2); p > 0; --p) {
    s.params.push_back(paramNames[s.params.size()]);
    s.paramValues.push_back(uniform(rng, 1, 16) / 8.0);
  }
  s.declaresFields = !(inputs == 1 && chance(rng, 0.3));
  s.annotated = chance(rng, 0.2);
  s.declaresDims = chance(rng, 0.2);
  for (int f = 0; f < inputs; ++f) {
    s.fields.push_back({s.declaresFields ? inputNames[f] : "in", false});
  }
  for (int w = 0; w < weights; ++w) {
    s.fields.push_back({weightNames[w], true});
  }
  if (inputs >= 2 && chance(rng, 0.3)) {
    s.timePrevious = 1;
    s.timeCurrent = 0;
  }
  for (int l = uniform(rng, 0, 2); l > 0; --l) {
    std::string name = "c" + std::to_string(s.lets.size());
    s.lets.push_back({name, coefficient(rng, s, s.lets.size(), 1)});
  }
}

} // namespace

FieldsStencil generateFieldsStencil(uint64_t seed) {
  Rng rng(seed);
  FieldsStencil s;
  s.name = "s" + std::to_string(seed);
  s.dims = uniform(rng, 1, 3);
  static const std::vector<std::string> precisions = {"fp64", "fp64", "fp32", "fp32",
                                                      "fp16", "bf16", "tf32"};
  s.precision = pick(rng, precisions);
  s.boundary = chance(rng, 0.5) ? FBoundary::Fixed : static_cast<FBoundary>(uniform(rng, 1, 5));
  static const std::vector<std::string> constants = {"0.5", "-1", "2.25", "0"};
  s.boundaryText = pick(rng, constants);
  s.boundaryValue = std::strtod(s.boundaryText.c_str(), nullptr);
  int inputs = 1, weights = 0;
  drawDeclarations(rng, s, inputs, weights);
  ReadPool pool;
  pool.inputs = inputs;
  pool.dims = s.dims;
  pool.reach = uniform(rng, 1, 3);
  for (int f = 0; f < inputs; ++f) { // every input field read at least once
    FExpr r;
    pool.used.insert({f, {0, 0, 0}});
    r = read(f, {0, 0, 0});
    s.update = f == 0 ? r : binary(FExpr::Kind::Add, s.update, r);
  }
  for (int groups = uniform(rng, 1, 5); groups > 0; --groups) {
    FExpr g;
    if (!group(rng, s, pool, weights, g)) {
      break;
    }
    s.update = binary(chance(rng, 0.75) ? FExpr::Kind::Add : FExpr::Kind::Sub, s.update, g);
  }
  for (int w = inputs; w < inputs + weights; ++w) { // every coefficient field used
    FExpr r;
    if (!usesField(s.update, w) && pool.draw(rng, r)) {
      s.update = binary(FExpr::Kind::Add, s.update, binary(FExpr::Kind::Mul, read(w, r.offset), r));
    }
  }
  return s;
}

} // namespace stencilc::fuzzdiff
