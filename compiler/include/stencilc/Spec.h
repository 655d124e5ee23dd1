//===- Spec.h - The checked, normalised description of a stencil -*- C++ -*-===//
//
// A StencilSpec is what Sema (or the C front end) produces and what every
// later stage consumes: the planner, the emulator and the code generators see
// nothing of the source text. It is plain data with value semantics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <array>
#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class raw_ostream;
struct fltSemantics;
} // namespace llvm

namespace stencilc {

/// The precisions, from Precisions.def (in the order of stencil_info.h's
/// stencilc_precision).
enum class Precision {
#define STENCILC_PRECISION(Enumerator, ...) Enumerator,
#include "stencilc/Precisions.def"
};
enum class Shape { Star, Box };
/// The boundary rules, from Boundaries.def (in the order of stencil_info.h's
/// stencilc_boundary: the generated header and the emulators convert by
/// value).
enum class BoundaryKind {
#define STENCILC_BOUNDARY(Enumerator, ...) Enumerator,
#include "stencilc/Boundaries.def"
};
/// What a read outside the grid gives under a boundary rule (Boundaries.def).
enum class OutsideRead {
  Zero,  ///< 0, and only the interior is written (the ring of width r is kept)
  Value, ///< the constant V of `boundary constant V`
  Fold,  ///< the grid point stencilc_fold_index gives (boundary_index.h)
};

/// The keyword of each enumerator, as written in a .stencil file.
std::string_view keyword(Precision p);
std::string_view keyword(Shape s);
std::string_view keyword(BoundaryKind b);
std::optional<Precision> parsePrecision(std::string_view word);
std::optional<BoundaryKind> parseBoundaryKind(std::string_view word);
std::optional<Shape> parseShape(std::string_view word);
/// Every keyword parsePrecision, parseBoundaryKind and parseShape accept, in
/// enumerator order (for "did you mean ...?").
std::vector<std::string_view> precisionKeywords();
std::vector<std::string_view> boundaryKeywords();
std::vector<std::string_view> shapeKeywords();

/// The CUDA element type in memory: __half, __nv_bfloat16, float or double.
std::string_view elementTypeName(Precision p);
/// Bytes per element in memory.
unsigned elementBytes(Precision p);
/// Whether elements are 16-bit (fp16, bf16): widened to float by the
/// kernels, read and stored in pairs.
bool isSixteenBit(Precision p);
/// The floating-point format of an element in memory, and the one a
/// coefficient is rounded to as a kernel's operand (they differ for tf32:
/// stored as float, multiplied as tf32).
const llvm::fltSemantics &storageSemantics(Precision p);
const llvm::fltSemantics &operandSemantics(Precision p);
/// The relative L2 error against the float64 reference that the tests and
/// the emulators hold one step in precision `p` to.
double relativeTolerance(Precision p);
/// Rounds a value held in memory as `p`'s element type, to nearest even
/// (tf32 and fp32 are floats).
double roundToStorage(double value, Precision p);
/// Whether `value` rounds to a finite operand of `p` (operandSemantics):
/// fp16 overflows past 65504.
bool roundsToFiniteOperand(double value, Precision p);

/// What a read outside the grid gives under `b`.
OutsideRead outsideRead(BoundaryKind b);
/// Whether reads outside the grid land on the grid's own points near its
/// edge under `b` (clamp, mirror, reflect: a Fold other than periodic's
/// wrap), so that a level computed from them is not the fold of the levels
/// before it; the runtime's STENCILC_BOUNDARY_FOLDS_AT_EDGE.
bool foldsAtEdge(BoundaryKind b);
/// The policy type of stencilc/device/boundary.cuh the kernels read the grid
/// through under `b` ("FixedBoundary").
std::string_view boundaryPolicyType(BoundaryKind b);
/// "fixed, constant V, periodic, clamp or mirror": the rules as a user
/// writes them, for messages (`valueForm` after the rule that takes a
/// value: " V" in a .stencil file, "(V)" in the C pragma).
std::string boundaryChoicesText(std::string_view lastJoin = " or ",
                                std::string_view valueForm = " V");

/// An offset of a read relative to the output point, in index order
/// (outermost first, the contiguous axis last). Only the first `dims`
/// components are meaningful; the rest are zero.
struct Offset {
  std::array<int, 3> d{0, 0, 0};

