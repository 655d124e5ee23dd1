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

/// A coefficient: a constant folded exactly, or, once a run-time parameter
/// enters it, an expression over the parameters (SemaCoef.cpp).
class Coef {
public:
  Coef() : exactValue(APFloat::getZero(quad())) {}
  Coef(APFloat value) : exactValue(std::move(value)) {}
  static Coef parameter(int index);

  bool isExact() const { return !symbolic; }
  APFloat &exact() { return exactValue; }
  const APFloat &exact() const { return exactValue; }
  /// The expression; an exact value as a constant rounded once to double.
  ParamExpr toExpr() const;
  bool isZero() const { return !symbolic && exactValue.isZero(); }
  bool isFinite() const { return symbolic || exactValue.isFinite(); }
  /// Whether an operation would have made the expression larger than the
  /// limits below; the value is then meaningless and Sema reports it.
  bool isTooLarge() const { return tooLarge; }
  static constexpr int MaxNodes = 4096;
  static constexpr int MaxDepth = 128;
  void changeSign();
  void add(const Coef &other, APFloat::roundingMode rm);
  void multiply(const Coef &other, APFloat::roundingMode rm);
  void divide(const Coef &other, APFloat::roundingMode rm);

private:
  void combine(ParamExpr::Op op, const Coef &other);
  APFloat exactValue;
  std::optional<ParamExpr> symbolic;
  bool tooLarge = false;
};

/// What a term of a linear expression reads: an input field at an offset,
/// and the coefficient field that multiplies it, if any. `field` is -1 for
/// a coefficient field's read not yet multiplied by an input read. A stencil
/// of the one input `in` reads field 0 and no coefficient field, so its
/// terms sort by offset as before.
struct TermKey {
  int field = 0;
  Offset offset;
  int coefField = -1;
  Offset coefOffset;

  auto operator<=>(const TermKey &) const = default;
  /// A read of input field `field` at `offset`, no coefficient field.
  static TermKey input(int field, const Offset &offset) {
    TermKey key;
    key.field = field;
    key.offset = offset;
    return key;
  }
};

/// A read inside a linear expression: its folded coefficient and where it
/// was first written.
struct Read {
  Coef coefficient;
  SMLoc loc;
};

/// The value of an expression: a constant, or a linear combination of reads
/// (a constant term beside reads of input fields is an error).
struct LinearValue {
  Coef constant;
  std::map<TermKey, Read> reads;
  SMLoc loc;

  bool isConstant() const { return reads.empty(); }
  /// Whether a term reads an input field (not only a coefficient field).
  bool readsInput() const {
    for (const auto &[key, read] : reads) {
      if (key.field >= 0) {
        return true;
      }
    }
    return false;
  }
};

/// An index expression of a read, as sum of index names and a constant.
struct IndexForm {
  std::map<std::string, APFloat> names;
  APFloat constant = APFloat::getZero(quad());
};

struct LetConstant {
  Coef value;
  SMLoc loc;
};

/// A field, parameter or time declaration of the stencil (SemaFields.cpp).
struct DeclaredField {
  FieldDecl decl;
  SMLoc loc;
};
struct DeclaredParam {
  std::string name;
  SMLoc loc;
  bool used = false;
  bool perStep = false; ///< `param NAME per step;`
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
  /// With the file's constants defined before the stencil.
  StencilChecker(const StencilDecl &decl, DiagnosticEngine &diags,
                 std::map<std::string, LetConstant> fileLets)
      : decl(decl), diags(diags), lets(std::move(fileLets)) {}

  /// A file-level `let` (checked as a stencil's, without reads or parameters).
  void checkFileLet(const LetStmt &stmt) { checkLet(stmt); }
  const std::map<std::string, LetConstant> &constants() const { return lets; }

  /// `line` is the line of the stencil's name.
  std::optional<StencilSpec> check(llvm::StringRef fileName, unsigned line);

private:
  // Statements.
  bool checkOnce(const Stmt &stmt);
  void checkPrecision(const WordStmt &stmt);
  void checkShape(const WordStmt &stmt);
  void checkBoundary(const BoundaryStmt &stmt);
  /// The constant boundary's value against the element type of the
  /// precision (known only once every statement is read).
  void finishBoundaryValue();
  void checkLet(const LetStmt &stmt);
  void checkInteger(const IntegerStmt &stmt);
  void checkUpdate(const UpdateStmt &stmt);
  bool checkOutIndices(const std::vector<Identifier> &indices);
  bool checkTermsReadInput(const LinearValue &value, const UpdateStmt &stmt);
  void checkWeights(const WeightsStmt &stmt);
  bool checkTableList(const TableList &list, int level, int depth, size_t width, Offset &position);
  void checkDeclarations();
  void finishCoefficients();
  /// The coefficient of `read` rounded to double, checked against the
  /// kernels' operand type (warnings, errors); none when it drops out.
  std::optional<double> finishCoefficient(const APFloat &coefficient, SMLoc loc,
                                          const std::string &read);

