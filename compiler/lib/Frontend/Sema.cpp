//===- Sema.cpp - From syntax trees to StencilSpecs -----------------------===//
//
// Coefficients are folded in IEEE quad precision (113-bit significand) from
// the decimal text of the literals, so `0.1 + 0.2` folds to the double
// nearest 0.3, and each coefficient is rounded once to double at the end.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Sema.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/Error.h"

#include "stencilc/Parser.h"

namespace stencilc {
namespace {

using llvm::APFloat;
using llvm::SMLoc;

const llvm::fltSemantics &quad() { return APFloat::IEEEquad(); }

double toDouble(const APFloat &value) {
  APFloat copy = value;
  bool losesInfo = false;
  copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return copy.convertToDouble();
}

std::string valueText(const APFloat &value) { return formatExact(toDouble(value)); }

/// A read of `in` inside a linear expression: its folded coefficient and
/// where it was first written.
struct Read {
  APFloat coefficient;
  SMLoc loc;
};

/// The value of an expression: a constant, or a linear combination of reads
/// of `in` (never both: a constant term in a linear sum is an error).
struct LinearValue {
  APFloat constant = APFloat::getZero(quad());
  std::map<Offset, Read> reads;
  SMLoc loc;

  bool isConstant() const { return reads.empty(); }
};

/// An index expression of a read, as sum of index names and a constant.
struct IndexForm {
  std::map<std::string, APFloat> names;
  APFloat constant = APFloat::getZero(quad());
};

struct LetConstant {
  APFloat value;
  SMLoc loc;
};

/// Where statements that may appear once were first seen.
struct SeenStatements {
  std::map<Stmt::Kind, SMLoc> first;
  SMLoc body; ///< the update or the weights table
};

std::string_view statementKeyword(Stmt::Kind kind) {
  switch (kind) {
  case Stmt::Kind::Precision:
    return "precision";
  case Stmt::Kind::Boundary:
    return "boundary";
  case Stmt::Kind::Shape:
    return "shape";
  case Stmt::Kind::Radius:
    return "radius";
  case Stmt::Kind::Dims:
    return "dims";
  default:
    return "statement";
  }
}

class StencilChecker {
public:
  StencilChecker(const StencilDecl &decl, DiagnosticEngine &diags) : decl(decl), diags(diags) {}

  /// `line` is the line of the stencil's name.
  std::optional<StencilSpec> check(llvm::StringRef fileName, unsigned line);

private:
  // Statements.
  bool checkOnce(const Stmt &stmt);
  void checkPrecision(const WordStmt &stmt);
  void checkShape(const WordStmt &stmt);
  void checkBoundary(const BoundaryStmt &stmt);
  void checkLet(const LetStmt &stmt);
  void checkInteger(const IntegerStmt &stmt);
  void checkUpdate(const UpdateStmt &stmt);
  void checkWeights(const WeightsStmt &stmt);
  bool checkTableList(const TableList &list, int level, int depth, size_t width, Offset &position);
  void checkDeclarations();
  void finishCoefficients();

  // Expressions.
  std::optional<LinearValue> eval(const Expr &expr);
  std::optional<LinearValue> evalConstantOnly(const Expr &expr, llvm::StringRef what);
  std::optional<LinearValue> evalNumber(const NumberExpr &expr);
  std::optional<LinearValue> evalName(const NameExpr &expr);
  std::optional<LinearValue> evalRead(const ReadExpr &expr);
  std::optional<LinearValue> evalChain(const BinaryExpr &expr);
  bool combine(LinearValue &acc, char op, LinearValue rhs, SMLoc opLoc);
  bool chargeScaling(std::size_t coefficients, SMLoc opLoc);
  std::optional<IndexForm> decomposeIndex(const Expr &expr, unsigned depth);
  std::optional<int> checkIndex(const Expr &expr, unsigned position);
  std::optional<long> foldInteger(const Expr &expr, llvm::StringRef what);
  bool checkFinite(const APFloat &value, SMLoc loc);

  std::string readText(const Offset &offset) const;
  void noteIfDefinedLater(llvm::StringRef name);

