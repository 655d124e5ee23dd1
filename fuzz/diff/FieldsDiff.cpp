//===- FieldsDiff.cpp - .stencil fields against a direct interpretation ---===//
//
// See FieldsDiff.h. Stencil n of a run is drawn from seed S + n and run on
// one grid of random extents (at least 2r + 1 along every axis) whose
// fields hold short binary fractions in [-1, 1]. Tolerance: the two sides
// evaluate the same real-number expression in float64 in different orders
// (the compiler folds constants exactly, distributes products over sums,
// merges nothing here), so a point may differ by a few roundings of the
// magnitudes involved: 64 eps (1 + the update's magnitude) per point.
//
//===----------------------------------------------------------------------===//
#include "FieldsDiff.h"

#include <chrono>
#include <cmath>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/Emulation.h"
#include "Backends/Simt/FieldsEmulator.h"
#include "FieldsStencil.h"
#include "Random.h"
#include "StencilText.h"

namespace stencilc::fuzzdiff {
namespace {

/// The spec Sema makes of `text`, or false where it reports an error.
bool compile(const std::string &text, StencilSpec &spec) {
  bool errors = false;
  std::vector<CheckedStencil> checked = checkStencilText(text, errors);
  if (errors || checked.size() != 1) {
    return false;
  }
  spec = std::move(checked[0].spec);
  return true;
}

FGrid randomGrid(Rng &rng, const std::array<int, 3> &n) {
  FGrid g;
  g.n = n;
  g.values.resize(size_t(n[0]) * n[1] * n[2]);
  for (double &v : g.values) {
    v = uniform(rng, -256, 256) / 256.0;
  }
  return g;
}

GridND toGrid(int dims, const FGrid &g) {
  GridND grid(dims, g.n);
  grid.values = g.values;
  return grid;
}

/// The compiler's reference step of `spec` on the same grids (fields by
/// name); false with `detail` where a field or parameter has none.
bool compilerStep(const FieldsStencil &s, const StencilSpec &spec, const std::vector<FGrid> &grids,
                  GridND &out, std::string &detail) {
  auto gridOf = [&](const std::string &name) -> const FGrid * {
    for (size_t f = 0; f < s.fields.size(); ++f) {
      if (s.fields[f].name == name) {
        return &grids[f];
      }
    }
    return nullptr;
  };
  if (!spec.hasFields()) {
    referenceStepND(spec, toGrid(s.dims, grids[0]), out);
    return true;
  }
  std::vector<GridND> fields;
  for (const FieldDecl &f : spec.fields) {
    const FGrid *g = gridOf(f.name);
    if (!g) {
      detail = "the spec has a field '" + f.name + "' the text does not declare";
      return false;
    }
    fields.push_back(toGrid(s.dims, *g));
  }
  std::vector<double> params;
  for (const std::string &p : spec.params) {
    auto it = std::find(s.params.begin(), s.params.end(), p);
    if (it == s.params.end()) {
      detail = "the spec has a parameter '" + p + "' the text does not declare";
      return false;
    }
    params.push_back(s.paramValues[it - s.params.begin()]);
  }
  referenceFieldsStepND(spec, fields, params, out);
  return true;
}

/// Checks one stencil: 0 agrees, 1 refused, 2 disagrees (with `detail`).
int checkStencil(const FieldsStencil &s, uint64_t seed, std::string &detail) {
  StencilSpec spec;
  if (!compile(fieldsText(s), spec)) {
    return 1;
  }
  Rng rng(seed * 0x9E3779B97F4A7C15ULL + 1);
  int r = fieldsRadius(s);
  std::array<int, 3> n{1, 1, 1};
  for (int d = 0; d < s.dims; ++d) {
    n[d] = 2 * r + 1 + uniform(rng, 0, s.dims == 3 ? 3 : 6);
  }
  std::vector<FGrid> grids;
  for (size_t f = 0; f < s.fields.size(); ++f) {
    grids.push_back(randomGrid(rng, n));
  }
  FGrid mine = randomGrid(rng, n);
  GridND theirs = toGrid(s.dims, mine);
  if (!compilerStep(s, spec, grids, theirs, detail)) {
    return 2;
  }
  std::vector<double> scale;
  interpretStep(s, grids, mine, scale);
  for (size_t p = 0; p < mine.values.size(); ++p) {
    double tol = 64 * std::ldexp(1.0, -52) * (1 + scale[p]);
    if (!(std::fabs(mine.values[p] - theirs.values[p]) <= tol)) {
      detail = "point " + std::to_string(p) + " of a " + std::to_string(n[0]) + "x" +
               std::to_string(n[1]) + "x" + std::to_string(n[2]) + " grid: the text means " +
               std::to_string(mine.values[p]) + ", the compiler's reference gives " +
               std::to_string(theirs.values[p]);
      return 2;
    }
  }
  return 0;
}

void saveFinding(const FieldsOptions &options, const FieldsStencil &s, uint64_t seed,
                 const std::string &detail) {
  if (options.findingsDir.empty()) {
    return;
  }
  llvm::sys::fs::create_directories(options.findingsDir);
  std::error_code error;
  llvm::raw_fd_ostream os(options.findingsDir + "/fields-" + std::to_string(seed) + ".test", error);
  os << "# A finding of stencilc-fuzz-diff fields (seed " << seed
     << "): the compiler's float64\n# reference step of this stencil disagrees with the direct "
        "interpretation\n# of its text: "
     << detail << "\n# RUN: not %fuzz_diff fields --seed " << seed << " --count 1\n#\n";
  std::string text = fieldsText(s);
  for (size_t at = 0, next; at < text.size(); at = next + 1) {
    next = text.find('\n', at);
    os << "# " << text.substr(at, next - at) << "\n";
  }
}

} // namespace

int runFieldsFuzz(const FieldsOptions &options, FieldsCounts &counts) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  for (uint64_t n = 0; n < options.count; ++n) {
    if (options.seconds > 0 && (n & 63) == 0 &&
        std::chrono::duration<double>(Clock::now() - start).count() >= options.seconds) {
      break;
    }
    if (n > 0 && n % 100000 == 0) { // progress, for long runs
      counts.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      printFieldsCounts(options, counts, llvm::outs());
      llvm::outs().flush();
    }
    uint64_t seed = options.seed + n;
    FieldsStencil s = generateFieldsStencil(seed);
    std::string detail;
    int verdict = checkStencil(s, seed, detail);
    ++counts.stencils;
    counts.agree += verdict == 0;
    counts.refused += verdict == 1;
    if (verdict == 2) {
      ++counts.findings;
      llvm::outs() << "finding: seed " << seed << ": " << detail << "\n" << fieldsText(s);
      saveFinding(options, s, seed, detail);
    }
  }
  counts.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return counts.findings > 0 ? 1 : 0;
}

void printFieldsCounts(const FieldsOptions &options, const FieldsCounts &counts,
                       llvm::raw_ostream &os) {
  os << "stencilc-fuzz-diff fields: seeds " << options.seed << ".."
     << options.seed + counts.stencils - 1 << ", " << counts.stencils << " stencils in "
     << llvm::format("%.1f", counts.seconds) << " s ("
     << llvm::format("%.0f", counts.stencils / std::max(counts.seconds, 1e-9))
     << " stencils/s): " << counts.agree << " agree, " << counts.refused
     << " refused by the front end, " << counts.findings << " disagree\n";
}

} // namespace stencilc::fuzzdiff
