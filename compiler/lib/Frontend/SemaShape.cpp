//===- SemaShape.cpp - Precision, shape, boundary, radius and dims ----------===//
//
// The statements that describe the stencil, and the declared shape, radius
// and dims against what the body says.
//
//===----------------------------------------------------------------------===//
#include "SemaChecker.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "stencilc/Suggest.h"

namespace stencilc::sema {

using llvm::APFloat;
using llvm::SMLoc;

void StencilChecker::checkPrecision(const WordStmt &stmt) {
  if (!checkOnce(stmt)) {
    return;
  }
  if (auto p = parsePrecision(stmt.getWord().name)) {
    spec.precision = *p;
    return;
  }
  // The C and CUDA names of the element types first: `double` means fp64.
  static constexpr std::pair<std::string_view, std::string_view> CTypes[] = {
      {"double", "fp64"}, {"float", "fp32"},    {"half", "fp16"},
      {"__half", "fp16"}, {"bfloat16", "bf16"}, {"__nv_bfloat16", "bf16"}};
  const std::string &name = stmt.getWord().name;
  std::optional<std::string> suggestion = closestMatch(name, precisionKeywords());
  for (const auto &[cName, precision] : CTypes) {
    if (name == cName) {
      suggestion = std::string(precision);
    }
  }
  reportUnknownWord(stmt.getWord(), "precision", suggestion, joinList(precisionKeywords(), " or "));
}

void StencilChecker::reportUnknownWord(const Identifier &word, std::string_view what,
                                       std::optional<std::string> suggestion,
                                       std::string_view expected) {
  if (suggestion) {
    diags.error(word.range.Start,
                fmt::format("unknown {} '{}'; did you mean '{}'?", what, word.name, *suggestion),
                {word.range}, llvm::SMFixIt(word.range, *suggestion));
    return;
  }
  diags.error(word.range.Start,
              fmt::format("unknown {} '{}'; expected {}", what, word.name, expected));
}

void StencilChecker::checkShape(const WordStmt &stmt) {
  if (!checkOnce(stmt)) {
    return;
  }
  if (auto s = parseShape(stmt.getWord().name)) {
    declaredShape = {*s, stmt.getLoc()};
    return;
  }
  reportUnknownWord(stmt.getWord(), "shape", closestMatch(stmt.getWord().name, shapeKeywords()),
                    joinList(shapeKeywords(), " or "));
}

void StencilChecker::checkBoundary(const BoundaryStmt &stmt) {
  if (!checkOnce(stmt)) {
    return;
  }
  const Identifier &word = stmt.getWord();
  auto kind = parseBoundaryKind(word.name);
  if (!kind) {
    reportUnknownWord(word, "boundary", closestMatch(word.name, boundaryKeywords()),
                      boundaryChoicesText());
    return;
  }
  spec.boundary = *kind;
  if (*kind != BoundaryKind::Constant) {
    if (stmt.getValue()) {
      diags.error(stmt.getValue()->getLoc(),
                  fmt::format("'boundary {}' takes no value", word.name));
    }
    return;
  }
  if (!stmt.getValue()) {
    diags.error(word.range.End, "'boundary constant' needs the value read "
                                "outside the grid, e.g. 'boundary constant 0;'");
    return;
  }
  if (auto v = evalConstantOnly(*stmt.getValue(), "the boundary value")) {
    spec.boundaryValue = toDouble(v->constant.exact());
    if (!std::isfinite(spec.boundaryValue)) {
      diags.error(stmt.getValue()->getLoc(), "boundary value is too large for fp64");
      return;
    }
    boundaryValue.emplace(v->constant.exact(), stmt.getValue()->getLoc());
  }
}

void StencilChecker::finishBoundaryValue() {
  if (!boundaryValue) {
    return;
  }
  const auto &[exact, loc] = *boundaryValue;
  // A read outside the grid gives the value as an element: a value the
  // element type cannot hold would be an infinity in the kernels' tables.
  APFloat element = exact;
  bool losesInfo = false;
  element.convert(storageSemantics(spec.precision), APFloat::rmNearestTiesToEven, &losesInfo);
  const std::string precision(keyword(spec.precision));
  if (element.isInfinity()) {
    APFloat largest = APFloat::getLargest(storageSemantics(spec.precision));
    diags.error(loc, fmt::format("boundary value {} overflows {} (largest finite value {})",
                                 formatExact(spec.boundaryValue), precision, valueText(largest)));
  } else if (element.isZero() && !exact.isZero()) {
    const std::string value =
        spec.boundaryValue != 0.0 ? formatExact(spec.boundaryValue) + " " : std::string();
    diags.warning(Warning::BoundaryRoundsToZero, loc,
                  fmt::format("boundary value {}rounds to zero in {}", value, precision));
  }
}

void StencilChecker::checkInteger(const IntegerStmt &stmt) {
  if (!checkOnce(stmt)) {
    return;
  }
  bool isRadius = stmt.getKind() == Stmt::Kind::Radius;
  auto value = foldInteger(stmt.getValue(), isRadius ? "the radius" : "dims");
  if (!value) {
    return;
  }
  if (isRadius) {
    if (*value < 1 || *value > MaxRadius) {
      diags.error(stmt.getValue().getLoc(),
                  fmt::format("radius must be between 1 and {}, found {}", MaxRadius, *value));
      return;
    }
    declaredRadius = {*value, stmt.getLoc()};
  } else {
    if (*value < 1 || *value > 3) {
      diags.error(stmt.getValue().getLoc(),
                  fmt::format("dims must be 1, 2 or 3, found {}", *value));
      return;
    }
    declaredDims = {*value, stmt.getLoc()};
  }
}

void StencilChecker::checkDeclarations() {
  // Every point read, of every field (a coefficient field's reads included).
  struct PointRead {
    Offset offset;
    SMLoc loc;
    std::string text;
  };
  std::vector<PointRead> points;
  if (general) {
    for (const FieldTerm &t : spec.fieldTerms) {
      const SMLoc loc =
          coefficients.at(TermKey{t.field, t.offset, t.coefficientField, t.coefficientOffset}).loc;
      points.push_back({t.offset, loc, fieldReadText(t.field, t.offset)});
      if (t.coefficientField >= 0) {
        points.push_back(
            {t.coefficientOffset, loc, fieldReadText(t.coefficientField, t.coefficientOffset)});
      }
    }
  } else {
    for (const Term &t : spec.terms) {
      points.push_back(
          {t.offset, coefficients.at(TermKey::input(0, t.offset)).loc, readText(t.offset)});
    }
  }
  int radius = 0;
  const PointRead *farthest = nullptr;
  const PointRead *offAxis = nullptr;
  for (const PointRead &p : points) {
    if (p.offset.chebyshevNorm() > radius) {
      radius = p.offset.chebyshevNorm();
      farthest = &p;
    }
    if (!offAxis && p.offset.nonZeroAxes() > 1) {
      offAxis = &p;
    }
  }
  spec.radius = radius;
  spec.shape = offAxis ? Shape::Box : Shape::Star;
  if (points.empty()) {
    diags.error(bodyLoc, fmt::format("stencil '{}' has no non-zero coefficient", spec.name));
    return;
  }
  if (radius == 0) {
    diags.error(bodyLoc, fmt::format("stencil '{}' reads only the centre point; a "
                                     "stencil needs a radius of at least 1",
                                     spec.name));
    return;
  }
  if (declaredDims && declaredDims->first != spec.dims) {
    diags.error(declaredDims->second,
                fmt::format("declared dims {}, but the body is {}-dimensional", declaredDims->first,
                            spec.dims));
    diags.note(bodyDims->second, "the body is here");
  }
  if (declaredRadius && declaredRadius->first != radius) {
    diags.error(declaredRadius->second,
                fmt::format("declared radius {}, but the body's radius is {}",
                            declaredRadius->first, radius));
    diags.note(farthest->loc, fmt::format("the farthest read, {}, is here", farthest->text));
  }
  if (declaredShape && spec.dims > 1 && declaredShape->first != spec.shape) {
    if (offAxis) {
      diags.error(declaredShape->second, "declared shape star, but the body is a box: it reads off "
                                         "the axes");
      diags.note(offAxis->loc, fmt::format("{} lies off the axes", offAxis->text));
    } else {
      diags.error(declaredShape->second,
                  "declared shape box, but the body is a star: every point it "
                  "reads lies on an axis");
    }
  }
  if (declaredShape && spec.dims == 1) {
    spec.shape = declaredShape->first; // in 1D the two coincide
  }
}

} // namespace stencilc::sema
