//===- SemaReads.cpp - Reads of in and the update ---------------------------===//
//
// A read's index expressions must be the update's index names plus constant
// integer offsets, in order; the update's right-hand side must be linear in
// the reads.
//
//===----------------------------------------------------------------------===//
#include "SemaChecker.h"

#include "stencilc/Parser.h"

#include <cmath>

#include <fmt/format.h>

#include "llvm/Support/Casting.h"

#include "stencilc/Suggest.h"

namespace stencilc::sema {

using llvm::APFloat;
using llvm::SMLoc;

namespace {

/// The index form of a constant.
IndexForm constantIndex(const APFloat &value) {
  IndexForm form;
  form.constant = value;
  return form;
}

/// -form: the constant and every name's coefficient change sign.
void negate(IndexForm &form) {
  form.constant.changeSign();
  for (auto &[name, c] : form.names) {
    c.changeSign();
  }
}

} // namespace

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
    return constantIndex(value->constant.exact());
  }
  case Expr::Kind::Name:
    return decomposeIndexName(llvm::cast<NameExpr>(expr));
  case Expr::Kind::Read:
    diags.error(expr.getLoc(), "offset must be a constant integer, found a read of a grid");
    return std::nullopt;
  case Expr::Kind::Call: {
    auto value = evalCall(llvm::cast<CallExpr>(expr));
    if (!value) {
      return std::nullopt;
    }
    return constantIndex(value->constant.exact());
  }
  case Expr::Kind::Unary: {
    const auto &unary = llvm::cast<UnaryExpr>(expr);
    auto form = decomposeIndex(unary.getOperand(), depth + 1);
    if (form && unary.getOp() == '-') {
      negate(*form);
    }
    return form;
  }
  case Expr::Kind::Binary:
    return decomposeIndexBinary(llvm::cast<BinaryExpr>(expr), depth);
  }
  return std::nullopt;
}

/// A name in an index: a 'let' constant (exact), or an index name of the
/// update; a run-time parameter or an unknown name is an error.
std::optional<IndexForm> StencilChecker::decomposeIndexName(const NameExpr &expr) {
  std::string name = expr.getName().str();
  if (auto it = lets.find(name); it != lets.end()) {
    if (!it->second.value.isExact()) {
      diags.error(expr.getLoc(),
                  fmt::format("'{}' depends on a run-time parameter; an index offset must be "
                              "a constant integer",
                              name));
      return std::nullopt;
    }
    return constantIndex(it->second.value.exact());
  }
  if (paramIndex.count(name)) {
    diags.error(expr.getLoc(), fmt::format("run-time parameter '{}' cannot be an index "
                                           "offset; an offset must be a constant integer",
                                           name));
    return std::nullopt;
  }
  for (const Identifier &index : indexNames) {
    if (index.name == name) {
      IndexForm form;
      form.names.emplace(name, APFloat::getOne(quad()));
      return form;
    }
  }
  if (unknownNamesReported.insert(name).second) {
    reportUnknownIndexName(expr, name);
  } // else reported at its first use in this stencil
  return std::nullopt;
}

