//===- LowRank.h - Exact low-rank structure of the coefficients --*- C++ -*-===//
//
// Many stencils are sums of a few separable terms (a uniform box, a binomial
// blur, Sobel), which 1D passes along each axis evaluate with fewer
// operations than one multiply-add per tap. This is the exact analysis of
// issue 35: the rank of a 2D stencil's coefficient matrix with a
// decomposition into rank-one terms, the separable structure of a 3D
// stencil, and the operation counts of the direct and the decomposed form.
// --emit=spec prints it; the CUDA-core backend evaluates 2D and 3D stencils
// in the decomposed form (Backends/Simt/SimtLowRank.cpp). docs/design.md ("Low-rank
// structure") states what is computed and the operation-count model.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/DynamicAPInt.h"

#include "stencilc/Spec.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace stencilc {

/// An exact rational number, kept in lowest terms with a positive
/// denominator (so equal values compare equal member by member).
class Rational {
public:
  Rational() = default;
  Rational(int64_t value) : num(value) {}
  Rational(const llvm::DynamicAPInt &numerator, const llvm::DynamicAPInt &denominator);

  /// `value` exactly: every finite double is a dyadic rational.
  static Rational exactly(double value);
  /// The rational of smallest denominator that rounds to `value` (nearest,
  /// ties to even): 1/48 for the double nearest 0.5 / 24, 83/1000 for the
  /// one nearest 0.083. An integral value is itself. `value` is finite.
  static Rational simplestRoundingTo(double value);

  const llvm::DynamicAPInt &numerator() const { return num; }
  const llvm::DynamicAPInt &denominator() const { return den; }
  bool isZero() const { return num == 0; }
  bool isInteger() const { return den == 1; }
  /// "-3/118", "7", "0".
  std::string text() const;

  Rational operator-() const;
  friend Rational operator+(const Rational &a, const Rational &b);
  friend Rational operator-(const Rational &a, const Rational &b);
  friend Rational operator*(const Rational &a, const Rational &b);
  /// `b` is not zero.
  friend Rational operator/(const Rational &a, const Rational &b);
  friend bool operator==(const Rational &a, const Rational &b) = default;
  friend bool operator<(const Rational &a, const Rational &b);

private:
  llvm::DynamicAPInt num{0}, den{1};
};

/// |a| < |b|.
bool smallerMagnitude(const Rational &a, const Rational &b);

/// One term of a matrix decomposition: scale * column x row^T, where column
/// and row are integer vectors without a common factor whose first non-zero
/// entry is positive.
struct RankOneTerm {
  Rational scale;
  std::vector<Rational> column, row;
};

/// The most bits a numerator or denominator may take in the elimination
/// below: short fractions stay far below it, while 17-digit decimals grow
/// past it within a few steps, where the elimination would take minutes.
constexpr int MaxEliminationBits = 256;

/// The exact decomposition of the `rows` x `cols` matrix `m` (row-major) by
/// fraction-exact Gaussian elimination: as many terms as its rank, their sum
/// exactly `m`. Each step pivots on the residual's entry of smallest
/// magnitude (the first in row-major order on a tie), so a uniform block is
/// one term of all-ones vectors. None where a number of the residual
/// outgrows MaxEliminationBits.
std::optional<std::vector<RankOneTerm>> decomposeExact(std::vector<Rational> m, int rows, int cols);

/// Whether the `rows` x `cols` matrix `m` has full rank, decided modulo the
/// prime 2^61 - 1: a minor that is not zero modulo the prime is not zero,
/// so "yes" is certain; "no" (or a denominator the prime divides) is not.
bool fullRankModPrime(const std::vector<Rational> &m, int rows, int cols);

/// Operations per output point of a term evaluated as a pass along one axis
/// then one along the other, of `a` and `b` taps: a + b, except that a
/// factor of one tap is folded into the other pass.
int separableTermOps(int a, int b);

