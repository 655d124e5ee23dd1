//===- SemaCoef.cpp - Coefficients: exact constants or parameter expressions -===//
//
// A coefficient folds exactly in IEEE quad precision as long as it is a
// constant; once a run-time parameter enters it, it becomes an expression
// tree (ParamExpr) whose constant leaves are the exact parts rounded once to
// double, evaluated by the host code on every call.
//
//===----------------------------------------------------------------------===//
#include "SemaChecker.h"

#include <algorithm>

namespace stencilc::sema {

Coef Coef::parameter(int index) {
  Coef c;
  c.symbolic = ParamExpr::parameter(index);
  return c;
}

ParamExpr Coef::toExpr() const {
  return symbolic ? *symbolic : ParamExpr::constant(toDouble(exactValue));
}

void Coef::changeSign() {
  if (symbolic) {
    if (tooLarge || symbolic->depth + 1 > MaxDepth) {
      tooLarge = true;
      return;
    }
    symbolic = ParamExpr::apply(ParamExpr::Op::Neg, std::move(*symbolic), {});
    return;
  }
  exactValue.changeSign();
}

void Coef::combine(ParamExpr::Op op, const Coef &other) {
  // Bounded, so that no input builds a tree deeper than the recursion over
  // it can take, or larger than memory (a 'let' used twice doubles it).
  const ParamExpr lhs = toExpr(), rhs = other.toExpr();
  if (tooLarge || other.tooLarge || lhs.nodes + rhs.nodes + 1 > MaxNodes ||
      std::max(lhs.depth, rhs.depth) + 1 > MaxDepth) {
    tooLarge = true;
    symbolic = ParamExpr::constant(0.0);
    return;
  }
  symbolic = ParamExpr::apply(op, lhs, rhs);
}

void Coef::add(const Coef &other, APFloat::roundingMode rm) {
  if (!symbolic && !other.symbolic) {
    exactValue.add(other.exactValue, rm);
  } else if (other.isZero()) {
    return;
  } else if (isZero()) {
    *this = other;
  } else {
    combine(ParamExpr::Op::Add, other);
  }
}

void Coef::multiply(const Coef &other, APFloat::roundingMode rm) {
  if (!symbolic && !other.symbolic) {
    exactValue.multiply(other.exactValue, rm);
    return;
  }
  // 1 * p and p * 1 stay p. 0 * p stays a product: it is not 0 for an
  // infinite or NaN p, and a term of a parameter is never dropped by value.
  const APFloat one = APFloat::getOne(quad());
  if (!other.symbolic && other.exactValue.compare(one) == APFloat::cmpEqual) {
    return;
  }
  if (!symbolic && exactValue.compare(one) == APFloat::cmpEqual) {
    *this = other;
    return;
  }
  combine(ParamExpr::Op::Mul, other);
}

void Coef::divide(const Coef &other, APFloat::roundingMode rm) {
  if (!symbolic && !other.symbolic) {
    exactValue.divide(other.exactValue, rm);
    return;
  }
  combine(ParamExpr::Op::Div, other); // 0 / p too: NaN for p = 0
}

} // namespace stencilc::sema
