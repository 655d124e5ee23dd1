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
#include "llvm/ADT/SmallPtrSet.h"

#include "LoopNest.h"

namespace stencilc::cfront::detail {

/// Offsets beyond this are rejected as the .stencil language rejects them.
constexpr int MaxRadius = 32;

/// Nesting of the update's expression (parentheses, signs, casts; a chain
/// `a + b + c ...` is walked in a loop and counts once), of an index and of
/// a loop bound, as deep as the .stencil parser's limit.
constexpr unsigned MaxNesting = 256;

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

/// What a subexpression of the update is: a constant, or a linear form in
/// the reads of the input array.
struct Form {
  std::optional<CValue> constant;
  /// Offset -> coefficient; meaningful when `constant` is empty.
  std::map<Offset, double> terms;

  bool isConstant() const { return constant.has_value(); }
};

/// The extent of an array along one axis, as far as its type tells.
struct Extent {
  enum Kind { Unknown, Constant, Variable } kind = Unknown;
  int64_t value = 0;
  /// For a VLA whose size is a plain variable (`double a[n][m]`).
  const clang::ValueDecl *decl = nullptr;
};

/// A product of variables (sorted), and a sum of such products with integer
/// coefficients: a flattened index such as `(i-1)*nx + j` expanded.
using Monomial = std::vector<const clang::VarDecl *>;
using Polynomial = std::map<Monomial, int64_t>;

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
  bool recogniseLoop(const clang::ForStmt *loop, Loop &result);
  bool checkNoSideEffects(const clang::Expr *expr, const char *what, const clang::VarDecl *var);
  bool isLoopStep(const clang::Expr *step, const clang::VarDecl *var);
  const Loop *loopOf(const clang::VarDecl *var) const;

  // --- The write ------------------------------------------------------------
  bool recogniseWrite(const clang::Expr *target);
  const clang::VarDecl *arrayOf(const clang::Expr *base, const char *role);
  bool checkDistinct(const clang::VarDecl *array, clang::SourceLocation useLoc);
  std::optional<std::vector<Extent>> arrayExtents(const clang::VarDecl *array,
                                                  clang::SourceLocation useLoc,
                                                  clang::QualType &elementType);

  // --- The indices (Indices.cpp) ----------------------------------------------
  /// The offset of a read with one index per axis.
  std::optional<Offset> offsetOf(const std::vector<const clang::Expr *> &indices,
                                 const clang::VarDecl *array);
  std::optional<Polynomial> expandIndex(const clang::Expr *expr, unsigned level = 0);
  clang::QualType flatElementType(const clang::VarDecl *array, clang::SourceLocation useLoc);
  /// `out[i*nx + j]`: sets the axes, their strides and extents; false after
  /// an error.
  bool recogniseFlattenedWrite(const clang::Expr *index, clang::SourceLocation baseLoc);
  /// The offset of a read `in[(i-1)*nx + j]` of a flattened nest.
  std::optional<Offset> flattenedOffset(const clang::Expr *index, const clang::VarDecl *array);

  // --- The right-hand side ----------------------------------------------------
  std::optional<Form> analyse(const clang::Expr *expr);
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

  // --- The bounds -------------------------------------------------------------
  bool checkBounds(const TranslatedStencil &stencil);
  bool checkLoopBounds(const Loop &loop, unsigned axis, const TranslatedStencil &stencil);
  std::pair<const clang::Expr *, int64_t> splitBound(const clang::Expr *bound, unsigned level = 0);
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
  const clang::BinaryOperator *assignment = nullptr;

  const clang::VarDecl *output = nullptr;
  std::vector<const clang::VarDecl *> axisVars; ///< the loop variable of each axis of the write
  std::vector<Extent> outputExtents;
  /// For a flattened write (`out[i*nx + j]`): the stride of each axis, the
  /// sizes of the axes inside it ({nx} for i, {} for j); empty otherwise.
  std::vector<Monomial> flatStrides;
  clang::QualType outputElement;

  const clang::VarDecl *input = nullptr;
  const clang::Expr *firstInputRead = nullptr;
  /// Reads already reported, so that a cause gets one error however many
  /// terms share it: a read of the output, a second input array.
  bool readOfOutputReported = false;
  llvm::SmallPtrSet<const clang::VarDecl *, 2> secondInputsReported;
  clang::QualType inputElement;
  /// The first read at each offset, for notes.
  std::map<Offset, const clang::Expr *> readAt;
  std::set<const clang::VarDecl *> foldingVars;
  bool radiusNoted = false;
  /// How deep analyse() is, and whether the nesting limit was reported.
  unsigned depth = 0;
  bool tooDeepReported = false;
};

} // namespace stencilc::cfront::detail
