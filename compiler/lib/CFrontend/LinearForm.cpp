//===- LinearForm.cpp - The update as a linear form in the input ----------===//
//
// The right-hand side of the update becomes offset -> coefficient. Constants
// fold the way C computes them: each operation in the type Clang gave it
// (integer division truncates, float stays float), so a coefficient is
// exactly the value the C program multiplies by. Terms of the linear form
// carry that value as a double.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/ErrorHandling.h"

#include "CDiagnostics.h"
#include "NestRecogniser.h"

namespace stencilc::cfront::detail {

using namespace clang;

// --- The right-hand side ------------------------------------------------------------

std::optional<CValue> NestRecogniser::foldQuietly(const Expr *expr) {
  bool wasQuiet = quiet;
  quiet = true;
  std::optional<Form> form = analyse(expr);
  quiet = wasQuiet;
  if (form && form->isConstant()) {
    return form->constant;
  }
  return std::nullopt;
}

/// Converts a constant to `to` as a C cast does.
std::optional<CValue> NestRecogniser::convert(const CValue &value, QualType to,
                                              SourceLocation loc) {
  CValue result;
  if (to->isRealFloatingType()) {
    result.isFloat = true;
    const llvm::fltSemantics &semantics = context.getFloatTypeSemantics(to);
    if (value.isFloat) {
      result.real = value.real;
      bool losesInfo = false;
      result.real.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    } else {
      result.real = llvm::APFloat(semantics);
      result.real.convertFromAPInt(value.integer, value.integer.isSigned(),
                                   llvm::APFloat::rmNearestTiesToEven);
    }
    if (!result.real.isFinite()) {
      if (!quiet) {
        reportError(diags, loc, "constant arithmetic overflows");
      }
      return std::nullopt;
    }
    return result;
  }
  if (to->isBooleanType()) {
    bool nonZero = value.isFloat ? !value.real.isZero() : !value.integer.isZero();
    result.integer = llvm::APSInt(llvm::APInt(context.getIntWidth(to), nonZero), true);
    return result;
  }
  if (to->isIntegralOrEnumerationType()) {
    unsigned width = context.getIntWidth(to);
    bool isUnsigned = !to->isSignedIntegerOrEnumerationType();
    if (value.isFloat) {
      result.integer = llvm::APSInt(width, isUnsigned);
      bool exact = false;
      if (value.real.convertToInteger(result.integer, llvm::APFloat::rmTowardZero, &exact) &
          llvm::APFloat::opInvalidOp) {
        if (!quiet) {
          reportError(diags, loc, "constant arithmetic overflows");
        }
        return std::nullopt;
      }
    } else {
      result.integer = llvm::APSInt(value.integer.extOrTrunc(width), isUnsigned);
    }
    return result;
  }
  // Callers convert only to the arithmetic types of C's casts and of
  // constant tables (constantElement checks the element type first).
  llvm_unreachable("convert: not an arithmetic type");
}

/// One of + - * / on two constants of the same type, as C computes it.
std::optional<CValue> NestRecogniser::arithmetic(BinaryOperatorKind op, const CValue &lhs,
                                                 const CValue &rhs, SourceLocation loc) {
  CValue result = lhs;
  if (lhs.isFloat) {
    llvm::APFloat::opStatus status = llvm::APFloat::opOK;
    constexpr auto round = llvm::APFloat::rmNearestTiesToEven;
    llvm::APFloat right = rhs.real;
    if (!rhs.isFloat) { // cannot happen after Clang's conversions; be safe
      right = llvm::APFloat(lhs.real.getSemantics());
      right.convertFromAPInt(rhs.integer, rhs.integer.isSigned(), round);
    }
    if (op == BO_Div && right.isZero()) {
      if (!quiet) {
        reportError(diags, loc, "division by zero");
      }
      return std::nullopt;
    }
    switch (op) {
    case BO_Add:
      status = result.real.add(right, round);
      break;
    case BO_Sub:
      status = result.real.subtract(right, round);
      break;
    case BO_Mul:
      status = result.real.multiply(right, round);
      break;
    default:
      status = result.real.divide(right, round);
      break;
    }
    if ((status & llvm::APFloat::opOverflow) || !result.real.isFinite()) {
      if (!quiet) {
        reportError(diags, loc, "constant arithmetic overflows");
      }
      return std::nullopt;
    }
    return result;
  }
  llvm::APSInt right = rhs.integer;
  if (right.getBitWidth() != lhs.integer.getBitWidth()) {
    right = right.extOrTrunc(lhs.integer.getBitWidth());
  }
  bool overflow = false;
  bool isSigned = lhs.integer.isSigned();
  if (op == BO_Div && right.isZero()) {
    if (!quiet) {
      reportError(diags, loc, "division by zero");
    }
    return std::nullopt;
  }
  llvm::APInt value;
  switch (op) {
  case BO_Add:
    value = isSigned ? lhs.integer.sadd_ov(right, overflow) : lhs.integer + right;
    break;
  case BO_Sub:
    value = isSigned ? lhs.integer.ssub_ov(right, overflow) : lhs.integer - right;
    break;
  case BO_Mul:
    value = isSigned ? lhs.integer.smul_ov(right, overflow) : lhs.integer * right;
    break;
  default:
    value = isSigned ? lhs.integer.sdiv_ov(right, overflow) : lhs.integer.udiv(right);
    break;
  }
  if (overflow) {
    if (!quiet) {
      reportError(diags, loc, "constant arithmetic overflows");
    }
    return std::nullopt;
  }
  result.integer = llvm::APSInt(value, !isSigned);
  return result;
}

void NestRecogniser::reportTermWithoutRead(const Expr *term) {
  if (quiet) {
    return;
  }
  if (arrays.size() == 1) {
    reportError(diags, term->getBeginLoc(),
                "this term does not read '%0'; every term must be a coefficient times a "
                "read of '%0'")
        << arrays[0]->getName() << term->getSourceRange();
  } else {
    reportError(diags, term->getBeginLoc(),
                "this term does not read an array; every term must be a coefficient times a "
                "read of an array")
        << term->getSourceRange();
  }
}

/// A form that is the constant `value`.
static Form constantForm(CValue value) {
  Form form;
  form.constant = std::move(value);
  return form;
}

/// expr ::= literal | constant-name | read | '(' expr ')' | ('-'|'+') expr
///        | expr ('+'|'-'|'*'|'/') expr | cast | any other constant Clang folds
std::optional<Form> NestRecogniser::analyse(const Expr *expr) {
  if (depth >= MaxNesting) {
    if (!quiet && !tooDeepReported) {
      reportError(diags, expr->getBeginLoc(),
                  "the expression is nested too deeply: more than %0 levels of parentheses, "
                  "signs and casts")
          << str(MaxNesting);
      tooDeepReported = true;
    }
    return std::nullopt;
  }
  ++depth;
  auto leave = llvm::make_scope_exit([this] { --depth; });
  if (const auto *paren = dyn_cast<ParenExpr>(expr)) {
    return analyse(paren->getSubExpr());
  }
  if (const auto *full = dyn_cast<FullExpr>(expr)) {
    return analyse(full->getSubExpr());
  }
  if (const auto *temporary = dyn_cast<MaterializeTemporaryExpr>(expr)) {
    return analyse(temporary->getSubExpr());
  }
  if (const auto *cast = dyn_cast<CastExpr>(expr)) {
    return analyseCast(cast);
  }
  if (const auto *literal = dyn_cast<FloatingLiteral>(expr)) {
    return constantForm(CValue{true, llvm::APSInt(), literal->getValue()});
  }
  if (const auto *literal = dyn_cast<IntegerLiteral>(expr)) {
    return constantForm(
        CValue{false, llvm::APSInt(literal->getValue(), !literal->getType()->isSignedIntegerType()),
               llvm::APFloat(0.0)});
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(expr)) {
    return analyseName(ref);
  }
  if (timeLoop.var && (vectorSubscript(expr) || isa<ArraySubscriptExpr>(expr)) &&
      indexedByTime(expr)) {
    return analysePerStep(expr); // amp[t]
  }
  if (vectorSubscript(expr)) {
    return analyseRead(expr); // v[i*nx + j] on a std::vector
  }
  if (const auto *read = dyn_cast<ArraySubscriptExpr>(expr)) {
    return analyseSubscript(read);
  }
  if (const auto *unary = dyn_cast<UnaryOperator>(expr);
      unary && (unary->getOpcode() == UO_Plus || unary->getOpcode() == UO_Minus)) {
    return analyseSign(unary);
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(expr)) {
    BinaryOperatorKind opcode = binary->getOpcode();
    if (opcode == BO_Add || opcode == BO_Sub || opcode == BO_Mul || opcode == BO_Div) {
      return analyseBinary(binary);
    }
  }
  if (std::optional<Form> folded = foldByClang(expr)) {
    return folded;
  }
  reportUnsupported(expr);
  return std::nullopt;
}

/// A conversion: transparent around reads and no-ops, folded on constants
/// (as C converts them); any other is no part of a linear update.
std::optional<Form> NestRecogniser::analyseCast(const CastExpr *cast) {
  std::optional<Form> inner = analyse(cast->getSubExpr());
  if (!inner) {
    return std::nullopt;
  }
  switch (cast->getCastKind()) {
  case CK_NoOp:
  case CK_LValueToRValue:
    return inner;
  case CK_IntegralCast:
  case CK_IntegralToFloating:
  case CK_FloatingCast:
  case CK_FloatingToIntegral:
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean:
    if (!inner->isConstant()) {
      if (cast->getCastKind() == CK_FloatingCast) {
        return inner; // float <-> double around a read: the precision decides
      }
      break;
    }
    if (std::optional<CValue> value =
            convert(*inner->constant, cast->getType(), cast->getBeginLoc())) {
      return constantForm(std::move(*value));
    }
    return std::nullopt;
  default:
    break;
  }
  if (!quiet) {
    reportError(diags, cast->getBeginLoc(), "unsupported conversion in a stencil update: '%0'")
        << text(cast) << cast->getSourceRange();
  }
  return std::nullopt;
}

/// `a[...]`: a read of an input array, or an element of a constant table
/// (a coefficient).
std::optional<Form> NestRecogniser::analyseSubscript(const ArraySubscriptExpr *read) {
  std::optional<CValue> element;
  if (!constantElement(read, element)) {
    return analyseRead(read);
  }
  if (!element) {
    return std::nullopt; // a table element that is no coefficient: reported
  }
  return constantForm(std::move(*element));
}

/// `+e` is e; `-e` negates a constant, a parameter expression or every
/// coefficient of a linear form.
std::optional<Form> NestRecogniser::analyseSign(const UnaryOperator *unary) {
  std::optional<Form> inner = analyse(unary->getSubExpr());
  if (!inner || unary->getOpcode() == UO_Plus) {
    return inner;
  }
  if (inner->isConstant()) {
    if (inner->constant->isFloat) {
      inner->constant->real.changeSign();
    } else {
      inner->constant->integer = -inner->constant->integer;
    }
  } else if (inner->parameter) {
    inner->parameter = ParamExpr::apply(ParamExpr::Op::Neg, std::move(*inner->parameter), {});
  } else {
    for (auto &[reads, coefficient] : inner->terms) {
      coefficient.negate();
    }
  }
  return inner;
}

/// Constants Clang itself can fold: sizeof, constexpr function calls, ...;
/// nothing for any other expression.
std::optional<Form> NestRecogniser::foldByClang(const Expr *expr) {
  Expr::EvalResult result;
  if (expr->isValueDependent() || !expr->EvaluateAsRValue(result, context) ||
      result.HasSideEffects) {
    return std::nullopt;
  }
  if (result.Val.isInt()) {
    return constantForm(CValue{false, result.Val.getInt(), llvm::APFloat(0.0)});
  }
  if (result.Val.isFloat()) {
    return constantForm(CValue{true, llvm::APSInt(), result.Val.getFloat()});
  }
  return std::nullopt;
}

/// The error for an expression no linear update has (a call names its
/// callee, the usual cause).
void NestRecogniser::reportUnsupported(const Expr *expr) {
  if (quiet) {
    return;
  }
  if (const auto *call = dyn_cast<CallExpr>(expr)) {
    const FunctionDecl *callee = call->getDirectCallee();
    reportError(diags, call->getBeginLoc(),
                "call to '%0' in a stencil update: the right-hand side must be "
                "linear in the input, a sum of constant coefficients times reads")
        << (callee ? callee->getNameAsString() : text(call->getCallee())) << call->getSourceRange();
  } else {
    reportError(diags, expr->getBeginLoc(),
                "unsupported expression in a stencil update: '%0'; the right-hand "
                "side must be a sum of constant coefficients times reads of one array")
        << text(expr) << expr->getSourceRange();
  }
}

std::optional<Form> NestRecogniser::analyseName(const DeclRefExpr *ref) {
  const ValueDecl *decl = ref->getDecl();
  if (const auto *enumerator = dyn_cast<EnumConstantDecl>(decl)) {
    Form form;
    form.constant = CValue{false, enumerator->getInitVal(), llvm::APFloat(0.0)};
    return form;
  }
  const auto *var = dyn_cast<VarDecl>(decl);
  if (var && var == timeLoop.var) {
    if (!quiet) {
      reportError(diags, ref->getLocation(),
                  "the time loop's counter '%0' cannot be used as a value; it may only index "
                  "a per-step array, as in 'amp[%0]'")
          << var->getName();
    }
    return std::nullopt;
  }
  if (var && loopOf(var)) {
    if (!quiet) {
      reportError(diags, ref->getLocation(),
                  "the loop variable '%0' cannot be used as a value; coefficients must "
                  "be constants")
          << var->getName();
    }
    return std::nullopt;
  }
  QualType type = var ? var->getType() : QualType();
  const Expr *init = var ? var->getAnyInitializer() : nullptr;
  bool isConstant = var && type.isConstQualified() && !type.isVolatileQualified() &&
                    !type->isArrayType() && !type->isPointerType();
  if (isConstant && init && !init->isValueDependent() && !foldingVars.count(var)) {
    foldingVars.insert(var);
    std::optional<CValue> value = foldQuietly(init);
    foldingVars.erase(var);
    if (value) {
      Form form;
      form.constant = value;
      return form;
    }
    if (!quiet) {
      reportError(diags, ref->getLocation(),
                  "'%0' is not a constant: its initialiser is not a constant expression")
          << var->getName();
      reportNote(diags, init->getBeginLoc(), "'%0' is initialised here")
          << var->getName() << init->getSourceRange();
    }
    return std::nullopt;
  }
  // A floating-point variable that is not const: a run-time parameter.
  if (var && !type.isConstQualified() && !type.isVolatileQualified() &&
      type->isRealFloatingType() && context.getTypeSize(type) <= 64) {
    return quiet ? std::nullopt : analyseParameter(var);
  }
  if (!quiet) {
    reportError(diags, ref->getLocation(),
                "'%0' is not a constant; coefficients may use literals, const or "
                "constexpr variables with constant initialisers, #define constants, and "
                "float or double variables (run-time parameters)")
        << ref->getNameInfo().getAsString();
    if (var && !type->isArrayType() && !type->isPointerType()) {
      reportNote(diags, var->getLocation(), "'%0' is declared here") << var->getName();
    }
  }
  return std::nullopt;
}

/// An element of a const array with a constant initialiser at constant
/// indices (`static const double w[3] = {0.25, 0.5, 0.25};` ... `w[1]`), as
/// its initialiser gives it; elements the initialiser leaves out are zero.
/// False, without a diagnostic, when `read` is no such element; true with
/// `value` empty when it is one but cannot be a coefficient (reported).
bool NestRecogniser::constantElement(const ArraySubscriptExpr *read, std::optional<CValue> &value) {
  std::vector<const Expr *> indices;
  const auto *ref = dyn_cast<DeclRefExpr>(splitSubscripts(read, indices));
  const auto *table = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!table || table == output || std::find(arrays.begin(), arrays.end(), table) != arrays.end() ||
      !table->getType()->isArrayType() || !table->getType().isConstant(context) ||
      table->getType().isVolatileQualified()) {
    return false;
  }
  const Expr *init = table->getAnyInitializer();
  for (const Expr *index : indices) {
    std::optional<CValue> position = foldQuietly(index);
    const auto *list = init ? dyn_cast<InitListExpr>(init->IgnoreParenImpCasts()) : nullptr;
    if (!position || position->isFloat || !list) {
      return false;
    }
    int64_t at = position->integer.getSExtValue();
    if (at < 0) {
      return false;
    }
    init = static_cast<uint64_t>(at) < list->getNumInits() ? list->getInit(at) : nullptr;
    if (init && isa<ImplicitValueInitExpr>(init)) {
      init = nullptr;
    }
  }
  QualType type = read->getType();
  if (!type->isRealFloatingType() && !type->isIntegralOrEnumerationType()) {
    if (!quiet) {
      reportError(diags, read->getBeginLoc(),
                  "a coefficient must have an arithmetic type, not '%0'")
          << type.getAsString() << read->getSourceRange();
    }
    return true;
  }
  std::optional<CValue> element;
  if (!init) { // zero-initialised
    element.emplace();
    element->integer = llvm::APSInt::get(0);
  } else if (!(element = foldQuietly(init))) {
    return false;
  }
  value = convert(*element, type, read->getBeginLoc());
  return true;
}

