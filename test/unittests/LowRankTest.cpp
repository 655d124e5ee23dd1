// Unit tests of the exact low-rank analysis (LowRank.h): rationals recovered
// from doubles, the exact decomposition (which must sum back to the matrix
// exactly), the modular full-rank test, the 3D separable structure and the
// operation counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "stencilc/LowRank.h"

#include "FrontendTestUtil.h"

using namespace stencilc;
using stencilc::testing::compileText;

namespace stencilc {
/// GoogleTest prints a rational as its text.
void PrintTo(const Rational &r, std::ostream *os) { *os << r.text(); }
} // namespace stencilc

namespace {

Rational ratio(int64_t num, int64_t den) {
  return Rational(llvm::DynamicAPInt(num), llvm::DynamicAPInt(den));
}

/// Whether `r` rounds to `x`: it lies within half the gap to each
/// neighbour, checked in rational arithmetic.
bool roundsTo(const Rational &r, double x) {
  const Rational exact = Rational::exactly(x);
  const Rational below = Rational::exactly(std::nextafter(x, -INFINITY));
  const Rational above = Rational::exactly(std::nextafter(x, INFINITY));
  return (below + exact) / 2 < r && r < (exact + above) / 2;
}

TEST(Rational, SimplestRoundingRecoversShortFractions) {
  EXPECT_EQ(Rational::simplestRoundingTo(0.5 / 24), ratio(1, 48));
  EXPECT_EQ(Rational::simplestRoundingTo(0.083), ratio(83, 1000));
  EXPECT_EQ(Rational::simplestRoundingTo(121.0 / 15900), ratio(121, 15900));
  EXPECT_EQ(Rational::simplestRoundingTo(-7.0 / 118), ratio(-7, 118));
  EXPECT_EQ(Rational::simplestRoundingTo(1.0 / 3), ratio(1, 3));
  EXPECT_EQ(Rational::simplestRoundingTo(0.1), ratio(1, 10));
  EXPECT_EQ(Rational::simplestRoundingTo(3.0), Rational(3));
  EXPECT_EQ(Rational::simplestRoundingTo(0.0), Rational(0));
  EXPECT_EQ(Rational::simplestRoundingTo(0x1p60).text(), "1152921504606846976");
  EXPECT_EQ(Rational::simplestRoundingTo(-0.0625).text(), "-1/16");
}

TEST(Rational, SimplestRoundingRoundsBack) {
  std::mt19937_64 gen(35);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int k = 0; k < 2000; ++k) {
    // Every scale, the smallest subnormals included (the 128-bit path and
    // the arbitrary-precision one).
    const double x = std::ldexp(unit(gen), static_cast<int>(gen() % 2100) - 1075);
    if (x == 0 || std::floor(x) == x) {
      continue;
    }
    EXPECT_TRUE(roundsTo(Rational::simplestRoundingTo(x), x)) << x;
  }
  EXPECT_TRUE(roundsTo(Rational::simplestRoundingTo(4.9406564584124654e-324), 4.9e-324));
}

/// The sum of the terms, row-major.
std::vector<Rational> sumOf(const std::vector<RankOneTerm> &terms, int rows, int cols) {
  std::vector<Rational> m(static_cast<size_t>(rows * cols));
  for (const RankOneTerm &t : terms) {
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        m[r * cols + c] = m[r * cols + c] + t.scale * t.column[r] * t.row[c];
      }
    }
  }
  return m;
}

std::vector<Rational> integers(std::initializer_list<int64_t> values, const Rational &scale) {
  std::vector<Rational> m;
  for (int64_t v : values) {
    m.push_back(Rational(v) * scale);
  }
  return m;
}

std::string vectorText(const std::vector<Rational> &v) {
  std::string s;
  for (const Rational &x : v) {
    if (!s.empty()) {
      s += " ";
    }
    s += x.text();
  }
  return s;
}

