//===- LoopNest.cpp - Recognising one `#pragma stencil` loop nest ---------===//
//
// The nest      for (v0 = l0; v0 < u0; ++v0) ... { B[v..] = EXPR; }
// becomes       out[v..] = sum of coefficient * in[v + offset ..]
//
// This file reads the loops and the write and assembles the result;
// LoopBounds.cpp checks the bounds against the boundary, LinearForm.cpp reads
// the right-hand side.
//
//===----------------------------------------------------------------------===//
#include "LoopNest.h"

#include <algorithm>
#include <cmath>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/SmallVector.h"

#include "CDiagnostics.h"
#include "NestRecogniser.h"

namespace stencilc::cfront {

namespace detail {

using namespace clang;

// --- The loops ----------------------------------------------------------------

/// nest ::= for-loop (for-loop (for-loop)?)? with one assignment innermost;
/// braces around a single statement are allowed at every level.
bool NestRecogniser::collectLoops() {
  const Stmt *current = nestStart;
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
    reportError(diags, loc, "unsupported loop condition: expected '%0 < END' or '%0 <= LAST'")
        << result.var->getName();
    return false;
  }
  result.condition = cond;
  if (!checkNoSideEffects(result.lower, "start", result.var) ||
      !checkNoSideEffects(loop->getCond(), "condition", result.var)) {
    return false;
  }
  if (!isLoopStep(loop->getInc(), result.var)) {
    reportError(diags, loop->getInc() ? loop->getInc()->getBeginLoc() : loop->getRParenLoc(),
                "unsupported loop step: the loop must count up by one ('++%0', '%0++' "
                "or '%0 += 1')")
        << result.var->getName();
    return false;
  }
  return true;
}

/// A loop's start and condition must be expressions of the sizes: C
/// evaluates the condition before every iteration, so `i < n-- - 1` or
/// `i < next() - 1` would run a different number of iterations than the
/// kernel, which takes the sizes once. Constant expressions (a constexpr
/// call) are fine.
bool NestRecogniser::checkNoSideEffects(const Expr *expr, const char *what, const VarDecl *var) {
  Expr::EvalResult constant;
  if ((!expr->HasSideEffects(context, /*IncludePossibleEffects=*/true) &&
       !sizeHasSideEffects(expr)) ||
      (!expr->isValueDependent() && expr->EvaluateAsRValue(constant, context) &&
       !constant.HasSideEffects)) {
    return true;
  }
  reportError(diags, expr->getBeginLoc(),
              "the %0 of the loop over '%1' may have side effects ('%2'); loop bounds must be "
              "expressions of the sizes without calls, assignments or volatile reads")
      << what << var->getName() << text(expr) << expr->getSourceRange();
  return false;
}

/// C evaluates the size of a variably modified type where `sizeof` or a
/// cast names it: `sizeof(int[n++])` increments n on every iteration, though
/// Clang counts a `sizeof` as free of side effects.
bool NestRecogniser::sizeHasSideEffects(const Stmt *stmt) const {
  if (!stmt) {
    return false;
  }
  if (const auto *trait = dyn_cast<UnaryExprOrTypeTraitExpr>(stmt)) {
    if (trait->getTypeOfArgument()->isVariablyModifiedType() &&
        (typeSizeHasSideEffects(trait->getTypeOfArgument()) ||
         (!trait->isArgumentType() &&
          trait->getArgumentExpr()->HasSideEffects(context, /*IncludePossibleEffects=*/true)))) {
      return true;
    }
  } else if (const auto *cast = dyn_cast<ExplicitCastExpr>(stmt)) {
    if (typeSizeHasSideEffects(cast->getTypeAsWritten())) {
      return true;
    }
  }
  for (const Stmt *child : stmt->children()) {
    if (sizeHasSideEffects(child)) {
      return true;
    }
  }
  return false;
}

/// Whether a size of a VLA in `type` (`int[n++]`, `int (*)[f()]`) has a
/// side effect.
bool NestRecogniser::typeSizeHasSideEffects(QualType type) const {
  while (!type.isNull() && type->isVariablyModifiedType()) {
    if (const ArrayType *array = context.getAsArrayType(type)) {
      const auto *variable = dyn_cast<VariableArrayType>(array);
      const Expr *size = variable ? variable->getSizeExpr() : nullptr;
      if (size && (size->HasSideEffects(context, /*IncludePossibleEffects=*/true) ||
                   sizeHasSideEffects(size))) {
        return true;
      }
      type = array->getElementType();
    } else if (type->isPointerType() || type->isReferenceType()) {
      type = type->getPointeeType();
    } else {
      break;
    }
  }
  return false;
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

namespace {

bool bindsMutably(QualType type) {
  return type->isReferenceType() && !type.getNonReferenceType().isConstQualified();
}

/// A reference that may change `var`, bound in `stmt`: `int &r = n;`, or
/// `grow(n)` for a `void grow(int &)`.
const Expr *referenceTo(const Stmt *stmt, const VarDecl *var) {
  auto isVar = [var](const Expr *e) {
    const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParens());
    return ref && ref->getDecl() == var;
  };
  if (const auto *decl = dyn_cast<DeclStmt>(stmt)) {
    for (const Decl *d : decl->decls()) {
      const auto *bound = dyn_cast<VarDecl>(d);
      if (bound && bindsMutably(bound->getType()) && bound->getInit() && isVar(bound->getInit())) {
        return bound->getInit();
      }
    }
  }
  const auto *call = dyn_cast<CallExpr>(stmt);
  if (!call || isa<CXXOperatorCallExpr>(call)) {
    return nullptr; // an operator's first argument may be `this`
  }
  QualType callee = call->getCallee()->getType();
  const auto *proto =
      (callee->isPointerType() ? callee->getPointeeType() : callee)->getAs<FunctionProtoType>();
  if (!proto && call->getDirectCallee()) {
    proto = call->getDirectCallee()->getType()->getAs<FunctionProtoType>(); // a member call
  }
  for (unsigned i = 0; proto && i < call->getNumArgs() && i < proto->getNumParams(); ++i) {
    if (bindsMutably(proto->getParamType(i)) && isVar(call->getArg(i))) {
      return call->getArg(i);
    }
  }
  return nullptr;
}

/// `&var` kept in a variable by `stmt`: `int *p = &n;`, `p = &n;`, or a
/// non-const reference bound to it, `int &r = n;`.
const Expr *keptAddress(const Stmt *stmt, const VarDecl *var) {
  auto isAddress = [var](const Expr *e) {
    const auto *unary = e ? dyn_cast<UnaryOperator>(e->IgnoreParenImpCasts()) : nullptr;
    const auto *ref = unary && unary->getOpcode() == UO_AddrOf
                          ? dyn_cast<DeclRefExpr>(unary->getSubExpr()->IgnoreParens())
                          : nullptr;
    return ref && ref->getDecl() == var;
  };
  if (const auto *decl = dyn_cast<DeclStmt>(stmt)) {
    for (const Decl *d : decl->decls()) {
      const auto *kept = dyn_cast<VarDecl>(d);
      if (kept && isAddress(kept->getInit())) {
        return kept->getInit();
      }
    }
    return referenceTo(stmt, var); // `int &r = n;`
  }
  const auto *assign = dyn_cast<BinaryOperator>(stmt);
  return assign && assign->getOpcode() == BO_Assign && isAddress(assign->getRHS())
             ? assign->getRHS()
             : nullptr;
}

/// Whether `stmt` itself may change `var` or let it be changed later: an
/// assignment to it, an increment, or its address taken.
const Expr *changeOf(const Stmt *stmt, const VarDecl *var) {
  auto isVar = [var](const Expr *e) {
    const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return ref && ref->getDecl() == var;
  };
  if (const auto *binary = dyn_cast<BinaryOperator>(stmt)) {
    return binary->isAssignmentOp() && isVar(binary->getLHS()) ? binary : nullptr;
  }
  if (const auto *unary = dyn_cast<UnaryOperator>(stmt)) {
    return (unary->isIncrementDecrementOp() || unary->getOpcode() == UO_AddrOf) &&
                   isVar(unary->getSubExpr())
               ? unary
               : nullptr;
  }
  if (const auto *call = dyn_cast<CXXOperatorCallExpr>(stmt)) {
    return call->isAssignmentOp() && call->getNumArgs() > 0 && isVar(call->getArg(0)) ? call
                                                                                      : nullptr;
  }
  return nullptr;
}

/// The first place in `stmt` that may change `var`: where `after` (an
/// expansion location) is valid, at or after it, or where its address is
/// kept before it; with `references`, a non-const reference bound to it
/// counts as its address taken. Walks the tree with an explicit stack, in the
/// same pre-order as a recursive walk: a sum of many terms is a tree as deep
/// as it is long, too deep for the call stack. Statements in `exempt` (a
/// time loop's rotation, proven a permutation of the buffers) are skipped.
const Expr *findChange(const Stmt *root, const VarDecl *var, const SourceManager &sourceManager,
                       SourceLocation after = {}, bool references = false,
                       const llvm::SmallPtrSetImpl<const Stmt *> *exempt = nullptr) {
  llvm::SmallVector<const Stmt *, 64> pending{root};
  while (!pending.empty()) {
    const Stmt *stmt = pending.pop_back_val();
    if (!stmt || (exempt && exempt->contains(stmt))) {
      continue;
    }
    const Expr *change = changeOf(stmt, var);
    if (!change && references) {
      change = referenceTo(stmt, var);
    }
    if (change &&
        (after.isInvalid() || !sourceManager.isBeforeInTranslationUnit(
                                  sourceManager.getExpansionLoc(change->getBeginLoc()), after))) {
      return change;
    }
    // An address kept in a pointer or reference before `after` may still
    // write later (`int *p = &n;` ... `*p = 3;`); one passed to a call
    // (`scanf("%d", &n)`) is taken to be done with when the call returns.
    if (const Expr *kept = after.isValid() && references ? keptAddress(stmt, var) : nullptr) {
      return kept;
    }
    // Children pushed last to first, so the first child is visited next.
    const std::size_t mark = pending.size();
    for (const Stmt *child : stmt->children()) {
      pending.push_back(child);
    }
    std::reverse(pending.begin() + mark, pending.end());
  }
  return nullptr;
}

} // namespace

/// The generated kernel reads one buffer and writes another, so the arrays
/// of the update must be distinct objects, or parameters the caller passes
/// (the generated API checks those at run time). A pointer or reference
/// declared anywhere else, or a parameter the function reassigns, may point
/// into the other array (`double (*b)[n] = a;`, `b = a + 1`, a union member
/// through a reference): the nest would be an in-place update, which the
/// front end cannot prove is not the case, so it is refused.
bool NestRecogniser::checkDistinct(const VarDecl *array, SourceLocation useLoc) {
  QualType type = array->getType();
  const bool indirect = type->isReferenceType() || type->isPointerType();
  if (!indirect) {
    return true;
  }
  const auto *param = dyn_cast<ParmVarDecl>(array);
  if (!param) {
    const Expr *init = array->getInit();
    if (init) {
      reportError(diags, useLoc,
                  "'%0' is a %1 set from '%2', so it may alias the other array of the "
                  "update; a stencil writes a buffer distinct from the one it reads: pass "
                  "both arrays as parameters, or use the arrays themselves")
          << array->getName() << (type->isReferenceType() ? "reference" : "pointer") << text(init);
      reportNote(diags, init->getBeginLoc(), "'%0' is set here")
          << array->getName() << init->getSourceRange();
    } else {
      reportError(diags, useLoc,
                  "'%0' is a pointer that is not a parameter, so it may alias the other array "
                  "of the update; a stencil writes a buffer distinct from the one it reads: "
                  "pass both arrays as parameters, or use the arrays themselves")
          << array->getName();
      reportNote(diags, array->getLocation(), "'%0' is declared here") << array->getName();
    }
    return false;
  }
  const Stmt *body = nest.function ? nest.function->getBody() : nullptr;
  if (const Expr *change = findChange(body, array, sourceManager, {}, false, &rotation)) {
    reportError(diags, useLoc,
                "the parameter '%0' is changed in the function ('%1'), so it may alias the "
                "other array of the update; a stencil writes a buffer distinct from the one "
                "it reads")
        << array->getName() << text(change);
    reportNote(diags, change->getBeginLoc(), "'%0' is changed here")
        << array->getName() << change->getSourceRange();
    return false;
  }
  return true;
}

/// write ::= array '[' var ']' ... with each loop variable once, no offsets;
///         | array '[' flattened ']' (Indices.cpp)
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
  if (!output || !checkDistinct(output, base->getBeginLoc())) {
    return false;
  }
  if (indices.size() == 1 && loops.size() > 1) {
    return recogniseFlattenedWrite(indices[0], base->getBeginLoc()); // `out[i*nx + j]`
  }
  if (indices.size() != loops.size()) {
    reportError(diags, target->getBeginLoc(),
                "'%0' is written with %1 indices, but the loop nest has %2 loops")
        << output->getName() << str(indices.size()) << str(loops.size())
        << target->getSourceRange();
    const auto outer = [this](const Expr *index) {
      const auto *ref = dyn_cast<DeclRefExpr>(index->IgnoreParenImpCasts());
      return ref && ref->getDecl() == loops.front().var;
    };
    if (indices.size() + 1 == loops.size() && std::none_of(indices.begin(), indices.end(), outer)) {
      reportNote(diags, loops.front().stmt->getForLoc(),
                 "if the loop over '%0' is a time loop, its body ends with the rotation of the "
                 "buffers, as in 'tmp = u; u = %1; %1 = tmp;'")
          << loops.front().var->getName() << output->getName();
    }
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
      reportError(diags, index->getBeginLoc(), "the loop variable '%0' indexes two axes of '%1'")
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
NestRecogniser::arrayExtents(const VarDecl *array, SourceLocation useLoc, QualType &elementType) {
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
        const llvm::APInt &size = constant->getSize();
        extent = size.isIntN(63) ? Extent::known(*plus({}, size.getSExtValue())) : Extent{};
      } else if (const auto *variable = dyn_cast<VariableArrayType>(arrayType)) {
        if (variable->getSizeExpr()) { // not `a[*]`
          extent = variableExtent(variable->getSizeExpr(), array);
        }
      }
      type = arrayType->getElementType();
    } else if (type->isPointerType() && axis == 0) {
      type = type->getPointeeType();
    } else if (QualType element = vectorElement(type); !element.isNull() && axis == 0) {
      type = element; // std::vector<float>: a 1D array, or a flattened one
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

/// The extent of a VLA (`double a[n][m]`): its size as a sum of products of
/// size variables. C fixes the extent where the type is written while a loop
/// bound reads the variables when the loop runs, so a variable the function
/// changes there or later, or one a call could change (a global), leaves the
/// extent unprovable.
Extent NestRecogniser::variableExtent(const Expr *size, const VarDecl *array) {
  Extent extent;
  extent.kind = Extent::Unprovable;
  extent.sizeExpr = size;
  std::optional<Polynomial> form = expandIndex(size, 0, /*sizeCasts=*/true);
  if (!form) {
    extent.reason = "it is not a sum of products of integer variables and constants";
    return extent;
  }
  const Stmt *body = nest.function ? nest.function->getBody() : nullptr;
  // Where C evaluates the size: at the array's declaration, in the parameter
  // list, or at a typedef of the VLA type (`typedef double row[nx];`). A
  // change there or after it (`a[n++]` too) may part the size from the variable.
  const SourceLocation declared = sourceManager.getExpansionLoc(size->getBeginLoc());
  for (const auto &[monomial, c] : *form) {
    for (const VarDecl *var : monomial) {
      const std::string name = ("'" + var->getName() + "'").str();
      if (!var->hasLocalStorage()) {
        extent.reason = name + " is a global or static variable, so a call may change it";
      } else if (var->getType().isVolatileQualified()) {
        extent.reason = name + " is volatile";
      } else if (const Expr *change =
                     findChange(body, var, sourceManager, declared, /*references=*/true)) {
        const auto *unary = dyn_cast<UnaryOperator>(change->IgnoreParenImpCasts());
        const std::string how =
            isa<DeclRefExpr>(change->IgnoreParens())
                ? " is bound to a non-const reference, through which it may change"
            : unary && unary->getOpcode() == UO_AddrOf
                ? " has its address taken ('" + text(change) + "'), through which it may change"
                : " is changed in the function ('" + text(change) + "')";
        extent.reason = name + how + " after '" + array->getName().str() + "' is declared with it";
        extent.change = change;
      }
      if (!extent.reason.empty()) {
        return extent;
      }
    }
  }
  return Extent::known(*form);
}

/// The generated kernel indexes every array with one set of extents, the
/// nest's (those of the written array, or the ones its loops run to), so
/// each array read must have them wherever its type names one: read with
/// the rows of `out[512][512]`, an `in[512][520]` would be read wrong. The
/// reads of a flattened nest share the write's strides through their index.
bool NestRecogniser::checkReadExtents() {
  if (!flatStrides.empty()) {
    return true;
  }
  bool ok = true;
  for (unsigned a = 0; a < arrays.size(); ++a) {
    QualType element;
    std::optional<std::vector<Extent>> extents =
        arrayExtents(arrays[a], firstReads[a]->getBeginLoc(), element);
    for (unsigned axis = 0; extents && axis < extents->size(); ++axis) {
      if (!checkReadExtent(a, axis, (*extents)[axis])) {
        ok = false;
        break; // one error per array
      }
    }
    ok &= extents.has_value();
  }
  return ok;
}

bool NestRecogniser::checkReadExtent(unsigned a, unsigned axis, const Extent &extent) {
  const Extent &nestExtent = nestExtents[axis];
  if (extent.kind == Extent::Unknown || nestExtent.kind != Extent::Known ||
      (extent.kind == Extent::Known && extent.size == nestExtent.size)) {
    return true; // where the nest's extent is unknown, its bound is reported
  }
  if (extent.change && !changesReported.insert(extent.change).second) {
    return false;
  }
  const VarDecl *array = arrays[a];
  const Expr *read = firstReads[a];
  const std::string var = axisVars[axis]->getName().str();
  const std::string nestSide = outputExtents[axis].kind == Extent::Known
                                   ? "'" + output->getName().str() + "', the array written, has '" +
                                         spell(nestExtent.size) + "'"
                                   : "the loop over '" + var + "' runs over '" +
                                         spell(nestExtent.size) + "' points ('" +
                                         output->getName().str() + "' does not declare its extent)";
  if (extent.kind == Extent::Unprovable) {
    reportError(diags, read->getBeginLoc(),
                "the extent '%0' of '%1' along the axis of '%2' cannot be proven to be the "
                "nest's: %3; %4")
        << text(extent.sizeExpr) << array->getName() << var << extent.reason << nestSide
        << read->getSourceRange();
  } else {
    reportError(diags, read->getBeginLoc(),
                "'%0' has extent '%1' along the axis of '%2', but %3: the generated kernel "
                "indexes every array with the same extents, so they must be the same constant "
                "or the same expression of the sizes")
        << array->getName() << spell(extent.size) << var << nestSide << read->getSourceRange();
  }
  reportNote(diags, array->getLocation(), "'%0' is declared here") << array->getName();
  if (extent.change) {
    reportNote(diags, extent.change->getBeginLoc(), "changed here")
        << extent.change->getSourceRange();
  }
  return false;
}

/// A time loop's counter counts too: a nest whose bounds change from step to
/// step is no one stencil.
bool NestRecogniser::mentionsLoopVariable(const Stmt *stmt) const {
  return refersTo(stmt, [this](const VarDecl *var) { return loopOf(var) || var == timeLoop.var; });
}

bool refersTo(const Stmt *stmt, llvm::function_ref<bool(const VarDecl *)> matches) {
  if (!stmt) {
    return false;
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(stmt)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (var && matches(var)) {
      return true;
    }
  }
  return std::any_of(stmt->child_begin(), stmt->child_end(),
                     [matches](const Stmt *child) { return refersTo(child, matches); });
}

static std::optional<Precision> precisionOf(QualType element, ASTContext &context) {
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

/// The precision the pragma names, or else the one element type of every
/// array the nest reads and writes.
bool NestRecogniser::inferPrecision(StencilSpec &spec) {
  const StencilPragma &pragma = *nest.pragma;
  if (pragma.precision) {
    spec.precision = *pragma.precision;
  } else {
    std::optional<Precision> outPrecision = precisionOf(outputElement, context);
    for (size_t a = 0; a < arrays.size(); ++a) {
      std::optional<Precision> inPrecision = precisionOf(arrayElements[a], context);
      if (outPrecision && outPrecision == inPrecision) {
        continue;
      }
      if (outPrecision && inPrecision) {
        reportError(diags, pragma.loc,
                    "'%0' holds %1 but '%2' holds %3: name the precision with "
                    "precision(fp16|bf16|tf32|fp32|fp64)")
            << arrays[a]->getName() << arrayElements[a].getAsString() << output->getName()
            << outputElement.getAsString();
      } else {
        reportError(diags, pragma.loc,
                    "cannot infer the precision from element type '%0'; add "
                    "precision(fp16|bf16|tf32|fp32|fp64) to the pragma")
            << (outPrecision ? arrayElements[a] : outputElement).getAsString();
      }
      return false;
    }
    spec.precision = *outPrecision;
  }
  return true;
}

std::optional<TranslatedStencil> NestRecogniser::run() {
  if (!collectTimeLoop() || !collectLoops() || !recogniseWrite(assignment->getLHS())) {
    return std::nullopt;
  }
  std::optional<Form> rhs = analyse(assignment->getRHS());
  if (!rhs) {
    return std::nullopt;
  }
  if (rhs->isScalar()) {
    reportError(diags, assignment->getRHS()->getBeginLoc(),
                "the right-hand side does not read an array; a stencil update is a sum "
                "of coefficients times reads of one input array")
        << assignment->getRHS()->getSourceRange();
    return std::nullopt;
  }

  TranslatedStencil stencil;
  StencilSpec &spec = stencil.spec;
  spec.dims = static_cast<int>(loops.size());
  if (!assembleTerms(*rhs, stencil)) {
    return std::nullopt;
  }

  const StencilPragma &pragma = *nest.pragma;
  spec.boundary = pragma.boundary.value_or(BoundaryKind::Fixed);
  spec.boundaryValue = pragma.boundaryValue;
  if (!inferPrecision(spec)) {
    return std::nullopt;
  }

  const bool boundsMatch = checkBounds(stencil);
  if (!checkReadExtents() || !boundsMatch || (timeLoop.stmt && !checkTimeLoop(stencil))) {
    return std::nullopt;
  }

  for (unsigned axis = 0; axis < axisVars.size(); ++axis) {
    stencil.indexNames[axis] = axisVars[axis]->getName().str();
  }
  PresumedLoc where = sourceManager.getPresumedLoc(nest.loop->getForLoc());
  stencil.origin = std::string(where.getFilename()) + ":" + str(where.getLine());
  auto pointAt = [&](clang::SourceLocation loc) {
    PresumedLoc presumed = sourceManager.getPresumedLoc(sourceManager.getExpansionLoc(loc));
    return presumed.isValid()
               ? SourcePoint{presumed.getFilename(), presumed.getLine(), presumed.getColumn()}
               : SourcePoint{};
  };
  stencil.pragmaAt = pointAt(nest.pragma->loc);
  stencil.updateAt = pointAt(assignment->getBeginLoc());
  stencil.functionName = nest.function ? nest.function->getNameAsString() : "";
  stencil.outputArray = output->getName().str();
  return stencil;
}

} // namespace detail

std::optional<TranslatedStencil> recogniseNest(const MarkedNest &nest, clang::ASTContext &context) {
  return detail::NestRecogniser(nest, context).run();
}

} // namespace stencilc::cfront
