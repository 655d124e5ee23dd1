//===- AST.h - The syntax tree of a .stencil file ------------------*- C++ -*-===//
//
// The parser builds this tree and checks nothing but syntax; Sema gives it
// meaning. Every node carries the source range it was parsed from.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace llvm {
class raw_ostream;
class SourceMgr;
} // namespace llvm

namespace stencilc {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class Expr {
public:
  enum class Kind { Number, Name, Read, Unary, Binary, Call };

  Expr(Kind kind, llvm::SMRange range) : kind(kind), range(range) {}
  virtual ~Expr() = default;

  Kind getKind() const { return kind; }
  llvm::SMRange getRange() const { return range; }
  llvm::SMLoc getLoc() const { return range.Start; }

private:
  Kind kind;
  llvm::SMRange range;
};

using ExprPtr = std::unique_ptr<Expr>;

/// A numeric literal, kept as written so Sema can fold it exactly.
class NumberExpr : public Expr {
public:
  NumberExpr(llvm::StringRef text, llvm::SMRange range) : Expr(Kind::Number, range), text(text) {}
  llvm::StringRef getText() const { return text; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Number; }

private:
  llvm::StringRef text;
};

/// A bare name: a `let` constant, or an index inside a read.
class NameExpr : public Expr {
public:
  NameExpr(llvm::StringRef name, llvm::SMRange range) : Expr(Kind::Name, range), name(name) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Name; }

private:
  llvm::StringRef name;
};

/// `array[index, ...]`: a read of a grid (Sema requires the array `in`).
class ReadExpr : public Expr {
public:
  ReadExpr(llvm::StringRef array, llvm::SMRange arrayRange, std::vector<ExprPtr> indices,
           llvm::SMRange range)
      : Expr(Kind::Read, range), array(array), arrayRange(arrayRange), indices(std::move(indices)) {
  }
  llvm::StringRef getArray() const { return array; }
  llvm::SMRange getArrayRange() const { return arrayRange; }
  const std::vector<ExprPtr> &getIndices() const { return indices; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Read; }

private:
  llvm::StringRef array;
  llvm::SMRange arrayRange;
  std::vector<ExprPtr> indices;
};

/// `sqrt(EXPR)`, `pow(EXPR, EXPR)`: Sema knows the functions.
class CallExpr : public Expr {
public:
  CallExpr(llvm::StringRef callee, llvm::SMRange calleeRange, std::vector<ExprPtr> args,
           llvm::SMRange range)
      : Expr(Kind::Call, range), callee(callee), calleeRange(calleeRange), args(std::move(args)) {}
  llvm::StringRef getCallee() const { return callee; }
  llvm::SMRange getCalleeRange() const { return calleeRange; }
  const std::vector<ExprPtr> &getArgs() const { return args; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Call; }

private:
  llvm::StringRef callee;
  llvm::SMRange calleeRange;
  std::vector<ExprPtr> args;
};

class UnaryExpr : public Expr {
public:
  UnaryExpr(char op, ExprPtr operand, llvm::SMRange range)
      : Expr(Kind::Unary, range), op(op), operand(std::move(operand)) {}
  char getOp() const { return op; } ///< '-' or '+'
  const Expr &getOperand() const { return *operand; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Unary; }

private:
  char op;
  ExprPtr operand;
};

class BinaryExpr : public Expr {
public:
  BinaryExpr(char op, llvm::SMLoc opLoc, ExprPtr lhs, ExprPtr rhs, llvm::SMRange range)
      : Expr(Kind::Binary, range), op(op), opLoc(opLoc), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  /// A chain `a + b + c + ...` is a left-deep tree as deep as it is long:
  /// its left spine is freed in a loop, so no input overflows the stack here.
  ~BinaryExpr() override {
    ExprPtr spine = std::move(lhs);
    while (spine && spine->getKind() == Kind::Binary) {
      ExprPtr next = std::move(static_cast<BinaryExpr &>(*spine).lhs);
      spine = std::move(next); // frees the node, whose left side is now empty
    }
  }
  char getOp() const { return op; } ///< '+', '-', '*' or '/'
  llvm::SMLoc getOpLoc() const { return opLoc; }
  const Expr &getLHS() const { return *lhs; }
  const Expr &getRHS() const { return *rhs; }
  static bool classof(const Expr *e) { return e->getKind() == Kind::Binary; }

private:
  char op;
  llvm::SMLoc opLoc;
  ExprPtr lhs, rhs;
};

//===----------------------------------------------------------------------===//
// The weights table
//===----------------------------------------------------------------------===//

/// One entry of a `weights` list: a nested list or a coefficient expression.
struct TableEntry {
  ExprPtr value;                          ///< set for a coefficient
  std::unique_ptr<struct TableList> list; ///< set for a nested list
  llvm::SMRange range;
};

struct TableList {
  std::vector<TableEntry> entries;
  llvm::SMRange range;
};

//===----------------------------------------------------------------------===//
// Statements and stencils
//===----------------------------------------------------------------------===//

struct Identifier {
  std::string name;
  llvm::SMRange range;
};

class Stmt {
public:
  enum class Kind {
    Precision,
    Boundary,
    Let,
    Shape,
    Radius,
    Dims,
    Update,
    Weights,
    Field,
    Coefficient,
    Param,
    Time,
    Record,
    Source
  };

  Stmt(Kind kind, llvm::SMRange range) : kind(kind), range(range) {}
  virtual ~Stmt() = default;
  Kind getKind() const { return kind; }
  llvm::SMRange getRange() const { return range; }
  llvm::SMLoc getLoc() const { return range.Start; }

private:
  Kind kind;
  llvm::SMRange range;
};

