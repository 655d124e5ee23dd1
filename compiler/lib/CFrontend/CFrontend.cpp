//===- CFrontend.cpp - Parsing a C/C++ file and translating its nests ------===//
//
// Runs Clang on the file with a handler for `#pragma stencil`, then, once the
// translation unit is parsed, pairs each pragma with the `for` right after it,
// recognises every marked nest (LoopNest.cpp) and names the stencils.
//
//===----------------------------------------------------------------------===//
#include "stencilc/CFrontend.h"

#include <algorithm>
#include <map>
#include <set>

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

#include "CDiagnostics.h"
#include "LoopNest.h"
#include "StencilPragma.h"

namespace stencilc::cfront {

namespace {

/// Every `for` statement in a function body, with its function.
class LoopCollector : public clang::RecursiveASTVisitor<LoopCollector> {
public:
  bool TraverseDecl(clang::Decl *decl) {
    auto *function = llvm::dyn_cast_or_null<clang::FunctionDecl>(decl);
    if (function) {
      functions.push_back(function);
    }
    bool result = RecursiveASTVisitor::TraverseDecl(decl);
    if (function) {
      functions.pop_back();
    }
    return result;
  }

  bool VisitForStmt(clang::ForStmt *loop) {
    loops.push_back({loop, functions.empty() ? nullptr : functions.back()});
    return true;
  }