/// A chain `a + b - c * d ...` is a left-deep tree as deep as it is long:
/// its left spine is walked in a loop, from the innermost operator out, so
/// that a sum of ten thousand terms does not recurse ten thousand deep. The
/// order of the operations is the recursive one, C's.
std::optional<Form> NestRecogniser::analyseBinary(const BinaryOperator *op) {
  auto isArithmetic = [](BinaryOperatorKind opcode) {
    return opcode == BO_Add || opcode == BO_Sub || opcode == BO_Mul || opcode == BO_Div;
  };
  std::vector<const BinaryOperator *> spine;
  const Expr *leftmost = op;
  while (const auto *binary = dyn_cast<BinaryOperator>(leftmost)) {
    if (!isArithmetic(binary->getOpcode())) {
      break;
    }
    spine.push_back(binary);
    leftmost = binary->getLHS();
    while (const auto *paren = dyn_cast<ParenExpr>(leftmost)) {
      leftmost = paren->getSubExpr();
    }
  }
  std::optional<Form> result = analyse(leftmost);
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    // Both sides first, so one run reports the errors of both.
    std::optional<Form> rhs = analyse((*it)->getRHS());
    result = result && rhs ? combine(*it, std::move(*result), std::move(*rhs)) : std::nullopt;
  }
  return result;
}

