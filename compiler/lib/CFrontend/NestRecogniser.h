//===- NestRecogniser.h - The state of recognising one nest ----*- C++ -*-===//
//
// Internal to the C front end: the recogniser of one `#pragma stencil` nest,
// shared by LoopNest.cpp (the loops, the write, the bounds) and
// LinearForm.cpp (constant folding and the linear form of the update).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "LoopNest.h"
#include "stencilc/Spec.h"

namespace stencilc::cfront::detail {

/// Offsets beyond this are rejected as the .stencil language rejects them.
constexpr int MaxRadius = 32;

/// Nesting of the update's expression (parentheses, signs, casts; a chain
/// `a + b + c ...` is walked in a loop and counts once), of an index and of
/// a loop bound, as deep as the .stencil parser's limit.
constexpr unsigned MaxNesting = 256;

/// A coefficient of run-time parameters has at most as many operations and
/// nests at most as deep as the .stencil language allows.
constexpr int MaxExprNodes = 4096;
constexpr int MaxExprDepth = 128;

/// `for (var = lower; var < upper; ++var)`, or `var <= upper` when inclusive.
struct Loop {
  const clang::ForStmt *stmt = nullptr;
  const clang::VarDecl *var = nullptr;
  const clang::Expr *lower = nullptr;
  const clang::Expr *upper = nullptr;
  const clang::Expr *condition = nullptr;
  bool inclusive = false;
};

/// A constant as C computes it: an integer, or a floating value in the
/// format of its type.
struct CValue {
  bool isFloat = false;
  llvm::APSInt integer;
  llvm::APFloat real{0.0};

  double toDouble() const {
    if (!isFloat) {
      return integer.isSigned() ? static_cast<double>(integer.getSExtValue())
                                : static_cast<double>(integer.getZExtValue());
    }
    llvm::APFloat value = real;
    bool losesInfo = false;
    value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    return value.convertToDouble();
  }
};

/// A coefficient as the C front end carries it: the double C computes, or,
/// once a run-time parameter (a scalar variable) takes part, an expression
/// the host evaluates per call. The operations simplify as the .stencil
/// language's do (0 * p is 0, 1 * p is p, 0 + p is p), so that a loop nest and
/// the .stencil text it is printed as give the same expression.
struct Coefficient {
  double value = 0.0;
  std::optional<ParamExpr> expr;

  bool isZero() const { return !expr && value == 0.0; }
  ParamExpr toExpr() const { return expr ? *expr : ParamExpr::constant(value); }
  void negate();
  void add(const Coefficient &other);
  void multiply(const Coefficient &other);
  void divide(const Coefficient &other);
};

/// A read of one array of the update (its index in NestRecogniser::arrays,
/// -1 for none) at an offset.
struct ArrayRead {
  int array = -1;
  Offset offset;
  auto operator<=>(const ArrayRead &) const = default;
};

/// What a term multiplies: one read, or the product of two (`second` set,
/// the pair sorted), which must end up a coefficient array times an input.
struct TermReads {
  ArrayRead first;
  ArrayRead second;
  auto operator<=>(const TermReads &) const = default;
};

/// What a subexpression of the update is: a constant, a scalar of run-time
/// parameters, or a linear form in the reads of the arrays.
struct Form {
  std::optional<CValue> constant;
  std::optional<ParamExpr> parameter;
  /// Reads -> coefficient; meaningful when the form is no scalar. The key
  /// TermReads{} (no read) holds a scalar added to reads, which is fine in a
  /// factor (`(k[i] + 1.0) * u[i-1]`) and an error left in the update.
  std::map<TermReads, Coefficient> terms;
  /// Where the first such scalar was added, for that error; null where the
  /// form holds none.
  const clang::Expr *scalarAddedAt = nullptr;

