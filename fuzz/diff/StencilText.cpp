//===- StencilText.cpp - .stencil text to specs, for both fuzzers ---------===//
#include "StencilText.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "stencilc/Diagnostics.h"
#include "stencilc/Parser.h"

namespace stencilc::fuzzdiff {

std::vector<CheckedStencil> checkStencilText(const std::string &text, bool &errors) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.stencil"),
                               llvm::SMLoc());
  DiagnosticEngine diags(sourceMgr, llvm::nulls());
  Parser parser(sourceMgr.getMemoryBuffer(1)->getBuffer(), diags);
  Module module = parser.parseModule();
  std::vector<CheckedStencil> checked;
  if (!diags.hasErrors()) {
    checked = checkModule(module, "fuzz.stencil", diags);
  }
  errors = diags.hasErrors();
  return checked;
}

} // namespace stencilc::fuzzdiff
