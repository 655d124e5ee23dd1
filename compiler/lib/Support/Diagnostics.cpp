//===- Diagnostics.cpp - Printing and counting diagnostics ----------------===//
#include "stencilc/Diagnostics.h"

#include "llvm/Support/ErrorHandling.h"

namespace stencilc {

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &sourceMgr,
                                   llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), os(os) {}

void DiagnosticEngine::report(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                              const llvm::Twine &message,
                              llvm::ArrayRef<llvm::SMRange> ranges) {
  if (kind == llvm::SourceMgr::DK_Error) {
    ++errors;
    lastSuppressed = errors > errorLimit;
    if (lastSuppressed) {
      return;
    }
  }
  sourceMgr.PrintMessage(os, loc, kind, message, ranges);
}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges) {
  report(loc, llvm::SourceMgr::DK_Error, message, ranges);
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message,
                               llvm::ArrayRef<llvm::SMRange> ranges) {
  if (warningsAsErrors) {
    report(loc, llvm::SourceMgr::DK_Error, message + " [-Werror]", ranges);
    return;
  }
  ++warnings;
  lastSuppressed = false;
  report(loc, llvm::SourceMgr::DK_Warning, message, ranges);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (lastSuppressed) {
    return;
  }
  report(loc, llvm::SourceMgr::DK_Note, message, {});
}

void DiagnosticEngine::fatalWithoutLocation(const llvm::Twine &message) {
  ++errors;
  lastSuppressed = false;
  os << "stencilc: error: " << message << "\n";
}

void DiagnosticEngine::finish() {
  if (errors > errorLimit) {
    os << "stencilc: note: " << (errors - errorLimit)
       << " more errors were not shown (" << errors << " in all)\n";
  }
  os.flush();
}

} // namespace stencilc