  bool isConstant() const { return constant.has_value(); }
  bool isScalar() const { return constant || parameter; }
  Coefficient scalar() const {
    return parameter ? Coefficient{0.0, parameter} : Coefficient{constant->toDouble(), {}};
  }
};

/// A product of variables (sorted), and a sum of such products with integer
/// coefficients: a flattened index such as `(i-1)*nx + j` expanded.
using Monomial = std::vector<const clang::VarDecl *>;
using Polynomial = std::map<Monomial, int64_t>;

/// The extent of an array along one axis, as far as its type tells: `Known`
/// as a sum of products of integer variables (a constant is the sum of the
/// empty product alone), so that two extents, or an extent and a loop
/// bound, are proven equal when their sums are. `Unprovable` where the type
/// names an extent that cannot be compared (`a[n/2]`, or a size variable
/// changed after the declaration, which fixed the extent); `Unknown` where
/// the type names none (`double *a`, `double (*a)[M]` outermost).
struct Extent {
  enum Kind { Unknown, Known, Unprovable } kind = Unknown;
  Polynomial size;
  /// Unprovable: the size as written, why it cannot be compared, and where
  /// a size variable is changed (null if that is not the reason).
  const clang::Expr *sizeExpr = nullptr;
  std::string reason;
  const clang::Expr *change = nullptr;

  static Extent known(Polynomial size) { return Extent{Known, std::move(size), nullptr, {}, {}}; }
};

/// Whether `p` has no product of variables: a constant.
inline bool isConstant(const Polynomial &p) {
  return p.empty() || (p.size() == 1 && p.begin()->first.empty());
}

/// Sorts the terms of a stencil of fields by field and offset.
void sortFieldTerms(std::vector<FieldTerm> &terms);

/// `p + k`, or nothing where a coefficient would overflow.
std::optional<Polynomial> plus(Polynomial p, int64_t k);
/// A sum of products as C would write it (`nx*ny - 2`), the variables of a
/// product and the products in a fixed order, for messages.
std::string spell(const Polynomial &p);
/// An axis of a flattened index: its stride and its loop variable.
using FlatAxis = std::pair<Monomial, const clang::VarDecl *>;

/// An index of a read: `var + offset`, or a constant when var is null.
struct IndexForm {
  const clang::VarDecl *var = nullptr;
  int64_t offset = 0;
};

inline std::string str(int64_t value) { return std::to_string(value); }

/// Splits `a[e0][e1]...` into the base and the indices, outermost first.
/// `v[i]` on a std::vector (or any class's operator[]): the call, or null.
const clang::CXXOperatorCallExpr *vectorSubscript(const clang::Expr *expr);
/// The element type of a std::vector<T>, or a null type for any other type.
clang::QualType vectorElement(clang::QualType type);

const clang::Expr *splitSubscripts(const clang::Expr *expr,
                                   std::vector<const clang::Expr *> &indices);

/// Whether `stmt` (null: no) names a variable for which `matches` holds.
bool refersTo(const clang::Stmt *stmt, llvm::function_ref<bool(const clang::VarDecl *)> matches);

/// A loop over a list of points after the nest (TimeLoop.cpp): the words
/// its messages use.
struct PointLoop;

/// Recognises one marked nest; run() reports every problem it finds.
class NestRecogniser {
public:
  NestRecogniser(const MarkedNest &nest, clang::ASTContext &context)
      : nest(nest), context(context), diags(context.getDiagnostics()),
        sourceManager(context.getSourceManager()) {}

  std::optional<TranslatedStencil> run();

private:
  // --- The loops -----------------------------------------------------------
  bool collectLoops();
  /// The precision the pragma names, or the arrays' element type; false
  /// after an error.
  bool inferPrecision(StencilSpec &spec);
  bool recogniseLoop(const clang::ForStmt *loop, Loop &result);
  bool checkNoSideEffects(const clang::Expr *expr, const char *what, const clang::VarDecl *var);
  /// Whether `stmt` evaluates the size of a variably modified type with a
  /// side effect (`sizeof(int[n++])`), which Clang's HasSideEffects misses.
  bool sizeHasSideEffects(const clang::Stmt *stmt) const;
  bool typeSizeHasSideEffects(clang::QualType type) const;
  bool isLoopStep(const clang::Expr *step, const clang::VarDecl *var);
  const Loop *loopOf(const clang::VarDecl *var) const;

