//===- Diagnostics.cpp - Printing and counting diagnostics ----------------===//
#include "stencilc/Diagnostics.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

namespace stencilc {

DiagnosticEngine::DiagnosticEngine(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), os(os) {}

void DiagnosticEngine::report(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                              const llvm::Twine &message, llvm::ArrayRef<llvm::SMRange> ranges) {
  if (kind == llvm::SourceMgr::DK_Error) {
    ++errors;
    lastSuppressed = errors > errorLimit;
    if (lastSuppressed) {
      return;
    }
  }
  if (!reportOnLongLine(loc, kind, message, ranges)) {
    sourceMgr.PrintMessage(os, loc, kind, message, ranges);
  }
}

bool DiagnosticEngine::reportOnLongLine(llvm::SMLoc loc, llvm::SourceMgr::DiagKind kind,
                                        const llvm::Twine &message,
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
  const char *end = caret;
  while (!endsLine(end) && static_cast<size_t>(end - lineStart) <= MaxShownColumns) {
    ++end;
  }
  if (endsLine(end) && static_cast<size_t>(end - lineStart) <= MaxShownColumns) {
    return false; // a short line: SourceMgr prints it whole
  }
  const size_t half = MaxShownColumns / 2;
  const char *start = static_cast<size_t>(caret - lineStart) > half ? caret - half : lineStart;
  end = caret;
  while (!endsLine(end) && static_cast<size_t>(end - caret) < half) {
    ++end;
  }
  const bool lineGoesOn = !endsLine(end);
  std::string shown = start != lineStart ? "..." : "";
  const size_t shift = shown.size();
  shown.append(start, end);
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
      columnRanges.emplace_back(shift + (from - start), shift + (to - start));
    }
  }
  // The location is printed here, with the real column; the diagnostic's own
  // column is the caret's place in the window.
  llvm::StringRef file = buffer.getBufferIdentifier();
  llvm::WithColor(os, llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true)
      << (file == "-" ? llvm::StringRef("<stdin>") : file) << ':' << line << ':' << column << ": ";
  llvm::SMDiagnostic diagnostic(sourceMgr, loc, "", static_cast<int>(line),
                                static_cast<int>(shift + (caret - start)), kind, message.str(),
                                shown, columnRanges);
  diagnostic.print(nullptr, os, /*ShowColors=*/true, /*ShowKindLabel=*/true,
                   /*ShowLocation=*/false);
  return true;
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
  if (errors > errorLimit) {
    os << "stencilc: note: " << (errors - errorLimit) << " more errors were not shown (" << errors
       << " in all)\n";
  }
  os.flush();
}

} // namespace stencilc
