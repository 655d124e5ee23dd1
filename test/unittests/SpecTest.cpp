// Unit tests of the StencilSpec Sema produces: inference of dims, radius and
// shape, defaults, both body forms, and the printed form.
#include <gtest/gtest.h>

#include "llvm/Support/raw_ostream.h"

#include "FrontendTestUtil.h"

using namespace stencilc;
using stencilc::testing::compileText;

namespace {

TEST(Spec, DefaultsAreFp32AndFixed) {
  auto c = compileText("stencil s { out[i, j] = in[i-1, j] + in[i+1, j]; }");
  ASSERT_EQ(c.specs.size(), 1u) << c.diagnostics;
  const StencilSpec &s = c.specs[0];
  EXPECT_EQ(s.precision, Precision::FP32);
  EXPECT_EQ(s.boundary, BoundaryKind::Fixed);
  EXPECT_EQ(s.dims, 2);
  EXPECT_EQ(s.radius, 1);
  EXPECT_EQ(s.shape, Shape::Star);
}

TEST(Spec, BoxIsInferredFromOffAxisReads) {
  auto c = compileText("stencil s { out[z, y, x] = in[z, y-2, x] + in[z+1, y+1, x]; }");
  ASSERT_EQ(c.specs.size(), 1u) << c.diagnostics;
  EXPECT_EQ(c.specs[0].dims, 3);
  EXPECT_EQ(c.specs[0].radius, 2);
  EXPECT_EQ(c.specs[0].shape, Shape::Box);
}

TEST(Spec, TableAndUpdateFormsAgree) {
  auto table = compileText(R"(stencil t { precision fp64; boundary periodic;
      weights [[0, 0.25, 0], [0.25, 0, 0.25], [0, 0.25, 0]]; })");
  auto update = compileText(R"(stencil u { precision fp64; boundary periodic;
      out[a, b] = 0.25 * (in[a-1, b] + in[a+1, b] + in[a, b-1] + in[a, b+1]); })");
  ASSERT_EQ(table.specs.size(), 1u) << table.diagnostics;
  ASSERT_EQ(update.specs.size(), 1u) << update.diagnostics;
  const StencilSpec &t = table.specs[0], &u = update.specs[0];
  EXPECT_EQ(t.shape, Shape::Star);
  EXPECT_EQ(t.radius, u.radius);
  ASSERT_EQ(t.terms.size(), u.terms.size());
  for (size_t k = 0; k < t.terms.size(); ++k) {
    EXPECT_EQ(t.terms[k].offset, u.terms[k].offset);
    EXPECT_EQ(t.terms[k].coefficient, u.terms[k].coefficient);
  }
}

TEST(Spec, TableRowsAreTheOuterIndex) {
  auto c = compileText("stencil t { weights [[1, 2, 3], [4, 5, 6], [7, 8, 9]]; }");
  ASSERT_EQ(c.specs.size(), 1u) << c.diagnostics;
  EXPECT_EQ(c.specs[0].coefficient(Offset{{-1, 1, 0}}), 3.0);
  EXPECT_EQ(c.specs[0].coefficient(Offset{{1, -1, 0}}), 7.0);
  EXPECT_EQ(c.specs[0].points(), 9u);
}

TEST(Spec, TermsAreSortedAndUnique) {
  auto c = compileText("stencil s { out[i] = in[i+1] + in[i-1] + in[i+1] + in[i]; }");
  ASSERT_EQ(c.specs.size(), 1u);
  const auto &terms = c.specs[0].terms;
  for (size_t k = 1; k < terms.size(); ++k) {
    EXPECT_LT(terms[k - 1].offset, terms[k].offset);
  }
}

TEST(Spec, ConstantBoundaryKeepsItsValue) {
  auto c = compileText("stencil s { boundary constant -1.5; out[i] = in[i-1] + in[i+1]; }");
  ASSERT_EQ(c.specs.size(), 1u) << c.diagnostics;
  EXPECT_EQ(c.specs[0].boundary, BoundaryKind::Constant);
  EXPECT_EQ(c.specs[0].boundaryValue, -1.5);
}

TEST(Spec, PrintedFormIsStable) {
  auto c = compileText("stencil h { precision fp16; out[i] = 0.5*in[i-1] + 0.5*in[i+1]; }");
  ASSERT_EQ(c.specs.size(), 1u);
  std::string text;
  llvm::raw_string_ostream os(text);
  printSpec(c.specs[0], os);
  EXPECT_EQ(os.str(), "stencil h\n  dims      1\n  radius    1\n  shape     star\n"
                      "  precision fp16\n  boundary  fixed\n  points    2\n"
                      "  coefficient (-1) = 0.5\n  coefficient (1) = 0.5\n");
}

TEST(Spec, ExactFormatRoundTrips) {
  for (double v : {0.1, 1.0 / 3.0, 1e-300, 123456789.125, -0.0625}) {
    EXPECT_EQ(std::strtod(formatExact(v).c_str(), nullptr), v);
  }
  EXPECT_EQ(formatExact(0.125), "0.125");
}

// A coefficient is finite as a kernel's operand up to the format's largest
// value and what rounds to it: fp16 65504, and below 65520 (half-way to
// the next power, where ties go to even, 2^16: inf); bf16, tf32 and fp32
// reach 3.4e38, fp64 its own.
TEST(Spec, RoundsToFiniteOperandAtEachFormatsEdge) {
  EXPECT_TRUE(roundsToFiniteOperand(65504.0, Precision::FP16));
  EXPECT_TRUE(roundsToFiniteOperand(-65519.0, Precision::FP16));
  EXPECT_FALSE(roundsToFiniteOperand(65520.0, Precision::FP16));
  EXPECT_FALSE(roundsToFiniteOperand(-1e6, Precision::FP16));
  for (Precision p : {Precision::BF16, Precision::TF32, Precision::FP32}) {
    EXPECT_TRUE(roundsToFiniteOperand(1e6, p)) << keyword(p);
    EXPECT_TRUE(roundsToFiniteOperand(3.3e38, p)) << keyword(p);
    EXPECT_FALSE(roundsToFiniteOperand(3.5e38, p)) << keyword(p);
  }
  EXPECT_TRUE(roundsToFiniteOperand(1e300, Precision::FP64));
}

} // namespace
