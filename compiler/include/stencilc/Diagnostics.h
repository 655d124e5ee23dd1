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

#include <cstddef>
#include <string>
#include <utility>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace stencilc {

/// Line and column of many locations, for callers that visit them in file
/// order (the AST printer, Sema, diagnostics on long lines). Moving forward costs
/// only the bytes passed over, so a whole file costs one pass, where
/// SourceMgr::getLineAndColumn scans back to the start of the line each time:
/// quadratic when a long file is one line. The numbering is SourceMgr's (lines
/// count '\n'; columns restart after '\n' or '\r'), and a location before the
/// last one asked for is answered by SourceMgr.
class SourcePositions {
public:
  explicit SourcePositions(const llvm::SourceMgr &sourceMgr) : sourceMgr(sourceMgr) {}

  std::pair<unsigned, unsigned> lineAndColumn(llvm::SMLoc loc);

private:
  const llvm::SourceMgr &sourceMgr;
  unsigned bufferId = 0;
  const char *bufferStart = nullptr;
  size_t offset = 0;     ///< how far the buffer has been scanned
  unsigned line = 1;     ///< line number at `offset`
  size_t columnBase = 0; ///< offset just past the last line break before `offset`
};

class DiagnosticEngine {
public:
  /// Errors past this many are counted but not printed (0: no limit).
  static constexpr unsigned DefaultErrorLimit = 50;
  /// Warnings and notes that belong to no error or warning past this many
  /// are counted but not printed (0: no limit).
  static constexpr unsigned DefaultNoteLimit = 50;
  /// A name (a run of letters, digits and '_') longer than this is cut to
  /// this many characters and "..." in a message.
  static constexpr unsigned MaxNameInMessage = 64;
  /// A source line longer than this is shown as a window of this width
  /// around the caret, so diagnostics on a huge line stay small.
  static constexpr unsigned MaxShownColumns = 240;

  DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

  void error(llvm::SMLoc loc, const llvm::Twine &message,
             llvm::ArrayRef<llvm::SMRange> ranges = {});
  void warning(llvm::SMLoc loc, const llvm::Twine &message,
               llvm::ArrayRef<llvm::SMRange> ranges = {});
  /// A note attaches to the error or warning just reported; it is dropped
  /// when that diagnostic was suppressed by its limit.
  void note(llvm::SMLoc loc, const llvm::Twine &message);
  /// A note of its own (not about the last error or warning), counted
  /// against the note limit like a warning.
  void standaloneNote(llvm::SMLoc loc, const llvm::Twine &message);
  /// An error that has no place in a source buffer (a missing file, a bad
  /// flag value): printed as `stencilc: error: message`.
  void fatalWithoutLocation(const llvm::Twine &message);

  void setWarningsAsErrors(bool on) { warningsAsErrors = on; }
  void setErrorLimit(unsigned limit) { errorLimit = limit; }
  void setNoteLimit(unsigned limit) { noteLimit = limit; }

  unsigned errorCount() const { return errors; }
  unsigned warningCount() const { return warnings; }
  bool hasErrors() const { return errors != 0; }

  /// Says how many errors, warnings and notes the limits kept back.
  void finish();

  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  void report(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message,
              llvm::ArrayRef<llvm::SMRange> ranges);
  /// Prints a diagnostic whose source line is longer than MaxShownColumns
  /// or holds control characters, as a window of the line with those
  /// characters escaped; returns false, printing nothing, for a short,
  /// plain line.
  bool reportInWindow(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const std::string &message,
                      llvm::ArrayRef<llvm::SMRange> ranges);
  /// Whether one more warning or standalone note may be printed.
  bool takeNoteSlot();

  llvm::SourceMgr &sourceMgr;
  SourcePositions positions{sourceMgr};
  llvm::raw_ostream &os;
  unsigned errors = 0;
  unsigned warnings = 0;
  unsigned errorLimit = DefaultErrorLimit;
  unsigned notesShown = 0;      ///< warnings and standalone notes printed
  unsigned notesSuppressed = 0; ///< and those kept back by the note limit
  unsigned noteLimit = DefaultNoteLimit;
  bool warningsAsErrors = false;
  bool lastSuppressed = false;
};

} // namespace stencilc

/// Marks a point the compiler's own logic must never reach. Reaching it is a
/// bug in stencilc, never a user error.
#define STENCILC_UNREACHABLE(msg) ::llvm::llvm_unreachable_internal(msg, __FILE__, __LINE__)