  // --- The write ------------------------------------------------------------
  bool recogniseWrite(const clang::Expr *target);
  const clang::VarDecl *arrayOf(const clang::Expr *base, const char *role);
  bool checkDistinct(const clang::VarDecl *array, clang::SourceLocation useLoc);
  std::optional<std::vector<Extent>> arrayExtents(const clang::VarDecl *array,
                                                  clang::SourceLocation useLoc,
                                                  clang::QualType &elementType);
  Extent variableExtent(const clang::Expr *size, const clang::VarDecl *array);
  /// Every array read has the extents of the nest where its type names
  /// them: the kernel indexes all arrays with one set of extents.
  bool checkReadExtents();
  bool checkReadExtent(unsigned array, unsigned axis, const Extent &extent);

  // --- The indices (Indices.cpp) ----------------------------------------------
  /// The offset of a read with one index per axis.
  std::optional<Offset> offsetOf(const std::vector<const clang::Expr *> &indices,
                                 const clang::VarDecl *array);
  /// An integer expression as a sum of products of variables; with
  /// `sizeCasts`, a cast of a variable that keeps every size (`(size_t)nx`)
  /// is the variable.
  std::optional<Polynomial> expandIndex(const clang::Expr *expr, unsigned level = 0,
                                        bool sizeCasts = false);
  clang::QualType flatElementType(const clang::VarDecl *array, clang::SourceLocation useLoc);
  /// `out[i*nx + j]`: sets the axes, their strides and extents; false after
  /// an error.
  bool recogniseFlattenedWrite(const clang::Expr *index, clang::SourceLocation baseLoc);
  std::optional<std::vector<FlatAxis>> flattenedAxes(const Polynomial &form);
  bool checkRowSize(const clang::Expr *index, const clang::VarDecl *var,
                    const clang::VarDecl *size);
  /// The offset of a read `in[(i-1)*nx + j]` of a flattened nest.
  std::optional<Offset> flattenedOffset(const clang::Expr *index, const clang::VarDecl *array);
  /// Whether a read has as many indices as the write; reported once per
  /// array, however many reads share the cause.
  bool checkIndexCount(const clang::VarDecl *array, const clang::Expr *base,
                       const clang::Expr *read, size_t count);

  // --- The right-hand side ----------------------------------------------------
  std::optional<Form> analyse(const clang::Expr *expr);
  std::optional<Form> analyseCast(const clang::CastExpr *cast);
  std::optional<Form> analyseSubscript(const clang::ArraySubscriptExpr *read);
  std::optional<Form> analyseSign(const clang::UnaryOperator *unary);
  std::optional<Form> foldByClang(const clang::Expr *expr);
  void reportUnsupported(const clang::Expr *expr);
  std::optional<Form> analyseRead(const clang::Expr *read);
  std::optional<Form> analyseBinary(const clang::BinaryOperator *op);
  std::optional<Form> combine(const clang::BinaryOperator *op, Form lhs, Form rhs);
  std::optional<Form> analyseName(const clang::DeclRefExpr *ref);
  bool constantElement(const clang::ArraySubscriptExpr *read, std::optional<CValue> &value);
  std::optional<IndexForm> analyseIndex(const clang::Expr *index, unsigned axis,
                                        const std::string &array, unsigned level = 0);
  std::optional<CValue> foldQuietly(const clang::Expr *expr);
  std::optional<CValue> convert(const CValue &value, clang::QualType to, clang::SourceLocation loc);
  std::optional<CValue> arithmetic(clang::BinaryOperatorKind op, const CValue &lhs,
                                   const CValue &rhs, clang::SourceLocation loc);
  void reportTermWithoutRead(const clang::Expr *term);
  std::optional<Form> analyseParameter(const clang::VarDecl *var);
  std::optional<Form> multiply(const clang::BinaryOperator *op, Form lhs, Form rhs);
  /// The name of the array of the first read in `form`, for messages.
  std::string firstArrayName(const Form &form) const;
  /// Fills the spec's terms (one input array, constant coefficients) or its
  /// fields, parameters and field terms; false after an error.
  bool assembleTerms(const Form &rhs, TranslatedStencil &stencil);
  void declareNames(const std::vector<int> &roles, bool general, TranslatedStencil &stencil);
  bool checkCoefficient(const ArrayRead &first, const Coefficient &c);
  bool measureReach(const std::vector<ArrayRead> &kept, StencilSpec &spec);
  std::vector<int> arrayRoles(const Form &rhs);

