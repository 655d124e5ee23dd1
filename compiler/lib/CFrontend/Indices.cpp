//===- Indices.cpp - The indices of the reads -------------------------------===//
//
// An index per axis, `a[i-1][j]`: the loop variable of the axis plus or minus
// a constant.
//
// A flattened index, the form C and C++ code writes most: one array of nx (2D) or ny*nx (3D)
// elements a row, indexed `a[i*nx + j]`, `a[(k*ny + i)*nx + j]` or
// `a[k*ny*nx + i*nx + j]`. The index is expanded into a sum of products of
// variables with integer coefficients; the write's index must be one loop
// variable per product, each times the product of the sizes of the axes
// inside it, and each size must be what the loop over its axis runs to (`j <
// nx - 1`), so that the stride is proven to be the row length. A read's index
// is the write's plus a constant offset per axis: `(i-1)*nx + j`, `i*nx + j +
// 1`, `(k+1)*ny*nx + i*nx + j`.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "CDiagnostics.h"
#include "NestRecogniser.h"

namespace stencilc::cfront::detail {

using namespace clang;

namespace {

/// At most this many products in an expanded index: a flattened 3D index
/// has six (three variables, three offsets).
constexpr size_t MaxProducts = 16;
/// At most this many variables in a product (k*ny*nx).
constexpr size_t MaxDegree = 3;
/// Coefficients are kept in int64_t; a constant that does not fit (an
/// __int128, a huge unsigned) makes the index no flattened one.
constexpr unsigned MaxBits = 64;

Monomial times(const Monomial &a, const Monomial &b) {
  Monomial product = a;
  product.insert(product.end(), b.begin(), b.end());
  std::sort(product.begin(), product.end());
  return product;
}

bool holds(const Monomial &m, const VarDecl *var) {
  return std::find(m.begin(), m.end(), var) != m.end();
}

} // namespace

const CXXOperatorCallExpr *vectorSubscript(const Expr *expr) {
  const auto *call = dyn_cast<CXXOperatorCallExpr>(expr->IgnoreParens());
  return call && call->getOperator() == OO_Subscript && call->getNumArgs() == 2 ? call : nullptr;
}

QualType vectorElement(QualType type) {
  const auto *record =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
  if (!record || !record->isInStdNamespace() || record->getName() != "vector" ||
      record->getTemplateArgs().size() == 0 ||
      record->getTemplateArgs()[0].getKind() != TemplateArgument::Type) {
    return QualType();
  }
  return record->getTemplateArgs()[0].getAsType();
}

const Expr *splitSubscripts(const Expr *expr, std::vector<const Expr *> &indices) {
  const Expr *base = expr->IgnoreParens();
  while (true) {
    if (const auto *subscript = dyn_cast<ArraySubscriptExpr>(base)) {
      indices.push_back(subscript->getIdx());
      base = subscript->getBase()->IgnoreParenImpCasts();
    } else if (const auto *call = vectorSubscript(base)) {
      indices.push_back(call->getArg(1));
      base = call->getArg(0)->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  std::reverse(indices.begin(), indices.end());
  return base;
}

/// index ::= var | var ('+'|'-') constant | constant '+' var
std::optional<IndexForm> NestRecogniser::analyseIndex(const Expr *index, unsigned axis,
                                                      const std::string &array, unsigned level) {
  const Expr *bare = index->IgnoreParenImpCasts();
  if (level >= MaxNesting) {
    reportError(diags, bare->getBeginLoc(),
                "index %0 of '%1' is too complex: more than %2 levels of '+' and '-'")
        << str(axis + 1) << array << str(MaxNesting) << bare->getSourceRange();
    return std::nullopt;
  }
  const VarDecl *want = axisVars[axis];
  auto notAffine = [&]() -> std::optional<IndexForm> {
    reportError(diags, bare->getBeginLoc(),
                "index %0 of '%1' must be '%2' plus or minus a constant integer")
        << str(axis + 1) << array << want->getName() << bare->getSourceRange();
    return std::nullopt;
  };
  if (const auto *ref = dyn_cast<DeclRefExpr>(bare)) {
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && loopOf(var)) {
      if (var != want) {
        reportError(diags, ref->getLocation(),
                    "indices of '%0' must be in the order of the write to '%1': found "
                    "'%2' where '%3' belongs")
            << array << output->getName() << var->getName() << want->getName();
        return std::nullopt;
      }
      return IndexForm{var, 0};
    }
  }
  const auto *binary = dyn_cast<BinaryOperator>(bare);
  if (binary && (binary->getOpcode() == BO_Add || binary->getOpcode() == BO_Sub)) {
    // One side holds the loop variable, the other must fold to an integer.
    bool varOnLeft = mentionsLoopVariable(binary->getLHS());
    bool varOnRight = mentionsLoopVariable(binary->getRHS());
    if (varOnLeft == varOnRight || (varOnRight && binary->getOpcode() == BO_Sub)) {
      return notAffine();
    }
    const Expr *varSide = varOnLeft ? binary->getLHS() : binary->getRHS();
    const Expr *constSide = varOnLeft ? binary->getRHS() : binary->getLHS();
    std::optional<IndexForm> inner = analyseIndex(varSide, axis, array, level + 1);
    if (!inner) {
      return std::nullopt;
    }
    std::optional<CValue> constant = foldQuietly(constSide);
    if (!constant || constant->isFloat) {
      const Expr *shown = constSide->IgnoreParenImpCasts();
      reportError(diags, shown->getBeginLoc(), "offset must be a constant integer, found '%0'")
          << text(shown) << shown->getSourceRange();
      return std::nullopt;
    }
    int64_t value = constant->integer.isSigned()
                        ? constant->integer.getSExtValue()
                        : static_cast<int64_t>(constant->integer.getZExtValue());
    inner->offset += binary->getOpcode() == BO_Add ? value : -value;
    return inner;
  }
  return notAffine();
}

/// `lhs op rhs` for `+`, `-` and `*`, or nothing where a coefficient
/// overflows or the result has too many products or too high a degree.
static std::optional<Polynomial> combinePolynomials(BinaryOperatorKind op, const Polynomial &lhs,
                                                    const Polynomial &rhs) {
  Polynomial result;
  if (op == BO_Mul) {
    for (const auto &[a, ca] : lhs) {
      for (const auto &[b, cb] : rhs) {
        Monomial product = times(a, b);
        if (product.size() > MaxDegree) {
          return std::nullopt;
        }
        int64_t term = 0;
        if (__builtin_mul_overflow(ca, cb, &term) ||
            __builtin_add_overflow(result[product], term, &result[product])) {
          return std::nullopt;
        }
      }
    }
  } else {
    result = lhs;
    const int64_t sign = op == BO_Add ? 1 : -1;
    for (const auto &[b, cb] : rhs) {
      int64_t term = 0;
      if (__builtin_mul_overflow(sign, cb, &term) ||
          __builtin_add_overflow(result[b], term, &result[b])) {
        return std::nullopt;
      }
    }
  }
  std::erase_if(result, [](const auto &entry) { return entry.second == 0; });
  if (result.size() > MaxProducts) {
    return std::nullopt;
  }
  return result;
}

/// `(size_t)nx` is `nx` for an int nx, as is `(long)n`: a size is not
/// negative, and converting it to a type that holds every value of its own
/// type that is not negative keeps it. `(char)n` is no such cast.
static const Expr *withoutSizeCast(const Expr *expr, const ASTContext &context) {
  const auto *cast = dyn_cast<ExplicitCastExpr>(expr);
  const Expr *operand = cast ? cast->getSubExpr()->IgnoreParenImpCasts() : nullptr;
  if (!operand || !isa<DeclRefExpr>(operand) || !operand->getType()->isIntegerType() ||
      !cast->getType()->isIntegerType()) {
    return expr;
  }
  auto valueBits = [&](QualType type) {
    return context.getIntWidth(type) - (type->isSignedIntegerType() ? 1 : 0);
  };
  return valueBits(cast->getType()) >= valueBits(operand->getType()) ? operand : expr;
}

std::optional<Polynomial> NestRecogniser::expandIndex(const Expr *expr, unsigned level,
                                                      bool sizeCasts) {
  expr = expr->IgnoreParenImpCasts();
  if (sizeCasts) {
    expr = withoutSizeCast(expr, context);
  }
  if (level >= MaxNesting) {
    return std::nullopt;
  }
  Polynomial result;
  if (std::optional<CValue> value = foldQuietly(expr)) {
    const llvm::APSInt &integer = value->integer;
    if (value->isFloat ||
        (integer.isSigned() ? !integer.isSignedIntN(MaxBits) : !integer.isIntN(MaxBits - 1))) {
      return std::nullopt;
    }
    if (int64_t v = integer.getSExtValue()) {
      result[{}] = v;
    }
    return result;
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(expr)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (!var || !var->getType()->isIntegerType()) {
      return std::nullopt;
    }
    result[{var}] = 1;
    return result;
  }
  if (const auto *unary = dyn_cast<UnaryOperator>(expr)) {
    if (unary->getOpcode() != UO_Minus && unary->getOpcode() != UO_Plus) {
      return std::nullopt;
    }
    std::optional<Polynomial> operand = expandIndex(unary->getSubExpr(), level + 1, sizeCasts);
    if (operand && unary->getOpcode() == UO_Minus) {
      for (auto &[monomial, c] : *operand) {
        if (__builtin_mul_overflow(c, int64_t{-1}, &c)) {
          return std::nullopt;
        }
      }
    }
    return operand;
  }
  const auto *binary = dyn_cast<BinaryOperator>(expr);
  if (!binary || (binary->getOpcode() != BO_Add && binary->getOpcode() != BO_Sub &&
                  binary->getOpcode() != BO_Mul)) {
    return std::nullopt;
  }
  std::optional<Polynomial> lhs = expandIndex(binary->getLHS(), level + 1, sizeCasts);
  std::optional<Polynomial> rhs =
      lhs ? expandIndex(binary->getRHS(), level + 1, sizeCasts) : std::nullopt;
  if (!rhs) {
    return std::nullopt;
  }
  return combinePolynomials(binary->getOpcode(), *lhs, *rhs);
}

/// The element type of a one-dimensional array (`double *a`, `double a[N]`,
/// a VLA), or a null type after an error.
QualType NestRecogniser::flatElementType(const VarDecl *array, SourceLocation useLoc) {
  QualType type = array->getType();
  if (const auto *param = dyn_cast<ParmVarDecl>(array)) {
    type = param->getOriginalType();
  }
  type = type.getNonReferenceType();
  QualType element = vectorElement(type);
  if (!element.isNull()) {
    // std::vector<float>
  } else if (const ArrayType *arrayType = context.getAsArrayType(type)) {
    element = arrayType->getElementType();
  } else if (type->isPointerType()) {
    element = type->getPointeeType();
  }
  if (element.isNull() || !element->isRealFloatingType()) {
    reportError(diags, useLoc,
                "'%0' has type '%1': a flattened index needs a one-dimensional array, "
                "pointer or std::vector of floating-point elements")
        << array->getName() << array->getType().getAsString();
    return QualType();
  }
  return element.getUnqualifiedType();
}

/// The axes of a flattened index, as (stride, loop variable) in the order of
/// the loops: each loop variable in one product, with coefficient 1, the rest
/// of the product its stride, made of variables that are no loop variables;
/// nothing when the index has another shape.
std::optional<std::vector<FlatAxis>> NestRecogniser::flattenedAxes(const Polynomial &form) {
  std::vector<FlatAxis> axes;
  for (const Loop &loop : loops) {
    const Monomial *found = nullptr;
    for (const auto &[monomial, c] : form) {
      if (holds(monomial, loop.var)) {
        if (found || c != 1 || std::count(monomial.begin(), monomial.end(), loop.var) != 1) {
          return std::nullopt;
        }
        found = &monomial;
      }
    }
    if (!found) {
      return std::nullopt;
    }
    Monomial stride;
    for (const VarDecl *var : *found) {
      if (var != loop.var) {
        if (loopOf(var)) {
          return std::nullopt;
        }
        stride.push_back(var);
      }
    }
    axes.emplace_back(stride, loop.var);
  }
  return axes;
}

/// Whether the loop over `var` runs to `size`, the row size the flattened
/// index takes for its axis: the extent must be one the loop bounds name, or
/// the nest could not be checked against the array.
bool NestRecogniser::checkRowSize(const Expr *index, const VarDecl *var, const VarDecl *size) {
  const Loop &loop = *loopOf(var);
  std::optional<Polynomial> end = endOf(loop);
  if (end) {
    end->erase(Monomial{}); // the ring, checked with the other bounds
  }
  if (end && *end == Polynomial{{Monomial{size}, 1}}) {
    return true;
  }
  reportError(diags, index->getBeginLoc(),
              "the flattened index of '%0' takes '%1' as the size of the axis of '%2', but "
              "the loop over '%2' does not run to '%1' (as in '%2 < %1 - 1'): the row size "
              "must be one the loop bounds name")
      << output->getName() << size->getName() << var->getName() << index->getSourceRange();
  reportNote(diags, loop.upper->getBeginLoc(), "the loop over '%0' runs to '%1'")
      << var->getName() << text(loop.upper);
  return false;
}

bool NestRecogniser::recogniseFlattenedWrite(const Expr *index, SourceLocation baseLoc) {
  auto refuse = [&]() {
    reportError(diags, index->getBeginLoc(),
                "'%0' is written at one index, '%1', in a nest of %2 loops: a flattened index "
                "must be each loop variable times the row size of the axes inside it, as in "
                "'i*nx + j' or '(k*ny + i)*nx + j' (docs/c-frontend.md)")
        << output->getName() << text(index) << str(loops.size()) << index->getSourceRange();
    return false;
  };
  std::optional<Polynomial> form = expandIndex(index);
  if (!form || form->size() != loops.size()) {
    return refuse();
  }
  std::optional<std::vector<FlatAxis>> found = flattenedAxes(*form);
  if (!found) {
    return refuse();
  }
  std::vector<FlatAxis> &axes = *found;
  // Outermost axis first: the longest stride, each one the next one's
  // times one size.
  std::sort(axes.begin(), axes.end(),
            [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
  outputExtents.assign(loops.size(), Extent{});
  for (size_t axis = 0; axis < axes.size(); ++axis) {
    const Monomial &stride = axes[axis].first;
    if (stride.size() != axes.size() - 1 - axis) {
      return refuse();
    }
    if (axis == 0) {
      continue;
    }
    const Monomial &outer = axes[axis - 1].first;
    if (!std::includes(outer.begin(), outer.end(), stride.begin(), stride.end())) {
      return refuse();
    }
    // The size of this axis: what the outer stride has that this one lacks.
    const VarDecl *size = nullptr;
    for (const VarDecl *var : outer) {
      if (!holds(stride, var)) {
        size = var;
      }
    }
    if (!checkRowSize(index, axes[axis].second, size)) {
      return false;
    }
    outputExtents[axis] = Extent::known({{Monomial{size}, 1}});
  }
  for (const auto &[stride, var] : axes) {
    axisVars.push_back(var);
    flatStrides.push_back(stride);
  }
  outputElement = flatElementType(output, baseLoc);
  return !outputElement.isNull();
}

bool NestRecogniser::checkIndexCount(const VarDecl *array, const Expr *base, const Expr *read,
                                     size_t count) {
  const bool flattened = !flatStrides.empty();
  if (count == (flattened ? 1 : loops.size())) {
    return true;
  }
  if (!indexCountReported.insert(array).second) {
    return false; // one error per array: every read of it has the same cause
  }
  if (flattened) {
    reportError(diags, base->getBeginLoc(),
                "'%0' is read with %1 indices, but the write is flattened (one index)")
        << array->getName() << str(count) << read->getSourceRange();
  } else {
    reportError(diags, base->getBeginLoc(),
                "'%0' is read with %1 indices, but the loop nest has %2 loops")
        << array->getName() << str(count) << str(loops.size()) << read->getSourceRange();
  }
  return false;
}

std::optional<Offset> NestRecogniser::flattenedOffset(const Expr *index, const VarDecl *array) {
  std::optional<Polynomial> form = expandIndex(index);
  Offset offset;
  bool matches = form.has_value();
  for (size_t axis = 0; matches && axis < flatStrides.size(); ++axis) {
    const Monomial &stride = flatStrides[axis];
    auto position = form->find(times(stride, {axisVars[axis]}));
    matches = position != form->end() && position->second == 1;
    if (!matches) {
      break;
    }
    form->erase(position);
    if (auto shift = form->find(stride); shift != form->end()) {
      if (std::abs(shift->second) > MaxRadius) {
        reportError(diags, index->getBeginLoc(),
                    "offset %0 along the axis of '%1' is larger than the largest supported "
                    "radius, %2")
            << str(shift->second) << axisVars[axis]->getName() << str(MaxRadius)
            << index->getSourceRange();
        return std::nullopt;
      }
      offset.d[axis] = static_cast<int>(shift->second);
      form->erase(shift);
    }
  }
  if (!matches || !form->empty()) {
    reportError(diags, index->getBeginLoc(),
                "'%0' is read at '%1': a read of a flattened array must be the write's index "
                "plus a constant offset per axis, as in '(i-1)*nx + j' or 'i*nx + j+1'")
        << array->getName() << text(index) << index->getSourceRange();
    return std::nullopt;
  }
  return offset;
}

} // namespace stencilc::cfront::detail