/// A term separable in every axis: scale x factors[0] (along i) x
/// factors[1] (j) x factors[2] (k, 3D only), each of 2 * radius + 1 entries.
struct SeparableTerm {
  Rational scale;
  std::array<std::vector<Rational>, 3> factors;
};

/// The low-rank structure of a stencil's coefficients.
struct LowRankAnalysis {
  /// Why there is none (1D, a stencil of fields, too large, numbers too
  /// long); empty when there is one.
  std::string notAnalysed;
  int dims = 0;
  int size = 0; ///< 2 * radius + 1 entries along each axis
  /// 3D: the axis the coefficients are unfolded along (0 = i); the planes
  /// span the other two, in order. 2D: 0 (the matrix's rows are i).
  int axis = 0;
  /// 2D: the matrix's decomposition (columns along i, rows along j). 3D: the
  /// unfolding's (columns along `axis`, rows the planes, row-major).
  std::vector<RankOneTerm> terms;
  /// 3D: each term's plane decomposed, and whether it is evaluated directly
  /// (its decomposition takes no fewer operations).
  std::vector<std::vector<RankOneTerm>> planes;
  std::vector<bool> planeDirect;
  /// 2D: the matrix's rank; 3D: the unfolding's.
  int rank = 0;
  /// 2D: whether `terms` are the exact elimination's (None) or one a group
  /// of rows (or columns) that are multiples of one another (and, Then,
  /// the other lines' columns, or rows): fewer operations, and nothing
  /// that cancels.
  enum class Grouped {
    None,
    Rows,
    Columns,
    RowsThenColumns,
    ColumnsThenRows
  } grouped = Grouped::None;
  /// 2D: the cheaper grouping's terms and operations, whether or not
  /// `terms` are they: what a planner may take where the elimination's
  /// terms cancel (asGrouped). Empty where the matrix has full rank.
  std::vector<RankOneTerm> grouping;
  Grouped groupingBy = Grouped::None;
  int groupingOps = 0;
  /// Operations per output point (docs/design.md's model); a full-rank 2D
  /// matrix is not decomposed, its decomposedOps are its directOps.
  int directOps = 0, decomposedOps = 0;

  bool analysed() const { return notAnalysed.empty(); }
  bool fullRank2D() const { return dims == 2 && rank == size; }
  /// Only where the decomposed form takes strictly fewer operations.
  bool worthIt() const { return analysed() && decomposedOps < directOps; }
  /// This analysis with the grouping as its terms (2D).
  LowRankAnalysis asGrouped() const;
  /// The decomposition as terms separable in every axis (2D: the matrix
  /// terms; 3D: each unfolding term times each of its plane's terms).
  std::vector<SeparableTerm> separableTerms() const;
};

/// How a grouping reads in --emit=spec and --emit=plan: "a group of rows
/// that are multiples of one another", ...; "" for None.
const char *groupedName(LowRankAnalysis::Grouped g);

/// The largest radius analysed in 3D: the three unfoldings have
/// (2r+1)^3 entries each and up to 2r+1 elimination steps, and --emit=spec
/// stays fast.
constexpr int MaxLowRankRadius3D = 4;

/// The coefficients as exact rationals (Rational::simplestRoundingTo of each
/// double), row-major over (2r+1)^dims entries, zero where no tap.
std::vector<Rational> exactCoefficients(const StencilSpec &spec);

/// The analysis of a stencil of the one input with constant coefficients.
LowRankAnalysis analyseLowRank(const StencilSpec &spec);

/// The analysis of a 3D stencil unfolded along `axis` (0 = i), cheapest or
/// not (the CUDA-core kernel streams along i, so its form unfolds along i);
/// analyseLowRank's for a stencil not 3D.
LowRankAnalysis analyseLowRankAlong(const StencilSpec &spec, int axis);

/// --emit=spec's "lowrank" lines of `spec`; none for a 1D stencil.
void printLowRank(const StencilSpec &spec, llvm::raw_ostream &os);

} // namespace stencilc
