//===- SemaTable.cpp - The weights table and the coefficients ---------------===//
//
// The table form's nesting and widths, and the final coefficient list of
// either form.
//
//===----------------------------------------------------------------------===//
#include "SemaChecker.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace stencilc::sema {

using llvm::APFloat;
using llvm::SMLoc;

bool StencilChecker::checkTableList(const TableList &list, int level, int depth, size_t width,
                                    Offset &position) {
  if (list.entries.size() != width) {
    diags.error(list.range.Start, fmt::format("this list has {} entries, but the table's lists "
                                              "have {}; every list must have the same length",
                                              list.entries.size(), width));
    return false;
  }
  int radius = static_cast<int>(width / 2);
  bool ok = true;
  for (size_t k = 0; k < list.entries.size(); ++k) {
    const TableEntry &entry = list.entries[k];
    position.d[level] = static_cast<int>(k) - radius;
    bool innermost = level == depth - 1;
    if (innermost && entry.list) {
      diags.error(entry.range.Start, fmt::format("expected a coefficient here, found a nested list "
                                                 "(the table is {} deep)",
                                                 depth));
      ok = false;
      continue;
    }
    if (!innermost && entry.value) {
      diags.error(entry.range.Start, fmt::format("expected a nested list here, found a coefficient "
                                                 "(the table is {} deep)",
                                                 depth));
      ok = false;
      continue;
    }
    if (!innermost) {
      ok &= checkTableList(*entry.list, level + 1, depth, width, position);
      continue;
    }
    auto v = evalConstantOnly(*entry.value, "a weights entry");
    if (!v) {
      ok = false;
      continue;
    }
    if (!v->constant.isZero()) {
      coefficients.emplace(TermKey::input(0, position), Read{v->constant, entry.range.Start});
    }
  }
  position.d[level] = 0;
  return ok;
}

void StencilChecker::checkWeights(const WeightsStmt &stmt) {
  if (!checkBodyOnce(seen, stmt, diags)) {
    return;
  }
  const TableList &table = stmt.getTable();
  // The depth is that of the first entry at every level.
  int depth = 1;
  for (const TableList *list = &table; !list->entries.empty() && list->entries[0].list;
       list = list->entries[0].list.get()) {
    ++depth;
    if (depth > 3) {
      diags.error(list->entries[0].range.Start,
                  "the weights table is nested more than 3 deep; at most 3 "
                  "dimensions are supported");
      return;
    }
  }
  size_t width = table.entries.size();
  if (width % 2 == 0) {
    diags.error(table.range.Start, fmt::format("a weights list needs an odd number of entries "
                                               "(2r+1), found {}",
                                               width));
    return;
  }
  if (width > 2 * MaxRadius + 1) {
    diags.error(table.range.Start, fmt::format("a weights list of {} entries means radius {}, "
                                               "larger than the largest supported radius, {}",
                                               width, width / 2, MaxRadius));
    return;
  }
  Offset position;
  if (!checkTableList(table, 0, depth, width, position)) {
    coefficients.clear();
    return;
  }
  bodyDims = {depth, stmt.getLoc()};
  bodyLoc = stmt.getLoc();
}

/// Rounds the folded coefficients to double and checks them against the
/// operand type of the kernels.
void StencilChecker::finishCoefficients() {
  if (general) {
    finishFieldTerms(); // SemaFields.cpp
    return;
  }
  for (const auto &[key, read] : coefficients) {
    if (read.coefficient.isZero()) {
      continue; // reads that cancel out are not reads
    }
    if (auto value = finishCoefficient(read.coefficient.exact(), read.loc, readText(key.offset))) {
      spec.terms.push_back(Term{key.offset, *value});
    }
  }
}

std::optional<double> StencilChecker::finishCoefficient(const APFloat &coefficient, SMLoc loc,
                                                        const std::string &read) {
  const llvm::fltSemantics *operand = &operandSemantics(spec.precision);
  // Only fp16's largest value is small enough to be worth naming.
  const unsigned maxFinite = spec.precision == Precision::FP16 ? 65504 : 0;
  const std::string precision(keyword(spec.precision));
  double value = toDouble(coefficient);
  if (!std::isfinite(value)) {
    diags.error(loc, fmt::format("coefficient of {} is too large for fp64", read));
    return std::nullopt;
  }
  if (value == 0.0) { // not zero, but too small for a double: no read at all
    diags.warning(Warning::CoefficientUnderflow, loc,
                  fmt::format("coefficient of {} underflows to zero in fp64; the "
                              "term is dropped",
                              read));
    return std::nullopt;
  }
  APFloat rounded = coefficient;
  bool losesInfo = false;
  rounded.convert(*operand, APFloat::rmNearestTiesToEven, &losesInfo);
  if (rounded.isInfinity()) {
    std::string limit =
        maxFinite ? fmt::format(" (largest finite value {})", maxFinite) : std::string();
    diags.error(loc, fmt::format("coefficient {} of {} overflows {}{}", formatExact(value), read,
                                 precision, limit));
    return std::nullopt;
  }
  if (rounded.isZero()) {
    diags.warning(Warning::CoefficientRoundsToZero, loc,
                  fmt::format("coefficient {} of {} rounds to zero in {}", formatExact(value), read,
                              precision));
  }
  return value;
}

} // namespace stencilc::sema
