//===- LowRank.cpp - Exact low-rank structure of the coefficients --------===//
#include "stencilc/LowRank.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

namespace stencilc {

using llvm::DynamicAPInt;

namespace {

DynamicAPInt powerOfTwo(int exponent) {
  DynamicAPInt result(1), base(2);
  for (; exponent > 0; exponent >>= 1) {
    if (exponent & 1) {
      result *= base;
    }
    base *= base;
  }
  return result;
}

/// 2^exponent in the integer type of the continued fractions below.
template <typename Int> Int twoTo(int exponent) {
  if constexpr (std::is_same_v<Int, DynamicAPInt>) {
    return powerOfTwo(exponent);
  } else {
    return Int(1) << exponent;
  }
}

/// The mantissa and exponent of the last bit of y >= 0: y = m * 2^e.
std::pair<int64_t, int> splitDouble(double y) {
  int exponent = 0;
  const double fraction = std::frexp(y, &exponent);
  return {static_cast<int64_t>(std::ldexp(fraction, 53)), exponent - 53};
}

/// The continued fraction of the simplest rational (smallest denominator,
/// and then smallest numerator) strictly between a/b and c/d, 0 <= a/b <
/// c/d (d = 0: infinity): the smallest integer above a/b if it is below
/// c/d, else floor(a/b) followed by the simplest between the reciprocals of
/// the remainders. Each step is one of Euclid's, so the numbers only shrink.
template <typename Int>
std::vector<DynamicAPInt> simplestBetween(Int a, Int b, Int c, Int d,
                                          DynamicAPInt (*widen)(const Int &)) {
  std::vector<DynamicAPInt> terms;
  for (;;) {
    const Int whole = a / b;
    if (d == 0 || (whole + 1) * d < c) {
      terms.push_back(widen(whole + 1));
      return terms;
    }
    terms.push_back(widen(whole));
    Int nextC = b, nextD = a - whole * b;
    a = d;
    b = c - whole * d;
    c = nextC;
    d = nextD;
  }
}

DynamicAPInt widen128(const __int128 &x) {
  // Non-negative, and no larger than the 121-bit numbers it is a quotient of.
  const auto high = static_cast<int64_t>(x >> 62),
             low = static_cast<int64_t>(x & ((int64_t{1} << 62) - 1));
  return DynamicAPInt(high) * powerOfTwo(62) + DynamicAPInt(low);
}

DynamicAPInt itself(const DynamicAPInt &x) { return x; }

/// The simplest rational strictly between (below + value) / 2 and (value +
/// above) / 2, the three finite and non-negative: all are integers over
/// 2^shift, in 128 bits where shift allows.
template <typename Int>
std::vector<DynamicAPInt> simplestBetweenMidpoints(double below, double value, double above,
                                                   int shift, DynamicAPInt (*widen)(const Int &)) {
  auto scaled = [shift](double y) {
    auto [mantissa, exponent] = splitDouble(y);
    return Int(mantissa) * twoTo<Int>(exponent + shift - 1);
  };
  const Int denominator = twoTo<Int>(shift);
  return simplestBetween<Int>(scaled(below) + scaled(value), denominator,
                              scaled(value) + scaled(above), denominator, widen);
}

/// Rewrites `v` as s * v' with v' integer, without a common factor, its
/// first non-zero entry positive; returns s (zero for a zero vector).
Rational makePrimitive(std::vector<Rational> &v) {
  DynamicAPInt denominators(1), numerators(0);
  int sign = 0;
  for (const Rational &x : v) {
    if (x.isZero()) {
      continue;
    }
    sign = sign ? sign : (x.numerator() > 0 ? 1 : -1);
    denominators = llvm::lcm(denominators, x.denominator());
    numerators = llvm::gcd(numerators, llvm::abs(x.numerator()));
  }
  if (sign == 0) {
    return Rational();
  }
  // Every entry times denominators / numerators is an integer; their gcd is 1.
  const Rational scale(numerators * sign, denominators);
  for (Rational &x : v) {
    x = x / scale;
  }
  return scale;
}

int nonZeros(const std::vector<Rational> &v) {
  int n = 0;
  for (const Rational &x : v) {
    n += !x.isZero();
  }
  return n;
}

} // namespace

Rational::Rational(const DynamicAPInt &numerator, const DynamicAPInt &denominator)
    : num(numerator), den(denominator) {
  assert(den != 0 && "a rational's denominator is not zero");
  if (den < 0) {
    num = -num;
    den = -den;
  }
  const DynamicAPInt g = llvm::gcd(llvm::abs(num), den);
  if (g > 1) {
    num /= g;
    den /= g;
  }
}

Rational Rational::exactly(double value) {
  assert(std::isfinite(value));
  int exponent = 0;
  const double fraction = std::frexp(value, &exponent); // value = fraction * 2^exponent
  // 53 bits of fraction make an integer mantissa.
  const DynamicAPInt mantissa(static_cast<int64_t>(std::ldexp(fraction, 53)));
  exponent -= 53;
  if (exponent >= 0) {
    return Rational(mantissa * powerOfTwo(exponent), DynamicAPInt(1));
  }
  return Rational(mantissa, powerOfTwo(-exponent));
}

Rational Rational::simplestRoundingTo(double value) {
  if (value < 0) {
    return -simplestRoundingTo(-value);
  }
  const Rational exact = exactly(value);
  if (exact.isInteger()) {
    return exact;
  }
  // A non-integral double is below 2^52, so both neighbours are finite. The
  // doubles rounding to it lie between the midpoints to its neighbours
  // (a midpoint itself may round either way; its denominator is larger than
  // value's, so it is never the simplest and the open interval will do).
  const double below = std::nextafter(value, 0.0), above = std::nextafter(value, INFINITY);
  // Every one of the three is an integer over 2^(1 - the smallest exponent).
  const int shift = 1 - std::min({splitDouble(below).second, splitDouble(value).second,
                                  splitDouble(above).second});
  // The numerators stay below 2^56; 128 bits hold the denominator up to 2^120.
  const std::vector<DynamicAPInt> terms =
      shift <= 120 ? simplestBetweenMidpoints<__int128>(below, value, above, shift, widen128)
                   : simplestBetweenMidpoints<DynamicAPInt>(below, value, above, shift, itself);
  DynamicAPInt num = terms.back(), den(1);
  for (size_t k = terms.size() - 1; k-- > 0;) {
    DynamicAPInt next = terms[k] * num + den;
    den = num;
    num = next;
  }
  return Rational(num, den);
}

std::string Rational::text() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << num;
  if (den != 1) {
    os << "/" << den;
  }
  return s;
}

