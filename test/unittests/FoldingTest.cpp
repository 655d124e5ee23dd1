// Unit tests of coefficient folding: exact decimal arithmetic, rounded once.
#include <gtest/gtest.h>

#include <cmath>

#include "FrontendTestUtil.h"

using namespace stencilc;
using stencilc::testing::compileText;

namespace {

double centreOf(const std::string &coefficientExpr, const std::string &lets = "") {
  auto c = compileText("stencil s { precision fp64; " + lets + " out[i] = (" + coefficientExpr +
                       ") * in[i] + in[i+1]; }");
  EXPECT_EQ(c.errors, 0u) << c.diagnostics;
  if (c.specs.size() != 1) {
    return std::nan("");
  }
  return c.specs[0].coefficient(Offset{{0, 0, 0}});
}

TEST(Folding, DecimalsAreExactNotDoubleArithmetic) {
  // In double arithmetic 0.1 + 0.2 is 0.30000000000000004.
  EXPECT_EQ(centreOf("0.1 + 0.2"), 0.3);
  EXPECT_EQ(centreOf("1 - 0.9"), 0.1);
}

TEST(Folding, DivisionRoundsOnce) {
  EXPECT_EQ(centreOf("1 / 3"), 1.0 / 3.0);
  EXPECT_EQ(centreOf("2 / 3"), 2.0 / 3.0);
}

TEST(Folding, LetConstantsAndPrecedence) {
  EXPECT_EQ(centreOf("a * 2 + b / 4", "let a = 0.25; let b = -1;"), 0.25);
  EXPECT_EQ(centreOf("-(a - 1) * 3", "let a = 0.5;"), 1.5);
  EXPECT_EQ(centreOf("1e-3 * 1e3"), 1.0);
}

TEST(Folding, MatchesAFloat64ReferenceTo1e12) {
  // A twenty-term sum whose double evaluation accumulates rounding error.
  std::string expr;
  double reference = 0;
  for (int k = 1; k <= 20; ++k) {
    expr += (k > 1 ? " + " : "") + std::string("1/") + std::to_string(k);
    reference += 1.0 / k;
  }
  double folded = centreOf(expr);
  EXPECT_NEAR(folded, reference, 1e-12 * std::abs(reference));
}

TEST(Folding, ReadsAtTheSameOffsetAddUp) {
  auto c = compileText("stencil s { out[i] = 0.25*in[i-1] + 0.5*in[i] + 0.25*in[i-1] "
                       "+ in[i+1] - in[i+1] + in[i+1]; }");
  ASSERT_EQ(c.specs.size(), 1u) << c.diagnostics;
  EXPECT_EQ(c.specs[0].coefficient(Offset{{-1, 0, 0}}), 0.5);
  EXPECT_EQ(c.specs[0].coefficient(Offset{{1, 0, 0}}), 1.0);
  EXPECT_EQ(c.specs[0].points(), 3u);
}

TEST(Folding, CancelledReadsAreDropped) {
  auto c = compileText("stencil s { out[i] = in[i-2] - in[i-2] + in[i-1] + in[i+1]; }");
  ASSERT_EQ(c.specs.size(), 1u) << c.diagnostics;
  EXPECT_EQ(c.specs[0].radius, 1);
  EXPECT_EQ(c.specs[0].points(), 2u);
}

TEST(Folding, DistributesOverParentheses) {
  auto c = compileText("stencil s { out[i, j] = 0.125 * (in[i-1, j] + in[i+1, j]) * 2; }");
  ASSERT_EQ(c.specs.size(), 1u) << c.diagnostics;
  EXPECT_EQ(c.specs[0].coefficient(Offset{{-1, 0, 0}}), 0.25);
  EXPECT_EQ(c.specs[0].coefficient(Offset{{1, 0, 0}}), 0.25);
}

TEST(Folding, LongSumsDoNotRecurse) {
  // 200000 terms: a left-deep tree far deeper than the stack allows.
  std::string body = "in[i-1]";
  for (int k = 0; k < 200000; ++k) {
    body += " + in[i+1]";
  }
  auto c = compileText("stencil s { precision fp64; out[i] = " + body + "; }");
  ASSERT_EQ(c.specs.size(), 1u) << c.diagnostics.substr(0, 500);
  EXPECT_EQ(c.specs[0].coefficient(Offset{{1, 0, 0}}), 200000.0);
}

TEST(Folding, Fp16UnderflowWarnsAndOverflowIsAnError) {
  auto small = compileText("stencil s { precision fp16; out[i] = 1e-9*in[i-1] + in[i+1]; }");
  EXPECT_EQ(small.errors, 0u);
  EXPECT_EQ(small.warnings, 1u);
  auto large = compileText("stencil s { precision fp16; out[i] = 70000*in[i-1] + in[i+1]; }");
  EXPECT_EQ(large.errors, 1u);
  EXPECT_NE(large.diagnostics.find("overflows fp16"), std::string::npos);
}

} // namespace