/// The error for a name in an index that is no index, 'let' or parameter:
/// the index name expected there when the position tells it, else the names
/// an index may use.
void StencilChecker::reportUnknownIndexName(const NameExpr &expr, const std::string &name) {
  if (expectedIndex) {
    // `in[i, k-1]` where out[i, j]: the name that belongs here.
    const std::string &wanted = indexNames[*expectedIndex].name;
    diags.error(expr.getLoc(), fmt::format("unknown index '{}'; did you mean '{}'?", name, wanted),
                {expr.getRange()}, llvm::SMFixIt(expr.getRange(), wanted));
    noteIfDefinedLater(name);
    return;
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
}

/// `a + b`, `a - b`: the forms added; `a * b`, `a / b`: the side with an
/// index scaled by the constant other side (an index is no divisor, nor is
/// a product of two indices linear).
std::optional<IndexForm> StencilChecker::decomposeIndexBinary(const BinaryExpr &binary,
                                                              unsigned depth) {
  auto lhs = decomposeIndex(binary.getLHS(), depth + 1);
  auto rhs = decomposeIndex(binary.getRHS(), depth + 1);
  if (!lhs || !rhs) {
    return std::nullopt;
  }
  char op = binary.getOp();
  if (op == '+' || op == '-') {
    if (op == '-') {
      negate(*rhs);
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

namespace {

/// Whether `expr` names `name` anywhere; walks with an explicit stack, as an
/// index may be a chain far deeper than the call stack allows.
bool mentionsName(const Expr &expr, llvm::StringRef name) {
  std::vector<const Expr *> pending = {&expr};
  while (!pending.empty()) {
    const Expr *e = pending.back();
    pending.pop_back();
    if (const auto *ref = llvm::dyn_cast<NameExpr>(e); ref && ref->getName() == name) {
      return true;
    }
    if (const auto *unary = llvm::dyn_cast<UnaryExpr>(e)) {
      pending.push_back(&unary->getOperand());
    } else if (const auto *binary = llvm::dyn_cast<BinaryExpr>(e)) {
      pending.push_back(&binary->getLHS());
      pending.push_back(&binary->getRHS());
    }
  }
  return false;
}

} // namespace

std::optional<int> StencilChecker::checkIndex(const Expr &expr, unsigned position,
                                              llvm::StringRef array) {
  // An unknown name stands for the index there, unless the index is named
  // already (then it is an offset: `in[i, j+n]`).
  if (!mentionsName(expr, indexNames[position].name)) {
    expectedIndex = position;
  }
  auto form = decomposeIndex(expr, 0);
  expectedIndex.reset();
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
      diags.error(expr.getLoc(), fmt::format("indices of '{}' must be in the order of out[{}]: "
                                             "found '{}' where '{}' belongs",
                                             std::string_view(array), order,
                                             form->names.begin()->first, expected));
    } else if (form->names.empty()) {
      diags.error(expr.getLoc(), fmt::format("index {} of '{}' must be '{}' plus or minus a "
                                             "constant integer, found a constant",
                                             position + 1, std::string_view(array), expected));
    } else {
      diags.error(expr.getLoc(), fmt::format("index {} of '{}' must be '{}' plus or minus a "
                                             "constant integer",
                                             position + 1, std::string_view(array), expected));
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
  if (general) {
    return evalFieldRead(expr); // SemaFields.cpp
  }
  if (array != "in") {
    if (array == "out") {
      diags.error(expr.getLoc(), "'out' cannot be read; the right-hand side "
                                 "reads only 'in'");
    } else {
      if (unknownNamesReported.insert(array.str()).second) {
        reportUnknownGrid(
            array, expr.getArrayRange(), "in",
            fmt::format("unknown grid '{}'; a stencil reads only 'in'", std::string_view(array)));
      }
    }
    return std::nullopt;
  }
  std::optional<Offset> offset = readOffset(expr, "in");
  if (!offset) {
    return std::nullopt;
  }
  LinearValue v;
  v.loc = expr.getLoc();
  v.reads.emplace(TermKey::input(0, *offset), Read{APFloat::getOne(quad()), expr.getLoc()});
  return v;
}

std::optional<Offset> StencilChecker::readOffset(const ReadExpr &expr, llvm::StringRef array) {
  const auto &indices = expr.getIndices();
  if (indices.size() != indexNames.size()) {
    diags.error(expr.getLoc(),
                fmt::format("'{}' is read with {} {} but 'out' has {}", array.str(), indices.size(),
                            indices.size() == 1 ? "index" : "indices", indexNames.size()));
    return std::nullopt;
  }
  Offset offset;
  bool ok = true;
  for (unsigned a = 0; a < indices.size(); ++a) {
    auto component = checkIndex(*indices[a], a, array);
    if (!component) {
      ok = false;
      continue;
    }
    offset.d[a] = *component;
  }
  if (!ok) {
    return std::nullopt;
  }
  return offset;
}

void StencilChecker::reportUnknownGrid(llvm::StringRef name, llvm::SMRange range,
                                       llvm::StringRef grid, const std::string &otherwise) {
  if (closestMatch(name, {std::string_view(grid.data(), grid.size())})) {
    diags.error(range.Start,
                fmt::format("unknown grid '{}'; did you mean '{}'?", name.str(), grid.str()),
                {range}, llvm::SMFixIt(range, grid));
    return;
  }
  diags.error(range.Start, otherwise);
}

/// Whether the indices of `out` can name the axes: distinct, and no name
/// of a field, parameter, grid or 'let' constant (each clash reported).
bool StencilChecker::checkOutIndices(const std::vector<Identifier> &indices) {
  bool ok = true;
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
    if (fieldIndex.count(index.name) || paramIndex.count(index.name)) {
      diags.error(index.range.Start, fmt::format("index '{}' has the name of a field or "
                                                 "parameter of the stencil",
                                                 index.name));
      ok = false;
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
  return ok;
}

/// For a stencil of fields: whether every term reads an input field (a
/// constant, or a coefficient field's read alone, is an error).
bool StencilChecker::checkTermsReadInput(const LinearValue &value, const UpdateStmt &stmt) {
  bool ok = true;
  if (!value.constant.isZero()) {
    diags.error(stmt.getValue().getLoc(),
                "the right-hand side has a term that reads no input field; every term must "
                "be a coefficient times a read of an input field");
    ok = false;
  }
  for (const auto &[key, read] : value.reads) {
    if (key.field < 0 && !read.coefficient.isZero()) {
      diags.error(read.loc, fmt::format("coefficient field '{}' must multiply a read of an "
                                        "input field",
                                        fields[key.coefField].decl.name));
      ok = false;
    }
  }
  return ok;
}

void StencilChecker::checkUpdate(const UpdateStmt &stmt) {
  if (!checkBodyOnce(seen, stmt, diags)) {
    return;
  }
  bool ok = true;
  if (stmt.getTarget().name != "out") {
    reportUnknownGrid(
        stmt.getTarget().name, stmt.getTarget().range, "out",
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
  if (!checkOutIndices(indices) || !ok) {
    return;
  }
  indexNames = indices;
  bodyDims = {static_cast<int>(indices.size()), stmt.getLoc()};
  readsAllowed = true;
  paramsAllowed = true;
  auto value = eval(stmt.getValue());
  readsAllowed = false;
  paramsAllowed = false;
  if (!value) {
    return;
  }
  if (value->isConstant()) {
    diags.error(stmt.getValue().getLoc(),
                fmt::format("the right-hand side does not read {0}; a stencil is a sum of "
                            "coefficients times reads of {0}",
                            inputWord()));
    return;
  }
  // A constant or a coefficient field's read left without an input read.
  if (general && !checkTermsReadInput(*value, stmt)) {
    return;
  }
  coefficients = std::move(value->reads);
  bodyLoc = stmt.getLoc();
}

} // namespace stencilc::sema