Rational Rational::operator-() const {
  Rational r = *this;
  r.num = -r.num;
  return r;
}

// Addition and multiplication take gcds of the smaller parts (Knuth, TAOCP
// 4.5.1): the gcds of long numbers are most of the elimination's time.
Rational operator+(const Rational &a, const Rational &b) {
  if (a.den == b.den) {
    return Rational(a.num + b.num, a.den);
  }
  const DynamicAPInt g = llvm::gcd(a.den, b.den);
  if (g == 1) {
    Rational r; // already in lowest terms
    r.num = a.num * b.den + b.num * a.den;
    r.den = a.den * b.den;
    return r;
  }
  const DynamicAPInt bOverG = b.den / g;
  return Rational(a.num * bOverG + b.num * (a.den / g), a.den * bOverG);
}

Rational operator-(const Rational &a, const Rational &b) { return a + -b; }

Rational operator*(const Rational &a, const Rational &b) {
  if (a.num == 0 || b.num == 0) {
    return Rational();
  }
  const DynamicAPInt g1 = llvm::gcd(llvm::abs(a.num), b.den),
                     g2 = llvm::gcd(llvm::abs(b.num), a.den);
  Rational r; // in lowest terms: every common factor is divided out
  r.num = (a.num / g1) * (b.num / g2);
  r.den = (a.den / g2) * (b.den / g1);
  return r;
}

