//===- Suggest.cpp - "Did you mean ...?" by edit distance -----------------===//
#include "stencilc/Suggest.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace stencilc {

unsigned editDistance(llvm::StringRef a, llvm::StringRef b) {
  // Optimal string alignment: three rows of the dynamic programme suffice.
  std::vector<unsigned> beforePrevious(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) {
    previous[j] = static_cast<unsigned>(j);
  }
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = static_cast<unsigned>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const unsigned substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], beforePrevious[j - 2] + 1);
      }
    }
    std::swap(beforePrevious, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

unsigned maxSuggestionDistance(size_t length) {
  if (length <= 1) {
    return 0; // any one letter is one edit from any other: no evidence
  }
  return std::max<unsigned>(1, static_cast<unsigned>(length / 3));
}

std::optional<std::string> closestMatch(llvm::StringRef word,
                                        llvm::ArrayRef<std::string_view> candidates) {
  const unsigned limit = maxSuggestionDistance(word.size());
  unsigned best = std::numeric_limits<unsigned>::max();
  std::optional<std::string> match;
  bool tie = false;
  for (std::string_view candidate : candidates) {
    llvm::StringRef c(candidate.data(), candidate.size());
    if (c == word) {
      continue;
    }
    // Words far longer or shorter than the limit allows cost nothing to skip.
    const size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap > limit) {
      continue;
    }
    unsigned distance = editDistance(word, c);
    if (distance > limit) {
      continue;
    }
    if (distance < best) {
      best = distance;
      match = c.str();
      tie = false;
    } else if (distance == best && *match != c) {
      tie = true;
    }
  }
  if (tie) {
    return std::nullopt;
  }
  return match;
}

} // namespace stencilc