  // --- The time loop (TimeLoop.cpp) ---------------------------------------------
  /// Where the pragma marks `for (t = 0; t < steps; ++t) { nest ... }`: the
  /// counter, the nest and the statements after it; false after an error.
  bool collectTimeLoop();
  bool checkTimeCounter();
  /// `amp[t]` in the update: a per-step parameter, or an error for any
  /// other read that the counter indexes.
  bool indexedByTime(const clang::Expr *read) const;
  std::optional<Form> analysePerStep(const clang::Expr *read);
  /// The source loop, the receiver loop and the rotation, against the
  /// nest's arrays; sets the spec's time levels, sources and receivers.
  /// False after an error.
  bool checkTimeLoop(TranslatedStencil &stencil);
  bool checkBodyLoop(const clang::ForStmt *loop, TranslatedStencil &stencil);
  void reportBodyStatement(const clang::Stmt *stmt);
  void reportSwap(const clang::CallExpr *call, const clang::FunctionDecl *callee);
  /// `for (int k = 0; k < nsrc; ++k) unew[sy[k]][sx[k]] += amp[t][k];` or
  /// `for (int k = 0; k < nrec; ++k) rec[t][k] = unew[ry[k]][rx[k]];` in
  /// the nest's names, for messages.
  std::string pointLoopForm(const PointLoop &kind) const;
  bool recogniseSources(const clang::ForStmt *loop, const clang::BinaryOperator *op);
  void reportSourceOperator(const clang::BinaryOperator *op);
  bool recogniseReceivers(const clang::ForStmt *loop, const clang::BinaryOperator *op);
  /// The loop over a list of points: from 0 to a count.
  bool recognisePointLoop(const clang::ForStmt *loop, Loop &result, const PointLoop &kind);
  /// `rec[t][k]`, `amp[t][k]` or flattened: the array of steps x count.
  bool checkStepTable(const clang::Expr *access, const Loop &points, const PointLoop &kind);
  bool checkTableRows(const clang::VarDecl *table, const clang::Expr *access,
                      const Polynomial &count, const PointLoop &kind);
  bool checkReceiverRead(const clang::Expr *read, const Loop &receiver);
  /// `unew[ry[k]][rx[k]]`: the written level at one coordinate array an axis.
  bool checkCoordinates(const clang::Expr *access, const Loop &points, const PointLoop &kind);
  bool checkRotation(TranslatedStencil &stencil);
  /// What each array holds after the rotation, `holds` mapping a variable
  /// to the one whose buffer it was given.
  void reportRotation(const clang::Stmt *first,
                      const std::map<const clang::VarDecl *, const clang::VarDecl *> &holds);
  bool applyRotation(const clang::VarDecl *current, const clang::VarDecl *previous,
                     TranslatedStencil &stencil);
  std::string rotationHint() const;
  bool isInputArray(const clang::VarDecl *array, const StencilSpec &spec) const;

