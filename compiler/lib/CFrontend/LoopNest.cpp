//===- LoopNest.cpp - Recognising one `#pragma stencil` loop nest ---------===//
//
// The nest      for (v0 = l0; v0 < u0; ++v0) ... { B[v..] = EXPR; }
// becomes       out[v..] = sum of coefficient * in[v + offset ..]
//
// Constants fold the way C computes them: each operation in the type Clang
// gave it (integer division truncates, float stays float), so a coefficient
// is exactly the value the C program multiplies by. Terms of the linear form
// carry that value as a double.
//
//===----------------------------------------------------------------------===//
#include "LoopNest.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"

#include "CDiagnostics.h"

namespace stencilc::cfront {

namespace {

using namespace clang;

/// Offsets beyond this are rejected as the .stencil language rejects them.
constexpr int MaxRadius = 32;

/// `for (var = lower; var < upper; ++var)`, or `var <= upper` when inclusive.
struct Loop {
  const ForStmt *stmt = nullptr;
  const VarDecl *var = nullptr;
  const Expr *lower = nullptr;
  const Expr *upper = nullptr;
  const Expr *condition = nullptr;
  bool inclusive = false;
};

/// A constant as C computes it: an integer, or a floating value in the
/// format of its type.
struct CValue {
  bool isFloat = false;
  llvm::APSInt integer;
  llvm::APFloat real{0.0};

  double toDouble() const {
    if (!isFloat) {
      return integer.isSigned() ? static_cast<double>(integer.getSExtValue())
                                : static_cast<double>(integer.getZExtValue());
    }
    llvm::APFloat value = real;
    bool losesInfo = false;
    value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return value.convertToDouble();
  }
};

/// What a subexpression of the update is: a constant, or a linear form in
/// the reads of the input array.
struct Form {
  std::optional<CValue> constant;
  /// Offset -> coefficient; meaningful when `constant` is empty.
  std::map<Offset, double> terms;

  bool isConstant() const { return constant.has_value(); }
};

/// The extent of an array along one axis, as far as its type tells.
struct Extent {
  enum Kind { Unknown, Constant, Variable } kind = Unknown;
  int64_t value = 0;
  /// For a VLA whose size is a plain variable (`double a[n][m]`).
  const ValueDecl *decl = nullptr;
};

/// An index of a read: `var + offset`, or a constant when var is null.
struct IndexForm {
  const VarDecl *var = nullptr;
  int64_t offset = 0;
};

std::string str(int64_t value) { return std::to_string(value); }

class NestRecogniser {
public:
  NestRecogniser(const MarkedNest &nest, ASTContext &context)
      : nest(nest), context(context), diags(context.getDiagnostics()),
        sourceManager(context.getSourceManager()) {}

  std::optional<TranslatedStencil> run();

private:
  // --- The loops -----------------------------------------------------------
  bool collectLoops();
  bool recogniseLoop(const ForStmt *loop, Loop &result);
  bool isLoopStep(const Expr *step, const VarDecl *var);
  const Loop *loopOf(const VarDecl *var) const;

  // --- The write ------------------------------------------------------------
  bool recogniseWrite(const Expr *target);
  const VarDecl *arrayOf(const Expr *base, const char *role);
  std::optional<std::vector<Extent>> arrayExtents(const VarDecl *array,
                                                  SourceLocation useLoc,
                                                  QualType &elementType);

  // --- The right-hand side ----------------------------------------------------
  std::optional<Form> analyse(const Expr *expr);
  std::optional<Form> analyseRead(const ArraySubscriptExpr *read);
  std::optional<Form> analyseBinary(const BinaryOperator *op);
  std::optional<Form> analyseName(const DeclRefExpr *ref);
  std::optional<CValue> constantElement(const ArraySubscriptExpr *read);
  std::optional<IndexForm> analyseIndex(const Expr *index, unsigned axis,
                                        const std::string &array);
  std::optional<CValue> foldQuietly(const Expr *expr);
  std::optional<CValue> convert(const CValue &value, QualType to, SourceLocation loc);
  std::optional<CValue> arithmetic(BinaryOperatorKind op, const CValue &lhs,
                                   const CValue &rhs, SourceLocation loc);
  void reportTermWithoutRead(const Expr *term);