Rational operator/(const Rational &a, const Rational &b) {
  return Rational(a.num * b.den, a.den * b.num);
}

bool operator<(const Rational &a, const Rational &b) { return a.num * b.den < b.num * a.den; }

bool smallerMagnitude(const Rational &a, const Rational &b) {
  return llvm::abs(a.numerator()) * b.denominator() < llvm::abs(b.numerator()) * a.denominator();
}

std::optional<std::vector<RankOneTerm>> decomposeExact(std::vector<Rational> m, int rows,
                                                       int cols) {
  assert(static_cast<int>(m.size()) == rows * cols);
  const DynamicAPInt limit = powerOfTwo(MaxEliminationBits);
  std::vector<RankOneTerm> terms;
  for (;;) {
    int pivot = -1;
    for (int at = 0; at < rows * cols; ++at) {
      if (!m[at].isZero() && (pivot < 0 || smallerMagnitude(m[at], m[pivot]))) {
        pivot = at;
      }
    }
    if (pivot < 0) {
      return terms; // the residual is zero
    }
    // The pivot's column over the pivot times its row agrees with the
    // residual on that row and that column; subtracting it lowers the rank
    // by one.
    const int p = pivot / cols, q = pivot % cols;
    RankOneTerm t;
    for (int r = 0; r < rows; ++r) {
      t.column.push_back(m[r * cols + q] / m[pivot]);
    }
    t.row.assign(m.begin() + p * cols, m.begin() + (p + 1) * cols);
    t.scale = makePrimitive(t.column) * makePrimitive(t.row);
    for (int r = 0; r < rows; ++r) {
      if (t.column[r].isZero()) {
        continue;
      }
      const Rational factor = t.scale * t.column[r];
      for (int c = 0; c < cols; ++c) {
        if (t.row[c].isZero()) {
          continue;
        }
        Rational &x = m[r * cols + c];
        x = x - factor * t.row[c];
        if (llvm::abs(x.numerator()) >= limit || x.denominator() >= limit) {
          return std::nullopt;
        }
      }
    }
    terms.push_back(std::move(t));
  }
}

namespace {

/// Arithmetic modulo the Mersenne prime 2^61 - 1.
constexpr uint64_t Prime = (uint64_t{1} << 61) - 1;

uint64_t mulMod(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(a) * b % Prime);
}

uint64_t powMod(uint64_t base, uint64_t exponent) {
  uint64_t result = 1;
  for (; exponent; exponent >>= 1, base = mulMod(base, base)) {
    if (exponent & 1) {
      result = mulMod(result, base);
    }
  }
  return result;
}

/// `x` modulo the prime; none where the prime divides its denominator.
std::optional<uint64_t> modPrime(const Rational &x) {
  const DynamicAPInt p(static_cast<int64_t>(Prime));
  const auto num = static_cast<uint64_t>(static_cast<int64_t>(llvm::mod(x.numerator(), p)));
  const auto den = static_cast<uint64_t>(static_cast<int64_t>(llvm::mod(x.denominator(), p)));
  if (den == 0) {
    return std::nullopt;
  }
  return mulMod(num, powMod(den, Prime - 2)); // Fermat's inverse
}

} // namespace

bool fullRankModPrime(const std::vector<Rational> &m, int rows, int cols) {
  std::vector<uint64_t> a;
  for (const Rational &x : m) {
    std::optional<uint64_t> v = modPrime(x);
    if (!v) {
      return false;
    }
    a.push_back(*v);
  }
  int rank = 0;
  for (int c = 0; c < cols && rank < rows; ++c) {
    int p = rank;
    while (p < rows && a[p * cols + c] == 0) {
      ++p;
    }
    if (p == rows) {
      continue;
    }
    for (int k = 0; k < cols; ++k) {
      std::swap(a[p * cols + k], a[rank * cols + k]);
    }
    const uint64_t inverse = powMod(a[rank * cols + c], Prime - 2);
    for (int r = rank + 1; r < rows; ++r) {
      const uint64_t f = mulMod(a[r * cols + c], inverse);
      for (int k = c; k < cols && f; ++k) {
        a[r * cols + k] = (a[r * cols + k] + Prime - mulMod(f, a[rank * cols + k])) % Prime;
      }
    }
    ++rank;
  }
  return rank == std::min(rows, cols);
}

