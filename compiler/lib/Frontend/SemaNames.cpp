//===- SemaNames.cpp - Names and scopes -------------------------------------===//
//
// `let` constants, names that are not (yet) defined, and how a read is
// spelled in messages.
//
//===----------------------------------------------------------------------===//
#include "SemaChecker.h"

#include "stencilc/Suggest.h"

#include <fmt/format.h>

namespace stencilc::sema {

using llvm::APFloat;
using llvm::SMLoc;

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
  if (paramIndex.count(name)) {
    return evalParam(expr); // SemaFields.cpp
  }
  if (name == "pi") {
    LinearValue v;
    v.constant = piConstant();
    v.loc = expr.getLoc();
    return v;
  }
  if (name == "in" || fieldIndex.count(name)) {
    diags.error(expr.getLoc(),
                fmt::format("'{0}' must be indexed, e.g. '{0}[i, j]'", std::string_view(name)));
    return std::nullopt;
  }
  reportUnknownName(expr);
  return std::nullopt;
}

void StencilChecker::reportUnknownName(const NameExpr &expr) {
  llvm::StringRef name = expr.getName();
  if (!unknownNamesReported.insert(name.str()).second) {
    return; // reported at its first use in this stencil
  }
  std::optional<std::string> match;
  if (diags.nextErrorShown()) { // a file of many unknown names costs no quadratic search
    std::vector<std::string_view> known;
    for (const auto &[let, constant] : lets) {
      known.push_back(let);
    }
    match = closestMatch(name, known);
  }
  if (match) {
    diags.error(expr.getLoc(),
                fmt::format("unknown name '{}'; did you mean '{}'?", name.str(), *match),
                {expr.getRange()}, llvm::SMFixIt(expr.getRange(), *match));
  } else {
    diags.error(expr.getLoc(), fmt::format("unknown name '{}'", std::string_view(name)));
  }
  noteIfDefinedLater(name);
}

void StencilChecker::checkLet(const LetStmt &stmt) {
  const Identifier &name = stmt.getName();
  if (name.name == "in" || name.name == "out") {
    diags.error(name.range.Start, fmt::format("'{}' is reserved for the grids and cannot name a "
                                              "constant",
                                              name.name));
    return;
  }
  if (fieldIndex.count(name.name) || paramIndex.count(name.name)) {
    diags.error(name.range.Start,
                fmt::format("'{}' names a field or parameter of the stencil and cannot name a "
                            "constant",
                            name.name));
    return;
  }
  if (auto it = lets.find(name.name); it != lets.end()) {
    diags.error(name.range.Start, fmt::format("redefinition of '{}'", name.name));
    diags.note(it->second.loc, "the first definition is here");
    return;
  }
  // A let may use the stencil's parameters (then it is no index offset).
  auto v = evalConstantOnly(stmt.getValue(), "a 'let' value", /*allowParams=*/true);
  if (v) {
    lets.emplace(name.name, LetConstant{v->constant, name.range.Start});
  }
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

} // namespace stencilc::sema