  // --- The bounds -------------------------------------------------------------
  bool checkBounds(const TranslatedStencil &stencil);
  bool checkLoopBounds(const Loop &loop, unsigned axis, const TranslatedStencil &stencil);
  std::pair<const Expr *, int64_t> splitBound(const Expr *bound);
  bool mentionsLoopVariable(const Stmt *stmt) const;
  void noteRadius(const TranslatedStencil &stencil);

  std::string text(const Stmt *stmt) const {
    return Lexer::getSourceText(CharSourceRange::getTokenRange(stmt->getSourceRange()),
                                sourceManager, context.getLangOpts())
        .str();
  }

  const MarkedNest &nest;
  ASTContext &context;
  DiagnosticsEngine &diags;
  SourceManager &sourceManager;

  /// Reporting is off while folding loop bounds and trying alternatives.
  bool quiet = false;

  std::vector<Loop> loops; ///< outermost first
  const BinaryOperator *assignment = nullptr;

  const VarDecl *output = nullptr;
  std::vector<const VarDecl *> axisVars; ///< the loop variable of each axis of the write
  std::vector<Extent> outputExtents;
  QualType outputElement;

  const VarDecl *input = nullptr;
  const Expr *firstInputRead = nullptr;
  QualType inputElement;
  /// The first read at each offset, for notes.
  std::map<Offset, const Expr *> readAt;
  std::set<const VarDecl *> foldingVars;
  bool radiusNoted = false;
};

// --- The loops ----------------------------------------------------------------

/// nest ::= for-loop (for-loop (for-loop)?)? with one assignment innermost;
/// braces around a single statement are allowed at every level.
bool NestRecogniser::collectLoops() {
  const Stmt *current = nest.loop;
  while (true) {
    const auto *loop = dyn_cast<ForStmt>(current);
    if (!loop) {
      break;
    }
    if (loops.size() == 3) {
      reportError(diags, loop->getForLoc(),
                  "a '#pragma stencil' loop nest has at most 3 loops; this is a fourth");
      return false;
    }
    Loop result;
    if (!recogniseLoop(loop, result)) {
      return false;
    }
    loops.push_back(result);

    const Stmt *body = loop->getBody();
    while (const auto *block = dyn_cast<CompoundStmt>(body)) {
      if (block->size() != 1) {
        if (block->size() == 0) {
          reportError(diags, block->getLBracLoc(),
                      "the loop body is empty; a '#pragma stencil' nest ends in one "
                      "assignment 'B[i][j] = ...;'");
        } else {
          reportError(diags, (*std::next(block->body_begin()))->getBeginLoc(),
                      "unsupported statement: the body of a '#pragma stencil' loop must "
                      "be one inner loop or one assignment 'B[i][j] = ...;', not %0 "
                      "statements")
              << str(block->size());
        }
        return false;
      }
      body = block->body_front();
    }
    current = body;
  }

  const auto *expr = dyn_cast<Expr>(current);
  if (expr) {
    expr = expr->IgnoreParens();
    if (const auto *cleanups = dyn_cast<ExprWithCleanups>(expr)) {
      expr = cleanups->getSubExpr()->IgnoreParens();
    }
  }
  const auto *op = dyn_cast_or_null<BinaryOperator>(expr);
  if (op && op->isCompoundAssignmentOp()) {
    reportError(diags, op->getOperatorLoc(),
                "the update must be a plain assignment 'B[i][j] = ...;': '%0' also "
                "reads the array it writes")
        << op->getOpcodeStr();
    return false;
  }
  if (!op || op->getOpcode() != BO_Assign) {
    reportError(diags, current->getBeginLoc(),
                "unsupported statement in a '#pragma stencil' loop nest: the innermost "
                "body must be one assignment 'B[i][j] = ...;'")
        << current->getSourceRange();
    return false;
  }
  assignment = op;
  return true;
}

/// for-loop ::= 'for' '(' (type? var '=' lower) ';' var ('<'|'<='|'!=') upper ';'
///              ('++' var | var '++' | var '+=' 1 | var '=' var '+' 1) ')' body
bool NestRecogniser::recogniseLoop(const ForStmt *loop, Loop &result) {
  result.stmt = loop;
  const Stmt *init = loop->getInit();
  if (const auto *decl = dyn_cast_or_null<DeclStmt>(init)) {
    if (decl->isSingleDecl()) {
      if (const auto *var = dyn_cast<VarDecl>(decl->getSingleDecl()); var && var->hasInit()) {
        result.var = var;
        result.lower = var->getInit();
      }
    }
  } else if (const auto *assign = dyn_cast_or_null<BinaryOperator>(init)) {
    if (assign->getOpcode() == BO_Assign) {
      if (const auto *ref = dyn_cast<DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts())) {
        result.var = dyn_cast<VarDecl>(ref->getDecl());
        result.lower = assign->getRHS();
      }
    }
  }
  if (!result.var) {
    reportError(diags, init ? init->getBeginLoc() : loop->getLParenLoc(),
                "unsupported loop: the 'for' must start by setting its loop variable, "
                "as in 'int i = 1'");
    return false;
  }
  if (!result.var->getType()->isIntegerType()) {
    reportError(diags, result.var->getLocation(),
                "the loop variable '%0' must have an integer type, not '%1'")
        << result.var->getName() << result.var->getType().getAsString();
    return false;
  }

