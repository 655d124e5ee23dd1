// Shared by the front-end unit tests: runs the parser and Sema on a string.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "stencilc/Parser.h"
#include "stencilc/Sema.h"

namespace stencilc::testing {

struct Compiled {
  std::vector<StencilSpec> specs;
  unsigned errors = 0;
  unsigned warnings = 0;
  std::string diagnostics;
};

inline Compiled compileText(llvm::StringRef text) {
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "test.stencil"), llvm::SMLoc());
  Compiled out;
  llvm::raw_string_ostream os(out.diagnostics);
  DiagnosticEngine diags(sm, os);
  Parser parser(sm.getMemoryBuffer(1)->getBuffer(), diags);
  Module module = parser.parseModule();
  if (!diags.hasErrors()) {
    for (CheckedStencil &c : checkModule(module, "test.stencil", diags)) {
      out.specs.push_back(std::move(c.spec));
    }
  }
  out.errors = diags.errorCount();
  out.warnings = diags.warningCount();
  return out;
}

/// The one stencil of `text` with its PRECISION and BOUNDARY placeholders
/// filled in; an empty spec (and a test failure) where it does not compile.
inline StencilSpec compileFilled(std::string text, const char *precision, const char *boundary) {
  text.replace(text.find("PRECISION"), 9, precision);
  text.replace(text.find("BOUNDARY"), 8, boundary);
  Compiled c = compileText(text);
  EXPECT_EQ(c.errors, 0u) << c.diagnostics;
  return c.specs.empty() ? StencilSpec{} : c.specs.front();
}

} // namespace stencilc::testing