int separableTermOps(int a, int b) { return a == 1 ? b : b == 1 ? a : a + b; }

std::vector<Rational> exactCoefficients(const StencilSpec &spec) {
  const int n = 2 * spec.radius + 1;
  size_t entries = 1;
  for (int a = 0; a < spec.dims; ++a) {
    entries *= static_cast<size_t>(n);
  }
  std::vector<Rational> c(entries);
  for (const Term &t : spec.terms) {
    int at = 0;
    for (int a = 0; a < spec.dims; ++a) {
      at = at * n + t.offset.d[a] + spec.radius;
    }
    c[at] = Rational::simplestRoundingTo(t.coefficient);
  }
  return c;
}

const char *groupedName(LowRankAnalysis::Grouped g) {
  // By the enumerators' order: None, Rows, Columns, RowsThenColumns,
  // ColumnsThenRows.
  static constexpr const char *Names[] = {
      "", "a group of rows that are multiples of one another",
      "a group of columns that are multiples of one another",
      "a group of rows, then of the other rows' columns, that are multiples of one another",
      "a group of columns, then of the other columns' rows, that are multiples of one another"};
  return Names[static_cast<int>(g)];
}

LowRankAnalysis LowRankAnalysis::asGrouped() const {
  LowRankAnalysis a = *this;
  a.terms = grouping;
  a.decomposedOps = groupingOps;
  a.grouped = groupingBy;
  return a;
}

std::vector<SeparableTerm> LowRankAnalysis::separableTerms() const {
  std::vector<SeparableTerm> out;
  for (size_t t = 0; t < terms.size(); ++t) {
    if (dims == 2) {
      out.push_back({terms[t].scale, {terms[t].column, terms[t].row, {}}});
      continue;
    }
    // The plane's axes are the other two, in order.
    const int first = axis == 0 ? 1 : 0, second = axis == 2 ? 1 : 2;
    for (const RankOneTerm &p : planes[t]) {
      SeparableTerm s;
      s.scale = terms[t].scale * p.scale;
      s.factors[axis] = terms[t].column;
      s.factors[first] = p.column;
      s.factors[second] = p.row;
      out.push_back(std::move(s));
    }
  }
  return out;
}

