//===- Diagnostics.h - The one diagnostics engine of stencilc ---*- C++ -*-===//
//
// Every stage reports user errors through a DiagnosticEngine: it prints
// `file:line:col: error: message`, the source line and a caret (through
// llvm::SourceMgr), counts errors, turns warnings into errors under -Werror,
// and never exits. Internal compiler bugs are not diagnostics: they are
// assertions (see STENCILC_UNREACHABLE).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace stencilc {

class DiagnosticEngine {
public:
  /// Errors past this many are counted but not printed.
  static constexpr unsigned DefaultErrorLimit = 50;

  DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

  void error(llvm::SMLoc loc, const llvm::Twine &message,
             llvm::ArrayRef<llvm::SMRange> ranges = {});
  void warning(llvm::SMLoc loc, const llvm::Twine &message,
               llvm::ArrayRef<llvm::SMRange> ranges = {});
  /// A note attaches to the error or warning just reported; it is dropped
  /// when that diagnostic was suppressed by the error limit.
  void note(llvm::SMLoc loc, const llvm::Twine &message);
  /// An error that has no place in a source buffer (a missing file, a bad
  /// flag value): printed as `stencilc: error: message`.
  void fatalWithoutLocation(const llvm::Twine &message);

  void setWarningsAsErrors(bool on) { warningsAsErrors = on; }
  void setErrorLimit(unsigned limit) { errorLimit = limit; }

  unsigned errorCount() const { return errors; }
  unsigned warningCount() const { return warnings; }
  bool hasErrors() const { return errors != 0; }

  /// Prints "N errors generated." when any error was reported past the limit.
  void finish();

  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  void report(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
              const llvm::Twine &message, llvm::ArrayRef<llvm::SMRange> ranges);

  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned errors = 0;
  unsigned warnings = 0;
  unsigned errorLimit = DefaultErrorLimit;
  bool warningsAsErrors = false;
  bool lastSuppressed = false;
};

} // namespace stencilc

/// Marks a point the compiler's own logic must never reach. Reaching it is a
/// bug in stencilc, never a user error.
#define STENCILC_UNREACHABLE(msg) ::llvm::llvm_unreachable_internal(msg, __FILE__, __LINE__)
