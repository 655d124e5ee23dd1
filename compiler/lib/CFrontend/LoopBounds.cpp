//===- LoopBounds.cpp - The loop bounds of a `#pragma stencil` nest --------===//
//
// Each loop must cover what the boundary asks: [r, n - r) under `boundary
// fixed` (r the stencil's radius along the axis, n the extent the array
// declares or the bound names), the whole axis [0, n) under the others. The
// end is proven to be n less the ring by comparing sums of products of the
// size variables, never by the shape of what was written.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <string>

#include "CDiagnostics.h"
#include "NestRecogniser.h"

namespace stencilc::cfront::detail {

using namespace clang;

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

std::optional<Polynomial> plus(Polynomial p, int64_t k) {
  if (__builtin_add_overflow(p[{}], k, &p[{}])) {
    return std::nullopt;
  }
  std::erase_if(p, [](const auto &entry) { return entry.second == 0; });
  return p;
}

std::string spell(const Polynomial &p) {
  // Products by degree, highest first, then by their names; the constant last.
  std::vector<std::pair<std::vector<std::string>, int64_t>> terms;
  for (const auto &[monomial, c] : p) {
    std::vector<std::string> names;
    for (const clang::VarDecl *var : monomial) {
      names.push_back(var->getName().str());
    }
    std::sort(names.begin(), names.end());
    terms.emplace_back(std::move(names), c);
  }
  std::sort(terms.begin(), terms.end(), [](const auto &a, const auto &b) {
    return a.first.size() != b.first.size() ? a.first.size() > b.first.size() : a.first < b.first;
  });
  std::string result;
  for (const auto &[names, c] : terms) {
    // |c| as uint64_t: -INT64_MIN does not fit an int64_t.
    const uint64_t magnitude = c < 0 ? 0 - static_cast<uint64_t>(c) : static_cast<uint64_t>(c);
    std::string term = names.empty() || magnitude != 1 ? std::to_string(magnitude) : "";
    for (const std::string &name : names) {
      term += (term.empty() ? "" : "*") + name;
    }
    result += result.empty() ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ");
    result += term;
  }
  return result.empty() ? "0" : result;
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
  return checkLoopEnd(loop, axis, stencil, boundary) && ok;
}

std::optional<Polynomial> NestRecogniser::endOf(const Loop &loop) {
  std::optional<Polynomial> end = expandIndex(loop.upper, 0, /*sizeCasts=*/true);
  return end && loop.inclusive ? plus(std::move(*end), 1) : end;
}

/// The end of a loop must be proven to be the extent of its axis less the
/// ring: the extent the written array's type names (a constant size needs a
/// constant end), or where the type names none, an extent the end itself
/// names with a variable. The comparison is of sums of products, so `nx - 1` and `-1 + nx`
/// match, while `nx/2 - 1`, `(char)(nx - 1)` or another variable do not.
bool NestRecogniser::checkLoopEnd(const Loop &loop, unsigned axis, const TranslatedStencil &stencil,
                                  const std::string &boundary) {
  const bool fixed = stencil.spec.boundary == BoundaryKind::Fixed;
  const int64_t ring = fixed ? stencil.spec.radius : 0;
  const Extent &extent = outputExtents[axis];
  const std::string var = loop.var->getName().str();
  std::optional<Polynomial> end = endOf(loop);
  if (extent.kind == Extent::Unprovable) {
    if (extent.change && !changesReported.insert(extent.change).second) {
      return false; // one error per change, however many axes it leaves unprovable
    }
    reportError(diags, loop.upper->getBeginLoc(),
                "the loop over '%0' ends at '%1', but the extent '%2' of '%3' along this axis "
                "cannot be proven to be what the loop runs to: %4")
        << var << text(loop.condition) << text(extent.sizeExpr) << output->getName()
        << extent.reason << loop.upper->getSourceRange();
    if (extent.change) {
      reportNote(diags, extent.change->getBeginLoc(), "changed here")
          << extent.change->getSourceRange();
    }
    return false;
  }
  std::optional<Polynomial> needed;
  if (extent.kind == Extent::Known) {
    needed = plus(extent.size, -ring);
  } else if (end && !isConstant(*end)) {
    // No extent in the type: the end names it, as 'n - ring' ('n' the end's
    // products without their constant).
    Polynomial base = *end;
    base.erase(Monomial{});
    needed = plus(base, -ring);
  }
  // A constant end where the type names no extent proves nothing: the
  // translation takes the extent as a parameter, so a loop that stops
  // short of the grid (`i < 2` over a flat array) would become a whole
  // sweep (found by stencilc-fuzz-diff, docs/robustness.md).
  if (!needed) {
    reportEndNotAnExtent(loop, ring, boundary);
  }
  if (needed && end && *end == *needed) {
    std::optional<Polynomial> size = plus(*needed, ring);
    nestExtents[axis] = size ? Extent::known(*size) : Extent{};
    return size.has_value();
  }
  if (needed) {
    std::optional<Polynomial> shown = loop.inclusive ? plus(*needed, -1) : needed;
    reportError(diags, loop.upper->getBeginLoc(),
                "the loop over '%0' ends at '%1', but %2 needs '%0 %3 %4'")
        << var << text(loop.condition) << boundary << (loop.inclusive ? "<=" : "<")
        << (shown ? spell(*shown) : text(loop.upper)) << loop.upper->getSourceRange();
  }
  if (fixed) {
    noteRadius(stencil);
  }
  return false;
}

/// An end that is no sum of products of integer variables, on an array
/// whose type does not name the extent: no extent to suggest.
void NestRecogniser::reportEndNotAnExtent(const Loop &loop, int64_t ring,
                                          const std::string &boundary) {
  reportError(diags, loop.upper->getBeginLoc(),
              "the loop over '%0' ends at '%1', which does not name an extent: '%2' does not "
              "declare its extent along this axis, so the end must be that extent less the "
              "ring, written as integer variables and constants joined by '+', '-' and '*' "
              "(as in '%0 < %3' for %4), without casts, divisions or calls")
      << loop.var->getName() << text(loop.condition) << output->getName()
      << (ring ? "n - " + str(ring) : std::string("n")) << boundary << loop.upper->getSourceRange();
}

bool NestRecogniser::checkBounds(const TranslatedStencil &stencil) {
  bool ok = true;
  // Where the written array names its extents they are the nest's, whether
  // or not its bounds match; the others the bounds name, once checked.
  nestExtents = outputExtents;
  for (Extent &extent : nestExtents) {
    if (extent.kind != Extent::Known) {
      extent = Extent{};
    }
  }
  for (unsigned axis = 0; axis < axisVars.size(); ++axis) {
    ok &= checkLoopBounds(*loopOf(axisVars[axis]), axis, stencil);
  }
  return ok;
}

} // namespace stencilc::cfront::detail