namespace {

/// The operations of the terms as passes (separableTermOps of each).
int passOps(const std::vector<RankOneTerm> &terms) {
  int ops = 0;
  for (const RankOneTerm &t : terms) {
    ops += separableTermOps(nonZeros(t.column), nonZeros(t.row));
  }
  return ops;
}

std::string tooLong() {
  return fmt::format("the exact elimination's numbers outgrow {} bits (coefficients that are "
                     "not short fractions)",
                     MaxEliminationBits);
}

/// The matrix `m` (n x n, row-major) as one term a group of its rows that
/// are multiples of one another (`byRows`), or of its columns: each
/// group's shared vector times the multiples. The groups partition the
/// matrix, so the terms' magnitudes sum to its own and nothing cancels.
std::vector<RankOneTerm> groupLines(const std::vector<Rational> &m, int n, bool byRows) {
  std::vector<RankOneTerm> terms;
  for (int line = 0; line < n; ++line) {
    std::vector<Rational> shared(static_cast<size_t>(n));
    for (int k = 0; k < n; ++k) {
      shared[k] = byRows ? m[line * n + k] : m[k * n + line];
    }
    const Rational multiple = makePrimitive(shared);
    if (multiple.isZero()) {
      continue;
    }
    auto same = std::find_if(terms.begin(), terms.end(), [&](const RankOneTerm &t) {
      return (byRows ? t.row : t.column) == shared;
    });
    if (same == terms.end()) {
      RankOneTerm t;
      t.scale = Rational(1);
      (byRows ? t.row : t.column) = std::move(shared);
      (byRows ? t.column : t.row).assign(static_cast<size_t>(n), Rational());
      same = terms.insert(terms.end(), std::move(t));
    }
    (byRows ? same->column : same->row)[static_cast<size_t>(line)] = multiple;
  }
  for (RankOneTerm &t : terms) {
    t.scale = makePrimitive(byRows ? t.column : t.row);
  }
  return terms;
}

/// `lines` (groupLines(m, n, byRows)) in two stages: its groups of two or
/// more lines kept, the lines left (each alone) grouped along the other
/// axis, which may find columns equal across them that no row shares whole
/// (EBISU's 2d49pt: its first and last columns, 1 and 5 in every row).
/// Still a partition.
std::vector<RankOneTerm> groupedTerms(std::vector<Rational> m, int n, bool byRows,
                                      const std::vector<RankOneTerm> &lines) {
  std::vector<RankOneTerm> kept;
  for (const RankOneTerm &t : lines) {
    const std::vector<Rational> &multiples = byRows ? t.column : t.row;
    if (nonZeros(multiples) < 2) {
      continue;
    }
    for (int line = 0; line < n; ++line) {
      if (multiples[line].isZero()) {
        continue;
      }
      for (int k = 0; k < n; ++k) {
        (byRows ? m[line * n + k] : m[k * n + line]) = Rational();
      }
    }
    kept.push_back(t);
  }
  std::vector<RankOneTerm> rest = groupLines(m, n, !byRows);
  kept.insert(kept.end(), std::make_move_iterator(rest.begin()),
              std::make_move_iterator(rest.end()));
  return kept;
}

void analyse2D(const std::vector<Rational> &c, LowRankAnalysis &a) {
  a.decomposedOps = a.directOps;
  if (fullRankModPrime(c, a.size, a.size)) {
    a.rank = a.size; // certain, and the direct form is kept: no need to eliminate
    return;
  }
  std::optional<std::vector<RankOneTerm>> terms = decomposeExact(c, a.size, a.size);
  if (!terms) {
    a.notAnalysed = tooLong();
    return;
  }
  a.rank = static_cast<int>(terms->size());
  if (a.fullRank2D()) {
    a.terms = std::move(*terms);
    return;
  }
  // Rows (or columns) that are multiples of one another share one pass
  // and add nothing that cancels; the elimination's terms may cancel. The
  // cheaper grouping is kept either way (the planners fall back to it where
  // the elimination's terms cancel), and is the terms where it takes fewer
  // operations.
  a.terms = std::move(*terms);
  a.decomposedOps = passOps(a.terms);
  using Grouped = LowRankAnalysis::Grouped;
  const auto consider = [&a](std::vector<RankOneTerm> grouped, Grouped by) {
    const int ops = passOps(grouped);
    if (a.grouping.empty() || ops < a.groupingOps) {
      a.grouping = std::move(grouped);
      a.groupingOps = ops;
      a.groupingBy = by;
    }
  };
  // On a tie the first: one stage before two, rows before columns.
  const std::vector<RankOneTerm> rows = groupLines(c, a.size, true),
                                 columns = groupLines(c, a.size, false);
  consider(rows, Grouped::Rows);
  consider(columns, Grouped::Columns);
  consider(groupedTerms(c, a.size, true, rows), Grouped::RowsThenColumns);
  consider(groupedTerms(c, a.size, false, columns), Grouped::ColumnsThenRows);
  if (a.groupingOps < a.decomposedOps) {
    a = a.asGrouped();
  }
}

/// The tensor `c` (n^3, row-major) unfolded along `axis`: n rows, each a
/// plane over the other two axes, row-major.
std::vector<Rational> unfold(const std::vector<Rational> &c, int n, int axis) {
  std::vector<Rational> m(c.size());
  for (int x = 0; x < n; ++x) {
    for (int y = 0; y < n; ++y) {
      for (int z = 0; z < n; ++z) {
        const std::array<int, 3> at{x, y, z};
        const int first = axis == 0 ? 1 : 0, second = axis == 2 ? 1 : 2;
        m[(at[axis] * n + at[first]) * n + at[second]] = c[(x * n + y) * n + z];
      }
    }
  }
  return m;
}

/// The 3D analysis unfolded along `axis`: each term's plane evaluated
/// directly or as its own decomposition, whichever takes fewer operations,
/// then one pass along `axis` over the plane's sum. None where an
/// elimination's numbers grow too long.
std::optional<LowRankAnalysis> analyse3DAlong(const std::vector<Rational> &c, LowRankAnalysis a,
                                              int axis) {
  const int n = a.size;
  a.axis = axis;
  std::optional<std::vector<RankOneTerm>> terms = decomposeExact(unfold(c, n, axis), n, n * n);
  if (!terms) {
    return std::nullopt;
  }
  a.terms = std::move(*terms);
  a.rank = static_cast<int>(a.terms.size());
  a.decomposedOps = 0;
  for (const RankOneTerm &t : a.terms) {
    std::optional<std::vector<RankOneTerm>> plane = decomposeExact(t.row, n, n);
    if (!plane) {
      return std::nullopt;
    }
    a.planes.push_back(std::move(*plane));
    const int direct = nonZeros(t.row), passes = passOps(a.planes.back());
    a.planeDirect.push_back(passes >= direct);
    a.decomposedOps += separableTermOps(nonZeros(t.column), std::min(direct, passes));
  }
  return a;
}

/// The analysis before any decomposition, with why there is none where the
/// stencil is not analysed.
LowRankAnalysis analysisStart(const StencilSpec &spec) {
  LowRankAnalysis a;
  a.dims = spec.dims;
  a.size = 2 * spec.radius + 1;
  a.directOps = static_cast<int>(spec.points());
  if (spec.hasFields()) {
    a.notAnalysed = "a stencil of fields: its coefficients are per field, per point (coefficient "
                    "fields) or known only at run time (parameters), not one constant table";
    return a;
  }
  if (spec.dims == 1) {
    a.notAnalysed = "1D: the direct form is already one pass";
    return a;
  }
  if (spec.dims == 3 && spec.radius > MaxLowRankRadius3D) {
    a.notAnalysed =
        fmt::format("3D of radius {}: analysed up to radius {}", spec.radius, MaxLowRankRadius3D);
  }
  return a;
}

} // namespace

