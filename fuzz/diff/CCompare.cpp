//===- CCompare.cpp - The C program's dump against the translation's reference ===//
//
// The tolerance: inputs lie in [-1, 1], so no term of a point exceeds its
// coefficient's magnitude, and C and the reference (float64, the terms in
// another order, coefficients folded or evaluated once) differ by a few
// roundings of the C element type per term. A point is wrong when it
// differs by more than 8 (terms + 4) eps (1 + sum of |coefficients|): far
// below what a wrong stride, bound or coefficient gives, since those change
// a point by about a whole term.
//
//===----------------------------------------------------------------------===//
#include "CCompare.h"

#include <cmath>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "Backends/Common/Emulation.h"
#include "Backends/Simt/FieldsEmulator.h"
#include "StencilText.h"

namespace stencilc::fuzzdiff {
namespace {

/// The values the harness's fz_array_* fill an array with: the same
/// generator, giving k / 256 for k in [-256, 256], exact in float too.
void fillFromSeed(uint64_t seed, std::vector<double> &values) {
  uint64_t state = seed;
  for (double &v : values) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    v = static_cast<double>(static_cast<long long>((state >> 33) % 513u) - 256) / 256.0;
  }
}

bool readValues(std::istringstream &is, std::vector<double> &values) {
  long long count = -1;
  is >> count;
  if (count < 0) {
    return false;
  }
  values.resize(count);
  for (double &v : values) {
    std::string token;
    is >> token;
    char *end = nullptr;
    v = std::strtod(token.c_str(), &end);
    if (token.empty() || *end != '\0') {
      return false;
    }
  }
  return true;
}

/// One array (the written one included) as a grid of the written array's
/// extents: its elements in order, as a kernel given the array's pointer
/// and the grid's sizes reads them; NaN past its end.
GridND asGrid(const DumpedNest &nest, const std::vector<double> &values) {
  GridND grid(nest.dims, nest.extent);
  for (size_t p = 0; p < grid.points(); ++p) {
    grid.values[p] = p < values.size() ? values[p] : NAN;
  }
  return grid;
}

/// The C name of a field or parameter `name` of the translation: itself, or
/// without the '_'s stencilc-cfront appends to names the API reserves.
template <typename Map> auto lookUp(const Map &map, std::string name) {
  auto it = map.find(name);
  while (it == map.end() && !name.empty() && name.back() == '_') {
    name.pop_back();
    it = map.find(name);
  }
  return it;
}

/// Runs the reference step of `spec` on the nest's inputs into `out`;
/// false (with `detail`) where a field or parameter has no C counterpart.
bool referenceStep(const DumpedNest &nest, const StencilSpec &spec,
                   const std::vector<std::string> &arraysRead, GridND &out, std::string &detail) {
  if (!spec.hasFields()) {
    auto it = arraysRead.size() == 1 ? nest.arrays.find(arraysRead[0]) : nest.arrays.end();
    if (it == nest.arrays.end()) {
      detail = "the translation reads 'in', but the nest does not read exactly one array";
      return false;
    }
    referenceStepND(spec, asGrid(nest, it->second), out);
    return true;
  }
  std::vector<GridND> fields;
  for (size_t f = 0; f < spec.fields.size(); ++f) {
    std::string name =
        arraysRead.size() == spec.fields.size() ? arraysRead[f] : spec.fields[f].name;
    auto it = lookUp(nest.arrays, name);
    if (it == nest.arrays.end()) {
      detail = "no C array for the field '" + spec.fields[f].name + "'";
      return false;
    }
    fields.push_back(asGrid(nest, it->second));
  }
  std::vector<double> params;
  for (const std::string &p : spec.params) {
    auto it = lookUp(nest.params, p);
    if (it == nest.params.end()) {
      detail = "no C scalar for the parameter '" + p + "'";
      return false;
    }
    params.push_back(it->second);
  }
  referenceFieldsStepND(spec, fields, params, out);
  return true;
}

double tolerance(const DumpedNest &nest, const StencilSpec &spec) {
  double sum = 1.0, eps = std::ldexp(1.0, spec.precision == Precision::FP64 ? -52 : -23);
  size_t terms = spec.terms.size();
  for (const Term &t : spec.terms) {
    sum += std::fabs(t.coefficient);
  }
  std::vector<double> params;
  for (const std::string &p : spec.params) {
    auto it = lookUp(nest.params, p);
    params.push_back(it == nest.params.end() ? 0.0 : it->second);
  }
  for (const FieldTerm &t : spec.fieldTerms) {
    sum += std::fabs(t.value(params));
    ++terms;
  }
  return 8.0 * double(terms + 4) * eps * sum;
}

std::string hexText(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g (%a)", value, value);
  return buffer;
}

} // namespace

