//===- SemaFolding.cpp - Linearity and exact folding ------------------------===//
//
// Constant arithmetic folds exactly in IEEE quad precision from the decimal
// text of the literals; a value is a constant or a linear combination of
// reads, and a product of two reads is an error.
//
//===----------------------------------------------------------------------===//
#include "SemaChecker.h"

#include <cmath>

#include <fmt/format.h>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/Error.h"

namespace stencilc::sema {

using llvm::APFloat;
using llvm::SMLoc;

bool StencilChecker::checkFinite(const APFloat &value, SMLoc loc) {
  if (value.isFinite()) {
    return true;
  }
  diags.error(loc, "constant arithmetic overflows");
  return false;
}

/// A literal as diagnostics quote it: in full unless it is very long.
std::string quotedNumber(llvm::StringRef text) {
  constexpr size_t Shown = 40;
  if (text.size() <= Shown) {
    return fmt::format("'{}'", std::string_view(text));
  }
  return fmt::format("'{}...' ({} characters)", std::string_view(text.take_front(Shown)),
                     text.size());
}

/// Significant digits of a decimal literal: from its first non-zero digit to
/// its last, the point not counted.
size_t significantDigits(llvm::StringRef text) {
  llvm::StringRef mantissa = text.take_until([](char c) { return c == 'e' || c == 'E'; });
  size_t first = mantissa.find_first_of("123456789");
  if (first == llvm::StringRef::npos) {
    return 0;
  }
  size_t last = mantissa.find_last_of("123456789");
  llvm::StringRef digits = mantissa.slice(first, last + 1);
  return digits.size() - digits.count('.');
}

std::optional<LinearValue> StencilChecker::evalNumber(const NumberExpr &expr) {
  LinearValue v;
  v.loc = expr.getLoc();
  // APFloat overruns a fixed-size buffer (and takes quadratic time) on
  // decimals of more than about 11,000 significant digits; far below that,
  // every literal is still folded exactly.
  if (size_t digits = significantDigits(expr.getText()); digits > MaxSignificantDigits) {
    diags.error(expr.getLoc(),
                fmt::format("number {} has {} significant digits; at most {} are "
                            "supported",
                            quotedNumber(expr.getText()), digits, MaxSignificantDigits));
    return std::nullopt;
  }
  auto status = v.constant.exact().convertFromString(expr.getText(), APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    diags.error(expr.getLoc(), fmt::format("invalid number {}", quotedNumber(expr.getText())));
    return std::nullopt;
  }
  if (!v.constant.exact().isFinite()) {
    diags.error(expr.getLoc(), fmt::format("number {} is too large", quotedNumber(expr.getText())));
    return std::nullopt;
  }
  if ((*status & APFloat::opUnderflow) && v.constant.exact().isZero()) {
    diags.warning(
        Warning::NumberUnderflow, expr.getLoc(),
        fmt::format("number {} is too small: it underflows to zero", quotedNumber(expr.getText())));
  }
  return v;
}

/// Multiplies or divides `value` by the constant `factor`: each read's
/// coefficient, and the constant where it is the value or a term. Beside
/// reads, a zero constant is no term at all, not a 0 that a parameter would
/// keep as a product (Coef::multiply).
static void scale(LinearValue &value, const Coef &factor,
                  void (Coef::*op)(const Coef &, APFloat::roundingMode)) {
  const auto rm = APFloat::rmNearestTiesToEven;
  if (value.isConstant() || !value.constant.isZero()) {
    (value.constant.*op)(factor, rm);
  }
  for (auto &[offset, read] : value.reads) {
    (read.coefficient.*op)(factor, rm);
  }
}

/// Adds, subtracts, multiplies or divides `rhs` into `acc`, reporting what is
/// not linear in `in`.
bool StencilChecker::combine(LinearValue &acc, char op, LinearValue rhs, SMLoc opLoc) {
  const auto rm = APFloat::rmNearestTiesToEven;
  if (op == '+' || op == '-') {
    if ((acc.isConstant() && rhs.readsInput()) || (rhs.isConstant() && acc.readsInput())) {
      SMLoc constantLoc = acc.isConstant() ? acc.loc : rhs.loc;
      diags.error(constantLoc, fmt::format("this term does not read {0}; every term must "
                                           "be a coefficient times a read of {0}",
                                           inputWord()));
      return false;
    }
    if (op == '-') {
      rhs.constant.changeSign();
      for (auto &[offset, read] : rhs.reads) {
        read.coefficient.changeSign();
      }
    }
    acc.constant.add(rhs.constant, rm);
    for (auto &[offset, read] : rhs.reads) {
      auto [it, inserted] = acc.reads.emplace(offset, read);
      if (!inserted) {
        it->second.coefficient.add(read.coefficient, rm);
      }
    }
  } else if (op == '*') {
    if (acc.readsInput() && rhs.readsInput()) {
      diags.error(opLoc, fmt::format("a product of two reads of {} is not linear",
                                     general ? std::string("input fields") : inputWord()));
      return false;
    }
    if (!acc.isConstant() && !rhs.isConstant()) {
      return multiplyReads(acc, rhs, opLoc); // a coefficient field times reads
    }
    if (acc.isConstant() && !rhs.isConstant()) { // the reads' side into acc
      std::swap(acc.reads, rhs.reads);
      std::swap(acc.constant, rhs.constant);
    }
    if (!chargeScaling(acc.reads.size(), opLoc)) {
      return false;
    }
    scale(acc, rhs.constant, &Coef::multiply);
  } else {
    if (rhs.readsInput()) {
      diags.error(opLoc, fmt::format("division by a read of {} is not linear",
                                     general ? std::string("an input field") : inputWord()));
      return false;
    }
    if (!rhs.isConstant()) {
      diags.error(opLoc, "division by a coefficient field is not supported; declare its "
                         "reciprocal as the coefficient field instead");
      return false;
    }
    if (rhs.constant.isZero()) {
      diags.error(opLoc, "division by zero");
      return false;
    }
    if (!chargeScaling(acc.reads.size(), opLoc)) {
      return false;
    }
    scale(acc, rhs.constant, &Coef::divide);
  }
  if (!checkExpressionSize(acc, opLoc)) {
    return false;
  }
  if (acc.constant.isExact() && !checkFinite(acc.constant.exact(), opLoc)) {
    return false;
  }
  for (auto &[offset, read] : acc.reads) {
    if (read.coefficient.isExact() && !checkFinite(read.coefficient.exact(), opLoc)) {
      return false;
    }
  }
  return true;
}

bool StencilChecker::checkExpressionSize(const LinearValue &v, SMLoc opLoc) {
  bool tooLarge = v.constant.isTooLarge();
  for (const auto &[key, read] : v.reads) {
    tooLarge |= read.coefficient.isTooLarge();
  }
  if (tooLarge) {
    diags.error(opLoc, fmt::format("a coefficient of run-time parameters here takes more than {} "
                                   "operations or nests deeper than {}; fold it into fewer "
                                   "parameters",
                                   Coef::MaxNodes, Coef::MaxDepth));
  }
  return !tooLarge;
}

/// Counts `coefficients` more scalings by a constant, and reports the
/// operator where the stencil's total would pass the limit: folding stays
/// bounded in time (a few seconds) whatever the input.
bool StencilChecker::chargeScaling(std::size_t coefficients, SMLoc opLoc) {
  constexpr std::size_t Limit = 10'000'000;
  scalings += coefficients;
  if (scalings <= Limit) {
    return true;
  }
  diags.error(opLoc, fmt::format("folding the constants of this stencil takes more than "
                                 "{} coefficient multiplications ({} reads scaled here); "
                                 "multiply the constant factors together first",
                                 Limit, coefficients));
  return false;
}

/// Evaluates a chain of same-precedence binary operators iteratively: a long
/// sum `a + b + c + ...` is a left-deep tree as deep as it is long.
std::optional<LinearValue> StencilChecker::evalChain(const BinaryExpr &expr) {
  bool additive = expr.getOp() == '+' || expr.getOp() == '-';
  auto sameClass = [additive](const Expr &e) {
    const auto *b = llvm::dyn_cast<BinaryExpr>(&e);
    return b && ((b->getOp() == '+' || b->getOp() == '-') == additive);
  };
  std::vector<const BinaryExpr *> spine;
  const Expr *leftmost = &expr;
  while (sameClass(*leftmost)) {
    const auto *b = llvm::cast<BinaryExpr>(leftmost);
    spine.push_back(b);
    leftmost = &b->getLHS();
  }
  std::optional<LinearValue> acc = eval(*leftmost);
  bool ok = acc.has_value();
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    const BinaryExpr *b = *it;
    std::optional<LinearValue> rhs = eval(b->getRHS());
    // Keep evaluating after an error so independent errors are all reported.
    if (!ok || !rhs) {
      ok = false;
      continue;
    }
    if (!combine(*acc, b->getOp(), std::move(*rhs), b->getOpLoc())) {
      ok = false;
      continue;
    }
    acc->loc = expr.getLoc();
  }
  if (!ok) {
    return std::nullopt;
  }
  acc->loc = expr.getLoc();
  return acc;
}

