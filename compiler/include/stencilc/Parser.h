//===- Parser.h - Syntax of the .stencil language ------------------*- C++ -*-===//
//
// A recursive-descent parser. It checks syntax only (no names, no linearity,
// no shapes: that is Sema's job) and recovers at ';' and '}' so one run
// reports every independent syntax error. Each parse function's comment
// carries its grammar rule.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>

#include "stencilc/AST.h"
#include "stencilc/Diagnostics.h"
#include "stencilc/Lexer.h"

namespace stencilc {

class Parser {
public:
  /// Expressions, lists and parentheses nested deeper than this are an error
  /// (so no input can exhaust the stack).
  static constexpr unsigned MaxNesting = 256;

  Parser(llvm::StringRef buffer, DiagnosticEngine &diags);

  /// module ::= stencil* EOF
  Module parseModule();

private:
  std::optional<StencilDecl> parseStencil();
  StmtPtr parseStatement();
  StmtPtr parseWordStatement(Stmt::Kind kind);
  StmtPtr parseBoundary();
  StmtPtr parseLet();
  StmtPtr parseIntegerStatement(Stmt::Kind kind);
  StmtPtr parseUpdate();
  StmtPtr parseDeclaration(Stmt::Kind kind);
  bool parsePerStep(std::vector<llvm::SMRange> &perStep);
  ExprPtr parseCall(llvm::StringRef callee, llvm::SMRange calleeRange, llvm::SMLoc start);
  StmtPtr parseWeights();
  std::unique_ptr<TableList> parseList();
  ExprPtr parseExpr();
  ExprPtr parseTerm();
  ExprPtr parseUnary();
  ExprPtr parsePrimary();

  // Token handling.
  void advance();
  /// The token after `tok`, lexed ahead once.
  const Token &peek();
  bool consumeIf(TokenKind kind);
  /// Reports an error at the current token, unless it is an Invalid token the
  /// lexer has already reported.
  void errorAtToken(const llvm::Twine &message);
  /// Consumes a token of `kind` or reports "expected WHAT" and returns false.
  bool expect(TokenKind kind, llvm::StringRef what);
  std::optional<Identifier> expectIdentifier(llvm::StringRef what);
  llvm::SMLoc previousEnd() const { return previous.range().End; }
  /// Skips to just past the next ';', or to the next '}', 'stencil' or end of
  /// file, whichever comes first.
  void recoverToStatementEnd();
  llvm::SMRange rangeFrom(llvm::SMLoc start) const { return {start, previousEnd()}; }

  /// RAII guard counting nesting depth; reports once when it is too deep.
  struct NestingGuard {
    Parser &parser;
    explicit NestingGuard(Parser &p) : parser(p) { ++parser.nesting; }
    ~NestingGuard() { --parser.nesting; }
    bool tooDeep() const { return parser.nesting > MaxNesting; }
  };
  bool reportTooDeep();
  /// Reports "unknown keyword 'W'; did you mean 'K'?" with a fix-it when the
  /// identifier `word` is a likely misspelling of one of `keywords`.
  bool reportMisspeltKeyword(const Token &word, llvm::ArrayRef<std::string_view> keywords);

  Lexer lexer;
  DiagnosticEngine &diags;
  Token tok;
  Token previous;
  std::optional<Token> lookahead;
  unsigned nesting = 0;
};

} // namespace stencilc