TEST(Decompose, BinomialBlurIsOneIntegerTerm) {
  const std::vector<Rational> m =
      integers({1, 4, 6, 4, 1, 4, 16, 24, 16, 4, 6, 24, 36, 24, 6, 4, 16, 24, 16, 4, 1, 4, 6, 4, 1},
               ratio(1, 256));
  const auto terms = decomposeExact(m, 5, 5);
  ASSERT_TRUE(terms);
  ASSERT_EQ(terms->size(), 1u);
  EXPECT_EQ((*terms)[0].scale, ratio(1, 256));
  EXPECT_EQ(vectorText((*terms)[0].column), "1 4 6 4 1");
  EXPECT_EQ(vectorText((*terms)[0].row), "1 4 6 4 1");
  EXPECT_EQ(sumOf(*terms, 5, 5), m);
}

TEST(Decompose, SobelAndUniformBoxAreOneTerm) {
  const std::vector<Rational> sobel = integers({1, 0, -1, 2, 0, -2, 1, 0, -1}, Rational(1));
  const auto s = decomposeExact(sobel, 3, 3);
  ASSERT_TRUE(s && s->size() == 1u);
  EXPECT_EQ(vectorText((*s)[0].column) + " | " + vectorText((*s)[0].row), "1 2 1 | 1 0 -1");
  EXPECT_EQ(sumOf(*s, 3, 3), sobel);
  const std::vector<Rational> box(49, ratio(1, 49));
  const auto b = decomposeExact(box, 7, 7);
  ASSERT_TRUE(b && b->size() == 1u);
  EXPECT_EQ((*b)[0].scale, ratio(1, 49));
  EXPECT_EQ(vectorText((*b)[0].column), "1 1 1 1 1 1 1");
}

TEST(Decompose, EbisuBoxesHaveTheirRanks) {
  const std::vector<Rational> box25 = integers(
      {1, 2, 3, 4, 5, 7, 7, 5, 7, 6, 8, 12, 15, 12, 12, 9, 9, 5, 7, 15, 10, 11, 12, 13, 14},
      ratio(1, 118));
  const auto terms = decomposeExact(box25, 5, 5);
  ASSERT_TRUE(terms);
  EXPECT_EQ(terms->size(), 5u);
  EXPECT_EQ(sumOf(*terms, 5, 5), box25);
  EXPECT_TRUE(fullRankModPrime(box25, 5, 5));
}

/// A random rows x cols integer matrix of rank at most `rank`: a product of
/// random rows x rank and rank x cols matrices.
std::vector<Rational> randomOfRank(std::mt19937_64 &gen, int rows, int cols, int rank) {
  std::uniform_int_distribution<int64_t> small(-9, 9);
  std::vector<int64_t> a(rows * rank), b(rank * cols);
  for (int64_t &x : a) {
    x = small(gen);
  }
  for (int64_t &x : b) {
    x = small(gen);
  }
  std::vector<Rational> m;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int64_t sum = 0;
      for (int k = 0; k < rank; ++k) {
        sum += a[r * rank + k] * b[k * cols + c];
      }
      m.push_back(ratio(sum, 7));
    }
  }
  return m;
}

TEST(Decompose, RandomMatricesSumBackExactly) {
  std::mt19937_64 gen(7);
  for (int trial = 0; trial < 60; ++trial) {
    const int rows = 1 + trial % 7, cols = 1 + (trial / 7) % 9, rank = 1 + trial % 4;
    const std::vector<Rational> m = randomOfRank(gen, rows, cols, rank);
    const auto terms = decomposeExact(m, rows, cols);
    ASSERT_TRUE(terms);
    EXPECT_LE(static_cast<int>(terms->size()), std::min({rows, cols, rank}));
    EXPECT_EQ(sumOf(*terms, rows, cols), m);
    // The modular test says "full" only of a full-rank matrix.
    if (fullRankModPrime(m, rows, cols)) {
      EXPECT_EQ(static_cast<int>(terms->size()), std::min(rows, cols));
    }
    for (const RankOneTerm &t : *terms) {
      EXPECT_FALSE(t.scale.isZero());
      for (const Rational &x : t.column) {
        EXPECT_TRUE(x.isInteger());
      }
    }
  }
}