LowRankAnalysis analyseLowRank(const StencilSpec &spec) {
  LowRankAnalysis a = analysisStart(spec);
  if (!a.analysed()) {
    return a;
  }
  const std::vector<Rational> c = exactCoefficients(spec);
  if (spec.dims == 2) {
    analyse2D(c, a);
    return a;
  }
  // The cheapest unfolding; on a tie the outermost axis.
  std::optional<LowRankAnalysis> best;
  for (int axis = 0; axis < 3; ++axis) {
    std::optional<LowRankAnalysis> along = analyse3DAlong(c, a, axis);
    if (along && (!best || along->decomposedOps < best->decomposedOps)) {
      best = std::move(along);
    }
  }
  if (!best) {
    a.notAnalysed = tooLong();
    return a;
  }
  return *best;
}

LowRankAnalysis analyseLowRankAlong(const StencilSpec &spec, int axis) {
  LowRankAnalysis a = analysisStart(spec);
  if (!a.analysed() || spec.dims != 3) {
    return spec.dims == 3 ? a : analyseLowRank(spec);
  }
  std::optional<LowRankAnalysis> along = analyse3DAlong(exactCoefficients(spec), a, axis);
  if (!along) {
    a.notAnalysed = tooLong();
    return a;
  }
  return *along;
}

