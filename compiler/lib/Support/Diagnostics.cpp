//===- Diagnostics.cpp - Printing and counting diagnostics ----------------===//
#include "stencilc/Diagnostics.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include "stencilc/PrintableText.h"

namespace stencilc {

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), os(os) {}

namespace {

bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/// A message as printed: control characters escaped, and every name longer
/// than MaxNameInMessage cut, so that a huge identifier is not repeated
/// whole in every diagnostic that names it.
std::string shownMessage(llvm::StringRef message) {
  std::string out;
  out.reserve(std::min<size_t>(message.size(), 4096));
  for (size_t i = 0; i < message.size();) {
    size_t j = i;
    while (j < message.size() && isNameChar(message[j])) {
      ++j;
    }
    if (j == i) {
      appendPrintable(out, message[i++]);
      continue;
    }
    llvm::StringRef name = message.slice(i, j);
    if (name.size() > DiagnosticEngine::MaxNameInMessage) {
      out += name.take_front(DiagnosticEngine::MaxNameInMessage);
      out += "...";
    } else {
      out += name;
    }
    i = j;
  }
  return out;
}

} // namespace

void DiagnosticEngine::report(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                              const llvm::Twine &message, llvm::ArrayRef<llvm::SMRange> ranges,
                              llvm::ArrayRef<llvm::SMFixIt> fixIts) {
  if (kind == llvm::SourceMgr::DK_Error) {
    ++errors;
    lastSuppressed = errorLimit != 0 && errors > errorLimit;
    if (lastSuppressed) {
      return;
    }
  }
  if (locationMap) {
    if (llvm::SMLoc mapped = locationMap(loc); mapped != loc) {
      loc = mapped;
      ranges = {};
      fixIts = {};
    }
  }
  std::string text = shownMessage(message.str());
  // A line shown as a window drops the fix-its: their columns are the line's.
  if (!reportInWindow(loc, kind, text, ranges)) {
    sourceMgr.PrintMessage(os, loc, kind, text, ranges, fixIts);
  }
}

bool DiagnosticEngine::reportInWindow(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                                      const std::string &message,
                                      llvm::ArrayRef<llvm::SMRange> ranges) {
  unsigned id = loc.isValid() ? sourceMgr.FindBufferContainingLoc(loc) : 0;
  if (id == 0) {
    return false;
  }
  const llvm::MemoryBuffer &buffer = *sourceMgr.getMemoryBuffer(id);
  auto [line, column] = positions.lineAndColumn(loc);
  // Never look further than the window either side of the caret: the cost
  // of a diagnostic must not grow with the length of its line.
  const char *bufferEnd = buffer.getBufferEnd();
  auto endsLine = [bufferEnd](const char *p) { return p == bufferEnd || *p == '\n' || *p == '\r'; };
  const char *caret = loc.getPointer();
  const char *lineStart = caret - (column - 1);
  if (static_cast<size_t>(caret - lineStart) <= MaxShownColumns) {
    const char *end = lineStart;
    bool plain = true;
    while (!endsLine(end) && static_cast<size_t>(end - lineStart) <= MaxShownColumns) {
      plain &= !isControlByte(*end);
      ++end;
    }
    if (plain && endsLine(end) && static_cast<size_t>(end - lineStart) <= MaxShownColumns) {
      return false; // a short, plain line: SourceMgr prints it whole
    }
  }
  const size_t half = MaxShownColumns / 2;
  const char *start = static_cast<size_t>(caret - lineStart) > half ? caret - half : lineStart;
  const char *end = caret;
  while (!endsLine(end) && static_cast<size_t>(end - caret) < half) {
    ++end;
  }
  const bool lineGoesOn = !endsLine(end);
  // The window as shown, and where each of its bytes lands in it.
  std::string shown = start != lineStart ? "..." : "";
  std::vector<unsigned> columnOf(static_cast<size_t>(end - start) + 1);
  for (const char *p = start; p != end; ++p) {
    columnOf[p - start] = static_cast<unsigned>(shown.size());
    appendPrintable(shown, *p);
  }
  columnOf[end - start] = static_cast<unsigned>(shown.size());
  if (lineGoesOn) {
    shown += "...";
  }
  std::vector<std::pair<unsigned, unsigned>> columnRanges;
  for (llvm::SMRange range : ranges) {
    if (!range.isValid()) {
      continue;
    }
    const char *from = std::max(range.Start.getPointer(), start);
    const char *to = std::min(range.End.getPointer(), end);
    if (from < to) {
      columnRanges.emplace_back(columnOf[from - start], columnOf[to - start]);
    }
  }
  // The location is printed here, with the real column; the diagnostic's own
  // column is the caret's place in the window.
  llvm::StringRef file = buffer.getBufferIdentifier();
  llvm::WithColor(os, llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true)
      << printableText(file == "-" ? llvm::StringRef("<stdin>") : file) << ':' << line << ':'
      << column << ": ";
  llvm::SMDiagnostic diagnostic(sourceMgr, loc, "", static_cast<int>(line),
                                static_cast<int>(columnOf[caret - start]), kind, message, shown,
                                columnRanges);
  diagnostic.print(nullptr, os, /*ShowColors=*/true, /*ShowKindLabel=*/true,
                   /*ShowLocation=*/false);
  return true;
}

