//===- LoopBounds.cpp - The loop bounds of a `#pragma stencil` nest --------===//
//
// Each loop must cover what the boundary asks: [r, n - r) under `boundary
// fixed` (r the stencil's radius along the axis, n the extent the array
// declares or the bound names), the whole axis [0, n) under the others.
//
//===----------------------------------------------------------------------===//
#include <string>

#include "CDiagnostics.h"
#include "NestRecogniser.h"

namespace stencilc::cfront::detail {

using namespace clang;

/// Splits a bound into `base + k` with k an integer constant; base is null
/// when the whole bound is a constant.
std::pair<const Expr *, int64_t> NestRecogniser::splitBound(const Expr *bound, unsigned level) {
  bound = bound->IgnoreParenImpCasts();
  if (level >= MaxNesting) {
    return {bound, 0}; // reported as a bound that does not match
  }
  if (std::optional<CValue> value = foldQuietly(bound); value && !value->isFloat) {
    return {nullptr, value->integer.getSExtValue()};
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(bound)) {
    if (binary->getOpcode() == BO_Add || binary->getOpcode() == BO_Sub) {
      std::optional<CValue> right = foldQuietly(binary->getRHS());
      if (right && !right->isFloat) {
        auto [base, k] = splitBound(binary->getLHS(), level + 1);
        int64_t value = right->integer.getSExtValue();
        return {base, binary->getOpcode() == BO_Add ? k + value : k - value};
      }
      std::optional<CValue> left = foldQuietly(binary->getLHS());
      if (left && !left->isFloat && binary->getOpcode() == BO_Add) {
        auto [base, k] = splitBound(binary->getRHS(), level + 1);
        return {base, k + left->integer.getSExtValue()};
      }
    }
  }
  return {bound, 0};
}

void NestRecogniser::noteRadius(const TranslatedStencil &stencil) {
  if (radiusNoted) {
    return;
  }
  radiusNoted = true;
  for (const auto &[at, read] : readAt) {
    if (at.offset.chebyshevNorm() == stencil.spec.radius) {
      reportNote(diags, read->getBeginLoc(), "the stencil's radius is %0, from this read")
          << str(stencil.spec.radius) << read->getSourceRange();
      return;
    }
  }
}

static std::string boundText(const std::string &base, int64_t k) {
  if (base.empty()) {
    return str(k);
  }
  if (k == 0) {
    return base;
  }
  return base + (k < 0 ? " - " : " + ") + str(k < 0 ? -k : k);
}

/// With `boundary fixed` the loop over an axis must run over [r, n - r); with
/// the other boundaries over the whole axis [0, n).
bool NestRecogniser::checkLoopBounds(const Loop &loop, unsigned axis,
                                     const TranslatedStencil &stencil) {
  const bool fixed = stencil.spec.boundary == BoundaryKind::Fixed;
  const int64_t ring = fixed ? stencil.spec.radius : 0;
  const std::string boundary = fixed ? "a fixed boundary of radius " + str(stencil.spec.radius)
                                     : "boundary " + std::string(keyword(stencil.spec.boundary)) +
                                           " (every point is updated)";
  const std::string var = loop.var->getName().str();
  bool ok = true;

  for (const Expr *bound : {loop.lower, loop.upper}) {
    if (mentionsLoopVariable(bound)) {
      reportError(diags, bound->getBeginLoc(),
                  "the bound '%0' of the loop over '%1' depends on another loop "
                  "variable; a stencil's loop nest covers a rectangle")
          << text(bound) << var << bound->getSourceRange();
      return false;
    }
  }

  std::optional<CValue> lower = foldQuietly(loop.lower);
  if (!lower || lower->isFloat || lower->integer.getSExtValue() != ring) {
    reportError(diags, loop.lower->getBeginLoc(),
                "the loop over '%0' starts at '%1', but %2 needs it to start at %3")
        << var << text(loop.lower) << boundary << str(ring) << loop.lower->getSourceRange();
    if (fixed) {
      noteRadius(stencil);
    }
    ok = false;
  }

  // The exclusive end: base + k.
  auto [base, k] = splitBound(loop.upper);
  if (loop.inclusive) {
    k += 1;
  }
  const Extent &extent = outputExtents[axis];
  std::string baseText = base ? text(base) : "";
  std::optional<int64_t> neededConstant;
  std::string neededBase = baseText;
  bool matches = true;
  if (!base) {
    // A constant end: it must leave the ring of a constant-size array.
    if (extent.kind == Extent::Constant) {
      neededConstant = extent.value - ring;
      matches = k == *neededConstant;
    }
  } else {
    matches = k == -ring;
    // `i < m - 1` on an array declared `double b[n][...]`: the wrong size.
    const auto *baseRef = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts());
    if (extent.kind == Extent::Variable && extent.decl && baseRef &&
        baseRef->getDecl() != extent.decl) {
      matches = false;
      neededBase = extent.decl->getName().str();
    }
  }
  if (!matches) {
    std::string needed = neededConstant ? str(*neededConstant - (loop.inclusive ? 1 : 0))
                                        : boundText(neededBase, -ring - (loop.inclusive ? 1 : 0));
    reportError(diags, loop.upper->getBeginLoc(),
                "the loop over '%0' ends at '%1', but %2 needs '%0 %3 %4'")
        << var << text(loop.condition) << boundary << (loop.inclusive ? "<=" : "<") << needed
        << loop.upper->getSourceRange();
    if (fixed) {
      noteRadius(stencil);
    }
    ok = false;
  }
  return ok;
}

bool NestRecogniser::checkBounds(const TranslatedStencil &stencil) {
  bool ok = true;
  for (unsigned axis = 0; axis < axisVars.size(); ++axis) {
    ok &= checkLoopBounds(*loopOf(axisVars[axis]), axis, stencil);
  }
  return ok;
}

} // namespace stencilc::cfront::detail