namespace {

std::string vectorText(const std::vector<Rational> &v) {
  std::string s = "(";
  for (size_t k = 0; k < v.size(); ++k) {
    s += (k ? ", " : "") + v[k].text();
  }
  return s + ")";
}

std::string separableText(const SeparableTerm &t, int dims) {
  std::string s = t.scale.text() + " *";
  for (int a = 0; a < dims; ++a) {
    s += (a ? " x " : " ") + vectorText(t.factors[a]);
  }
  return s;
}

/// The names of the axes: the update's index names, else i, j, k.
std::array<std::string, 3> axisNames(const StencilSpec &spec) {
  std::array<std::string, 3> names{"i", "j", "k"};
  for (size_t a = 0; a < spec.indexNames.size() && a < 3; ++a) {
    names[a] = spec.indexNames[a];
  }
  return names;
}

void printStructure(const LowRankAnalysis &a, const std::array<std::string, 3> &names,
                    llvm::raw_ostream &os) {
  const int n = a.size;
  if (a.dims == 2) {
    os << fmt::format("  lowrank   rank {} of {}x{} (rows {}, columns {})", a.rank, n, n, names[0],
                      names[1]);
    if (a.grouped != LowRankAnalysis::Grouped::None) {
      os << "; a term " << groupedName(a.grouped);
    }
    return;
  }
  const int first = a.axis == 0 ? 1 : 0, second = a.axis == 2 ? 1 : 2;
  std::string ranks;
  for (size_t t = 0; t < a.planes.size(); ++t) {
    ranks += (t ? ", " : "") + std::to_string(a.planes[t].size());
  }
  const size_t terms = a.separableTerms().size();
  os << fmt::format("  lowrank   along {}: rank {} of {}x{}; planes {} x {} of rank {}: {} "
                    "separable term{}",
                    names[a.axis], a.rank, n, n * n, names[first], names[second], ranks, terms,
                    terms == 1 ? "" : "s");
}

void printTerms(const LowRankAnalysis &a, llvm::raw_ostream &os) {
  const std::vector<SeparableTerm> separable = a.separableTerms();
  size_t index = 0;
  for (size_t t = 0; t < a.terms.size(); ++t) {
    const size_t count = a.dims == 2 ? 1 : a.planes[t].size();
    for (size_t p = 0; p < count; ++p) {
      const std::string label =
          a.dims == 2 ? std::to_string(t + 1) : fmt::format("{}.{}", t + 1, p + 1);
      os << fmt::format("  lowrank   term {:<5}", label)
         << separableText(separable[index++], a.dims) << "\n";
    }
    if (a.dims == 3 && a.planeDirect[t] && a.planes[t].size() > 1) {
      os << fmt::format("  lowrank   plane {} is evaluated directly: {} taps, no more than its "
                        "terms' passes\n",
                        t + 1, nonZeros(a.terms[t].row));
    }
  }
}

} // namespace

void printLowRank(const StencilSpec &spec, llvm::raw_ostream &os) {
  const LowRankAnalysis a = analyseLowRank(spec);
  if (a.dims == 1) {
    return; // nothing to factor
  }
  if (!a.analysed()) {
    os << "  lowrank   not analysed: " << a.notAnalysed << "\n";
    return;
  }
  printStructure(a, axisNames(spec), os);
  if (a.fullRank2D()) {
    os << fmt::format(": full rank, the direct form is kept ({} ops)\n", a.directOps);
    return;
  }
  os << "\n";
  printTerms(a, os);
  os << fmt::format("  lowrank   ops       direct {}, as 1D passes {}: {}\n", a.directOps,
                    a.decomposedOps,
                    !a.worthIt()  ? "not fewer, the direct form is kept"
                    : a.dims == 2 ? "fewer (the CUDA-core plan evaluates the passes: --emit=plan)"
                                  : "fewer (the CUDA-core plan evaluates them unfolded along "
                                    "i where that pays: --emit=plan)");
}

} // namespace stencilc
