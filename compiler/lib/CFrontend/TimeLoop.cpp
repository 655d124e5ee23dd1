//===- TimeLoop.cpp - A time loop around the nest --------------------------===//
//
// The pragma may mark a time loop around the nest, which is what NAME_run
// runs:
//
//   for (int t = 0; t < steps; ++t) {
//     for (i ...) for (j ...) unew[i][j] = ... u ... uprev ... amp[t] * src[i][j];
//     for (int k = 0; k < nsrc; ++k) unew[sy[k]][sx[k]] += a[t][k];   // optional
//     for (int k = 0; k < nrec; ++k) rec[t][k] = unew[ry[k]][rx[k]];   // optional
//     tmp = uprev; uprev = u; u = unew; unew = tmp;                    // the rotation
//   }
//
// (in C++ the rotation may swap, `std::swap(uprev, u); std::swap(u, unew);`).
//
// The nest is one step, `amp[t]` a per-step parameter (`param amp per
// step;`), the source loop `source u;`, the receiver loop `record u;`, and
// the rotation names the time
// levels: two (`u` is stepped) or three (`time uprev, u;`). The rotation is
// simulated on the pointers, so only one that makes the next step read what
// this one wrote, and keeps every other array, is accepted; anything else in
// the body is refused at its statement.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <map>

#include "CDiagnostics.h"
#include "NestRecogniser.h"