/// read ::= array ('[' var (('+'|'-') constant)? ']')+ in the write's order
std::optional<Form> NestRecogniser::analyseRead(const Expr *read) {
  std::vector<const Expr *> indices;
  const Expr *base = splitSubscripts(read, indices);
  if (quiet) {
    return std::nullopt; // a read is never a constant
  }
  const VarDecl *array = arrayOf(base, "array read");
  if (!array) {
    return std::nullopt;
  }
  if (array == output) {
    if (readOfOutputReported) {
      return std::nullopt; // one error per cause: a Gauss-Seidel sweep reads it at every term
    }
    readOfOutputReported = true;
    reportError(diags, base->getBeginLoc(),
                "the update reads '%0', the array it writes; a stencil writes a "
                "different array from the one it reads")
        << array->getName() << read->getSourceRange();
    reportNote(diags, assignment->getLHS()->getBeginLoc(), "'%0' is written here")
        << array->getName();
    return std::nullopt;
  }
  if (perStepArrays.count(array)) {
    reportError(diags, base->getBeginLoc(),
                "'%0' is read as a per-step value ('%0[t]') and as an array of the nest; a "
                "per-step array holds one value a step")
        << array->getName() << read->getSourceRange();
    return std::nullopt;
  }
  if (!checkIndexCount(array, base, read, indices.size())) {
    return std::nullopt;
  }
  auto known = std::find(arrays.begin(), arrays.end(), array);
  const int index = static_cast<int>(known - arrays.begin());
  if (known == arrays.end()) {
    arrays.push_back(array);
    firstReads.push_back(read);
    arrayElements.emplace_back();
    if (!checkDistinct(array, base->getBeginLoc())) {
      return std::nullopt;
    }
    if (!flatStrides.empty()) {
      arrayElements.back() = flatElementType(array, base->getBeginLoc());
      if (arrayElements.back().isNull()) {
        return std::nullopt;
      }
    } else if (!arrayExtents(array, base->getBeginLoc(), arrayElements.back())) {
      return std::nullopt;
    }
  } else if (arrayElements[index].isNull()) {
    return std::nullopt; // its first read reported why
  }
  std::optional<Offset> offset =
      flatStrides.empty() ? offsetOf(indices, array) : flattenedOffset(indices[0], array);
  if (!offset) {
    return std::nullopt;
  }
  ArrayRead at{index, *offset};
  readAt.emplace(at, read);
  Form form;
  form.terms[TermReads{at, ArrayRead{}}] = Coefficient{1.0, {}};
  return form;
}

std::optional<Offset> NestRecogniser::offsetOf(const std::vector<const Expr *> &indices,
                                               const VarDecl *array) {
  Offset offset;
  bool ok = true;
  for (unsigned axis = 0; axis < indices.size(); ++axis) {
    std::optional<IndexForm> index = analyseIndex(indices[axis], axis, array->getName().str());
    if (!index) {
      ok = false;
      continue;
    }
    if (std::abs(index->offset) > MaxRadius) {
      reportError(diags, indices[axis]->getBeginLoc(),
                  "offset %0 is larger than the largest supported radius, %1")
          << str(index->offset) << str(MaxRadius) << indices[axis]->getSourceRange();
      ok = false;
      continue;
    }
    offset.d[axis] = static_cast<int>(index->offset);
  }
  if (!ok) {
    return std::nullopt;
  }
  return offset;
}

} // namespace stencilc::cfront::detail