TEST(Decompose, LongNumbersGiveUp) {
  // 17-digit decimals: their simplest fractions have 50-bit denominators,
  // and a 9x9 elimination outgrows MaxEliminationBits.
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<Rational> m;
  for (int k = 0; k < 81; ++k) {
    m.push_back(Rational::simplestRoundingTo(unit(gen)));
  }
  EXPECT_FALSE(decomposeExact(m, 9, 9));
  EXPECT_TRUE(fullRankModPrime(m, 9, 9));
}

TEST(Decompose, PassOpsFoldOneTapFactors) {
  EXPECT_EQ(separableTermOps(3, 3), 6);
  EXPECT_EQ(separableTermOps(1, 5), 5);
  EXPECT_EQ(separableTermOps(4, 1), 4);
  EXPECT_EQ(separableTermOps(1, 1), 1);
}

/// The analysis of the one stencil of `text`, checked to sum back exactly
/// to its coefficients.
LowRankAnalysis analysed(const std::string &text) {
  auto c = compileText(text);
  EXPECT_EQ(c.specs.size(), 1u) << c.diagnostics;
  if (c.specs.empty()) {
    return {};
  }
  const StencilSpec &spec = c.specs[0];
  const LowRankAnalysis a = analyseLowRank(spec);
  if (!a.analysed() || a.terms.empty()) {
    return a;
  }
  const int n = a.size;
  std::vector<Rational> sum(exactCoefficients(spec).size());
  for (const SeparableTerm &t : a.separableTerms()) {
    for (size_t at = 0; at < sum.size(); ++at) {
      Rational product = t.scale;
      size_t rest = at;
      for (int axis = spec.dims - 1; axis >= 0; --axis, rest /= n) {
        product = product * t.factors[axis][rest % n];
      }
      sum[at] = sum[at] + product;
    }
  }
  EXPECT_EQ(sum, exactCoefficients(spec)) << text;
  return a;
}

/// A stencil and what its analysis must find.
struct Expected {
  const char *text;
  int axis, rank, separable, directOps, decomposedOps;
};

TEST(LowRank, StructureAndOperationCounts) {
  const Expected cases[] = {
      // The suite's boxes: a uniform box plus a heavier centre.
      {"stencil b { weights [[0.5 / 24, 0.5 / 24, 0.5 / 24], [0.5 / 24, 0.5, 0.5 / 24], "
       "[0.5 / 24, 0.5 / 24, 0.5 / 24]]; }",
       0, 2, 2, 9, 7},
      // A star: a column plus a row, as many operations as taps.
      {"stencil s { out[i, j] = 0.5 * in[i, j] + 0.125 * (in[i-1, j] + in[i+1, j] "
       "+ in[i, j-1] + in[i, j+1]); }",
       0, 2, 2, 5, 5},
      // EBISU's 2d9pt has full rank: not decomposed.
      {"stencil e { weights [[7 / 118, 5 / 118, 9 / 118], [12 / 118, 15 / 118, 12 / 118], "
       "[9 / 118, 5 / 118, 7 / 118]]; }",
       0, 3, 0, 9, 9},
      {"stencil b { let e = 1 / 27; weights [[[e, e, e], [e, e, e], [e, e, e]], "
       "[[e, e, e], [e, e, e], [e, e, e]], [[e, e, e], [e, e, e], [e, e, e]]]; }",
       0, 1, 1, 27, 9},
      // The 27-point Laplacian by distance class.
      {"stencil l { let c = 1 / 30; weights [[[c, 3*c, c], [3*c, 14*c, 3*c], [c, 3*c, c]], "
       "[[3*c, 14*c, 3*c], [14*c, -128*c, 14*c], [3*c, 14*c, 3*c]], "
       "[[c, 3*c, c], [3*c, 14*c, 3*c], [c, 3*c, c]]]; }",
       0, 2, 4, 27, 15},
      // (1, 2, 1) along k times a full-rank i x j plane: unfolded along k,
      // one direct pass over the plane (9 taps) and one along k (3).
      {"stencil s { weights [[[1, 2, 1], [2, 4, 2], [3, 6, 3]], [[5, 10, 5], [7, 14, 7], "
       "[1, 2, 1]], [[2, 4, 2], [9, 18, 9], [4, 8, 4]]]; }",
       2, 1, 3, 27, 12},
  };
  for (const Expected &e : cases) {
    SCOPED_TRACE(e.text);
    const LowRankAnalysis a = analysed(e.text);
    EXPECT_EQ(a.axis, e.axis);
    EXPECT_EQ(a.rank, e.rank);
    EXPECT_EQ(static_cast<int>(a.separableTerms().size()), e.separable);
    EXPECT_EQ(a.directOps, e.directOps);
    EXPECT_EQ(a.decomposedOps, e.decomposedOps);
    EXPECT_EQ(a.worthIt(), e.decomposedOps < e.directOps);
  }
}

