//===- Suggest.h - "Did you mean ...?" by edit distance ---------*- C++ -*-===//
//
// The fix-its of the front ends name the known word nearest a misspelt one,
// by edit distance (a swap of two letters counting as one edit), when it is
// near enough to be a likely typo.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace stencilc {

/// The edits that turn `a` into `b`: insertions, deletions, replacements
/// and swaps of two neighbouring characters, one each (optimal string
/// alignment: no substring is edited twice).
unsigned editDistance(llvm::StringRef a, llvm::StringRef b);

/// The most edits a word of `length` characters may be from a candidate for
/// the candidate to be suggested: a third of the word, and at least one;
/// none for a word of one letter.
unsigned maxSuggestionDistance(size_t length);

/// The candidate nearest `word` by edit distance, if it is within
/// maxSuggestionDistance(word.size()) and no other candidate is as near
/// (a tie suggests nothing); never `word` itself. Case differences count as
/// edits.
std::optional<std::string> closestMatch(llvm::StringRef word,
                                        llvm::ArrayRef<std::string_view> candidates);

} // namespace stencilc
