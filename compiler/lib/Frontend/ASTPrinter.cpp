//===- ASTPrinter.cpp - The --emit=ast dump --------------------------------===//
//
// One node a line, indented by depth, each with its line:col. Chains of the
// same operator are printed flat (Sum, Product) so long sums print without
// deep recursion and read the way they were written.
//
//===----------------------------------------------------------------------===//
#include "stencilc/AST.h"
#include "stencilc/Diagnostics.h"

#include <fmt/format.h>

#include "llvm/Support/Casting.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace stencilc {
namespace {

class ASTPrinter {
public:
  ASTPrinter(const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os)
      : positions(sourceMgr), os(os) {}

  void print(const Module &module) {
    // File-level lets in their place among the stencils (file order).
    std::size_t nextLet = 0;
    auto printLetsBefore = [&](std::size_t stencil) {
      for (; nextLet < module.lets.size() && module.lets[nextLet].stencilsBefore <= stencil;
           ++nextLet) {
        printStmt(*module.lets[nextLet].let, 0);
      }
    };
    for (std::size_t i = 0; i < module.stencils.size(); ++i) {
      printLetsBefore(i);
      const StencilDecl &decl = module.stencils[i];
      line(0, fmt::format("Stencil '{}'", decl.name.name), decl.name.range.Start);
      for (const StmtPtr &stmt : decl.body) {
        printStmt(*stmt);
      }
    }
    printLetsBefore(module.stencils.size());
  }

private:
  void line(unsigned depth, const std::string &text, llvm::SMLoc loc) {
    auto [lineNo, col] = positions.lineAndColumn(loc);
    os << std::string(2 * depth, ' ') << text << " <" << lineNo << ":" << col << ">\n";
  }

  void printStmt(const Stmt &stmt, unsigned depth = 1) {
    switch (stmt.getKind()) {
    case Stmt::Kind::Precision:
    case Stmt::Kind::Shape: {
      const auto &s = llvm::cast<WordStmt>(stmt);
      line(1,
           fmt::format("{} {}", stmt.getKind() == Stmt::Kind::Precision ? "Precision" : "Shape",
                       s.getWord().name),
           stmt.getLoc());
      return;
    }
    case Stmt::Kind::Boundary: {
      const auto &s = llvm::cast<BoundaryStmt>(stmt);
      line(1, fmt::format("Boundary {}", s.getWord().name), stmt.getLoc());
      if (s.getValue()) {
        printExpr(*s.getValue(), 2);
      }
      return;
    }
    case Stmt::Kind::Let: {
      const auto &s = llvm::cast<LetStmt>(stmt);
      line(depth, fmt::format("Let '{}'", s.getName().name), stmt.getLoc());
      printExpr(s.getValue(), depth + 1);
      return;
    }
    case Stmt::Kind::Field:
    case Stmt::Kind::Coefficient:
    case Stmt::Kind::Param:
    case Stmt::Kind::Time:
    case Stmt::Kind::Record:
    case Stmt::Kind::Source: {
      const auto &s = llvm::cast<DeclStmt>(stmt);
      std::string names;
      for (const DeclaredName &d : s.getNames()) {
        names += (names.empty() ? "" : ", ") + d.name.name +
                 (d.precision ? ": " + d.precision->name : std::string());
        for (std::size_t k = 0; k < d.perStep.size(); ++k) {
          names += " per step"; // each as written: Sema refuses a second
        }
      }
      const std::string_view what = declarationWord(stmt.getKind())->dumpName;
      line(depth, fmt::format("{} {}", what, names), stmt.getLoc());
      return;
    }
    case Stmt::Kind::Radius:
    case Stmt::Kind::Dims: {
      const auto &s = llvm::cast<IntegerStmt>(stmt);
      line(1, stmt.getKind() == Stmt::Kind::Radius ? "Radius" : "Dims", stmt.getLoc());
      printExpr(s.getValue(), 2);
      return;
    }
    case Stmt::Kind::Update: {
      const auto &s = llvm::cast<UpdateStmt>(stmt);
      std::string indices;
      for (const Identifier &index : s.getIndices()) {
        indices += (indices.empty() ? "" : ", ") + index.name;
      }
      line(1, fmt::format("Update {}[{}]", s.getTarget().name, indices), stmt.getLoc());
      printExpr(s.getValue(), 2);
      return;
    }
    case Stmt::Kind::Weights:
      line(1, "Weights", stmt.getLoc());
      printList(llvm::cast<WeightsStmt>(stmt).getTable(), 2);
      return;
    }
  }

  void printList(const TableList &list, unsigned depth) {
    line(depth, fmt::format("List ({} entries)", list.entries.size()), list.range.Start);
    for (const TableEntry &entry : list.entries) {
      if (entry.list) {
        printList(*entry.list, depth + 1);
      } else {
        printExpr(*entry.value, depth + 1);
      }
    }
  }

  void printExpr(const Expr &expr, unsigned depth) {
    switch (expr.getKind()) {
    case Expr::Kind::Number:
      line(depth,
           fmt::format("Number {}", std::string_view(llvm::cast<NumberExpr>(expr).getText())),
           expr.getLoc());
      return;
    case Expr::Kind::Name:
      line(depth, fmt::format("Name '{}'", std::string_view(llvm::cast<NameExpr>(expr).getName())),
           expr.getLoc());
      return;
    case Expr::Kind::Read: {
      const auto &read = llvm::cast<ReadExpr>(expr);
      line(depth, fmt::format("Read '{}'", std::string_view(read.getArray())), expr.getLoc());
      for (const ExprPtr &index : read.getIndices()) {
        printExpr(*index, depth + 1);
      }
      return;
    }
    case Expr::Kind::Unary: {
      const auto &unary = llvm::cast<UnaryExpr>(expr);
      line(depth, fmt::format("Unary '{}'", unary.getOp()), expr.getLoc());
      printExpr(unary.getOperand(), depth + 1);
      return;
    }
    case Expr::Kind::Binary:
      printChain(llvm::cast<BinaryExpr>(expr), depth);
      return;
    case Expr::Kind::Call: {
      const auto &call = llvm::cast<CallExpr>(expr);
      line(depth, fmt::format("Call '{}'", std::string_view(call.getCallee())), expr.getLoc());
      for (const ExprPtr &arg : call.getArgs()) {
        printExpr(*arg, depth + 1);
      }
      return;
    }
    }
  }

  /// A left-deep chain of '+'/'-' (or '*'/'/') printed as one node whose
  /// children carry their operator.
  void printChain(const BinaryExpr &expr, unsigned depth) {
    bool additive = expr.getOp() == '+' || expr.getOp() == '-';
    std::vector<const BinaryExpr *> spine;
    const Expr *leftmost = &expr;
    while (const auto *b = llvm::dyn_cast<BinaryExpr>(leftmost)) {
      if ((b->getOp() == '+' || b->getOp() == '-') != additive) {
        break;
      }
      spine.push_back(b);
      leftmost = &b->getLHS();
    }
    line(depth, additive ? "Sum" : "Product", expr.getLoc());
    printExpr(*leftmost, depth + 1);
    for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
      line(depth + 1, fmt::format("Operator '{}'", (*it)->getOp()), (*it)->getOpLoc());
      printExpr((*it)->getRHS(), depth + 2);
    }
  }

  /// Nodes are printed in file order: one pass finds every line:col.
  SourcePositions positions;
  llvm::raw_ostream &os;
};

} // namespace

void printAST(const Module &module, const llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os) {
  ASTPrinter(sourceMgr, os).print(module);
}

} // namespace stencilc
