//===- CFrontend.h - C/C++ loop nests to .stencil text ----------*- C++ -*-===//
//
// The libTooling front end behind stencilc-cfront. It parses a C or C++ file
// with Clang, finds every loop nest marked `#pragma stencil`, recognises its
// update and prints the equivalent .stencil text, which the stencilc driver
// then compiles like any .stencil file. Diagnostics point into the C file.
//
// This library links the shared libclang-cpp and libLLVM, so it must never be
// linked into stencilc itself (static LLVMSupport): stencilc runs
// stencilc-cfront as a child process instead.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <string>
#include <vector>

#include "stencilc/Spec.h"

namespace llvm {
class raw_ostream;
}
namespace clang {
class DiagnosticConsumer;
}

namespace stencilc::cfront {

/// A place in the C source, as Clang presumes it (#line honoured).
struct SourcePoint {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

/// One recognised loop nest: the spec it denotes and what the printed
/// .stencil text names after the C source.
struct TranslatedStencil {
  /// name, dims, radius, shape, precision, boundary and terms.
  StencilSpec spec;
  /// Index names of the update, outermost first (the C loop variables where
  /// they are valid .stencil names).
  std::array<std::string, 3> indexNames;
  /// "file.c:LINE" of the loop nest's first `for`.
  std::string origin;
  /// The `#pragma stencil` (the text's header lines come from it) and the
  /// assignment (its update lines).
  SourcePoint pragmaAt;
  SourcePoint updateAt;
  std::string functionName;
  std::string outputArray;
  /// Whether the pragma marks a time loop around the nest (its time levels,
  /// per-step parameters and receivers are in the spec).
  bool timeLoop = false;
  /// The arrays read, in the order of their first reads (the fields of a
  /// stencil of fields, whose names in spec.fields may carry a '_' more).
  std::vector<std::string> inputArrays;
};

struct TranslateOptions {
  /// The C or C++ file (.c, .cc, .cpp, .cxx), as the user named it.
  std::string sourcePath;
  /// Compiler flags given after `--` (-I, -D, -std=...).
  std::vector<std::string> compilerArgs;
  /// Clang's resource directory, for its builtin headers.
  std::string resourceDir;
  /// Warnings are errors (Clang's -Werror, before the user's flags).
  bool warningsAsErrors = false;
  /// Where set, receives the files read (the source and its #includes, not
  /// system headers), for a depfile.
  std::vector<std::string> *dependencies = nullptr;
  /// Where set, the source's text, parsed instead of the file (the fuzzer).
  const std::string *contents = nullptr;
  /// Where set, takes the diagnostics instead of stderr.
  clang::DiagnosticConsumer *diagnostics = nullptr;
};

/// Parses the file and recognises every `#pragma stencil` loop nest.
/// Diagnostics go to stderr through Clang's diagnostics engine. Returns
/// false after any error (in the C code, or in a nest); `stencils` is then
/// meaningless.
bool translateFile(const TranslateOptions &options, std::vector<TranslatedStencil> &stencils);

/// Prints the .stencil text for `stencils`, one `stencil` definition per
/// loop nest, coefficients written as the shortest decimals that read back
/// as exactly the folded doubles.
/// Where `lineOrigins` is set, it receives the place in the C source of each
/// line printed (line 1 first; an empty file for the file's header comment).
void printStencilText(const std::vector<TranslatedStencil> &stencils, const std::string &sourcePath,
                      llvm::raw_ostream &os, std::vector<SourcePoint> *lineOrigins = nullptr);

/// True for the words the .stencil lexer reserves (`stencil`, `let`, ...)
/// and the grid names `in` and `out`: none can name a stencil or an index.
bool isReservedStencilWord(const std::string &word);

/// True for an ASCII C identifier that is not reserved: a valid .stencil name.
bool isStencilIdentifier(const std::string &word);

/// `name`, or where it starts a prefix that no suffix frees (`__`, `cuda`,
/// `stencilc`: hasReservedPrefix), a name that does not: without its
/// leading underscores (`__dt` is `dt`), or else with `c_` in front
/// (`cudaK` is `c_cudaK`).
std::string withoutReservedPrefix(std::string name);

} // namespace stencilc::cfront
