//===- SemaChecker.h - The checker of one stencil, shared by Sema*.cpp -*- C++ -*-===//
//
// Sema is split by concern; every part is a member of StencilChecker:
//   Sema.cpp         the stencil's statements in order, once-only statements,
//                    checkModule;
//   SemaNames.cpp    names and scopes: 'let' constants, unknown names;
//   SemaFolding.cpp  linearity and exact folding of constant arithmetic;
//   SemaReads.cpp    reads of 'in', their index forms and offsets, the update;
//   SemaShape.cpp    precision, shape, boundary, radius and dims, and the
//                    declared values against the body;
//   SemaTable.cpp    the weights table and the final coefficients.
// Private to the front end: nothing outside compiler/lib/Frontend includes it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include "stencilc/AST.h"
#include "stencilc/Diagnostics.h"
#include "stencilc/Sema.h"
#include "stencilc/Spec.h"

namespace stencilc::sema {

using llvm::APFloat;
using llvm::SMLoc;

inline const llvm::fltSemantics &quad() { return APFloat::IEEEquad(); }

inline double toDouble(const APFloat &value) {
  APFloat copy = value;
  bool losesInfo = false;
  copy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &losesInfo);
  return copy.convertToDouble();
}

inline std::string valueText(const APFloat &value) { return formatExact(toDouble(value)); }

/// A read of `in` inside a linear expression: its folded coefficient and
/// where it was first written.
struct Read {
  APFloat coefficient;
  SMLoc loc;
};

/// The value of an expression: a constant, or a linear combination of reads
/// of `in` (never both: a constant term in a linear sum is an error).
struct LinearValue {
  APFloat constant = APFloat::getZero(quad());
  std::map<Offset, Read> reads;
  SMLoc loc;

  bool isConstant() const { return reads.empty(); }
};

/// An index expression of a read, as sum of index names and a constant.
struct IndexForm {
  std::map<std::string, APFloat> names;
  APFloat constant = APFloat::getZero(quad());
};

struct LetConstant {
  APFloat value;
  SMLoc loc;
};

/// Where statements that may appear once were first seen.
struct SeenStatements {
  std::map<Stmt::Kind, SMLoc> first;
  SMLoc body; ///< the update or the weights table
};

inline std::string_view statementKeyword(Stmt::Kind kind) {
  switch (kind) {
  case Stmt::Kind::Precision:
    return "precision";
  case Stmt::Kind::Boundary:
    return "boundary";
  case Stmt::Kind::Shape:
    return "shape";
  case Stmt::Kind::Radius:
    return "radius";
  case Stmt::Kind::Dims:
    return "dims";
  default:
    return "statement";
  }
}

class StencilChecker {
public:
  StencilChecker(const StencilDecl &decl, DiagnosticEngine &diags) : decl(decl), diags(diags) {}

  /// `line` is the line of the stencil's name.
  std::optional<StencilSpec> check(llvm::StringRef fileName, unsigned line);

private:
  // Statements.
  bool checkOnce(const Stmt &stmt);
  void checkPrecision(const WordStmt &stmt);
  void checkShape(const WordStmt &stmt);
  void checkBoundary(const BoundaryStmt &stmt);
  void checkLet(const LetStmt &stmt);
  void checkInteger(const IntegerStmt &stmt);
  void checkUpdate(const UpdateStmt &stmt);
  void checkWeights(const WeightsStmt &stmt);
  bool checkTableList(const TableList &list, int level, int depth, size_t width, Offset &position);
  void checkDeclarations();
  void finishCoefficients();

  // Expressions.
  std::optional<LinearValue> eval(const Expr &expr);
  std::optional<LinearValue> evalConstantOnly(const Expr &expr, llvm::StringRef what);
  std::optional<LinearValue> evalNumber(const NumberExpr &expr);
  std::optional<LinearValue> evalName(const NameExpr &expr);
  std::optional<LinearValue> evalRead(const ReadExpr &expr);
  std::optional<LinearValue> evalChain(const BinaryExpr &expr);
  bool combine(LinearValue &acc, char op, LinearValue rhs, SMLoc opLoc);
  bool chargeScaling(std::size_t coefficients, SMLoc opLoc);
  std::optional<IndexForm> decomposeIndex(const Expr &expr, unsigned depth);
  std::optional<int> checkIndex(const Expr &expr, unsigned position);
  std::optional<long> foldInteger(const Expr &expr, llvm::StringRef what);
  bool checkFinite(const APFloat &value, SMLoc loc);

  std::string readText(const Offset &offset) const;
  void noteIfDefinedLater(llvm::StringRef name);
  /// Reports the unknown `word` of a statement (`what`: "precision", ...):
  /// "did you mean 'K'?" with a fix-it when `suggestion` is set, else the
  /// `expected` list.
  void reportUnknownWord(const Identifier &word, std::string_view what,
                         std::optional<std::string> suggestion, std::string_view expected);
  /// Reports a name no 'let' defines, once per stencil: later uses of the
  /// same name say nothing more.
  void reportUnknownName(const NameExpr &expr);
  /// An update of, or a read from, a grid other than `grid`: "did you mean"
  /// with a fix-it where the name is near `grid`, else `otherwise`.
  void reportUnknownGrid(llvm::StringRef name, llvm::SMRange range, llvm::StringRef grid,
                         const std::string &otherwise);

  const StencilDecl &decl;
  DiagnosticEngine &diags;
  SeenStatements seen;
  std::map<std::string, LetConstant> lets;
  /// Where each name is first given a 'let' in the body, for noteIfDefinedLater.
  llvm::StringMap<SMLoc> letStatements;
  bool letStatementsIndexed = false;
  std::set<std::string, std::less<>> unknownNamesReported;
  std::vector<Identifier> indexNames; ///< of `out`, empty for tables
  /// While an index of a read that does not name its index of `out` is
  /// checked: its position, whose name of `indexNames` is the one to suggest
  /// for an unknown name there.
  std::optional<unsigned> expectedIndex;
  bool readsAllowed = false;
  std::string constantContext; ///< what must be constant, when reads are not allowed
  /// Coefficient multiplications and divisions done so far for this stencil:
  /// a product or quotient by a constant scales every coefficient of the
  /// reads it applies to, so a long sum of reads times a long chain of
  /// constants costs reads x factors (chargeScaling bounds it).
  std::size_t scalings = 0;

  // What the statements say.
  StencilSpec spec;
  std::optional<std::pair<Shape, SMLoc>> declaredShape;
  std::optional<std::pair<long, SMLoc>> declaredRadius;
  std::optional<std::pair<long, SMLoc>> declaredDims;
  std::optional<std::pair<int, SMLoc>> bodyDims; ///< and where the body says so
  std::map<Offset, Read> coefficients;
  SMLoc bodyLoc;
};

/// Records the update or the weights table as the stencil's body; false (with
/// an error) when the stencil already has one.
bool checkBodyOnce(SeenStatements &seen, const Stmt &stmt, DiagnosticEngine &diags);

} // namespace stencilc::sema