bool parseDump(const std::string &text, std::vector<DumpedNest> &nests) {
  std::istringstream lines(text);
  DumpedNest *current = nullptr;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream is(line);
    std::string word, name;
    is >> word;
    if (word == "nest") {
      nests.emplace_back();
      current = &nests.back();
      is >> current->name >> current->dims >> current->extent[0] >> current->extent[1] >>
          current->extent[2] >> current->written;
    } else if (!current) {
      return false;
    } else if (word == "array") {
      long long count = -1;
      uint64_t seed = 0;
      is >> name >> count >> seed;
      if (count < 0 || !is) {
        return false;
      }
      current->arrays[name].resize(count);
      fillFromSeed(seed, current->arrays[name]);
    } else if (word == "param") {
      std::string value;
      is >> name >> value;
      current->params[name] = std::strtod(value.c_str(), nullptr);
    } else if (word == "after") {
      if (!readValues(is, current->after)) {
        return false;
      }
    } else if (word == "end") {
      current = nullptr;
    }
  }
  return !nests.empty() && !current;
}

Translation parseTranslation(const std::string &text) {
  Translation translation;
  bool errors = false; // a stencil with errors has no spec: it is refused
  for (CheckedStencil &checked : checkStencilText(text, errors)) {
    translation.specs[checked.spec.name] = std::move(checked.spec);
  }
  static const std::regex origin(R"(^// .*: the loop nest in (\w+)\(\) writing '\w+' from (.*)$)");
  static const std::regex quoted(R"('(\w+)')");
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_match(line, m, origin)) {
      std::vector<std::string> &arrays = translation.arraysRead[m[1].str()];
      std::string list = m[2].str();
      for (std::sregex_iterator it(list.begin(), list.end(), quoted), end; it != end; ++it) {
        arrays.push_back((*it)[1].str());
      }
    }
  }
  return translation;
}

void compareNest(const DumpedNest &nest, const Translation &translation, NestResult &result) {
  auto spec = translation.specs.find(nest.name);
  if (spec == translation.specs.end()) {
    result.verdict = Verdict::RefusedStencil;
    result.refusal = "the translation has an error";
    return;
  }
  GridND out = asGrid(nest, nest.arrays.at(nest.written));
  auto read = translation.arraysRead.find(nest.name);
  if (!referenceStep(nest, spec->second,
                     read == translation.arraysRead.end() ? std::vector<std::string>{}
                                                          : read->second,
                     out, result.detail)) {
    result.verdict = Verdict::Disagrees;
    return;
  }
  double tol = tolerance(nest, spec->second);
  for (size_t p = 0; p < out.points(); ++p) {
    double c = p < nest.after.size() ? nest.after[p] : NAN;
    if (!(std::fabs(c - out.values[p]) <= tol)) {
      const long long q = static_cast<long long>(p);
      std::array<long long, 3> at{q / (out.n[1] * out.n[2]), q / out.n[2] % out.n[1], q % out.n[2]};
      result.verdict = Verdict::Disagrees;
      result.detail = "at (" + std::to_string(at[0]) + ", " + std::to_string(at[1]) + ", " +
                      std::to_string(at[2]) + ") of a " + std::to_string(out.n[0]) + "x" +
                      std::to_string(out.n[1]) + "x" + std::to_string(out.n[2]) +
                      " grid, C gives " + hexText(c) + ", the translation's reference " +
                      hexText(out.values[p]);
      return;
    }
  }
  result.verdict = Verdict::Agrees;
}

} // namespace stencilc::fuzzdiff