  auto operator<=>(const Offset &) const = default;
  bool isCentre() const { return d[0] == 0 && d[1] == 0 && d[2] == 0; }
  /// Number of non-zero components (0 for the centre, 1 on an axis).
  int nonZeroAxes() const;
  /// Largest absolute component.
  int chebyshevNorm() const;
};

/// One read of the input with its coefficient.
struct Term {
  Offset offset;
  /// The coefficient folded from its exact decimal form and rounded once to
  /// double. Kernels round it once more to their operand type.
  double coefficient = 0.0;
};

/// A coefficient that depends on run-time parameters (`param dt;`): an
/// expression tree the host code evaluates in double on every call. Its
/// constant leaves are the exactly folded constant parts, rounded once to
/// double.
struct ParamExpr {
  enum class Op { Constant, Param, Add, Sub, Mul, Div, Neg };
  Op op = Op::Constant;
  double value = 0.0;          ///< Constant
  int param = 0;               ///< Param: the index into StencilSpec::params
  std::vector<ParamExpr> args; ///< one (Neg) or two operands
  int nodes = 1;               ///< nodes of the tree (Sema bounds it)
  int depth = 1;               ///< its longest path from the root

  static ParamExpr constant(double value);
  static ParamExpr parameter(int index);
  static ParamExpr apply(Op op, ParamExpr lhs, ParamExpr rhs);
  /// Its value in double for the parameters' values, in `params` order.
  double evaluate(const std::vector<double> &params) const;
  /// As a C expression of double arithmetic over the parameters' names.
  std::string cText(const std::vector<std::string> &names) const;
  /// Whether it reads parameter `index`.
  bool uses(int index) const;
};

/// A field a stencil reads: an input field (linear: each term reads it
/// once) or a coefficient field, which only multiplies reads of input fields.
enum class FieldRole { Input, Coefficient };
struct FieldDecl {
  std::string name;
  FieldRole role = FieldRole::Input;
};

/// One term of a stencil of several fields: coefficient x (optionally) a
/// coefficient field's read x a read of an input field.
struct FieldTerm {
  int field = 0; ///< index into StencilSpec::fields, an input field
  Offset offset;
  /// The coefficient when it does not depend on a parameter (folded exactly,
  /// rounded once to double); else `paramCoefficient` gives it.
  double coefficient = 0.0;
  std::optional<ParamExpr> paramCoefficient;
  int coefficientField = -1; ///< a coefficient field multiplying the term, or -1
  Offset coefficientOffset;  ///< where that field is read

  double value(const std::vector<double> &params) const {
    return paramCoefficient ? paramCoefficient->evaluate(params) : coefficient;
  }
};

struct StencilSpec {
  std::string name;
  /// Where the stencil was defined, for the generated file's header comment.
  std::string sourceFile;
  unsigned sourceLine = 0;

  int dims = 2; ///< 1, 2 or 3
  /// The update's index names, outermost first (`out[i, j, l]`), which
  /// messages and the generated comments use; empty for a weights table or
  /// a C translation, which use i, j and k.
  std::vector<std::string> indexNames;
  int radius = 1; ///< largest absolute offset of a non-zero coefficient
  Shape shape = Shape::Star;
  Precision precision = Precision::FP32;
  BoundaryKind boundary = BoundaryKind::Fixed;
  /// The value read outside the grid for `boundary constant V`.
  double boundaryValue = 0.0;

  /// The non-zero coefficients, sorted by offset, one per offset.
  std::vector<Term> terms;

