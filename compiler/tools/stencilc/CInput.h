//===- CInput.h - Reading the input, and C input through stencilc-cfront -*- C++ -*-===//
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "stencilc/Diagnostics.h"

namespace stencilc::driver {

/// True for the C and C++ sources that stencilc-cfront translates.
bool isCSource(llvm::StringRef path);

/// Reads a whole file (or standard input, "-") of at most `maxInputMiB`
/// mebibytes into a buffer named `name`; an endless or huge input is cut off
/// there with an error. Reports as "cannot read WHAT: ...".
std::unique_ptr<llvm::MemoryBuffer> readLimited(llvm::StringRef path, llvm::StringRef name,
                                                const llvm::Twine &what, unsigned maxInputMiB,
                                                DiagnosticEngine &diags);

/// Replaces every carriage return that does not start a CRLF with a line
/// feed; returns the buffer unchanged when it has none.
std::unique_ptr<llvm::MemoryBuffer> normaliseLineEnds(std::unique_ptr<llvm::MemoryBuffer> buffer);

/// Run by LLVM's signal handler on SIGINT, SIGTERM and the like: stops a
/// running stencilc-cfront, then ends stencilc by SIGTERM.
void forwardInterrupt();

struct CInputRequest {
  std::string inputFile;
  std::vector<std::string> compilerArgs; ///< after `--`
  bool warningsAsErrors = false;         ///< --Werror
  bool noWarnings = false;               ///< -w
  unsigned maxInputMiB = 256;
};

/// A place in the C source (Clang's presumed location: #line honoured).
struct CSourcePoint {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

struct CTranslation {
  /// The .stencil text, named "FILE (as .stencil)".
  std::unique_ptr<llvm::MemoryBuffer> text;
  /// The files read: the input and its #includes, system headers left out.
  std::vector<std::string> dependencies;
  /// Per line of the text (line 1 first), where in the C source it comes
  /// from; an empty file for a line that comes from nowhere.
  std::vector<CSourcePoint> lineOrigins;
};

/// Runs stencilc-cfront, found beside this executable, on a C/C++ file. Its
/// diagnostics are passed on to stderr; false after any error.
bool translateCSource(const char *argv0, const CInputRequest &request, CTranslation &result,
                      DiagnosticEngine &diags);

/// Parses stencilc-cfront's --locations records (NUL-ended fields:
/// translation line, C file, line, column) into `origins`.
void readLineOrigins(llvm::StringRef records, std::vector<CSourcePoint> &origins);

/// Makes `diags` report a location in the translation (buffer
/// `translationId`) at the place in the C source its line comes from; the C
/// files are loaded into `sourceMgr`, which must outlive `diags`' use.
void pointIntoCSource(llvm::SourceMgr &sourceMgr, unsigned translationId,
                      llvm::ArrayRef<CSourcePoint> origins, DiagnosticEngine &diags);

} // namespace stencilc::driver