  std::vector<std::pair<const clang::ForStmt *, const clang::FunctionDecl *>> loops;

private:
  std::vector<const clang::FunctionDecl *> functions;
};

/// True when only whitespace, comments and preprocessor lines lie between
/// the end of the pragma line and the loop.
bool onlyBlankBetween(llvm::StringRef gap) {
  size_t i = 0;
  bool lineStart = true;
  while (i < gap.size()) {
    char c = gap[i];
    if (c == '\n') {
      lineStart = true;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (gap.substr(i).starts_with("//")) {
      i = gap.find('\n', i);
      if (i == llvm::StringRef::npos) {
        return true;
      }
    } else if (gap.substr(i).starts_with("/*")) {
      i = gap.find("*/", i + 2);
      if (i == llvm::StringRef::npos) {
        return false;
      }
      i += 2;
      lineStart = false;
    } else if (c == '#' && lineStart) { // another directive, e.g. #pragma omp
      while (i < gap.size() && gap[i] != '\n') {
        i += gap[i] == '\\' && i + 1 < gap.size() ? 2 : 1;
      }
    } else {
      return false;
    }
  }
  return true;
}

class StencilConsumer : public clang::ASTConsumer {
public:
  StencilConsumer(std::vector<StencilPragma> &pragmas, const unsigned &pragmaErrors,
                  std::vector<TranslatedStencil> &stencils)
      : pragmas(pragmas), pragmaErrors(pragmaErrors), stencils(stencils) {}

  void HandleTranslationUnit(clang::ASTContext &context) override;

private:
  const clang::ForStmt *loopAfter(const StencilPragma &pragma, clang::ASTContext &context,
                                  const clang::FunctionDecl *&function);
  void nameStencils(std::vector<std::pair<TranslatedStencil, const StencilPragma *>> &found,
                    clang::DiagnosticsEngine &diags);

  std::vector<StencilPragma> &pragmas;
  const unsigned &pragmaErrors;
  std::vector<TranslatedStencil> &stencils;
  LoopCollector collector;
};

/// The loop that starts right after the pragma line, or null.
const clang::ForStmt *StencilConsumer::loopAfter(const StencilPragma &pragma,
                                                 clang::ASTContext &context,
                                                 const clang::FunctionDecl *&function) {
  clang::SourceManager &sm = context.getSourceManager();
  clang::SourceLocation end = sm.getExpansionLoc(pragma.endLoc);
  const clang::ForStmt *best = nullptr;
  clang::SourceLocation bestLoc;
  for (const auto &[loop, owner] : collector.loops) {
    clang::SourceLocation loc = sm.getExpansionLoc(loop->getForLoc());
    if (sm.isBeforeInTranslationUnit(end, loc) &&
        (!best || sm.isBeforeInTranslationUnit(loc, bestLoc))) {
      best = loop;
      bestLoc = loc;
      function = owner;
    }
  }
  if (!best) {
    return nullptr;
  }
  auto [endFile, endOffset] = sm.getDecomposedLoc(end);
  auto [loopFile, loopOffset] = sm.getDecomposedLoc(bestLoc);
  if (endFile != loopFile || loopOffset < endOffset) {
    return nullptr;
  }
  llvm::StringRef buffer = sm.getBufferData(endFile);
  if (!onlyBlankBetween(buffer.slice(endOffset, loopOffset))) {
    return nullptr;
  }
  return best;
}

/// Explicit names first; then each unnamed nest takes its function's name,
/// made unique with a suffix _2, _3, ...
void StencilConsumer::nameStencils(
    std::vector<std::pair<TranslatedStencil, const StencilPragma *>> &found,
    clang::DiagnosticsEngine &diags) {
  std::map<std::string, const StencilPragma *> explicitNames;
  std::set<std::string> taken;
  for (auto &[stencil, pragma] : found) {
    if (!pragma->name) {
      continue;
    }
    auto [it, inserted] = explicitNames.emplace(*pragma->name, pragma);
    if (!inserted) {
      reportError(diags, pragma->nameLoc, "redefinition of stencil '%0'") << *pragma->name;
      reportNote(diags, it->second->nameLoc, "'%0' is first named here") << *pragma->name;
    }
    stencil.spec.name = *pragma->name;
    taken.insert(*pragma->name);
  }
  for (auto &[stencil, pragma] : found) {
    if (pragma->name) {
      continue;
    }
    std::string base = withoutReservedPrefix(stencil.functionName);
    if (isReservedStencilWord(base)) {
      base += "_stencil";
    } else if (!isStencilIdentifier(base)) {
      base = "loop_nest"; // operator(), a lambda, a non-ASCII name
    }
    std::string name = base;
    for (int suffix = 2; taken.count(name); ++suffix) {
      name = base + "_" + std::to_string(suffix);
    }
    stencil.spec.name = name;
    taken.insert(name);
  }
}

void StencilConsumer::HandleTranslationUnit(clang::ASTContext &context) {
  clang::DiagnosticsEngine &diags = context.getDiagnostics();
  if (diags.getClient()->getNumErrors() > pragmaErrors) {
    return; // the C code itself does not compile
  }
  if (pragmas.empty()) {
    clang::SourceManager &sm = context.getSourceManager();
    reportError(diags, clang::SourceLocation(), "%0 has no loop nest marked '#pragma stencil'")
        << sm.getFileEntryRefForID(sm.getMainFileID())->getName();
    return;
  }
  collector.TraverseDecl(context.getTranslationUnitDecl());

  std::map<const clang::ForStmt *, const StencilPragma *> claimed;
  std::vector<std::pair<TranslatedStencil, const StencilPragma *>> found;
  for (const StencilPragma &pragma : pragmas) {
    const clang::FunctionDecl *function = nullptr;
    const clang::ForStmt *loop = loopAfter(pragma, context, function);
    if (!loop) {
      reportError(diags, pragma.loc, "'#pragma stencil' must be followed by a 'for' loop nest");
      continue;
    }
    auto [it, inserted] = claimed.emplace(loop, &pragma);
    if (!inserted) {
      reportError(diags, pragma.loc, "this loop nest already has a '#pragma stencil'");
      reportNote(diags, it->second->loc, "the first '#pragma stencil' is here");
      continue;
    }
    if (!pragma.valid) {
      continue; // its clause error is reported
    }
    if (function && function->isDependentContext()) {
      reportError(diags, loop->getForLoc(),
                  "a '#pragma stencil' loop nest inside a template is not supported");
      continue;
    }
    if (std::optional<TranslatedStencil> stencil =
            recogniseNest(MarkedNest{loop, function, &pragma}, context)) {
      found.emplace_back(std::move(*stencil), &pragma);
    }
  }
  nameStencils(found, diags);
  for (auto &entry : found) {
    stencils.push_back(std::move(entry.first));
  }
}

/// Installs the pragma handlers (and the dependency collector) before
/// parsing starts.
class StencilAction : public clang::ASTFrontendAction {
public:
  StencilAction(std::vector<TranslatedStencil> &stencils, std::vector<std::string> *dependencies)
      : stencils(stencils), dependencies(dependencies) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &compiler,
                                                        llvm::StringRef) override {
    clang::Preprocessor &pp = compiler.getPreprocessor();
    // The preprocessor owns the handlers.
    pp.AddPragmaHandler(new StencilPragmaHandler(pragmas, pragmaErrors));
    pp.AddPragmaHandler(new UnknownPragmaHandler());
    if (dependencies) {
      collector = std::make_shared<clang::DependencyCollector>();
      collector->attachToPreprocessor(pp);
    }
    return std::make_unique<StencilConsumer>(pragmas, pragmaErrors, stencils);
  }

  void EndSourceFileAction() override {
    if (collector) {
      dependencies->assign(collector->getDependencies().begin(),
                           collector->getDependencies().end());
    }
  }

private:
  std::vector<StencilPragma> pragmas;
  unsigned pragmaErrors = 0;
  std::vector<TranslatedStencil> &stencils;
  std::vector<std::string> *dependencies;
  std::shared_ptr<clang::DependencyCollector> collector;
};

} // namespace

bool translateFile(const TranslateOptions &options, std::vector<TranslatedStencil> &stencils) {
  // As a compiler driver would be called: flags, then the file. Our flags
  // come first so the user's win. -Wunknown-pragmas catches a misspelt
  // `#pragma stencl`, which would otherwise leave its nest silently alone.
  std::vector<std::string> commandLine = {"stencilc-cfront", "-fsyntax-only", "-Wunknown-pragmas"};
  if (options.warningsAsErrors) {
    commandLine.push_back("-Werror");
  }
  if (!options.resourceDir.empty()) {
    commandLine.push_back("-resource-dir=" + options.resourceDir);
  }
  commandLine.insert(commandLine.end(), options.compilerArgs.begin(), options.compilerArgs.end());
  commandLine.push_back(options.sourcePath);

  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem = llvm::vfs::getRealFileSystem();
  if (options.contents) {
    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(fileSystem);
    auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    memory->addFile(options.sourcePath, 0, llvm::MemoryBuffer::getMemBuffer(*options.contents));
    overlay->pushOverlay(memory);
    fileSystem = overlay;
  }
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), fileSystem));
  clang::tooling::ToolInvocation invocation(
      commandLine, std::make_unique<StencilAction>(stencils, options.dependencies), files.get());
  if (options.diagnostics) {
    invocation.setDiagnosticConsumer(options.diagnostics);
  }
  return invocation.run();
}

} // namespace stencilc::cfront