using StmtPtr = std::unique_ptr<Stmt>;

/// `precision P;`, `shape S;`: a word checked by Sema.
class WordStmt : public Stmt {
public:
  WordStmt(Kind kind, Identifier word, llvm::SMRange range)
      : Stmt(kind, range), word(std::move(word)) {}
  const Identifier &getWord() const { return word; }
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::Precision || s->getKind() == Kind::Shape;
  }

private:
  Identifier word;
};

/// `boundary fixed;`, `boundary periodic;`, `boundary constant V;`
class BoundaryStmt : public Stmt {
public:
  BoundaryStmt(Identifier word, ExprPtr value, llvm::SMRange range)
      : Stmt(Kind::Boundary, range), word(std::move(word)), value(std::move(value)) {}
  const Identifier &getWord() const { return word; }
  const Expr *getValue() const { return value.get(); }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Boundary; }

private:
  Identifier word;
  ExprPtr value;
};

/// `let NAME = EXPR;`
class LetStmt : public Stmt {
public:
  LetStmt(Identifier name, ExprPtr value, llvm::SMRange range)
      : Stmt(Kind::Let, range), name(std::move(name)), value(std::move(value)) {}
  const Identifier &getName() const { return name; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Let; }

private:
  Identifier name;
  ExprPtr value;
};

/// `radius R;`, `dims D;`: an integer checked by Sema.
class IntegerStmt : public Stmt {
public:
  IntegerStmt(Kind kind, ExprPtr value, llvm::SMRange range)
      : Stmt(kind, range), value(std::move(value)) {}
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) {
    return s->getKind() == Kind::Radius || s->getKind() == Kind::Dims;
  }

private:
  ExprPtr value;
};

/// A name a declaration introduces, with the precision it may state
/// (`field u: fp64;`) and each `per step` after it (`param amp per step;`:
/// the range of its `per`), which Sema checks.
struct DeclaredName {
  Identifier name;
  std::optional<Identifier> precision;
  std::vector<llvm::SMRange> perStep;
};

/// `field u, v;`, `coefficient k;`, `param dt;`, `time u_prev, u;`,
/// `record u;`, `source u;` (DeclarationWords below): these words are
/// keywords only at the
/// start of a statement followed by a name.
class DeclStmt : public Stmt {
public:
  DeclStmt(Kind kind, std::vector<DeclaredName> names, llvm::SMRange range)
      : Stmt(kind, range), names(std::move(names)) {}
  const std::vector<DeclaredName> &getNames() const { return names; }
  static bool classof(const Stmt *s);

private:
  std::vector<DeclaredName> names;
};

/// The declaration words, one row each: the word that starts the statement
/// (a keyword only there, before a name), its statement kind, and its name
/// in the AST dump. The parser, the suggestions for misspelt words, the
/// dump and DeclStmt::classof all read this table.
struct DeclarationWord {
  std::string_view word;
  Stmt::Kind kind;
  std::string_view dumpName;
};
inline constexpr DeclarationWord DeclarationWords[] = {
    {"field", Stmt::Kind::Field, "Field"},
    {"coefficient", Stmt::Kind::Coefficient, "Coefficient"},
    {"param", Stmt::Kind::Param, "Param"},
    {"time", Stmt::Kind::Time, "Time"},
    {"record", Stmt::Kind::Record, "Record"},
    {"source", Stmt::Kind::Source, "Source"},
};

/// The row of a declaration kind; null for another kind of statement.
inline const DeclarationWord *declarationWord(Stmt::Kind kind) {
  for (const DeclarationWord &d : DeclarationWords) {
    if (d.kind == kind) {
      return &d;
    }
  }
  return nullptr;
}

inline bool DeclStmt::classof(const Stmt *s) { return declarationWord(s->getKind()) != nullptr; }

/// `out[i, j] = EXPR;`
class UpdateStmt : public Stmt {
public:
  UpdateStmt(Identifier target, std::vector<Identifier> indices, ExprPtr value, llvm::SMRange range)
      : Stmt(Kind::Update, range), target(std::move(target)), indices(std::move(indices)),
        value(std::move(value)) {}
  const Identifier &getTarget() const { return target; }
  const std::vector<Identifier> &getIndices() const { return indices; }
  const Expr &getValue() const { return *value; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Update; }

private:
  Identifier target;
  std::vector<Identifier> indices;
  ExprPtr value;
};

/// `weights [...];`
class WeightsStmt : public Stmt {
public:
  WeightsStmt(std::unique_ptr<TableList> table, llvm::SMRange range)
      : Stmt(Kind::Weights, range), table(std::move(table)) {}
  const TableList &getTable() const { return *table; }
  static bool classof(const Stmt *s) { return s->getKind() == Kind::Weights; }

private:
  std::unique_ptr<TableList> table;
};

struct StencilDecl {
  Identifier name;
  std::vector<StmtPtr> body;
  llvm::SMRange range;
};

/// A `let` outside any stencil: a constant of every stencil after it.
struct FileLet {
  std::unique_ptr<LetStmt> let;
  std::size_t stencilsBefore = 0; ///< the stencils of the file defined before it
};

struct Module {
  std::vector<StencilDecl> stencils;
  std::vector<FileLet> lets;
};

/// Prints the tree for `--emit=ast`, one node a line with its line:col.
void printAST(const Module &module, const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os);

} // namespace stencilc