  const StencilDecl &decl;
  DiagnosticEngine &diags;
  SeenStatements seen;
  std::map<std::string, LetConstant> lets;
  /// Where each name is first given a 'let' in the body, for noteIfDefinedLater.
  llvm::StringMap<SMLoc> letStatements;
  bool letStatementsIndexed = false;
  std::vector<Identifier> indexNames; ///< of `out`, empty for tables
  bool readsAllowed = false;
  std::string constantContext; ///< what must be constant, when reads are not allowed
  /// Coefficient multiplications and divisions done so far for this stencil:
  /// a product or quotient by a constant scales every coefficient of the
  /// reads it applies to, so a long sum of reads times a long chain of
  /// constants costs reads x factors (chargeScaling bounds it).
  std::size_t scalings = 0;

  // What the statements say.
  StencilSpec spec;
  std::optional<std::pair<Shape, SMLoc>> declaredShape;
  std::optional<std::pair<long, SMLoc>> declaredRadius;
  std::optional<std::pair<long, SMLoc>> declaredDims;
  std::optional<std::pair<int, SMLoc>> bodyDims; ///< and where the body says so
  std::map<Offset, Read> coefficients;
  SMLoc bodyLoc;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

bool StencilChecker::checkFinite(const APFloat &value, SMLoc loc) {
  if (value.isFinite()) {
    return true;
  }
  diags.error(loc, "constant arithmetic overflows");
  return false;
}

void StencilChecker::noteIfDefinedLater(llvm::StringRef name) {
  // Indexed once per stencil: a body of many unknown names stays linear.
  if (!letStatementsIndexed) {
    for (const StmtPtr &stmt : decl.body) {
      if (const auto *let = llvm::dyn_cast<LetStmt>(stmt.get())) {
        letStatements.try_emplace(let->getName().name, let->getLoc());
      }
    }
    letStatementsIndexed = true;
  }
  if (auto it = letStatements.find(name); it != letStatements.end()) {
    diags.note(it->second, fmt::format("'{}' is defined later, here; a 'let' "
                                       "constant must come before its use",
                                       std::string_view(name)));
  }
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
  auto status = v.constant.convertFromString(expr.getText(), APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    diags.error(expr.getLoc(), fmt::format("invalid number {}", quotedNumber(expr.getText())));
    return std::nullopt;
  }
  if (!v.constant.isFinite()) {
    diags.error(expr.getLoc(), fmt::format("number {} is too large", quotedNumber(expr.getText())));
    return std::nullopt;
  }
  if ((*status & APFloat::opUnderflow) && v.constant.isZero()) {
    diags.warning(expr.getLoc(), fmt::format("number {} is too small: it underflows to zero",
                                             quotedNumber(expr.getText())));
  }
  return v;
}

std::optional<LinearValue> StencilChecker::evalName(const NameExpr &expr) {
  llvm::StringRef name = expr.getName();
  if (auto it = lets.find(name.str()); it != lets.end()) {
    LinearValue v;
    v.constant = it->second.value;
    v.loc = expr.getLoc();
    return v;
  }
  for (const Identifier &index : indexNames) {
    if (index.name == name) {
      diags.error(expr.getLoc(), fmt::format("index '{}' cannot be used as a value; indices "
                                             "appear only inside 'in[...]'",
                                             std::string_view(name)));
      return std::nullopt;
    }
  }
  if (name == "in") {
    diags.error(expr.getLoc(), "'in' must be indexed, e.g. 'in[i, j]'");
    return std::nullopt;
  }
  diags.error(expr.getLoc(), fmt::format("unknown name '{}'", std::string_view(name)));
  noteIfDefinedLater(name);
  return std::nullopt;
}

std::optional<IndexForm> StencilChecker::decomposeIndex(const Expr &expr, unsigned depth) {
  // Only operators nest: a leaf just past the limit (the right side of the
  // deepest operator) must not report the same problem a second time.
  if (depth > Parser::MaxNesting &&
      (expr.getKind() == Expr::Kind::Unary || expr.getKind() == Expr::Kind::Binary)) {
    diags.error(expr.getLoc(), "index expression is too complex");
    return std::nullopt;
  }
  switch (expr.getKind()) {
  case Expr::Kind::Number: {
    auto value = evalNumber(llvm::cast<NumberExpr>(expr));
    if (!value) {
      return std::nullopt;
    }
    IndexForm form;
    form.constant = value->constant;
    return form;
  }
  case Expr::Kind::Name: {
    const auto &nameExpr = llvm::cast<NameExpr>(expr);
    std::string name = nameExpr.getName().str();
    IndexForm form;
    if (auto it = lets.find(name); it != lets.end()) {
      form.constant = it->second.value;
      return form;
    }
    for (const Identifier &index : indexNames) {
      if (index.name == name) {
        form.names.emplace(name, APFloat::getOne(quad()));
        return form;
      }
    }
    diags.error(expr.getLoc(), fmt::format("offset must be a constant integer, found '{}'", name));
    std::string list;
    for (const Identifier &index : indexNames) {
      list += (list.empty() ? "" : ", ") + index.name;
    }
    diags.note(expr.getLoc(), fmt::format("'{}' is neither an index of out[{}] nor a "
                                          "'let' constant",
                                          name, list));
    noteIfDefinedLater(name);
    return std::nullopt;
  }
  case Expr::Kind::Read:
    diags.error(expr.getLoc(), "offset must be a constant integer, found a read of a grid");
    return std::nullopt;
  case Expr::Kind::Unary: {
    const auto &unary = llvm::cast<UnaryExpr>(expr);
    auto form = decomposeIndex(unary.getOperand(), depth + 1);
    if (form && unary.getOp() == '-') {
      form->constant.changeSign();
      for (auto &[name, c] : form->names) {
        c.changeSign();
      }
    }
    return form;
  }
  case Expr::Kind::Binary: {
    const auto &binary = llvm::cast<BinaryExpr>(expr);
    auto lhs = decomposeIndex(binary.getLHS(), depth + 1);
    auto rhs = decomposeIndex(binary.getRHS(), depth + 1);
    if (!lhs || !rhs) {
      return std::nullopt;
    }
    char op = binary.getOp();
    if (op == '+' || op == '-') {
      if (op == '-') {
        rhs->constant.changeSign();
        for (auto &[name, c] : rhs->names) {
          c.changeSign();
        }
      }
      lhs->constant.add(rhs->constant, APFloat::rmNearestTiesToEven);
      for (auto &[name, c] : rhs->names) {
        auto [it, inserted] = lhs->names.emplace(name, c);
        if (!inserted) {
          it->second.add(c, APFloat::rmNearestTiesToEven);
        }
      }
      return lhs;
    }
    // '*' and '/' keep an index only when the other side is a constant.
    if (op == '/' && !rhs->names.empty()) {
      diags.error(binary.getOpLoc(), "an index cannot be a divisor");
      return std::nullopt;
    }
    if (!lhs->names.empty() && !rhs->names.empty()) {
      diags.error(binary.getOpLoc(), "an index cannot be multiplied by an index");
      return std::nullopt;
    }
    // Division scales the dividend; a product scales the side with the index.
    bool scaleRight = op == '*' && lhs->names.empty();
    IndexForm &scaled = scaleRight ? *rhs : *lhs;
    const APFloat factor = scaleRight ? lhs->constant : rhs->constant;
    if (op == '/' && factor.isZero()) {
      diags.error(binary.getOpLoc(), "division by zero");
      return std::nullopt;
    }
    auto apply = [&](APFloat &value) {
      if (op == '*') {
        value.multiply(factor, APFloat::rmNearestTiesToEven);
      } else {
        value.divide(factor, APFloat::rmNearestTiesToEven);
      }
    };
    apply(scaled.constant);
    for (auto &[name, c] : scaled.names) {
      apply(c);
    }
    return std::move(scaled);
  }
  }
  return std::nullopt;
}

std::optional<int> StencilChecker::checkIndex(const Expr &expr, unsigned position) {
  auto form = decomposeIndex(expr, 0);
  if (!form) {
    return std::nullopt;
  }
  const std::string &expected = indexNames[position].name;
  // Drop names whose coefficients cancel (`i + j - j`).
  std::erase_if(form->names, [](const auto &entry) { return entry.second.isZero(); });
  auto it = form->names.find(expected);
  bool exactlyExpected = form->names.size() == 1 && it != form->names.end() &&
                         it->second.compare(APFloat::getOne(quad())) == APFloat::cmpEqual;
  if (!exactlyExpected) {
    if (form->names.size() == 1 && it == form->names.end() &&
        form->names.begin()->second.compare(APFloat::getOne(quad())) == APFloat::cmpEqual) {
      std::string order;
      for (const Identifier &index : indexNames) {
        order += (order.empty() ? "" : ", ") + index.name;
      }
      diags.error(expr.getLoc(), fmt::format("indices of 'in' must be in the order of out[{}]: "
                                             "found '{}' where '{}' belongs",
                                             order, form->names.begin()->first, expected));
    } else if (form->names.empty()) {
      diags.error(expr.getLoc(), fmt::format("index {} of 'in' must be '{}' plus or minus a "
                                             "constant integer, found a constant",
                                             position + 1, expected));
    } else {
      diags.error(expr.getLoc(), fmt::format("index {} of 'in' must be '{}' plus or minus a "
                                             "constant integer",
                                             position + 1, expected));
    }
    return std::nullopt;
  }
  // Point at the constant part where the index is `name +/- constant`.
  SMLoc constantLoc = expr.getLoc();
  if (const auto *binary = llvm::dyn_cast<BinaryExpr>(&expr);
      binary && llvm::isa<NameExpr>(binary->getLHS())) {
    constantLoc = binary->getRHS().getLoc();
  }
  if (!form->constant.isInteger()) {
    diags.error(constantLoc, fmt::format("offset must be a constant integer, found '{}'",
                                         valueText(form->constant)));
    return std::nullopt;
  }
  double offset = toDouble(form->constant);
  if (std::abs(offset) > MaxRadius) {
    diags.error(constantLoc, fmt::format("offset {} is larger than the largest supported "
                                         "radius, {}",
                                         valueText(form->constant), MaxRadius));
    return std::nullopt;
  }
  return static_cast<int>(offset);
}

std::optional<LinearValue> StencilChecker::evalRead(const ReadExpr &expr) {
  llvm::StringRef array = expr.getArray();
  if (!readsAllowed) {
    diags.error(expr.getLoc(), fmt::format("{} must be a constant; it cannot "
                                           "read a grid",
                                           constantContext));
    return std::nullopt;
  }
  if (array != "in") {
    if (array == "out") {
      diags.error(expr.getLoc(), "'out' cannot be read; the right-hand side "
                                 "reads only 'in'");
    } else {
      diags.error(expr.getLoc(), fmt::format("unknown grid '{}'; a stencil reads only 'in'",
                                             std::string_view(array)));
    }
    return std::nullopt;
  }
  const auto &indices = expr.getIndices();
  if (indices.size() != indexNames.size()) {
    diags.error(expr.getLoc(),
                fmt::format("'in' is read with {} {} but 'out' has {}", indices.size(),
                            indices.size() == 1 ? "index" : "indices", indexNames.size()));
    return std::nullopt;
  }
  Offset offset;
  bool ok = true;
  for (unsigned a = 0; a < indices.size(); ++a) {
    auto component = checkIndex(*indices[a], a);
    if (!component) {
      ok = false;
      continue;
    }
    offset.d[a] = *component;
  }
  if (!ok) {
    return std::nullopt;
  }
  LinearValue v;
  v.loc = expr.getLoc();
  v.reads.emplace(offset, Read{APFloat::getOne(quad()), expr.getLoc()});
  return v;
}

/// Adds, subtracts, multiplies or divides `rhs` into `acc`, reporting what is
/// not linear in `in`.
bool StencilChecker::combine(LinearValue &acc, char op, LinearValue rhs, SMLoc opLoc) {
  const auto rm = APFloat::rmNearestTiesToEven;
  if (op == '+' || op == '-') {
    if (acc.isConstant() != rhs.isConstant()) {
      SMLoc constantLoc = acc.isConstant() ? acc.loc : rhs.loc;
      diags.error(constantLoc, "this term does not read 'in'; every term must "
                               "be a coefficient times a read of 'in'");
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
    if (!acc.isConstant() && !rhs.isConstant()) {
      diags.error(opLoc, "a product of two reads of 'in' is not linear");
      return false;
    }
    if (acc.isConstant()) {
      std::swap(acc.reads, rhs.reads);
      std::swap(acc.constant, rhs.constant);
    }
    if (!chargeScaling(acc.reads.size(), opLoc)) {
      return false;
    }
    acc.constant.multiply(rhs.constant, rm);
    for (auto &[offset, read] : acc.reads) {
      read.coefficient.multiply(rhs.constant, rm);
    }
  } else {
    if (!rhs.isConstant()) {
      diags.error(opLoc, "division by a read of 'in' is not linear");
      return false;
    }
    if (rhs.constant.isZero()) {
      diags.error(opLoc, "division by zero");
      return false;
    }
    if (!chargeScaling(acc.reads.size(), opLoc)) {
      return false;
    }
    acc.constant.divide(rhs.constant, rm);
    for (auto &[offset, read] : acc.reads) {
      read.coefficient.divide(rhs.constant, rm);
    }
  }
  if (!checkFinite(acc.constant, opLoc)) {
    return false;
  }
  for (auto &[offset, read] : acc.reads) {
    if (!checkFinite(read.coefficient, opLoc)) {
      return false;
    }
  }
  return true;
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
    }
    if (v) {
      v->loc = expr.getLoc();
    }
    return v;
  }
  case Expr::Kind::Binary:
    return evalChain(llvm::cast<BinaryExpr>(expr));
  }
  return std::nullopt;
}

std::optional<LinearValue> StencilChecker::evalConstantOnly(const Expr &expr,
                                                            llvm::StringRef what) {
  bool saved = readsAllowed;
  readsAllowed = false;
  constantContext = what.str();
  auto v = eval(expr);
  readsAllowed = saved;
  return v;
}

std::optional<long> StencilChecker::foldInteger(const Expr &expr, llvm::StringRef what) {
  auto v = evalConstantOnly(expr, what);
  if (!v) {
    return std::nullopt;
  }
  if (!v->constant.isInteger() || std::abs(toDouble(v->constant)) > 1e9) {
    diags.error(expr.getLoc(), fmt::format("{} must be an integer, found '{}'",
                                           std::string_view(what), valueText(v->constant)));
    return std::nullopt;
  }
  return static_cast<long>(toDouble(v->constant));
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

bool StencilChecker::checkOnce(const Stmt &stmt) {
  auto [it, inserted] = seen.first.emplace(stmt.getKind(), stmt.getLoc());
  if (inserted) {
    return true;
  }
  diags.error(stmt.getLoc(),
              fmt::format("duplicate '{}' statement", statementKeyword(stmt.getKind())));
  diags.note(it->second, "the first one is here");
  return false;
}

void StencilChecker::checkPrecision(const WordStmt &stmt) {
  if (!checkOnce(stmt)) {
    return;
  }
  if (auto p = parsePrecision(stmt.getWord().name)) {
    spec.precision = *p;
    return;
  }
  diags.error(stmt.getWord().range.Start,
              fmt::format("unknown precision '{}'; expected fp16, bf16, tf32, "
                          "fp32 or fp64",
                          stmt.getWord().name));
}

void StencilChecker::checkShape(const WordStmt &stmt) {
  if (!checkOnce(stmt)) {
    return;
  }
  if (auto s = parseShape(stmt.getWord().name)) {
    declaredShape = {*s, stmt.getLoc()};
    return;
  }
  diags.error(stmt.getWord().range.Start,
              fmt::format("unknown shape '{}'; expected star or box", stmt.getWord().name));
}

void StencilChecker::checkBoundary(const BoundaryStmt &stmt) {
  if (!checkOnce(stmt)) {
    return;
  }
  const Identifier &word = stmt.getWord();
  auto kind = parseBoundaryKind(word.name);
  if (!kind) {
    diags.error(word.range.Start, fmt::format("unknown boundary '{}'; expected fixed, constant V "
                                              "or periodic",
                                              word.name));
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
    spec.boundaryValue = toDouble(v->constant);
    if (!std::isfinite(spec.boundaryValue)) {
      diags.error(stmt.getValue()->getLoc(), "boundary value is too large for fp64");
    }
  }
}

void StencilChecker::checkLet(const LetStmt &stmt) {
  const Identifier &name = stmt.getName();
  if (name.name == "in" || name.name == "out") {
    diags.error(name.range.Start, fmt::format("'{}' is reserved for the grids and cannot name a "
                                              "constant",
                                              name.name));
    return;
  }
  if (auto it = lets.find(name.name); it != lets.end()) {
    diags.error(name.range.Start, fmt::format("redefinition of '{}'", name.name));
    diags.note(it->second.loc, "the first definition is here");
    return;
  }
  auto v = evalConstantOnly(stmt.getValue(), "a 'let' value");
  if (v) {
    lets.emplace(name.name, LetConstant{v->constant, name.range.Start});
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

bool checkBodyOnce(SeenStatements &seen, const Stmt &stmt, DiagnosticEngine &diags) {
  if (!seen.body.isValid()) {
    seen.body = stmt.getLoc();
    return true;
  }
  diags.error(stmt.getLoc(), "a stencil has exactly one update 'out[...] = ...;' "
                             "or 'weights' table; this is a second one");
  diags.note(seen.body, "the first one is here");
  return false;
}

void StencilChecker::checkUpdate(const UpdateStmt &stmt) {
  if (!checkBodyOnce(seen, stmt, diags)) {
    return;
  }
  bool ok = true;
  if (stmt.getTarget().name != "out") {
    diags.error(stmt.getTarget().range.Start,
                fmt::format("the update must assign to 'out', found '{}'", stmt.getTarget().name));
    ok = false;
  }
  const auto &indices = stmt.getIndices();
  if (indices.size() > 3) {
    diags.error(indices[3].range.Start,
                fmt::format("'out' has {} indices; at most 3 dimensions are "
                            "supported",
                            indices.size()));
    return;
  }
  for (size_t a = 0; a < indices.size(); ++a) {
    const Identifier &index = indices[a];
    for (size_t b = 0; b < a; ++b) {
      if (indices[b].name == index.name) {
        diags.error(index.range.Start, fmt::format("index '{}' appears twice in 'out'; indices "
                                                   "must be distinct",
                                                   index.name));
        ok = false;
      }
    }
    if (index.name == "in" || index.name == "out") {
      diags.error(index.range.Start, fmt::format("'{}' is reserved for the grids and cannot name "
                                                 "an index",
                                                 index.name));
      ok = false;
    }
    if (auto it = lets.find(index.name); it != lets.end()) {
      diags.error(index.range.Start,
                  fmt::format("index '{}' has the name of a 'let' constant", index.name));
      diags.note(it->second.loc, "the constant is defined here");
      ok = false;
    }
  }
  if (!ok) {
    return;
  }
  indexNames = indices;
  bodyDims = {static_cast<int>(indices.size()), stmt.getLoc()};
  readsAllowed = true;
  auto value = eval(stmt.getValue());
  readsAllowed = false;
  if (!value) {
    return;
  }
  if (value->isConstant()) {
    diags.error(stmt.getValue().getLoc(),
                "the right-hand side does not read 'in'; a stencil is a sum of "
                "coefficients times reads of 'in'");
    return;
  }
  coefficients = std::move(value->reads);
  bodyLoc = stmt.getLoc();
}

bool StencilChecker::checkTableList(const TableList &list, int level, int depth, size_t width,
                                    Offset &position) {
  if (list.entries.size() != width) {
    diags.error(list.range.Start, fmt::format("this list has {} entries, but the table's lists "
                                              "have {}; every list must have the same length",
                                              list.entries.size(), width));
    return false;
  }
  int radius = static_cast<int>(width / 2);
  bool ok = true;
  for (size_t k = 0; k < list.entries.size(); ++k) {
    const TableEntry &entry = list.entries[k];
    position.d[level] = static_cast<int>(k) - radius;
    bool innermost = level == depth - 1;
    if (innermost && entry.list) {
      diags.error(entry.range.Start, fmt::format("expected a coefficient here, found a nested list "
                                                 "(the table is {} deep)",
                                                 depth));
      ok = false;
      continue;
    }
    if (!innermost && entry.value) {
      diags.error(entry.range.Start, fmt::format("expected a nested list here, found a coefficient "
                                                 "(the table is {} deep)",
                                                 depth));
      ok = false;
      continue;
    }
    if (!innermost) {
      ok &= checkTableList(*entry.list, level + 1, depth, width, position);
      continue;
    }
    auto v = evalConstantOnly(*entry.value, "a weights entry");
    if (!v) {
      ok = false;
      continue;
    }
    if (!v->constant.isZero()) {
      coefficients.emplace(position, Read{v->constant, entry.range.Start});
    }
  }
  position.d[level] = 0;
  return ok;
}

void StencilChecker::checkWeights(const WeightsStmt &stmt) {
  if (!checkBodyOnce(seen, stmt, diags)) {
    return;
  }
  const TableList &table = stmt.getTable();
  // The depth is that of the first entry at every level.
  int depth = 1;
  for (const TableList *list = &table; !list->entries.empty() && list->entries[0].list;
       list = list->entries[0].list.get()) {
    ++depth;
    if (depth > 3) {
      diags.error(list->entries[0].range.Start,
                  "the weights table is nested more than 3 deep; at most 3 "
                  "dimensions are supported");
      return;
    }
  }
  size_t width = table.entries.size();
  if (width % 2 == 0) {
    diags.error(table.range.Start, fmt::format("a weights list needs an odd number of entries "
                                               "(2r+1), found {}",
                                               width));
    return;
  }
  if (width > 2 * MaxRadius + 1) {
    diags.error(table.range.Start, fmt::format("a weights list of {} entries means radius {}, "
                                               "larger than the largest supported radius, {}",
                                               width, width / 2, MaxRadius));
    return;
  }
  Offset position;
  if (!checkTableList(table, 0, depth, width, position)) {
    coefficients.clear();
    return;
  }
  bodyDims = {depth, stmt.getLoc()};
  bodyLoc = stmt.getLoc();
}

std::string StencilChecker::readText(const Offset &offset) const {
  std::string text = "in[";
  for (int a = 0; a < spec.dims; ++a) {
    if (a) {
      text += ", ";
    }
    if (indexNames.empty()) {
      text += fmt::format("{}", offset.d[a]);
      continue;
    }
    text += indexNames[a].name;
    if (offset.d[a] != 0) {
      text += fmt::format("{:+}", offset.d[a]);
    }
  }
  return text + "]";
}

/// Rounds the folded coefficients to double and checks them against the
/// operand type of the kernels.
void StencilChecker::finishCoefficients() {
  const llvm::fltSemantics *operand = nullptr;
  unsigned maxFinite = 0;
  switch (spec.precision) {
  case Precision::FP16:
    operand = &APFloat::IEEEhalf();
    maxFinite = 65504;
    break;
  case Precision::BF16:
    operand = &APFloat::BFloat();
    break;
  case Precision::TF32:
    operand = &APFloat::FloatTF32();
    break;
  case Precision::FP32:
    operand = &APFloat::IEEEsingle();
    break;
  case Precision::FP64:
    operand = &APFloat::IEEEdouble();
    break;
  }
  std::string precision(keyword(spec.precision));
  for (const auto &[offset, read] : coefficients) {
    if (read.coefficient.isZero()) {
      continue; // reads that cancel out are not reads
    }
    double value = toDouble(read.coefficient);
    if (!std::isfinite(value)) {
      diags.error(read.loc,
                  fmt::format("coefficient of {} is too large for fp64", readText(offset)));
      continue;
    }
    if (value == 0.0) { // not zero, but too small for a double: no read at all
      diags.warning(read.loc, fmt::format("coefficient of {} underflows to zero in fp64; the "
                                          "term is dropped",
                                          readText(offset)));
      continue;
    }
    APFloat rounded = read.coefficient;
    bool losesInfo = false;
    rounded.convert(*operand, APFloat::rmNearestTiesToEven, &losesInfo);
    if (rounded.isInfinity()) {
      std::string limit =
          maxFinite ? fmt::format(" (largest finite value {})", maxFinite) : std::string();
      diags.error(read.loc, fmt::format("coefficient {} of {} overflows {}{}", formatExact(value),
                                        readText(offset), precision, limit));
      continue;
    }
    if (rounded.isZero()) {
      diags.warning(read.loc, fmt::format("coefficient {} of {} rounds to zero in {}",
                                          formatExact(value), readText(offset), precision));
    }
    spec.terms.push_back(Term{offset, value});
  }
}

void StencilChecker::checkDeclarations() {
  int radius = 0;
  const Term *farthest = nullptr;
  const Term *offAxis = nullptr;
  for (const Term &t : spec.terms) {
    if (t.offset.chebyshevNorm() > radius) {
      radius = t.offset.chebyshevNorm();
      farthest = &t;
    }
    if (!offAxis && t.offset.nonZeroAxes() > 1) {
      offAxis = &t;
    }
  }
  auto locOf = [&](const Term *t) { return coefficients.at(t->offset).loc; };
  spec.radius = radius;
  spec.shape = offAxis ? Shape::Box : Shape::Star;
  if (spec.terms.empty()) {
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
    diags.note(locOf(farthest),
               fmt::format("the farthest read, {}, is here", readText(farthest->offset)));
  }
  if (declaredShape && spec.dims > 1 && declaredShape->first != spec.shape) {
    if (offAxis) {
      diags.error(declaredShape->second, "declared shape star, but the body is a box: it reads off "
                                         "the axes");
      diags.note(locOf(offAxis), fmt::format("{} lies off the axes", readText(offAxis->offset)));
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

std::optional<StencilSpec> StencilChecker::check(llvm::StringRef fileName, unsigned line) {
  unsigned errorsBefore = diags.errorCount();
  spec.name = decl.name.name;
  spec.sourceFile = fileName.str();
  spec.sourceLine = line;

  for (const StmtPtr &stmt : decl.body) {
    switch (stmt->getKind()) {
    case Stmt::Kind::Precision:
      checkPrecision(llvm::cast<WordStmt>(*stmt));
      break;
    case Stmt::Kind::Shape:
      checkShape(llvm::cast<WordStmt>(*stmt));
      break;
    case Stmt::Kind::Boundary:
      checkBoundary(llvm::cast<BoundaryStmt>(*stmt));
      break;
    case Stmt::Kind::Let:
      checkLet(llvm::cast<LetStmt>(*stmt));
      break;
    case Stmt::Kind::Radius:
    case Stmt::Kind::Dims:
      checkInteger(llvm::cast<IntegerStmt>(*stmt));
      break;
    case Stmt::Kind::Update:
      checkUpdate(llvm::cast<UpdateStmt>(*stmt));
      break;
    case Stmt::Kind::Weights:
      checkWeights(llvm::cast<WeightsStmt>(*stmt));
      break;
    }
  }
  if (!seen.body.isValid()) {
    diags.error(decl.name.range.Start,
                fmt::format("stencil '{}' has no update 'out[...] = ...;' and "
                            "no 'weights' table",
                            spec.name));
    return std::nullopt;
  }
  if (!bodyDims || diags.errorCount() != errorsBefore) {
    return std::nullopt;
  }
  spec.dims = bodyDims->first;
  finishCoefficients();
  if (diags.errorCount() != errorsBefore) {
    return std::nullopt;
  }
  checkDeclarations();
  if (diags.errorCount() != errorsBefore) {
    return std::nullopt;
  }
  return std::move(spec);
}

} // namespace

std::vector<CheckedStencil> checkModule(const Module &module, llvm::StringRef fileName,
                                        DiagnosticEngine &diags) {
  std::vector<CheckedStencil> result;
  llvm::StringMap<SMLoc> names;
  // Stencils come in file order: one pass over the file finds all their lines.
  SourcePositions positions(diags.getSourceMgr());
  for (const StencilDecl &decl : module.stencils) {
    unsigned line = positions.lineAndColumn(decl.name.range.Start).first;
    auto [it, inserted] = names.try_emplace(decl.name.name, decl.name.range.Start);
    if (!inserted) {
      diags.error(decl.name.range.Start,
                  fmt::format("redefinition of stencil '{}'", decl.name.name));
      diags.note(it->second, "the first definition is here");
      continue;
    }
    StencilChecker checker(decl, diags);
    if (auto spec = checker.check(fileName, line)) {
      result.push_back({std::move(*spec), decl.name.range.Start});
    }
  }
  return result;
}

} // namespace stencilc