  // --- The bounds -------------------------------------------------------------
  bool checkBounds(const TranslatedStencil &stencil);
  bool checkLoopBounds(const Loop &loop, unsigned axis, const TranslatedStencil &stencil);
  bool checkLoopEnd(const Loop &loop, unsigned axis, const TranslatedStencil &stencil,
                    const std::string &boundary);
  void reportEndNotAnExtent(const Loop &loop, int64_t ring, const std::string &boundary);
  /// The exclusive end of a loop as a sum of products of integer variables,
  /// or nothing for any other expression (a cast, a division, a call).
  std::optional<Polynomial> endOf(const Loop &loop);
  bool mentionsLoopVariable(const clang::Stmt *stmt) const;
  void noteRadius(const TranslatedStencil &stencil);

  std::string text(const clang::Stmt *stmt) const {
    return clang::Lexer::getSourceText(
               clang::CharSourceRange::getTokenRange(stmt->getSourceRange()), sourceManager,
               context.getLangOpts())
        .str();
  }

  const MarkedNest &nest;
  clang::ASTContext &context;
  clang::DiagnosticsEngine &diags;
  clang::SourceManager &sourceManager;

  /// Reporting is off while folding loop bounds and trying alternatives.
  bool quiet = false;

  std::vector<Loop> loops; ///< outermost first
  /// The time loop around the nest, where the pragma marks one (stmt null
  /// otherwise), the nest's outermost loop, and the statements after the
  /// nest in the time loop's body.
  Loop timeLoop;
  const clang::Stmt *nestStart = nullptr;
  std::vector<const clang::Stmt *> afterNest;
  /// The pointer assignments and std::swap calls of the time loop's body
  /// (`u = unew;`, `std::swap(u, unew);`): the rotation, which
  /// checkTimeLoop proves a permutation of the nest's buffers, so the
  /// arrays it changes stay distinct.
  llvm::SmallPtrSet<const clang::Stmt *, 8> rotation;
  /// Arrays read as `amp[t]` (per-step parameters); the arrays of the
  /// source and receiver loops (coordinates, amplitudes, records), and of
  /// those the arrays of steps x count (amplitudes, records); whether each
  /// loop was seen.
  std::set<const clang::VarDecl *> perStepArrays;
  std::set<const clang::VarDecl *> pointArrays;
  std::set<const clang::VarDecl *> stepTables;
  bool sourcesSeen = false;
  bool recordsSeen = false;
  const clang::BinaryOperator *assignment = nullptr;

  const clang::VarDecl *output = nullptr;
  std::vector<const clang::VarDecl *> axisVars; ///< the loop variable of each axis of the write
  std::vector<Extent> outputExtents;
  /// The extent of each axis of the nest, once the bounds are checked: the
  /// written array's, or where its type names none, the one the loop runs to.
  std::vector<Extent> nestExtents;
  /// For a flattened write (`out[i*nx + j]`): the stride of each axis, the
  /// sizes of the axes inside it ({nx} for i, {} for j); empty otherwise.
  std::vector<Monomial> flatStrides;
  clang::QualType outputElement;

  /// The arrays the update reads, in the order of their first reads, with
  /// their element types and first reads; the scalar variables it uses as
  /// run-time parameters, in the same order.
  std::vector<const clang::VarDecl *> arrays;
  std::vector<clang::QualType> arrayElements;
  std::vector<const clang::Expr *> firstReads;
  std::vector<const clang::VarDecl *> params;
  /// Reads already reported, so that a cause gets one error however many
  /// terms share it: a read of the output.
  bool readOfOutputReported = false;
  /// Arrays whose reads with the wrong number of indices are reported.
  std::set<const clang::VarDecl *> indexCountReported;
  /// Changes of size variables reported as leaving an extent unprovable.
  std::set<const clang::Expr *> changesReported;
  /// The first read of each array at each offset, for notes.
  std::map<ArrayRead, const clang::Expr *> readAt;
  std::set<const clang::VarDecl *> foldingVars;
  bool radiusNoted = false;
  /// How deep analyse() is, and whether the nesting limit was reported.
  unsigned depth = 0;
  bool tooDeepReported = false;
};

} // namespace stencilc::cfront::detail