  // Fields, parameters, time levels, functions (SemaFields.cpp).
  void declareFields();
  void declareNames(const DeclStmt &stmt);
  /// Whether `d` is a well-formed per-step parameter; an error for `per
  /// step` twice, on a field, or in a list of several names.
  bool checkPerStep(const DeclStmt &stmt, const DeclaredName &d);
  /// Whether `stmt` (`time`, `record`, `source`: once a stencil) is the first of its
  /// kind, noting where in `first`; an error at a later one. Checks each
  /// name's `per step` (an error on these) for the first.
  bool declareOnce(const DeclStmt &stmt, SMLoc &first, std::string_view word);
  void declareTime(const DeclStmt &stmt);
  /// `record u;`, `source u;`: a statement naming the field NAME_run steps
  /// (SteppedNameWord), checked once that field is known (finishSteppedName).
  struct SteppedName {
    std::optional<Identifier> name;
    SMLoc loc;
  };
  void declareSteppedName(const DeclStmt &stmt, SteppedName &into);
  bool finishSteppedName(const SteppedName &given, std::string_view word);
  void finishSteppedNames();
  bool checkDeclaredName(const Identifier &name, std::string_view what);
  void finishFields();
  void finishFieldTerms();
  std::optional<LinearValue> evalFieldRead(const ReadExpr &expr);
  std::optional<LinearValue> evalCall(const CallExpr &expr);
  std::optional<APFloat> evalPow(const CallExpr &expr, const APFloat &base,
                                 const APFloat &exponent);
  std::optional<LinearValue> evalParam(const NameExpr &expr);
  bool multiplyReads(LinearValue &acc, LinearValue &rhs, SMLoc opLoc);
  /// Reports (at `opLoc`) a parameter expression of `v` past Coef's limits.
  bool checkExpressionSize(const LinearValue &v, SMLoc opLoc);
  /// The name of the input in messages: 'in', or "a field" for a stencil of fields.
  std::string inputWord() const;
  std::string fieldReadText(int field, const Offset &offset) const;

  // Expressions.
  std::optional<LinearValue> eval(const Expr &expr);
  std::optional<LinearValue> evalConstantOnly(const Expr &expr, llvm::StringRef what,
                                              bool allowParams = false);
  std::optional<LinearValue> evalNumber(const NumberExpr &expr);
  std::optional<LinearValue> evalName(const NameExpr &expr);
  std::optional<LinearValue> evalRead(const ReadExpr &expr);
  std::optional<LinearValue> evalChain(const BinaryExpr &expr);
  bool combine(LinearValue &acc, char op, LinearValue rhs, SMLoc opLoc);
  bool chargeScaling(std::size_t coefficients, SMLoc opLoc);
  std::optional<IndexForm> decomposeIndex(const Expr &expr, unsigned depth);
  std::optional<IndexForm> decomposeIndexName(const NameExpr &expr);
  void reportUnknownIndexName(const NameExpr &expr, const std::string &name);
  std::optional<IndexForm> decomposeIndexBinary(const BinaryExpr &binary, unsigned depth);
  /// The offset of a read of `array` from its indices (reporting each bad one).
  std::optional<Offset> readOffset(const ReadExpr &expr, llvm::StringRef array);
  std::optional<int> checkIndex(const Expr &expr, unsigned position, llvm::StringRef array = "in");
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
  std::map<TermKey, Read> coefficients;
  SMLoc bodyLoc;
  /// `boundary constant V`'s exact value and where V is written.
  std::optional<std::pair<APFloat, SMLoc>> boundaryValue;

  // A stencil of fields: its declarations (empty fields: the one input `in`).
  bool general = false;
  std::vector<DeclaredField> fields;
  llvm::StringMap<int> fieldIndex;
  std::vector<DeclaredParam> params;
  llvm::StringMap<int> paramIndex;
  std::optional<std::pair<int, int>> timeLevels; ///< (previous, current)
  SMLoc timeLoc;
  /// `record u;` and `source u;`: the name each gives and where it is.
  SteppedName recorded, sourced;
  bool paramsAllowed = false;
  struct FieldPrecision {
    int field;
    Precision precision;
    SMLoc loc;
  };
  std::vector<FieldPrecision> fieldPrecisions; ///< as declared (`field u: fp64;`)
};

/// pi in quad precision (a name every stencil knows, unless a 'let' takes it).
APFloat piConstant();

/// Records the update or the weights table as the stencil's body; false (with
/// an error) when the stencil already has one.
bool checkBodyOnce(SeenStatements &seen, const Stmt &stmt, DiagnosticEngine &diags);

} // namespace stencilc::sema