/// EBISU's 2d49pt (examples/suite/ebisu_2d49pt_fp64.stencil): its rows 1
/// and 2 are equal, and its rows 5 and 6.
const char *const Ebisu49 =
    "stencil s { let d = 118; weights "
    "[[1/d, 1/d, 2/d, 3/d, 4/d, 5/d, 5/d], [1/d, 1/d, 2/d, 3/d, 4/d, 5/d, 5/d], "
    "[1/d, 7/d, 7/d, 5/d, 7/d, 6/d, 5/d], [1/d, 8/d, 12/d, 15/d, 12/d, 12/d, 5/d], "
    "[1/d, 9/d, 9/d, 5/d, 7/d, 15/d, 5/d], [1/d, 9/d, 9/d, 5/d, 7/d, 15/d, 5/d], "
    "[1/d, 10/d, 11/d, 12/d, 13/d, 14/d, 5/d]]; }";

/// Whether every entry of every factor of `a`'s terms, and every scale, is
/// at least 0.
bool noneNegative(const LowRankAnalysis &a) {
  const auto negative = [](const Rational &x) { return x < Rational(); };
  for (const RankOneTerm &t : a.terms) {
    if (negative(t.scale) || std::any_of(t.column.begin(), t.column.end(), negative) ||
        std::any_of(t.row.begin(), t.row.end(), negative)) {
      return false;
    }
  }
  return true;
}

TEST(LowRank, RowsOrColumnsOfOneRatioShareAPass) {
  // Rows 1 and 2 equal: one pass of 5 taps and 2 multiply-adds, the other
  // rows direct: 22 operations against 25 (the elimination's four terms
  // take more). The transpose: the same along the other axis.
  const struct {
    const char *text;
    LowRankAnalysis::Grouped by;
  } cases[] = {
      {"stencil s { weights [[1/9, 2/9, 3/9, 4/9, 5/9], [1/9, 2/9, 3/9, 4/9, 5/9], "
       "[2/9, 7/9, 1/9, 8/9, 3/9], [8/9, 1/9, 8/9, 2/9, 8/9], [4/9, 5/9, 9/9, 6/9, 4/9]]; }",
       LowRankAnalysis::Grouped::Rows},
      {"stencil s { weights [[1/9, 1/9, 2/9, 8/9, 4/9], [2/9, 2/9, 7/9, 1/9, 5/9], "
       "[3/9, 3/9, 1/9, 8/9, 9/9], [4/9, 4/9, 8/9, 2/9, 6/9], [5/9, 5/9, 3/9, 8/9, 4/9]]; }",
       LowRankAnalysis::Grouped::Columns},
  };
  for (const auto &c : cases) {
    SCOPED_TRACE(c.text);
    const LowRankAnalysis a = analysed(c.text);
    EXPECT_EQ(a.grouped, c.by);
    EXPECT_EQ(a.decomposedOps, 22);
    EXPECT_TRUE(noneNegative(a));
  }
}

