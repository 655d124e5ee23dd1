//===- CNest.h - Random `#pragma stencil` loop nests for the differential fuzzer -*- C++ -*-===//
//
// A loop nest the C differential fuzzer generates, described by what it is
// (arrays of given forms and extents, loops with bounds, terms with offsets
// and coefficients) rather than by its text, so that the minimiser can take
// it apart; and the C text of the nest and of the harness that runs it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace stencilc::fuzzdiff {

/// How a C array reaches the nest: `T a[12][14]`, `T a[ny][nx]`,
/// `T (*a)[14]`, or `T *a` indexed `a[i*nx + j]` (in 1D: `T *a`, `a[i]`).
enum class ArrayForm { Constant, Vla, PointerToArray, Flat };

/// A C array of the nest. Extents are in index order, outermost first; the
/// texts are what its type (or, for a flat array, its index) names each
/// extent by: a literal or an int parameter of the function.
struct CArray {
  std::string name;
  ArrayForm form = ArrayForm::Vla;
  std::array<int, 3> extent{1, 1, 1};
  std::array<std::string, 3> extentText;
  /// Elements allocated: the product of the extents, more for a flat array
  /// whose reads pass its last row.
  int allocated = 0;
};

/// An int parameter of the nest's function (an extent, or another size).
struct SizeVar {
  std::string name;
  int value = 0;
};

/// A floating-point scalar parameter (a run-time `param` of the translation).
struct ScalarParam {
  std::string name;
  double value = 0.0;
};

struct ArrayRead {
  int array = 0; ///< index into CNest::arrays
  std::array<int, 3> offset{0, 0, 0};
};

/// One term: coefficient text times an optional weight (a read of a
/// coefficient array) times a read; `negated` writes it `- ...`.
struct CTerm {
  std::string coefficient;
  bool weighted = false;
  ArrayRead weight;
  ArrayRead read;
  bool negated = false;
};

/// `for (v = lower; v < upper; ++v)` (or `<=` when inclusive), with the
/// values the texts have for the sizes the harness passes.
struct LoopBound {
  std::string lowerText, upperText;
  bool inclusive = false;
  int lower = 0, upper = 0; ///< first index, one past the last
  /// The size parameter the end names alone, less a constant (`m` of
  /// `m - 2`); empty where it names none (a literal, `n / 2 - 1`).
  std::string endVariable;
};

/// How the right-hand side groups its terms: a plain sum, `c * (sum of the
/// first half) + rest`, or `(sum) / d`.
enum class Grouping { Sum, Scaled, Divided };

struct CNest {
  std::string name;
  int dims = 2;
  bool isFloat = false; ///< float arrays (else double)
  /// arrays[0] is written; its extents are the grid of the translation.
  std::vector<CArray> arrays;
  std::vector<SizeVar> sizes;
  std::vector<ScalarParam> params;
  /// File-scope `static const double NAME = VALUE;` lines the coefficients use.
  std::vector<std::string> constants;
  std::array<std::string, 3> loopVar;
  std::array<int, 3> loopOrder{0, 1, 2}; ///< axis of the outermost loop first
  std::array<LoopBound, 3> bounds;
  std::vector<CTerm> terms;
  Grouping grouping = Grouping::Sum;
  std::string groupText; ///< the factor (Scaled) or divisor (Divided)
};

/// Options of the generator (the defaults are what the fuzzer runs).
struct GenOptions {
  /// Probability that an aspect (a bound, an array's extents) is generated
  /// off its canonical form: the rest are nests stencilc should accept.
  double offCanonical = 0.2;
};

/// A random nest named `name`, free of undefined behaviour in C: every
/// access lies inside its array, whatever the bounds.
CNest generateNest(std::mt19937_64 &rng, const std::string &name, const GenOptions &options);

/// The largest offset of the nest's reads and weights.
int nestRadius(const CNest &nest);

/// Whether no array type names extent `d` of `array`: the rows of a flat
/// array or of a pointer to arrays, and a 1D pointer's length.
bool extentUnnamed(const CArray &array, int d);

/// The grid the translation runs on, as the caller of its generated
/// function passes it: the written array's extents, except on an axis no
/// type names, where the grid's extent is the variable the loop over it
/// runs to (`m` of `i < m - 2`; c-frontend.md, "Flattened indexing"), not
/// the rows the harness allocated. Where that loop's end names no single
/// variable (stencilc refuses it), the allocated extent.
std::array<int, 3> gridExtent(const CNest &nest);

/// Internal to the generator (CNestArrays.cpp): the written array's name
/// and form, and `arrays` sized for it and `others` more; then, once the
/// bounds are known, the other arrays' names, forms and extents, and every
/// array's extent texts and allocation.
void drawWrittenArray(std::mt19937_64 &rng, CNest &nest, int others);
void drawReadArrays(std::mt19937_64 &rng, CNest &nest, const GenOptions &options);

/// The nest's function, preceded by the `// nest NAME` marker line the
/// checker maps diagnostics back with, and its constants.
std::string renderNest(const CNest &nest);

/// A `static void run_NAME(FILE *)` that fills the arrays from `seed`
/// (dumping the seeds and the scalars), calls the nest and dumps the
/// written array.
std::string renderRunner(const CNest &nest, uint64_t seed);

/// A whole translation unit: the nests, their runners and `main`, which
/// runs every nest and writes the dump to stdout. It includes the harness's
/// helpers, <stencilc_fuzz_harness.h> (harnessHeader), which the checker
/// writes into its work directory, given with -I (angle brackets: never a
/// stale copy beside the file).
std::string renderBatch(const std::vector<CNest> &nests, uint64_t seed);

/// The text of stencilc_fuzz_harness.h.
std::string harnessHeader();

/// The class of issue 38 a finding of this nest most likely belongs to:
/// "stride" where a read array's row length (in 2D and 3D) differs from
/// the written one's, "bounds" where a loop does not run over the interior
/// its radius leaves, "" (a new class) otherwise.
std::string knownClass(const CNest &nest);

} // namespace stencilc::fuzzdiff