namespace stencilc::cfront::detail {

using namespace clang;

namespace {

bool isVarRef(const Expr *expr, const VarDecl *var) {
  const auto *ref = dyn_cast<DeclRefExpr>(expr->IgnoreParenImpCasts());
  return ref && ref->getDecl() == var;
}

bool mentions(const Stmt *stmt, const VarDecl *var) {
  return refersTo(stmt, [var](const VarDecl *v) { return v == var; });
}

/// The variable whose buffer `var` holds after a rotation's steps
/// (`holds`, var -> the variable whose buffer it took): its own where none.
const VarDecl *heldBy(const std::map<const VarDecl *, const VarDecl *> &holds, const VarDecl *var) {
  auto it = holds.find(var);
  return it == holds.end() ? var : it->second;
}

/// A call of a function named `swap` with two arguments, the function
/// (std::swap or any other), or null.
const FunctionDecl *swapCallee(const Stmt *stmt) {
  const auto *call = dyn_cast<CallExpr>(stmt);
  const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  return callee && !isa<CXXMethodDecl>(callee) && callee->getIdentifier() &&
                 callee->getName() == "swap" && call->getNumArgs() == 2
             ? callee
             : nullptr;
}

/// A plain name of a pointer variable (`u`, `(u)`), or null.
const VarDecl *pointerVariable(const Expr *expr) {
  const auto *ref = dyn_cast<DeclRefExpr>(expr->IgnoreParens());
  const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  return var && var->getType()->isPointerType() ? var : nullptr;
}

/// One statement of a rotation: `to = from;` or `T *to = from;` between
/// pointer variables, where `to` takes the buffer of `from`, or in C++
/// `std::swap(to, from);` (or `swap(to, from)` after `using std::swap;`),
/// where the two exchange theirs.
struct RotationStep {
  const VarDecl *to;
  const VarDecl *from;
  bool swap;
};

/// The rotation step `stmt` is; nothing for any other statement.
std::optional<RotationStep> rotationStep(const Stmt *stmt) {
  if (const FunctionDecl *callee = swapCallee(stmt)) {
    const auto *call = cast<CallExpr>(stmt);
    const VarDecl *a = pointerVariable(call->getArg(0));
    const VarDecl *b = pointerVariable(call->getArg(1));
    if (!callee->isInStdNamespace() || !a || !b) {
      return std::nullopt;
    }
    return RotationStep{a, b, true};
  }
  const VarDecl *to = nullptr;
  const Expr *from = nullptr;
  if (const auto *decl = dyn_cast<DeclStmt>(stmt); decl && decl->isSingleDecl()) {
    to = dyn_cast<VarDecl>(decl->getSingleDecl());
    from = to ? to->getInit() : nullptr;
  } else if (const auto *assign = dyn_cast<BinaryOperator>(stmt);
             assign && assign->getOpcode() == BO_Assign) {
    const auto *ref = dyn_cast<DeclRefExpr>(assign->getLHS()->IgnoreParens());
    to = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    from = assign->getRHS();
  }
  const auto *source = from ? dyn_cast<DeclRefExpr>(from->IgnoreParenImpCasts()) : nullptr;
  const auto *fromVar = source ? dyn_cast<VarDecl>(source->getDecl()) : nullptr;
  if (!to || !fromVar || !to->getType()->isPointerType()) {
    return std::nullopt;
  }
  return RotationStep{to, fromVar, false};
}

/// `using std::swap;` or `using namespace std;`: names for the rotation,
/// no code.
bool isUsing(const Stmt *stmt) {
  const auto *decl = dyn_cast<DeclStmt>(stmt);
  return decl && std::all_of(decl->decl_begin(), decl->decl_end(),
                             [](const Decl *d) { return isa<UsingDecl, UsingDirectiveDecl>(d); });
}

/// The one statement of a loop's body, braces stripped; null where there
/// are several or none.
const Stmt *singleStatement(const Stmt *body) {
  while (const auto *block = dyn_cast_or_null<CompoundStmt>(body)) {
    body = block->size() == 1 ? block->body_front() : nullptr;
  }
  return body;
}

/// `a[..] = ...` or `a[..] += ...`: the assignment, or null.
const BinaryOperator *assignmentIn(const Stmt *stmt) {
  const auto *expr = dyn_cast_or_null<Expr>(stmt);
  const auto *op = expr ? dyn_cast<BinaryOperator>(expr->IgnoreParens()) : nullptr;
  return op && op->isAssignmentOp() ? op : nullptr;
}

/// The variable a subscript chain (`a[i][j]`) starts from, or null.
const VarDecl *subscriptBase(const Expr *expr) {
  std::vector<const Expr *> indices;
  const auto *ref = dyn_cast<DeclRefExpr>(splitSubscripts(expr, indices)->IgnoreParenImpCasts());
  return !indices.empty() && ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

/// Makes field `f` the first, with its name among the C arrays: NAME_run
/// without time levels steps the first input field.
void moveFieldFirst(StencilSpec &spec, std::vector<std::string> &arrayNames, int f) {
  auto position = [f](int field) { return field == f ? 0 : field < f ? field + 1 : field; };
  std::rotate(spec.fields.begin(), spec.fields.begin() + f, spec.fields.begin() + f + 1);
  std::rotate(arrayNames.begin(), arrayNames.begin() + f, arrayNames.begin() + f + 1);
  for (FieldTerm &term : spec.fieldTerms) {
    term.field = position(term.field);
    if (term.coefficientField >= 0) {
      term.coefficientField = position(term.coefficientField);
    }
  }
  sortFieldTerms(spec.fieldTerms);
}

} // namespace

// --- The loop and its counter ----------------------------------------------------

/// time-loop ::= 'for' '(' int t '=' 0 ';' t '<' steps ';' '++' t ')'
///               '{' nest source-loop? receiver-loop? rotation '}'
/// A nest's loop holds one statement, so a body of several, the first a
/// loop, is a time loop's.
bool NestRecogniser::collectTimeLoop() {
  nestStart = nest.loop;
  const auto *block = dyn_cast<CompoundStmt>(nest.loop->getBody());
  if (!block || block->size() < 2 || !isa<ForStmt>(block->body_front())) {
    return true;
  }
  if (!recogniseLoop(nest.loop, timeLoop) || !checkTimeCounter()) {
    return false;
  }
  nestStart = block->body_front();
  afterNest.assign(std::next(block->body_begin()), block->body_end());
  // Pointer assignments nested in other statements (`if (...) { u = unew; }`)
  // too: those statements are refused themselves, not as changes of the
  // parameters.
  llvm::SmallVector<const Stmt *, 16> pending(afterNest.begin(), afterNest.end());
  while (!pending.empty()) {
    const Stmt *stmt = pending.pop_back_val();
    if (stmt && rotationStep(stmt)) {
      rotation.insert(stmt);
    } else if (stmt) {
      pending.append(stmt->child_begin(), stmt->child_end());
    }
  }
  return true;
}

/// Iteration t is step t of NAME_run, whose per-step values are `amp[t]`:
/// the counter starts at 0 and runs to the number of steps, a variable or a
/// constant.
bool NestRecogniser::checkTimeCounter() {
  const VarDecl *t = timeLoop.var;
  std::optional<CValue> start = foldQuietly(timeLoop.lower);
  if (!start || start->isFloat || start->integer != 0) {
    reportError(diags, timeLoop.lower->getBeginLoc(),
                "the time loop over '%0' starts at '%1', but it must start at 0: its iteration "
                "%0 is step %0 of NAME_run, whose per-step values are 'amp[%0]'")
        << t->getName() << text(timeLoop.lower) << timeLoop.lower->getSourceRange();
    return false;
  }
  const auto *cond = dyn_cast<BinaryOperator>(timeLoop.condition);
  const Expr *steps = timeLoop.upper->IgnoreParenImpCasts();
  const auto *named = dyn_cast<DeclRefExpr>(steps);
  std::optional<CValue> constant = foldQuietly(steps);
  if (!cond || (cond->getOpcode() != BO_LT && cond->getOpcode() != BO_GT) ||
      !((named && isa<VarDecl>(named->getDecl())) || (constant && !constant->isFloat))) {
    reportError(diags, timeLoop.condition->getBeginLoc(),
                "unsupported time loop condition '%0': a time loop runs 'for (int %1 = 0; %1 < "
                "steps; ++%1)', to a variable or a constant, the number of steps NAME_run takes")
        << text(timeLoop.condition) << t->getName() << timeLoop.condition->getSourceRange();
    return false;
  }
  return true;
}

// --- Per-step parameters -----------------------------------------------------------

bool NestRecogniser::indexedByTime(const Expr *read) const {
  std::vector<const Expr *> indices;
  splitSubscripts(read, indices);
  return std::any_of(indices.begin(), indices.end(),
                     [this](const Expr *index) { return mentions(index, timeLoop.var); });
}

/// per-step ::= array '[' t ']', a one-dimensional array of float or double
/// whose element t is the value during step t: `param NAME per step;`.
std::optional<Form> NestRecogniser::analysePerStep(const Expr *read) {
  if (quiet) {
    return std::nullopt; // never a constant
  }
  const VarDecl *t = timeLoop.var;
  std::vector<const Expr *> indices;
  const Expr *base = splitSubscripts(read, indices);
  if (indices.size() != 1 || !isVarRef(indices[0], t)) {
    const Expr *index = *std::find_if(indices.begin(), indices.end(),
                                      [t](const Expr *i) { return mentions(i, t); });
    reportError(diags, index->getBeginLoc(),
                "the time loop's counter '%0' may only index a per-step array alone, as in "
                "'amp[%0]' (a one-dimensional float or double array, element %0 the value "
                "during step %0), not '%1'")
        << t->getName() << text(read) << index->getSourceRange();
    return std::nullopt;
  }
  const VarDecl *array = arrayOf(base, "per-step array");
  if (!array) {
    return std::nullopt;
  }
  QualType type = read->getType();
  if (!type->isRealFloatingType() || context.getTypeSize(type) > 64) {
    reportError(diags, read->getBeginLoc(),
                "'%0' is a '%1': a per-step array is one-dimensional, of float or double "
                "values, one a step")
        << text(read) << type.getAsString() << read->getSourceRange();
    return std::nullopt;
  }
  if (array == output || std::find(arrays.begin(), arrays.end(), array) != arrays.end()) {
    reportError(diags, base->getBeginLoc(),
                "'%0' is read as a per-step value ('%1') and as an array of the nest; a "
                "per-step array holds one value a step")
        << array->getName() << text(read) << read->getSourceRange();
    return std::nullopt;
  }
  if (!checkDistinct(array, base->getBeginLoc())) {
    return std::nullopt;
  }
  perStepArrays.insert(array);
  return analyseParameter(array);
}

// --- The body after the nest ---------------------------------------------------------

/// The words of the messages about a loop over a list of points after the
/// nest: the source loop adds each step's amplitudes to the level written,
/// the receiver loop records it.
struct PointLoop {
  const char *word;       ///< "source": "the source loop", "the sources"
  const char *count;      ///< the count in the examples, "nsrc"
  const char *coordinate; ///< the coordinates' first letter, "s" in "sx[k]"
  const char *access;     ///< what the loop does at the points, "write"
  const char *doing;      ///< what it does to the level the nest wrote, "adding to"
  const char *table;      ///< the array of steps x count in the examples, "amp"
  const char *tableWord;  ///< what it holds, "amplitudes"
  const char *tableEntry; ///< what the loop does with it, "add the amplitude"
  const char *otherTable; ///< what the other loop's holds, "records"
  const char *tableUse;   ///< how NAME_run takes a step's row, "reads the amplitudes"
  const char *apiTable;   ///< NAME_run's arguments, "amplitudes", "source_count"
  const char *apiCount;
  const char *typeReason; ///< why the table has the level's element type
};

namespace {

constexpr PointLoop Sources{"source",
                            "nsrc",
                            "s",
                            "write",
                            "adding to",
                            "amp",
                            "amplitudes",
                            "add the amplitude",
                            "records",
                            "reads the amplitudes",
                            "amplitudes",
                            "source_count",
                            "NAME_run rounds each amplitude to the field's type and adds in that "
                            "type, as C does only for amplitudes of that type"};
constexpr PointLoop Receivers{"receiver",
                              "nrec",
                              "r",
                              "read",
                              "recording",
                              "rec",
                              "records",
                              "write the record",
                              "amplitudes",
                              "writes the records",
                              "records",
                              "receiver_count",
                              "NAME_run records the values in the type of the field"};

} // namespace

std::string NestRecogniser::pointLoopForm(const PointLoop &kind) const {
  std::string level = output->getName().str();
  for (size_t axis = 3 - loops.size(); axis < 3; ++axis) {
    level.append("[").append(kind.coordinate).append(1, "zyx"[axis]).append("[k]]");
  }
  const std::string t = timeLoop.var->getName().str();
  const std::string table = std::string(kind.table) + "[" + t + "][k]";
  return "for (int k = 0; k < " + std::string(kind.count) + "; ++k) " +
         (&kind == &Sources ? level + " += " + table : table + " = " + level) + ";";
}

std::string NestRecogniser::rotationHint() const {
  const std::string n = output->getName().str();
  const std::string c = arrays.front()->getName().str();
  if (context.getLangOpts().CPlusPlus) {
    return "'std::swap(" + c + ", " + n + ");' (two time levels) or 'std::swap(PREV, " + c +
           "); std::swap(" + c + ", " + n + ");' (three, PREV the level before '" + c +
           "'), or the same with pointer assignments, 'tmp = " + c + "; " + c + " = " + n + "; " +
           n + " = tmp;'";
  }
  return "'tmp = " + c + "; " + c + " = " + n + "; " + n + " = tmp;' (two time levels) or " +
         "'tmp = PREV; PREV = " + c + "; " + c + " = " + n + "; " + n +
         " = tmp;' (three, PREV the level before '" + c + "')";
}

/// body ::= nest source-loop? receiver-loop? rotation, the rotation's
/// statements last.
bool NestRecogniser::checkTimeLoop(TranslatedStencil &stencil) {
  stencil.timeLoop = true;
  bool ok = true;
  bool rotating = false;
  for (const Stmt *stmt : afterNest) {
    const auto *loop = dyn_cast<ForStmt>(stmt);
    if (rotation.contains(stmt)) {
      rotating = true;
    } else if (isUsing(stmt)) {
      continue;
    } else if (loop && rotating) {
      const BinaryOperator *op = assignmentIn(singleStatement(loop->getBody()));
      const PointLoop &kind = op && subscriptBase(op->getLHS()) == output ? Sources : Receivers;
      reportError(diags, loop->getForLoc(),
                  "a loop after the rotation of the buffers: the %0 loop comes before it, %1 "
                  "the level the nest wrote to '%2'")
          << kind.word << kind.doing << output->getName();
      ok = false;
    } else if (loop) {
      ok &= checkBodyLoop(loop, stencil);
    } else {
      reportBodyStatement(stmt);
      ok = false;
    }
  }
  return ok && checkRotation(stencil); // a refused statement may be a rotation's part
}

/// A loop after the nest: the source loop, which adds to the level written
/// (`unew[sy[k]][sx[k]] += amp[t][k]`), or the receiver loop, in this order.
bool NestRecogniser::checkBodyLoop(const ForStmt *loop, TranslatedStencil &stencil) {
  const BinaryOperator *op = assignmentIn(singleStatement(loop->getBody()));
  if (op && subscriptBase(op->getLHS()) == output) {
    if (!recogniseSources(loop, op)) {
      return false;
    }
    stencil.spec.injectsSources = true;
    return true;
  }
  if (!op || op->getOpcode() != BO_Assign) {
    reportError(diags, op ? op->getOperatorLoc() : loop->getBody()->getBeginLoc(),
                "unsupported loop in a time loop: a loop after the nest adds point sources, "
                "'%0', or records receivers, '%1'")
        << pointLoopForm(Sources) << pointLoopForm(Receivers);
    return false;
  }
  if (recordsSeen) {
    reportError(diags, loop->getForLoc(),
                "a second receiver loop: NAME_run records one list of receivers");
    return false;
  }
  recordsSeen = true;
  if (!recogniseReceivers(loop, op)) {
    return false;
  }
  stencil.spec.recordsReceivers = true;
  return true;
}

/// A statement of the body that is no loop and no rotation step, with the
/// reason where it is a known one.
void NestRecogniser::reportBodyStatement(const Stmt *stmt) {
  const BinaryOperator *op = assignmentIn(stmt);
  const VarDecl *written = op ? subscriptBase(op->getLHS()) : nullptr;
  if (written && written == output) {
    reportError(diags, op->getBeginLoc(),
                "'%0' changes the level the nest wrote outside a loop: a point source is a "
                "loop over a list of sources, of one here, '%1'")
        << text(op) << pointLoopForm(Sources) << op->getSourceRange();
  } else if (written && perStepArrays.count(written)) {
    reportError(diags, op->getBeginLoc(),
                "the time loop writes the per-step array '%0': NAME_run takes its values "
                "before the first step, so set them before the loop")
        << written->getName() << op->getSourceRange();
  } else if (const FunctionDecl *callee = swapCallee(stmt)) {
    reportSwap(cast<CallExpr>(stmt), callee);
  } else if (isa<IfStmt, SwitchStmt, ConditionalOperator>(stmt)) {
    reportError(diags, stmt->getBeginLoc(),
                "a conditional in a time loop is not accepted: every step of NAME_run runs "
                "the nest, adds the sources, records the receivers and rotates the buffers");
  } else {
    reportError(diags, stmt->getBeginLoc(),
                "unsupported statement in a '#pragma stencil' time loop: its body is the loop "
                "nest, optionally a source loop '%0', optionally a receiver loop '%1', then the "
                "rotation of the buffers, %2")
        << pointLoopForm(Sources) << pointLoopForm(Receivers) << rotationHint()
        << stmt->getSourceRange();
  }
}

/// A call of `swap` that is no rotation step: another function than
/// std::swap, whose effect on the pointers is unknown, or std::swap of
/// something else than two pointer variables.
void NestRecogniser::reportSwap(const CallExpr *call, const FunctionDecl *callee) {
  const std::string example =
      "std::swap(" + arrays.front()->getName().str() + ", " + output->getName().str() + ")";
  if (!callee->isInStdNamespace()) {
    reportError(diags, call->getBeginLoc(),
                "this 'swap' is '%0', not std::swap: a rotation exchanges pointers with "
                "'%1' (or 'swap' after 'using std::swap;'), whose effect stencilc knows")
        << callee->getQualifiedNameAsString() << example << call->getSourceRange();
    reportNote(diags, callee->getLocation(), "'%0' is declared here")
        << callee->getQualifiedNameAsString();
    return;
  }
  const Expr *arg = pointerVariable(call->getArg(0)) ? call->getArg(1) : call->getArg(0);
  reportError(diags, arg->getBeginLoc(),
              "std::swap in a rotation exchanges two pointer variables, as '%0', not '%1' "
              "(a '%2')")
      << example << text(arg) << arg->getType().getAsString() << arg->getSourceRange();
}

// --- Sources and receivers ---------------------------------------------------------------

/// sources ::= 'for' '(' int k '=' 0 ';' k '<' count ';' '++' k ')'
///             written '[' sy '[' k ']' ']' ... '+=' amplitudes '[' t ']' '[' k ']'
/// NAME_run adds the sources after the nest, before it records the
/// receivers.
bool NestRecogniser::recogniseSources(const ForStmt *loop, const BinaryOperator *op) {
  if (op->getOpcode() != BO_AddAssign) {
    reportSourceOperator(op);
    return false;
  }
  if (recordsSeen || sourcesSeen) {
    reportError(diags, loop->getForLoc(), "%0")
        << (recordsSeen ? "a source loop after the receiver loop: NAME_run adds the sources to "
                          "the level the nest wrote, then records the receivers, so the source "
                          "loop comes first"
                        : "a second source loop: NAME_run adds one list of sources");
    return false;
  }
  sourcesSeen = true;
  Loop source;
  if (!recognisePointLoop(loop, source, Sources)) {
    return false;
  }
  const bool coordinates = checkCoordinates(op->getLHS(), source, Sources);
  return checkStepTable(op->getRHS(), source, Sources) && coordinates;
}

/// A source loop that does not add with `+=`: `unew[..] = unew[..] + a`
/// is one, written otherwise.
void NestRecogniser::reportSourceOperator(const BinaryOperator *op) {
  const auto *sum = dyn_cast<BinaryOperator>(op->getRHS()->IgnoreParenImpCasts());
  const std::string target = text(op->getLHS());
  if (op->getOpcode() == BO_Assign && sum && sum->getOpcode() == BO_Add &&
      (text(sum->getLHS()) == target || text(sum->getRHS()) == target)) {
    const Expr *added = text(sum->getLHS()) == target ? sum->getRHS() : sum->getLHS();
    reportError(diags, op->getOperatorLoc(),
                "write the point source as '%0 += %1': a source loop adds with '+='")
        << target << text(added) << op->getSourceRange();
    return;
  }
  reportError(diags, op->getOperatorLoc(),
              "a loop that writes '%0', the level the nest wrote, is a source loop, which adds "
              "with '+=': '%1'")
      << output->getName() << pointLoopForm(Sources) << op->getSourceRange();
}

/// receivers ::= 'for' '(' int k '=' 0 ';' k '<' count ';' '++' k ')'
///               records '[' t ']' '[' k ']' '=' written '[' ry '[' k ']' ']' ...
bool NestRecogniser::recogniseReceivers(const ForStmt *loop, const BinaryOperator *op) {
  Loop receiver;
  if (!recognisePointLoop(loop, receiver, Receivers)) {
    return false;
  }
  const bool target = checkStepTable(op->getLHS(), receiver, Receivers);
  return checkReceiverRead(op->getRHS(), receiver) && target;
}

bool NestRecogniser::recognisePointLoop(const ForStmt *loop, Loop &result, const PointLoop &kind) {
  if (!recogniseLoop(loop, result)) {
    return false;
  }
  std::optional<CValue> start = foldQuietly(result.lower);
  const auto *cond = dyn_cast<BinaryOperator>(result.condition);
  if (!start || start->isFloat || start->integer != 0 || !cond ||
      (cond->getOpcode() != BO_LT && cond->getOpcode() != BO_GT) ||
      mentions(result.upper, timeLoop.var)) {
    reportError(diags, loop->getForLoc(),
                "the %0 loop must run over the %0s from 0, 'for (int %1 = 0; %1 < %2; ++%1)'")
        << kind.word << result.var->getName() << kind.count;
    return false;
  }
  return true;
}

/// table ::= rec '[' t ']' '[' k ']' | rec '[' t '*' count '+' k ']': the
/// record (amplitude) of step t and point k, where NAME_run keeps it.
bool NestRecogniser::checkStepTable(const Expr *access, const Loop &points, const PointLoop &kind) {
  std::vector<const Expr *> indices;
  access = access->IgnoreParenImpCasts();
  const Expr *base = splitSubscripts(access, indices);
  const VarDecl *t = timeLoop.var, *k = points.var;
  std::optional<Polynomial> count = expandIndex(points.upper, 0, /*sizeCasts=*/true);
  bool shaped = indices.size() == 2 && isVarRef(indices[0], t) && isVarRef(indices[1], k);
  if (indices.size() == 1 && count) {
    Polynomial want{{Monomial{k}, 1}};
    for (const auto &[product, c] : *count) {
      Monomial monomial = product;
      monomial.push_back(t);
      std::sort(monomial.begin(), monomial.end());
      want[monomial] += c;
    }
    shaped = expandIndex(indices[0]) == want;
  }
  if (!shaped) {
    reportError(diags, access->getBeginLoc(),
                "the %0 loop must %1 of step '%2' and %0 '%3', '%4[%2][%3]' (or flattened, "
                "'%4[%2 * %5 + %3]'), not '%6'")
        << kind.word << kind.tableEntry << t->getName() << k->getName() << kind.table
        << text(points.upper) << text(access) << access->getSourceRange();
    return false;
  }
  const std::string role = std::string("array of ") + kind.tableWord;
  const VarDecl *table = arrayOf(base, role.c_str());
  if (!table) {
    return false;
  }
  if (table == output || std::find(arrays.begin(), arrays.end(), table) != arrays.end() ||
      perStepArrays.count(table) || stepTables.count(table)) {
    reportError(diags, base->getBeginLoc(),
                "'%0' holds the %1, so it must be an array of its own, not one the nest reads "
                "or writes, nor the %2")
        << table->getName() << kind.tableWord << kind.otherTable << access->getSourceRange();
    return false;
  }
  QualType element = context.getCanonicalType(access->getType()).getUnqualifiedType();
  if (element != context.getCanonicalType(outputElement)) {
    reportError(diags, base->getBeginLoc(), "the %0 in '%1' are '%2', but '%3' holds '%4': %5")
        << kind.tableWord << table->getName() << access->getType().getAsString()
        << output->getName() << outputElement.getAsString() << kind.typeReason
        << access->getSourceRange();
    return false;
  }
  stepTables.insert(table);
  pointArrays.insert(table);
  return indices.size() == 1 || checkTableRows(table, access, *count, kind);
}

/// NAME_run's records (amplitudes) are one array of steps x count, those
/// of step s at `records + s * count`: `rec[t][k]` is that where rec's rows
/// are `count` long.
bool NestRecogniser::checkTableRows(const VarDecl *table, const Expr *access,
                                    const Polynomial &count, const PointLoop &kind) {
  QualType type = table->getType();
  if (const auto *param = dyn_cast<ParmVarDecl>(table)) {
    type = param->getOriginalType(); // `double rec[steps][nrec]` before it decays
  }
  type = type.getNonReferenceType();
  QualType row;
  if (const ArrayType *outer = context.getAsArrayType(type)) {
    row = outer->getElementType();
  } else if (type->isPointerType()) {
    row = type->getPointeeType();
  }
  const ArrayType *rowType = row.isNull() ? nullptr : context.getAsArrayType(row);
  std::optional<Polynomial> length;
  if (const auto *constant = dyn_cast_or_null<ConstantArrayType>(rowType)) {
    length = plus({}, constant->getSize().getSExtValue());
  } else if (const auto *variable = dyn_cast_or_null<VariableArrayType>(rowType)) {
    length = variable->getSizeExpr() ? expandIndex(variable->getSizeExpr(), 0, true) : std::nullopt;
  }
  if (length == count) {
    return true;
  }
  reportError(diags, access->getBeginLoc(),
              "the rows of '%0' ('%1') must be as long as the %2 loop runs, '%3': NAME_run %4 "
              "of step s at '%5 + s * %6'")
      << table->getName() << table->getType().getAsString() << kind.word << spell(count)
      << kind.tableUse << kind.apiTable << kind.apiCount << access->getSourceRange();
  return false;
}

/// read ::= written '[' ry '[' k ']' ']' '[' rx '[' k ']' ']': the level the
/// nest wrote this step, at the receiver's coordinates.
bool NestRecogniser::checkReceiverRead(const Expr *read, const Loop &receiver) {
  std::vector<const Expr *> indices;
  read = read->IgnoreParenImpCasts();
  const Expr *base = splitSubscripts(read, indices);
  if (indices.empty() || !isVarRef(base, output)) {
    reportError(diags, read->getBeginLoc(),
                "the receiver loop must record '%0', the level the nest wrote in this step: "
                "'%1'")
        << output->getName() << pointLoopForm(Receivers) << read->getSourceRange();
    return false;
  }
  return checkCoordinates(read, receiver, Receivers);
}

/// The written level at the points' coordinates, one integer array an
/// axis indexed by the points' counter.
bool NestRecogniser::checkCoordinates(const Expr *access, const Loop &points,
                                      const PointLoop &kind) {
  std::vector<const Expr *> indices;
  access = access->IgnoreParenImpCasts();
  splitSubscripts(access, indices);
  if (!flatStrides.empty() || indices.size() != loops.size()) {
    reportError(diags, access->getBeginLoc(),
                "the %0 %1 must index '%2' with one array of coordinates an axis, '%3'%4")
        << kind.word << kind.access << output->getName() << pointLoopForm(kind)
        << (flatStrides.empty()
                ? ""
                : " (" + std::string(kind.word) + "s of a flattened nest are not accepted yet)")
        << access->getSourceRange();
    return false;
  }
  for (const Expr *index : indices) {
    const auto *coordinate = dyn_cast<ArraySubscriptExpr>(index->IgnoreParenImpCasts());
    const VarDecl *array = coordinate ? subscriptBase(coordinate) : nullptr;
    if (!array || !isVarRef(coordinate->getIdx(), points.var) ||
        !coordinate->getType()->isIntegerType()) {
      reportError(diags, index->getBeginLoc(),
                  "an index of the %0 %1 must be an integer array of coordinates at '%2', as "
                  "in '%3x[%2]', not '%4'")
          << kind.word << kind.access << points.var->getName() << kind.coordinate << text(index)
          << index->getSourceRange();
      return false;
    }
    pointArrays.insert(array);
  }
  return true;
}

// --- The rotation ------------------------------------------------------------------------

/// The rotation, simulated on the pointers: afterwards the array the nest
/// reads as its current level must hold the buffer just written, and the
/// written array one the next step may overwrite: the current level's (two
/// levels), or the previous level's, which then holds the current one
/// (three levels). Every other array the time loop reads keeps its buffer.
bool NestRecogniser::checkRotation(TranslatedStencil &stencil) {
  std::map<const VarDecl *, const VarDecl *> holds;
  auto valueOf = [&holds](const VarDecl *var) { return heldBy(holds, var); };
  const Stmt *first = nullptr;
  for (const Stmt *stmt : afterNest) {
    if (rotation.contains(stmt)) {
      const RotationStep step = *rotationStep(stmt);
      const VarDecl *given = valueOf(step.from), *taken = valueOf(step.to);
      holds[step.to] = given;
      if (step.swap) {
        holds[step.from] = taken;
      }
      first = first ? first : stmt;
    }
  }
  const VarDecl *current = nullptr;
  for (const VarDecl *array : arrays) {
    current = !current && valueOf(array) == output ? array : current;
  }
  const VarDecl *freed = valueOf(output);
  const bool read = std::find(arrays.begin(), arrays.end(), freed) != arrays.end();
  const VarDecl *previous =
      current && freed != current && read && valueOf(freed) == current ? freed : nullptr;
  if (!current || (freed != current && !previous)) {
    reportRotation(first, holds);
    return false;
  }
  for (const auto &[var, buffer] : holds) {
    const bool level = var == output || var == current || var == previous;
    if (buffer != var && !level &&
        (std::find(arrays.begin(), arrays.end(), var) != arrays.end() || perStepArrays.count(var) ||
         pointArrays.count(var))) {
      reportError(diags, first->getBeginLoc(),
                  "the rotation changes '%0', which the time loop reads; only the arrays of "
                  "the time levels rotate")
          << var->getName();
      return false;
    }
  }
  return applyRotation(current, previous, stencil);
}

/// A rotation that does not make the next step read what this one wrote,
/// or none at all: says what each array of the nest holds after it.
void NestRecogniser::reportRotation(const Stmt *first,
                                    const std::map<const VarDecl *, const VarDecl *> &holds) {
  auto valueOf = [&holds](const VarDecl *var) { return heldBy(holds, var); };
  if (!first) {
    const auto *block = cast<CompoundStmt>(timeLoop.stmt->getBody());
    reportError(diags, block->getRBracLoc(),
                "the time loop does not rotate its buffers, so every step would read the same "
                "arrays; end its body with %0")
        << rotationHint();
    return;
  }
  std::string state;
  for (const VarDecl *var : arrays) {
    if (valueOf(var) != var) {
      state += (state.empty() ? "'" : ", '") + var->getName().str() + "' holds what was '" +
               valueOf(var)->getName().str() + "'";
    }
  }
  state +=
      (state.empty() ? "'" : ", '") + output->getName().str() +
      (valueOf(output) == output ? "' keeps its own"
                                 : "' holds what was '" + valueOf(output)->getName().str() + "'");
  reportError(diags, first->getBeginLoc(),
              "after this rotation %0: the next step must read what this one wrote to '%1', "
              "and write over a level it no longer reads; the rotation is %2")
      << state << output->getName() << rotationHint();
}

bool NestRecogniser::isInputArray(const VarDecl *array, const StencilSpec &spec) const {
  const size_t a = std::find(arrays.begin(), arrays.end(), array) - arrays.begin();
  return !spec.hasFields() || spec.fields[a].role == FieldRole::Input;
}

/// The time levels in the spec: `time PREVIOUS, CURRENT;` for three, and
/// for two, the current level as the first field, which NAME_run steps.
bool NestRecogniser::applyRotation(const VarDecl *current, const VarDecl *previous,
                                   TranslatedStencil &stencil) {
  StencilSpec &spec = stencil.spec;
  for (const VarDecl *level : {current, previous}) {
    if (level && !isInputArray(level, spec)) {
      const Expr *read =
          firstReads[std::find(arrays.begin(), arrays.end(), level) - arrays.begin()];
      reportError(diags, read->getBeginLoc(),
                  "'%0' is a time level of the rotation, but the nest reads it only as a "
                  "coefficient array; a time level is read alone in some term")
          << level->getName() << read->getSourceRange();
      return false;
    }
  }
  auto indexOf = [this](const VarDecl *array) {
    return static_cast<int>(std::find(arrays.begin(), arrays.end(), array) - arrays.begin());
  };
  if (previous) {
    spec.previousField = indexOf(previous);
    spec.steppedField = indexOf(current);
  } else if (spec.hasFields() && indexOf(current) != 0) {
    moveFieldFirst(spec, stencil.inputArrays, indexOf(current));
  }
  return true;
}

} // namespace stencilc::cfront::detail