  /// A stencil of fields (issue 20): its fields in declaration order (the
  /// input fields and the coefficient fields; a stencil that declares none
  /// but takes a parameter or a coefficient field reads the one input field
  /// `in`), its run-time parameters, and its terms in place of `terms`.
  /// Empty for a stencil of the one input `in` with constant coefficients,
  /// which `terms` describes.
  std::vector<FieldDecl> fields;
  std::vector<std::string> params;
  /// Whether each parameter changes every step (`param amp per step;`):
  /// NAME_run takes `steps` values of it. Empty or short: the rest constant.
  std::vector<bool> paramPerStep;
  std::vector<FieldTerm> fieldTerms;
  /// The input field whose next value `out` is (NAME_run steps it).
  int steppedField = 0;
  /// `record u;`: NAME_run takes a list of receiver points and records the
  /// stepped field's value at each after every step.
  bool recordsReceivers = false;
  /// `source u;`: NAME_run takes a list of source points and their
  /// amplitudes a step, added to the stepped field's new level there.
  bool injectsSources = false;
  /// `time PREV, CUR;`: the field holding the level before steppedField, or -1.
  int previousField = -1;

  bool hasFields() const { return !fields.empty(); }
  bool isPerStep(std::size_t param) const {
    return param < paramPerStep.size() && paramPerStep[param];
  }
  bool hasPerStepParams() const {
    return std::find(paramPerStep.begin(), paramPerStep.end(), true) != paramPerStep.end();
  }

  /// The coefficient at an offset; zero where the stencil does not read.
  double coefficient(const Offset &offset) const;
  /// Number of points the stencil reads (non-zero coefficients).
  std::size_t points() const { return terms.size(); }
  /// The points a step leaves unwritten at each edge: the radius on a fixed
  /// grid (its ring), none otherwise.
  int ring() const { return boundary == BoundaryKind::Fixed ? radius : 0; }
  /// The smallest extent a generated entry point takes: the ring on both
  /// sides and a point between on a fixed grid, one point otherwise.
  int smallestExtent() const { return 2 * ring() + 1; }
};

/// Prints the spec in the `--emit=spec` format: one field a line, then the
/// coefficients as a table (2D/3D: one row per line) and as a list.
void printSpec(const StencilSpec &spec, llvm::raw_ostream &os);

/// --emit=plan's line for the boundary of `spec` and the generated header's
/// note on it (Boundaries.def's texts, filled in).
std::string boundaryPlanText(const StencilSpec &spec);
std::string boundaryHeaderText(const StencilSpec &spec);

/// Whether the generated C API uses `name` (`in`, `out`, `nx`, `stream`, ...),
/// it is a C or C++ keyword, or it starts `stencilc`, `cuda` or `__`: such a
/// name cannot name a field or a parameter.
bool isReservedInApi(std::string_view name);

/// A list of points NAME_run takes after its parameters (`source u;`,
/// `record u;`): the names of its three parameters, in order (the points,
/// their count, the values of every step and point). The language refuses
/// a field or parameter of these names beside the statement, the C front
/// end renames one, and the generated code uses them.
struct PointListNames {
  std::string_view points, count, values;
};
inline constexpr PointListNames SourceListNames{"sources", "source_count", "amplitudes"};
inline constexpr PointListNames ReceiverListNames{"receivers", "receiver_count", "records"};
/// Whether `name` is one of those parameters' (of either list).
bool isPointListName(std::string_view name);

/// Whether `name` starts `stencilc` (the runtime's names), `cuda` (CUDA's) or
/// `__` (the C implementation's): no suffix makes such a name free.
bool hasReservedPrefix(std::string_view name);
/// What a message says of those prefixes.
std::string reservedPrefixText();

/// Shortest decimal text that reads back as exactly `value`.
std::string formatExact(double value);

/// `items` joined by ", ", and by `lastJoin` before the last one, for
/// messages: "a, b or c".
std::string joinList(const std::vector<std::string_view> &items, std::string_view lastJoin);

} // namespace stencilc
