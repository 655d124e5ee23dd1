//===- cfront_fuzzer.cpp - libFuzzer target over the C front end ----------===//
//
// Feeds arbitrary bytes, as the text of a C file (a C++ file for inputs of
// odd size), through what stencilc-cfront does with a file: Clang parses it
// with the `#pragma stencil` handlers installed, the recogniser analyses
// every marked nest, and the translation is printed. Clang's diagnostics,
// the front end's among them, are formatted in full into a null stream.
// Any crash, sanitizer report, assertion or timeout is a bug; so is a
// translated stencil that the .stencil language could not hold (checked
// below). The .stencil pipeline itself cannot run here: this process links
// the shared LLVM of Clang, the driver the static one (CFrontend.h).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"

#include "stencilc/CFrontend.h"

using namespace stencilc;

namespace {

[[noreturn]] void fail(const char *what) {
  llvm::errs() << "cfront_fuzzer: " << what << "\n";
  std::abort();
}

/// What the driver will require of the translation, checked on the specs:
/// 1 to 3 dimensions, a radius of 1 to 32 that is the largest offset, and
/// only finite, non-zero coefficients. A stencil of several fields (issue
/// 20) has its terms in `fieldTerms`: each reads an input field, a
/// coefficient field (when it has one) is not an input, and the radius
/// counts the coefficient fields' offsets too.
void checkTranslated(const std::vector<cfront::TranslatedStencil> &stencils) {
  for (const cfront::TranslatedStencil &stencil : stencils) {
    const StencilSpec &spec = stencil.spec;
    const bool fields = spec.hasFields();
    if (spec.dims < 1 || spec.dims > 3 || spec.radius < 1 || spec.radius > 32 ||
        (fields ? spec.fieldTerms.empty() || !spec.terms.empty() : spec.terms.empty())) {
      fail("a translated stencil is out of the language's range");
    }
    int radius = 0;
    for (const Term &term : spec.terms) {
      if (!std::isfinite(term.coefficient) || term.coefficient == 0.0) {
        fail("a translated coefficient is zero or not finite");
      }
      radius = std::max(radius, term.offset.chebyshevNorm());
    }
    const int fieldCount = static_cast<int>(spec.fields.size());
    for (const FieldTerm &term : spec.fieldTerms) {
      if (term.field < 0 || term.field >= fieldCount ||
          spec.fields[term.field].role != FieldRole::Input ||
          (term.coefficientField >= 0 &&
           (term.coefficientField >= fieldCount ||
            spec.fields[term.coefficientField].role != FieldRole::Coefficient))) {
        fail("a translated term reads a field of the wrong role");
      }
      if (!term.paramCoefficient && (!std::isfinite(term.coefficient) || term.coefficient == 0.0)) {
        fail("a translated coefficient is zero or not finite");
      }
      radius = std::max(radius, term.offset.chebyshevNorm());
      if (term.coefficientField >= 0) {
        radius = std::max(radius, term.coefficientOffset.chebyshevNorm());
      }
    }
    if (radius != spec.radius) {
      fail("a translated stencil's radius is not its largest offset");
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string contents(reinterpret_cast<const char *>(data), size);
  cfront::TranslateOptions options;
  // An absolute path: the in-memory file system has no working directory.
  options.sourcePath = size % 2 ? "/stencilc-fuzz/fuzz.cpp" : "/stencilc-fuzz/fuzz.c";
  options.contents = &contents;
  options.resourceDir = STENCILC_CLANG_RESOURCE_DIR;
  std::vector<std::string> dependencies;
  options.dependencies = &dependencies;
  // CFRONT_FUZZER_VERBOSE=1 shows the diagnostics, to see what an input does.
  static const bool verbose = std::getenv("CFRONT_FUZZER_VERBOSE") != nullptr;
  clang::TextDiagnosticPrinter printer(verbose ? llvm::errs() : llvm::nulls(),
                                       new clang::DiagnosticOptions());
  options.diagnostics = &printer;

  std::vector<cfront::TranslatedStencil> stencils;
  if (!cfront::translateFile(options, stencils)) {
    return 0;
  }
  if (stencils.empty()) {
    fail("the translation succeeded without a stencil");
  }
  checkTranslated(stencils);
  std::string text;
  llvm::raw_string_ostream os(text);
  cfront::printStencilText(stencils, options.sourcePath, os);
  return 0;
}