  auto isVar = [&](const Expr *e) {
    const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return ref && ref->getDecl() == result.var;
  };
  const auto *cond = dyn_cast_or_null<BinaryOperator>(
      loop->getCond() ? loop->getCond()->IgnoreParenImpCasts() : nullptr);
  if (cond) {
    BinaryOperatorKind opcode = cond->getOpcode();
    if (isVar(cond->getLHS()) && (opcode == BO_LT || opcode == BO_LE || opcode == BO_NE)) {
      result.upper = cond->getRHS();
      result.inclusive = opcode == BO_LE;
    } else if (isVar(cond->getRHS()) && (opcode == BO_GT || opcode == BO_GE)) {
      result.upper = cond->getLHS();
      result.inclusive = opcode == BO_GE;
    }
  }
  if (!result.upper) {
    SourceLocation loc = loop->getCond() ? loop->getCond()->getBeginLoc() : loop->getLParenLoc();
    reportError(diags, loc,
                "unsupported loop condition: expected '%0 < END' or '%0 <= LAST'")
        << result.var->getName();
    return false;
  }
  result.condition = cond;
  if (!isLoopStep(loop->getInc(), result.var)) {
    reportError(diags, loop->getInc() ? loop->getInc()->getBeginLoc() : loop->getRParenLoc(),
                "unsupported loop step: the loop must count up by one ('++%0', '%0++' "
                "or '%0 += 1')")
        << result.var->getName();
    return false;
  }
  return true;
}

bool NestRecogniser::isLoopStep(const Expr *step, const VarDecl *var) {
  if (!step) {
    return false;
  }
  step = step->IgnoreParens();
  auto isVar = [&](const Expr *e) {
    const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return ref && ref->getDecl() == var;
  };
  auto isOne = [&](const Expr *e) {
    std::optional<CValue> value = foldQuietly(e);
    return value && !value->isFloat && value->integer == 1;
  };
  if (const auto *unary = dyn_cast<UnaryOperator>(step)) {
    return unary->isIncrementOp() && isVar(unary->getSubExpr());
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(step)) {
    if (binary->getOpcode() == BO_AddAssign) {
      return isVar(binary->getLHS()) && isOne(binary->getRHS());
    }
    if (binary->getOpcode() == BO_Assign && isVar(binary->getLHS())) {
      const auto *sum = dyn_cast<BinaryOperator>(binary->getRHS()->IgnoreParenImpCasts());
      return sum && sum->getOpcode() == BO_Add &&
             ((isVar(sum->getLHS()) && isOne(sum->getRHS())) ||
              (isOne(sum->getLHS()) && isVar(sum->getRHS())));
    }
  }
  return false;
}

const Loop *NestRecogniser::loopOf(const VarDecl *var) const {
  for (const Loop &loop : loops) {
    if (loop.var == var) {
      return &loop;
    }
  }
  return nullptr;
}

// --- The write ------------------------------------------------------------------

/// The array variable a subscript chain starts from, or null after an error.
const VarDecl *NestRecogniser::arrayOf(const Expr *base, const char *role) {
  base = base->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<DeclRefExpr>(base)) {
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
      return var;
    }
  }
  reportError(diags, base->getBeginLoc(),
              "the %0 must be a named array (a C array, a VLA or a pointer to an "
              "array), not '%1'")
      << role << text(base) << base->getSourceRange();
  return nullptr;
}