bool DiagnosticEngine::takeNoteSlot() {
  if (noteLimit != 0 && notesShown >= noteLimit) {
    ++notesSuppressed;
    return false;
  }
  ++notesShown;
  return true;
}

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message,
                             llvm::ArrayRef<llvm::SMRange> ranges,
                             llvm::ArrayRef<llvm::SMFixIt> fixIts) {
  report(loc, llvm::SourceMgr::DK_Error, message, ranges, fixIts);
}

llvm::ArrayRef<WarningInfo> warningTable() {
  static const WarningInfo table[] = {
#define STENCILC_WARNING(Id, Name, Help) {Warning::Id, Name, Help},
#include "stencilc/Warnings.def"
  };
  return table;
}

std::optional<Warning> findWarning(llvm::StringRef name) {
  for (const WarningInfo &info : warningTable()) {
    if (name == info.name) {
      return info.id;
    }
  }
  return std::nullopt;
}

bool DiagnosticEngine::applyWarningFlag(llvm::StringRef flag) {
  const bool on = !flag.consume_front("no-");
  const bool errorForm = !on && flag.consume_front("error=");
  std::optional<Warning> which = findWarning(flag);
  if (!which) {
    return false;
  }
  if (errorForm) {
    setWarningErrorUnderWerror(*which, false);
  } else {
    setWarningEnabled(*which, on);
  }
  return true;
}

void DiagnosticEngine::warning(Warning which, llvm::SMLoc loc, const llvm::Twine &message,
                               llvm::ArrayRef<llvm::SMRange> ranges) {
  const size_t i = index(which);
  if (warningsSilenced || disabled[i]) {
    return;
  }
  const std::string name = warningTable()[i].name;
  if (warningsAsErrors && !notError[i]) {
    report(loc, llvm::SourceMgr::DK_Error, message + " [-Werror,-W" + name + "]", ranges);
    return;
  }
  ++warnings;
  lastSuppressed = !takeNoteSlot();
  if (!lastSuppressed) {
    report(loc, llvm::SourceMgr::DK_Warning, message + " [-W" + name + "]", ranges);
  }
}

void DiagnosticEngine::remark(llvm::SMLoc loc, const llvm::Twine &message) {
  if (!remarksShown) {
    lastSuppressed = true; // and so are the notes that follow it
    return;
  }
  lastSuppressed = !takeNoteSlot();
  if (!lastSuppressed) {
    report(loc, llvm::SourceMgr::DK_Remark, message, {});
  }
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
  os << "stencilc: error: " << printableText(message.str()) << "\n";
}

void DiagnosticEngine::remarkWithoutLocation(const llvm::Twine &message) {
  if (remarksShown) {
    os << "stencilc: remark: " << printableText(message.str()) << "\n";
  }
}

std::pair<unsigned, unsigned> SourcePositions::lineAndColumn(llvm::SMLoc loc) {
  unsigned id = sourceMgr.FindBufferContainingLoc(loc);
  if (id == 0) {
    return {0, 0};
  }
  if (id != bufferId) {
    bufferId = id;
    bufferStart = sourceMgr.getMemoryBuffer(id)->getBufferStart();
    offset = 0;
    line = 1;
    columnBase = 0;
  }
  size_t target = static_cast<size_t>(loc.getPointer() - bufferStart);
  if (target < offset) {
    return sourceMgr.getLineAndColumn(loc, id);
  }
  for (; offset < target; ++offset) {
    char c = bufferStart[offset];
    if (c == '\n' || c == '\r') {
      line += c == '\n';
      columnBase = offset + 1;
    }
  }
  return {line, static_cast<unsigned>(target - columnBase + 1)};
}

void DiagnosticEngine::finish() {
  if (errorLimit != 0 && errors > errorLimit) {
    os << "stencilc: note: " << (errors - errorLimit) << " more errors were not shown (" << errors
       << " in all)\n";
  }
  if (notesSuppressed != 0) {
    os << "stencilc: note: " << notesSuppressed << " more warnings and remarks were not shown ("
       << (notesShown + notesSuppressed) << " in all)\n";
  }
  os.flush();
}

} // namespace stencilc