std::optional<LinearValue> StencilChecker::eval(const Expr &expr) {
  switch (expr.getKind()) {
  case Expr::Kind::Number:
    return evalNumber(llvm::cast<NumberExpr>(expr));
  case Expr::Kind::Name:
    return evalName(llvm::cast<NameExpr>(expr));
  case Expr::Kind::Read:
    return evalRead(llvm::cast<ReadExpr>(expr));
  case Expr::Kind::Unary: {
    const auto &unary = llvm::cast<UnaryExpr>(expr);
    auto v = eval(unary.getOperand());
    if (v && unary.getOp() == '-') {
      v->constant.changeSign();
      for (auto &[offset, read] : v->reads) {
        read.coefficient.changeSign();
      }
      if (!checkExpressionSize(*v, expr.getLoc())) {
        return std::nullopt;
      }
    }
    if (v) {
      v->loc = expr.getLoc();
    }
    return v;
  }
  case Expr::Kind::Binary:
    return evalChain(llvm::cast<BinaryExpr>(expr));
  case Expr::Kind::Call:
    return evalCall(llvm::cast<CallExpr>(expr));
  }
  return std::nullopt;
}

std::optional<LinearValue> StencilChecker::evalConstantOnly(const Expr &expr, llvm::StringRef what,
                                                            bool allowParams) {
  bool saved = readsAllowed, savedParams = paramsAllowed;
  std::string savedContext = constantContext;
  readsAllowed = false;
  paramsAllowed = allowParams;
  constantContext = what.str();
  auto v = eval(expr);
  readsAllowed = saved;
  paramsAllowed = savedParams;
  constantContext = savedContext;
  return v;
}

std::optional<long> StencilChecker::foldInteger(const Expr &expr, llvm::StringRef what) {
  auto v = evalConstantOnly(expr, what);
  if (!v) {
    return std::nullopt;
  }
  const APFloat &value = v->constant.exact(); // no parameter in a constant context
  if (!value.isInteger() || std::abs(toDouble(value)) > 1e9) {
    diags.error(expr.getLoc(), fmt::format("{} must be an integer, found '{}'",
                                           std::string_view(what), valueText(value)));
    return std::nullopt;
  }
  return static_cast<long>(toDouble(value));
}

} // namespace stencilc::sema