/// Splits `a[e0][e1]...` into the base and the indices, outermost first.
const Expr *splitSubscripts(const Expr *expr, std::vector<const Expr *> &indices) {
  const Expr *base = expr->IgnoreParens();
  while (const auto *subscript = dyn_cast<ArraySubscriptExpr>(base)) {
    indices.push_back(subscript->getIdx());
    base = subscript->getBase()->IgnoreParenImpCasts();
  }
  std::reverse(indices.begin(), indices.end());
  return base;
}

/// write ::= array '[' var ']' ... with each loop variable once, no offsets.
bool NestRecogniser::recogniseWrite(const Expr *target) {
  std::vector<const Expr *> indices;
  const Expr *base = splitSubscripts(target, indices);
  if (indices.empty()) {
    reportError(diags, target->getBeginLoc(),
                "the update must assign an array element 'B[i][j] = ...;', not '%0'")
        << text(target) << target->getSourceRange();
    return false;
  }
  output = arrayOf(base, "array written");
  if (!output) {
    return false;
  }
  if (indices.size() != loops.size()) {
    reportError(diags, target->getBeginLoc(),
                "'%0' is written with %1 indices, but the loop nest has %2 loops")
        << output->getName() << str(indices.size()) << str(loops.size())
        << target->getSourceRange();
    return false;
  }
  for (unsigned axis = 0; axis < indices.size(); ++axis) {
    const Expr *index = indices[axis]->IgnoreParenImpCasts();
    const auto *ref = dyn_cast<DeclRefExpr>(index);
    const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!var || !loopOf(var)) {
      reportError(diags, index->getBeginLoc(),
                  "the update must write '%0' at the loop point: index %1 must be a "
                  "loop variable, not '%2'")
          << output->getName() << str(axis + 1) << text(index) << index->getSourceRange();
      return false;
    }
    if (std::find(axisVars.begin(), axisVars.end(), var) != axisVars.end()) {
      reportError(diags, index->getBeginLoc(),
                  "the loop variable '%0' indexes two axes of '%1'")
          << var->getName() << output->getName();
      return false;
    }
    axisVars.push_back(var);
  }
  std::optional<std::vector<Extent>> extents =
      arrayExtents(output, base->getBeginLoc(), outputElement);
  if (!extents) {
    return false;
  }
  outputExtents = *extents;
  return true;
}

/// The extents of `array` along the nest's axes and its element type. A
/// pointer is allowed only outermost (`double *a`, `double (*a)[N]`): the
/// rows of a `double **` are not one dense array.
std::optional<std::vector<Extent>>
NestRecogniser::arrayExtents(const VarDecl *array, SourceLocation useLoc,
                             QualType &elementType) {
  QualType type = array->getType();
  if (const auto *param = dyn_cast<ParmVarDecl>(array)) {
    type = param->getOriginalType(); // `double a[n][m]` before it decays
  }
  type = type.getNonReferenceType();
  std::vector<Extent> extents;
  for (unsigned axis = 0; axis < loops.size(); ++axis) {
    Extent extent;
    if (const ArrayType *arrayType = context.getAsArrayType(type)) {
      if (const auto *constant = dyn_cast<ConstantArrayType>(arrayType)) {
        extent.kind = Extent::Constant;
        extent.value = static_cast<int64_t>(constant->getSize().getZExtValue());
      } else if (const auto *variable = dyn_cast<VariableArrayType>(arrayType)) {
        extent.kind = Extent::Variable;
        if (const auto *ref = dyn_cast_or_null<DeclRefExpr>(
                variable->getSizeExpr() ? variable->getSizeExpr()->IgnoreParenImpCasts()
                                        : nullptr)) {
          extent.decl = ref->getDecl();
        }
      }
      type = arrayType->getElementType();
    } else if (type->isPointerType() && axis == 0) {
      type = type->getPointeeType();
    } else {
      reportError(diags, useLoc,
                  "'%0' has type '%1': a stencil needs a dense array (a C array, a VLA "
                  "or a pointer to an array such as 'double (*%0)[N]'), not a pointer "
                  "to pointers")
          << array->getName() << array->getType().getAsString();
      return std::nullopt;
    }
    extents.push_back(extent);
  }
  if (!type->isRealFloatingType()) {
    reportError(diags, useLoc,
                "the elements of '%0' are '%1'; a stencil works on floating-point "
                "arrays (float, double)")
        << array->getName() << type.getAsString();
    return std::nullopt;
  }
  elementType = type.getUnqualifiedType();
  return extents;
}

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
  if (!quiet) {
    reportError(diags, loc, "a coefficient must have an arithmetic type, not '%0'")
        << to.getAsString();
  }
  return std::nullopt;
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
  std::string name = input ? input->getName().str() : std::string("the input");
  reportError(diags, term->getBeginLoc(),
              "this term does not read '%0'; every term must be a coefficient times a "
              "read of '%0'")
      << name << term->getSourceRange();
}

