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

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
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

/// The warnings stencilc can give, each with a name for -W flags
/// (Warnings.def).
enum class Warning {
#define STENCILC_WARNING(Id, Name, Help) Id,
#include "stencilc/Warnings.def"
};

struct WarningInfo {
  Warning id;
  const char *name; ///< as in -Wname
  const char *help;
};

/// Every warning, in the order of Warnings.def.
llvm::ArrayRef<WarningInfo> warningTable();
/// The warning of that -W name, if any.
std::optional<Warning> findWarning(llvm::StringRef name);

class DiagnosticEngine {
public:
  /// Errors past this many are counted but not printed (0: no limit).
  static constexpr unsigned DefaultErrorLimit = 50;
  /// Warnings and remarks past this many are counted but not printed (0: no
  /// limit).
  static constexpr unsigned DefaultNoteLimit = 50;
  /// A name (a run of letters, digits and '_') longer than this is cut to
  /// this many characters and "..." in a message.
  static constexpr unsigned MaxNameInMessage = 64;
  /// A source line longer than this is shown as a window of this width
  /// around the caret, so diagnostics on a huge line stay small.
  static constexpr unsigned MaxShownColumns = 240;

  DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

  /// An error; `fixIts` are printed under the caret line, clang's way
  /// (the text to insert or to replace the range with).
  void error(llvm::SMLoc loc, const llvm::Twine &message, llvm::ArrayRef<llvm::SMRange> ranges = {},
             llvm::ArrayRef<llvm::SMFixIt> fixIts = {});
  /// A warning, shown with its `[-Wname]` unless -w or -Wno-name silence
  /// it, and an error (`[-Werror,-Wname]`) under --Werror.
  void warning(Warning which, llvm::SMLoc loc, const llvm::Twine &message,
               llvm::ArrayRef<llvm::SMRange> ranges = {});
  /// What an automatic choice was (a backend, say): printed as `remark:`
  /// only when remarks are on (-v), counted against the note limit.
  void remark(llvm::SMLoc loc, const llvm::Twine &message);
  /// A note attaches to the error or warning just reported; it is dropped
  /// when that diagnostic was suppressed by its limit.
  void note(llvm::SMLoc loc, const llvm::Twine &message);
  /// An error that has no place in a source buffer (a missing file, a bad
  /// flag value): printed as `stencilc: error: message`.
  void fatalWithoutLocation(const llvm::Twine &message);
  /// A remark about the invocation rather than the input (the architecture
  /// chosen for want of --arch): `stencilc: remark: message`, under -v.
  void remarkWithoutLocation(const llvm::Twine &message);

  void setWarningsAsErrors(bool on) { warningsAsErrors = on; }
  /// -w: no warning is shown or counted, not even under --Werror.
  void setWarningsSilenced(bool on) { warningsSilenced = on; }
  /// -Wname (on) and -Wno-name (off).
  void setWarningEnabled(Warning which, bool on) { disabled[index(which)] = !on; }
  /// -Wno-error=name (off): the warning stays a warning under --Werror.
  void setWarningErrorUnderWerror(Warning which, bool on) { notError[index(which)] = !on; }
  /// Applies one -W flag's text (after the W): `name`, `no-name` or
  /// `no-error=name`; false for a name no warning has.
  bool applyWarningFlag(llvm::StringRef flag);
  void setRemarksShown(bool on) { remarksShown = on; }
  /// Reports every diagnostic at `map(loc)` instead of `loc` (a C input's
  /// translation mapped back to the C file); where it moves a location, the
  /// diagnostic's ranges and fix-its, which belong to the old text, are
  /// dropped.
  void setLocationMap(std::function<llvm::SMLoc(llvm::SMLoc)> map) { locationMap = std::move(map); }
  void setErrorLimit(unsigned limit) { errorLimit = limit; }
  void setNoteLimit(unsigned limit) { noteLimit = limit; }

  unsigned errorCount() const { return errors; }
  unsigned warningCount() const { return warnings; }
  bool hasErrors() const { return errors != 0; }
  /// Whether the next error will be printed (not past the error limit): a
  /// costly suggestion is looked for only then.
  bool nextErrorShown() const { return errorLimit == 0 || errors < errorLimit; }

  /// Says how many errors, warnings and remarks the limits kept back.
  void finish();

  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  void report(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const llvm::Twine &message,
              llvm::ArrayRef<llvm::SMRange> ranges, llvm::ArrayRef<llvm::SMFixIt> fixIts = {});
  /// Prints a diagnostic whose source line is longer than MaxShownColumns
  /// or holds control characters, as a window of the line with those
  /// characters escaped; returns false, printing nothing, for a short,
  /// plain line.
  bool reportInWindow(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind, const std::string &message,
                      llvm::ArrayRef<llvm::SMRange> ranges);
  /// Whether one more warning or standalone note may be printed.
  bool takeNoteSlot();
  static size_t index(Warning which) { return static_cast<size_t>(which); }
  static constexpr size_t WarningCount = 0
#define STENCILC_WARNING(Id, Name, Help) +1
#include "stencilc/Warnings.def"
      ;

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
  bool warningsSilenced = false;
  bool remarksShown = false;
  std::function<llvm::SMLoc(llvm::SMLoc)> locationMap;
  std::array<bool, WarningCount> disabled{};
  std::array<bool, WarningCount> notError{};
  bool lastSuppressed = false;
};

} // namespace stencilc

/// Marks a point the compiler's own logic must never reach. Reaching it is a
/// bug in stencilc, never a user error.
#define STENCILC_UNREACHABLE(msg) ::llvm::llvm_unreachable_internal(msg, __FILE__, __LINE__)
