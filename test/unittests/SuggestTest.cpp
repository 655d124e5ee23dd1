//===- SuggestTest.cpp - Edit-distance suggestions ------------------------===//
#include "stencilc/Suggest.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

using stencilc::closestMatch;
using stencilc::editDistance;
using stencilc::maxSuggestionDistance;

namespace {

const std::vector<std::string_view> Keywords = {"stencil", "precision", "boundary", "let",
                                                "shape",   "radius",    "dims",     "weights"};

TEST(EditDistance, CountsEachKindOfEditOnce) {
  EXPECT_EQ(editDistance("", ""), 0u);
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("abc", ""), 3u);
  EXPECT_EQ(editDistance("precison", "precision"), 1u); // insertion
  EXPECT_EQ(editDistance("precision", "precison"), 1u); // deletion
  EXPECT_EQ(editDistance("fp63", "fp64"), 1u);          // replacement
  EXPECT_EQ(editDistance("alpah", "alpha"), 1u);        // swap
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(editDistance("ca", "abc"), 3u); // optimal string alignment, not full Damerau (2)
}

TEST(Suggest, OneDeletion) {
  EXPECT_EQ(closestMatch("precison", Keywords), "precision");
  EXPECT_EQ(closestMatch("bondary", Keywords), "boundary");
}

TEST(Suggest, SwapAndReplacement) {
  EXPECT_EQ(closestMatch("raidus", Keywords), "radius");
  EXPECT_EQ(closestMatch("weigths", Keywords), "weights");
  EXPECT_EQ(closestMatch("dim", Keywords), "dims");
}

TEST(Suggest, TooFarSuggestsNothing) {
  EXPECT_EQ(closestMatch("out", Keywords), std::nullopt);
  EXPECT_EQ(closestMatch("banana", Keywords), std::nullopt);
  EXPECT_EQ(closestMatch("", Keywords), std::nullopt);
}

TEST(Suggest, ExactWordIsNotSuggested) { EXPECT_EQ(closestMatch("let", Keywords), std::nullopt); }

TEST(Suggest, TieSuggestsNothing) {
  const std::vector<std::string_view> indices = {"i", "j", "k"};
  EXPECT_EQ(closestMatch("x", indices), std::nullopt);
  const std::vector<std::string_view> letters = {"c"};
  EXPECT_EQ(closestMatch("x", letters), std::nullopt); // one letter: no evidence
  const std::vector<std::string_view> two = {"i", "j"};
  EXPECT_EQ(closestMatch("ii", two), "i");
}

TEST(Suggest, CaseCounts) {
  const std::vector<std::string_view> precisions = {"fp16", "bf16", "tf32", "fp32", "fp64"};
  // Two edits; a word of four letters may be one away.
  EXPECT_EQ(closestMatch("FP64", precisions), std::nullopt);
  EXPECT_EQ(closestMatch("fp63", precisions), "fp64");
  // One edit from both fp32 and fp64: a tie.
  EXPECT_EQ(closestMatch("fp62", precisions), std::nullopt);
}

TEST(Suggest, LimitGrowsWithLength) {
  EXPECT_EQ(maxSuggestionDistance(1), 0u);
  EXPECT_EQ(maxSuggestionDistance(2), 1u);
  EXPECT_EQ(maxSuggestionDistance(5), 1u);
  EXPECT_EQ(maxSuggestionDistance(6), 2u);
  EXPECT_EQ(maxSuggestionDistance(9), 3u);
}

} // namespace