/// expr ::= literal | constant-name | read | '(' expr ')' | ('-'|'+') expr
///        | expr ('+'|'-'|'*'|'/') expr | cast | any other constant Clang folds
std::optional<Form> NestRecogniser::analyse(const Expr *expr) {
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
        Form form;
        form.constant = value;
        return form;
      }
      return std::nullopt;
    default:
      break;
    }
    if (!quiet) {
      reportError(diags, cast->getBeginLoc(),
                  "unsupported conversion in a stencil update: '%0'")
          << text(cast) << cast->getSourceRange();
    }
    return std::nullopt;
  }
  if (const auto *literal = dyn_cast<FloatingLiteral>(expr)) {
    Form form;
    form.constant = CValue{true, llvm::APSInt(), literal->getValue()};
    return form;
  }
  if (const auto *literal = dyn_cast<IntegerLiteral>(expr)) {
    Form form;
    form.constant = CValue{false,
                           llvm::APSInt(literal->getValue(),
                                        !literal->getType()->isSignedIntegerType()),
                           llvm::APFloat(0.0)};
    return form;
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(expr)) {
    return analyseName(ref);
  }
  if (const auto *read = dyn_cast<ArraySubscriptExpr>(expr)) {
    if (std::optional<CValue> element = constantElement(read)) {
      Form form;
      form.constant = element;
      return form;
    }
    return analyseRead(read);
  }
  if (const auto *unary = dyn_cast<UnaryOperator>(expr)) {
    if (unary->getOpcode() == UO_Plus || unary->getOpcode() == UO_Minus) {
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
      } else {
        for (auto &[offset, coefficient] : inner->terms) {
          coefficient = -coefficient;
        }
      }
      return inner;
    }
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(expr)) {
    BinaryOperatorKind opcode = binary->getOpcode();
    if (opcode == BO_Add || opcode == BO_Sub || opcode == BO_Mul || opcode == BO_Div) {
      return analyseBinary(binary);
    }
  }
  // Constants Clang itself can fold: sizeof, constexpr function calls, ...
  Expr::EvalResult result;
  if (!expr->isValueDependent() && expr->EvaluateAsRValue(result, context) &&
      !result.HasSideEffects) {
    if (result.Val.isInt()) {
      Form form;
      form.constant = CValue{false, result.Val.getInt(), llvm::APFloat(0.0)};
      return form;
    }
    if (result.Val.isFloat()) {
      Form form;
      form.constant = CValue{true, llvm::APSInt(), result.Val.getFloat()};
      return form;
    }
  }
  if (!quiet) {
    if (const auto *call = dyn_cast<CallExpr>(expr)) {
      const FunctionDecl *callee = call->getDirectCallee();
      reportError(diags, call->getBeginLoc(),
                  "call to '%0' in a stencil update: the right-hand side must be "
                  "linear in the input, a sum of constant coefficients times reads")
          << (callee ? callee->getNameAsString() : text(call->getCallee()))
          << call->getSourceRange();
    } else {
      reportError(diags, expr->getBeginLoc(),
                  "unsupported expression in a stencil update: '%0'; the right-hand "
                  "side must be a sum of constant coefficients times reads of one array")
          << text(expr) << expr->getSourceRange();
    }
  }
  return std::nullopt;
}

