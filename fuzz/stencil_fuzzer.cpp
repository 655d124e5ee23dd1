//===- stencil_fuzzer.cpp - libFuzzer target over the whole pipeline ------===//
//
// Feeds arbitrary bytes through what `stencilc` does with a file: Lexer and
// Parser (and the AST printer), Sema, the spec printer and the low-rank
// analysis `--emit=spec` prints, then planning and code
// generation for a backend request, exactly as the driver calls them
// (generateArtefacts, Pipeline.h). Diagnostics are formatted in full and sent
// to a null stream; a few cheap invariants are checked on the way. Any crash,
// sanitizer report, assertion or timeout is a bug: a user must get a
// diagnostic, never a crash (docs/robustness.md).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "stencilc/AST.h"
#include "stencilc/Diagnostics.h"
#include "stencilc/LowRank.h"
#include "stencilc/Parser.h"
#include "stencilc/Pipeline.h"
#include "stencilc/Sema.h"
#include "stencilc/Spec.h"

using namespace stencilc;

namespace {

/// A front-end contract the fuzzer can check cheaply: a stencil that produced
/// no spec must have produced an error (Sema.h: "stencils with errors produce
/// no spec"; the converse would drop a stencil silently).
void checkNoStencilDroppedSilently(const Module &module, const std::vector<CheckedStencil> &checked,
                                   const DiagnosticEngine &diags) {
  if (!diags.hasErrors() && checked.size() != module.stencils.size()) {
    llvm::errs() << "stencil_fuzzer: Sema dropped " << module.stencils.size() - checked.size()
                 << " stencil(s) without reporting an error\n";
    std::abort();
  }
}

/// SourcePositions (Diagnostics.h) must agree with SourceMgr, whose answers
/// it replaces for speed: checked at 64 places spread over the input, in
/// order and then once backwards.
void checkSourcePositions(const llvm::SourceMgr &sourceMgr, llvm::StringRef text) {
  SourcePositions positions(sourceMgr);
  size_t step = std::max<size_t>(1, text.size() / 64);
  auto check = [&](size_t offset) {
    llvm::SMLoc loc = llvm::SMLoc::getFromPointer(text.data() + offset);
    if (positions.lineAndColumn(loc) != sourceMgr.getLineAndColumn(loc)) {
      llvm::errs() << "stencil_fuzzer: SourcePositions disagrees with SourceMgr at offset "
                   << offset << "\n";
      std::abort();
    }
  };
  for (size_t offset = 0; offset <= text.size(); offset += step) {
    check(offset);
  }
  check(text.size() / 2);
}

/// Planning and code generation the way the driver runs them, for one of
/// the backend requests (with its own --arch). One request per input keeps
/// the runs fast; the input's size picks it, so replaying an input repeats
/// exactly what was run, and the corpus exercises all three.
void generate(const std::vector<StencilSpec> &specs, const std::vector<llvm::SMLoc> &locs,
              llvm::SourceMgr &sourceMgr, size_t inputSize) {
  struct Request {
    BackendRequest backend;
    Arch target;
  };
  static const Request requests[] = {{BackendRequest::Auto, Arch::Sm80},
                                     {BackendRequest::Tensor, Arch::Sm90},
                                     {BackendRequest::Simt, Arch::Sm86}};
  const Request &request = requests[inputSize % std::size(requests)];
  DiagnosticEngine diags(sourceMgr, llvm::nulls());
  BackendOptions options;
  options.backend = request.backend;
  options.plan.target = request.target;
  options.inputFile = "fuzz.stencil";
  options.headerInclude = "fuzz.h";
  generateArtefacts(specs, locs, options, diags);
  diags.finish();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // No copy and no terminating NUL: a read one byte past the input is an
  // AddressSanitizer report, not a silent '\0'.
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text, "fuzz.stencil",
                                                                /*RequiresNullTerminator=*/false),
                               llvm::SMLoc());
  checkSourcePositions(sourceMgr, text);
  DiagnosticEngine diags(sourceMgr, llvm::nulls());

  Parser parser(text, diags);
  Module module = parser.parseModule();
  // The driver prints only ASTs that parsed cleanly; the printer must cope
  // with whatever the parser's recovery kept, too.
  printAST(module, sourceMgr, llvm::nulls());
  if (diags.hasErrors()) {
    diags.finish();
    return 0;
  }

  std::vector<CheckedStencil> checked = checkModule(module, "fuzz.stencil", diags);
  checkNoStencilDroppedSilently(module, checked, diags);
  diags.finish();
  if (diags.hasErrors()) {
    return 0;
  }
  std::vector<StencilSpec> specs;
  std::vector<llvm::SMLoc> locs;
  for (CheckedStencil &c : checked) {
    printSpec(c.spec, llvm::nulls());
    // What `--emit=spec` prints after the spec: the exact low-rank analysis,
    // whose rational arithmetic has limits of its own (LowRank.h).
    printLowRank(c.spec, llvm::nulls());
    specs.push_back(std::move(c.spec));
    locs.push_back(c.loc);
  }
  generate(specs, locs, sourceMgr, size);
  return 0;
}