TEST(LowRank, EqualRowsThenTheOtherRowsEqualColumns) {
  // Elimination: rank 5 in 42 operations, of terms that cancel. Rows {1,
  // 2} and {5, 6} one pass of 7 taps and 2 multiply-adds each (39 with the
  // other rows direct); then among rows 3, 4 and 7 the first and last
  // columns, 1 and 5 in each, one pass of 2 taps and 3 multiply-adds: 38,
  // every number positive.
  const LowRankAnalysis a = analysed(Ebisu49);
  EXPECT_EQ(a.rank, 5);
  EXPECT_EQ(a.grouped, LowRankAnalysis::Grouped::RowsThenColumns);
  EXPECT_EQ(a.decomposedOps, 38);
  ASSERT_EQ(a.terms.size(), 8u);
  EXPECT_EQ(vectorText(a.terms[0].column), "1 1 0 0 0 0 0");
  EXPECT_EQ(vectorText(a.terms[0].row), "1 1 2 3 4 5 5");
  EXPECT_EQ(a.terms[0].scale, ratio(1, 118));
  EXPECT_EQ(vectorText(a.terms[2].column), "0 0 1 1 0 0 1");
  EXPECT_EQ(vectorText(a.terms[2].row), "1 0 0 0 0 0 5");
  EXPECT_TRUE(noneNegative(a));
}

TEST(LowRank, GroupingsAlongEitherAxisFirst) {
  // The transpose of EBISU's 2d49pt, its fourth column doubled: columns
  // {1, 2} and {5, 6} equal, and its first and last rows multiples of one
  // another. Grouped by columns alone 39, by rows alone 44; in two stages
  // 38 (the first of the orders that reach it).
  const LowRankAnalysis a =
      analysed("stencil s { let d = 118; weights "
               "[[1/d, 1/d, 1/d, 2/d, 1/d, 1/d, 1/d], [1/d, 1/d, 7/d, 16/d, 9/d, 9/d, 10/d], "
               "[2/d, 2/d, 7/d, 24/d, 9/d, 9/d, 11/d], [3/d, 3/d, 5/d, 30/d, 5/d, 5/d, 12/d], "
               "[4/d, 4/d, 7/d, 24/d, 7/d, 7/d, 13/d], [5/d, 5/d, 6/d, 24/d, 15/d, 15/d, 14/d], "
               "[5/d, 5/d, 5/d, 10/d, 5/d, 5/d, 5/d]]; }");
  EXPECT_NE(a.grouped, LowRankAnalysis::Grouped::None);
  EXPECT_EQ(a.decomposedOps, 38);
  EXPECT_TRUE(noneNegative(a));
}

TEST(LowRank, OneTermIsTheEliminationsEitherWay) {
  // A uniform box: the groups give the elimination's one term, which stays.
  const LowRankAnalysis a = analysed("stencil b { let w = 1 / 9; weights [[w, w, w], [w, w, w], "
                                     "[w, w, w]]; }");
  EXPECT_EQ(a.grouped, LowRankAnalysis::Grouped::None);
  EXPECT_EQ(a.decomposedOps, 6);
}

TEST(LowRank, WhatIsNotAnalysed) {
  EXPECT_FALSE(analysed("stencil h { out[i] = 0.5 * in[i-1] + 0.5 * in[i+1]; }").analysed());
  EXPECT_FALSE(
      analysed("stencil p { param dt; out[i, j] = dt * in[i-1, j] + in[i, j]; }").analysed());
  EXPECT_FALSE(analysed("stencil f { coefficient kappa; out[i, j] = kappa[i, j] * in[i-1, j]; }")
                   .analysed());
  EXPECT_FALSE(analysed("stencil r { out[i, j, k] = in[i-5, j, k] + in[i, j, k]; }").analysed());
}

} // namespace