std::optional<Form> NestRecogniser::analyseName(const DeclRefExpr *ref) {
  const ValueDecl *decl = ref->getDecl();
  if (const auto *enumerator = dyn_cast<EnumConstantDecl>(decl)) {
    Form form;
    form.constant = CValue{false, enumerator->getInitVal(), llvm::APFloat(0.0)};
    return form;
  }
  const auto *var = dyn_cast<VarDecl>(decl);
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
  if (!quiet) {
    reportError(diags, ref->getLocation(),
                "'%0' is not a constant; coefficients may use literals, const or "
                "constexpr variables with constant initialisers, and #define constants")
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
/// Null, without a diagnostic, for anything else.
std::optional<CValue> NestRecogniser::constantElement(const ArraySubscriptExpr *read) {
  std::vector<const Expr *> indices;
  const auto *ref = dyn_cast<DeclRefExpr>(splitSubscripts(read, indices));
  const auto *table = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!table || table == output || table == input || !table->getType()->isArrayType() ||
      !table->getType().isConstant(context) || table->getType().isVolatileQualified()) {
    return std::nullopt;
  }
  const Expr *init = table->getAnyInitializer();
  for (const Expr *index : indices) {
    std::optional<CValue> position = foldQuietly(index);
    const auto *list = init ? dyn_cast<InitListExpr>(init->IgnoreParenImpCasts()) : nullptr;
    if (!position || position->isFloat || !list) {
      return std::nullopt;
    }
    int64_t at = position->integer.getSExtValue();
    if (at < 0) {
      return std::nullopt;
    }
    init = static_cast<uint64_t>(at) < list->getNumInits() ? list->getInit(at) : nullptr;
    if (init && isa<ImplicitValueInitExpr>(init)) {
      init = nullptr;
    }
  }
  if (!init) { // zero-initialised
    CValue zero;
    zero.integer = llvm::APSInt::get(0);
    return convert(zero, read->getType(), read->getBeginLoc());
  }
  std::optional<CValue> value = foldQuietly(init);
  if (!value) {
    return std::nullopt;
  }
  return convert(*value, read->getType(), read->getBeginLoc());
}

std::optional<Form> NestRecogniser::analyseBinary(const BinaryOperator *op) {
  BinaryOperatorKind opcode = op->getOpcode();
  // Both sides first, so one run reports the errors of both.
  std::optional<Form> lhs = analyse(op->getLHS());
  std::optional<Form> rhs = analyse(op->getRHS());
  if (!lhs || !rhs) {
    return std::nullopt;
  }
  Form result;
  if (lhs->isConstant() && rhs->isConstant()) {
    result.constant = arithmetic(opcode, *lhs->constant, *rhs->constant, op->getOperatorLoc());
    if (!result.constant) {
      return std::nullopt;
    }
    return result;
  }
  switch (opcode) {
  case BO_Add:
  case BO_Sub: {
    if (lhs->isConstant() || rhs->isConstant()) {
      reportTermWithoutRead(lhs->isConstant() ? op->getLHS() : op->getRHS());
      return std::nullopt;
    }
    result.terms = lhs->terms;
    double sign = opcode == BO_Add ? 1.0 : -1.0;
    for (const auto &[offset, coefficient] : rhs->terms) {
      result.terms[offset] += sign * coefficient;
    }
    return result;
  }
  case BO_Mul: {
    if (!lhs->isConstant() && !rhs->isConstant()) {
      if (!quiet) {
        reportError(diags, op->getOperatorLoc(), "a product of two reads of '%0' is not linear")
            << input->getName() << op->getSourceRange();
      }
      return std::nullopt;
    }
    const Form &scale = lhs->isConstant() ? *lhs : *rhs;
    result.terms = lhs->isConstant() ? rhs->terms : lhs->terms;
    double factor = scale.constant->toDouble();
    for (auto &[offset, coefficient] : result.terms) {
      coefficient *= factor;
    }
    return result;
  }
  default: { // BO_Div
    if (!rhs->isConstant()) {
      if (!quiet) {
        reportError(diags, op->getOperatorLoc(), "division by a read of '%0' is not linear")
            << input->getName() << op->getSourceRange();
      }
      return std::nullopt;
    }
    double divisor = rhs->constant->toDouble();
    if (divisor == 0.0) {
      if (!quiet) {
        reportError(diags, op->getOperatorLoc(), "division by zero");
      }
      return std::nullopt;
    }
    result.terms = lhs->terms;
    for (auto &[offset, coefficient] : result.terms) {
      coefficient /= divisor;
    }
    return result;
  }
  }
}

/// read ::= array ('[' var (('+'|'-') constant)? ']')+ in the write's order
std::optional<Form> NestRecogniser::analyseRead(const ArraySubscriptExpr *read) {
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
    reportError(diags, base->getBeginLoc(),
                "the update reads '%0', the array it writes; a stencil writes a "
                "different array from the one it reads")
        << array->getName() << read->getSourceRange();
    reportNote(diags, assignment->getLHS()->getBeginLoc(), "'%0' is written here")
        << array->getName();
    return std::nullopt;
  }
  if (input && array != input) {
    reportError(diags, base->getBeginLoc(),
                "the update reads two arrays, '%0' and '%1'; a stencil reads one input "
                "array")
        << input->getName() << array->getName() << read->getSourceRange();
    reportNote(diags, firstInputRead->getBeginLoc(), "'%0' is read here")
        << input->getName();
    return std::nullopt;
  }
  if (indices.size() != loops.size()) {
    reportError(diags, base->getBeginLoc(),
                "'%0' is read with %1 indices, but the loop nest has %2 loops")
        << array->getName() << str(indices.size()) << str(loops.size())
        << read->getSourceRange();
    return std::nullopt;
  }
  if (!input) {
    input = array;
    firstInputRead = read;
    if (!arrayExtents(array, base->getBeginLoc(), inputElement)) {
      return std::nullopt;
    }
  }
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
  readAt.emplace(offset, read);
  Form form;
  form.terms[offset] = 1.0;
  return form;
}

