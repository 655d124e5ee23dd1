//===- Sema.cpp - From syntax trees to StencilSpecs -----------------------===//
//
// Coefficients are folded in IEEE quad precision (113-bit significand) from
// the decimal text of the literals, so `0.1 + 0.2` folds to the double
// nearest 0.3, and each coefficient is rounded once to double at the end.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Sema.h"

#include <fmt/format.h>

#include "stencilc/Parser.h"

#include "SemaChecker.h"

namespace stencilc {
namespace sema {

using llvm::SMLoc;

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

std::optional<StencilSpec> StencilChecker::check(llvm::StringRef fileName, unsigned line) {
  unsigned errorsBefore = diags.errorCount();
  spec.name = decl.name.name;
  spec.sourceFile = fileName.str();
  spec.sourceLine = line;
  declareFields(); // SemaFields.cpp: fields, parameters and time levels first

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
      if (general) {
        diags.error(stmt->getLoc(), "a 'weights' table is the stencil of the one input 'in'; "
                                    "a stencil of fields or parameters needs an update "
                                    "'out[...] = ...;'");
        break;
      }
      checkWeights(llvm::cast<WeightsStmt>(*stmt));
      break;
    case Stmt::Kind::Field:
    case Stmt::Kind::Coefficient:
    case Stmt::Kind::Param:
    case Stmt::Kind::Time:
    case Stmt::Kind::Record:
    case Stmt::Kind::Source:
      break; // declareFields
    }
  }
  finishBoundaryValue();
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
  for (const Identifier &index : indexNames) {
    spec.indexNames.push_back(index.name);
  }
  finishCoefficients();
  if (general) {
    finishFields();
  }
  if (diags.errorCount() != errorsBefore) {
    return std::nullopt;
  }
  checkDeclarations();
  if (diags.errorCount() != errorsBefore) {
    return std::nullopt;
  }
  return std::move(spec);
}

} // namespace sema

using llvm::SMLoc;

std::vector<CheckedStencil> checkModule(const Module &module, llvm::StringRef fileName,
                                        DiagnosticEngine &diags) {
  std::vector<CheckedStencil> result;
  llvm::StringMap<SMLoc> names;
  // Stencils come in file order: one pass over the file finds all their lines.
  SourcePositions positions(diags.getSourceMgr());
  // File-level constants: each stencil sees those defined before it.
  StencilDecl fileScope;
  sema::StencilChecker constants(fileScope, diags);
  std::size_t nextLet = 0;
  auto defineLetsBefore = [&](std::size_t stencil) {
    for (; nextLet < module.lets.size() && module.lets[nextLet].stencilsBefore <= stencil;
         ++nextLet) {
      constants.checkFileLet(*module.lets[nextLet].let);
    }
  };
  for (std::size_t index = 0; index < module.stencils.size(); ++index) {
    defineLetsBefore(index);
    const StencilDecl &decl = module.stencils[index];
    unsigned line = positions.lineAndColumn(decl.name.range.Start).first;
    if (hasReservedPrefix(decl.name.name)) {
      diags.error(decl.name.range.Start, fmt::format("'{}' cannot name a stencil: {}",
                                                     decl.name.name, reservedPrefixText()));
      continue;
    }
    auto [it, inserted] = names.try_emplace(decl.name.name, decl.name.range.Start);
    if (!inserted) {
      diags.error(decl.name.range.Start,
                  fmt::format("redefinition of stencil '{}'", decl.name.name));
      diags.note(it->second, "the first definition is here");
      continue;
    }
    sema::StencilChecker checker(decl, diags, constants.constants());
    if (auto spec = checker.check(fileName, line)) {
      result.push_back({std::move(*spec), decl.name.range.Start});
    }
  }
  defineLetsBefore(module.stencils.size()); // constants after the last stencil are checked too
  return result;
}

} // namespace stencilc