/// index ::= var | var ('+'|'-') constant | constant '+' var
std::optional<IndexForm> NestRecogniser::analyseIndex(const Expr *index, unsigned axis,
                                                      const std::string &array) {
  const Expr *bare = index->IgnoreParenImpCasts();
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
    std::optional<IndexForm> inner = analyseIndex(varSide, axis, array);
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
    int64_t value = constant->integer.isSigned() ? constant->integer.getSExtValue()
                                                 : static_cast<int64_t>(constant->integer.getZExtValue());
    inner->offset += binary->getOpcode() == BO_Add ? value : -value;
    return inner;
  }
  return notAffine();
}

bool NestRecogniser::mentionsLoopVariable(const Stmt *stmt) const {
  if (!stmt) {
    return false;
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(stmt)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (var && loopOf(var)) {
      return true;
    }
  }
  for (const Stmt *child : stmt->children()) {
    if (mentionsLoopVariable(child)) {
      return true;
    }
  }
  return false;
}

// --- The bounds -----------------------------------------------------------------------

/// Splits a bound into `base + k` with k an integer constant; base is null
/// when the whole bound is a constant.
std::pair<const Expr *, int64_t> NestRecogniser::splitBound(const Expr *bound) {
  bound = bound->IgnoreParenImpCasts();
  if (std::optional<CValue> value = foldQuietly(bound); value && !value->isFloat) {
    return {nullptr, value->integer.getSExtValue()};
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(bound)) {
    if (binary->getOpcode() == BO_Add || binary->getOpcode() == BO_Sub) {
      std::optional<CValue> right = foldQuietly(binary->getRHS());
      if (right && !right->isFloat) {
        auto [base, k] = splitBound(binary->getLHS());
        int64_t value = right->integer.getSExtValue();
        return {base, binary->getOpcode() == BO_Add ? k + value : k - value};
      }
      std::optional<CValue> left = foldQuietly(binary->getLHS());
      if (left && !left->isFloat && binary->getOpcode() == BO_Add) {
        auto [base, k] = splitBound(binary->getRHS());
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
  for (const Term &term : stencil.spec.terms) {
    if (term.offset.chebyshevNorm() == stencil.spec.radius) {
      const Expr *read = readAt.at(term.offset);
      reportNote(diags, read->getBeginLoc(), "the stencil's radius is %0, from this read")
          << str(stencil.spec.radius) << read->getSourceRange();
      return;
    }
  }
}

std::string boundText(const std::string &base, int64_t k) {
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
  const std::string boundary =
      fixed ? "a fixed boundary of radius " + str(stencil.spec.radius)
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

std::optional<Precision> precisionOf(QualType element, ASTContext &context) {
  if (element.isNull()) {
    return std::nullopt;
  }
  QualType type = context.getCanonicalType(element.getUnqualifiedType());
  if (type == context.FloatTy) {
    return Precision::FP32;
  }
  if (type == context.DoubleTy) {
    return Precision::FP64;
  }
  if (type == context.Float16Ty || type == context.HalfTy) {
    return Precision::FP16;
  }
  if (type == context.BFloat16Ty) {
    return Precision::BF16;
  }
  return std::nullopt;
}

std::optional<TranslatedStencil> NestRecogniser::run() {
  if (!collectLoops() || !recogniseWrite(assignment->getLHS())) {
    return std::nullopt;
  }
  std::optional<Form> rhs = analyse(assignment->getRHS());
  if (!rhs) {
    return std::nullopt;
  }
  if (rhs->isConstant()) {
    reportError(diags, assignment->getRHS()->getBeginLoc(),
                "the right-hand side does not read an array; a stencil update is a sum "
                "of coefficients times reads of one input array")
        << assignment->getRHS()->getSourceRange();
    return std::nullopt;
  }

  TranslatedStencil stencil;
  StencilSpec &spec = stencil.spec;
  spec.dims = static_cast<int>(loops.size());
  bool finite = true;
  for (const auto &[offset, coefficient] : rhs->terms) {
    if (!std::isfinite(coefficient)) {
      const Expr *read = readAt.at(offset);
      reportError(diags, read->getBeginLoc(), "the coefficient of this read overflows a double")
          << read->getSourceRange();
      finite = false;
    } else if (coefficient != 0.0) {
      spec.terms.push_back(Term{offset, coefficient});
    }
  }
  if (!finite) {
    return std::nullopt;
  }
  if (spec.terms.empty()) {
    reportError(diags, assignment->getRHS()->getBeginLoc(),
                "the update has no non-zero coefficient: its terms cancel")
        << assignment->getRHS()->getSourceRange();
    return std::nullopt;
  }
  spec.radius = 0;
  spec.shape = Shape::Star;
  for (const Term &term : spec.terms) {
    spec.radius = std::max(spec.radius, term.offset.chebyshevNorm());
    if (term.offset.nonZeroAxes() > 1) {
      spec.shape = Shape::Box;
    }
  }
  if (spec.radius == 0) {
    reportError(diags, assignment->getRHS()->getBeginLoc(),
                "the update reads only the centre point of '%0'; a stencil reads "
                "neighbours")
        << input->getName() << assignment->getRHS()->getSourceRange();
    return std::nullopt;
  }

  const StencilPragma &pragma = *nest.pragma;
  spec.boundary = pragma.boundary.value_or(BoundaryKind::Fixed);
  spec.boundaryValue = pragma.boundaryValue;
  if (pragma.precision) {
    spec.precision = *pragma.precision;
  } else {
    std::optional<Precision> outPrecision = precisionOf(outputElement, context);
    std::optional<Precision> inPrecision = precisionOf(inputElement, context);
    if (!outPrecision || outPrecision != inPrecision) {
      if (outPrecision && inPrecision) {
        reportError(diags, pragma.loc,
                    "'%0' holds %1 but '%2' holds %3: name the precision with "
                    "precision(fp16|bf16|tf32|fp32|fp64)")
            << input->getName() << inputElement.getAsString() << output->getName()
            << outputElement.getAsString();
      } else {
        reportError(diags, pragma.loc,
                    "cannot infer the precision from element type '%0'; add "
                    "precision(fp16|bf16|tf32|fp32|fp64) to the pragma")
            << (outPrecision ? inputElement : outputElement).getAsString();
      }
      return std::nullopt;
    }
    spec.precision = *outPrecision;
  }

  if (!checkBounds(stencil)) {
    return std::nullopt;
  }

  for (unsigned axis = 0; axis < axisVars.size(); ++axis) {
    stencil.indexNames[axis] = axisVars[axis]->getName().str();
  }
  PresumedLoc where = sourceManager.getPresumedLoc(nest.loop->getForLoc());
  stencil.origin = std::string(where.getFilename()) + ":" + str(where.getLine());
  stencil.functionName = nest.function ? nest.function->getNameAsString() : "";
  stencil.outputArray = output->getName().str();
  stencil.inputArray = input->getName().str();
  return stencil;
}

} // namespace

std::optional<TranslatedStencil> recogniseNest(const MarkedNest &nest,
                                               ASTContext &context) {
  return NestRecogniser(nest, context).run();
}

} // namespace stencilc::cfront
