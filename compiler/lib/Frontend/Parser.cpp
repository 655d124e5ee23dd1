//===- Parser.cpp - Recursive descent over .stencil tokens -----------------===//
//
// Syntax only: names, linearity and shapes are Sema's. On an error a
// statement is abandoned and parsing resumes after the next ';' or at the next
// '}' so that later, independent errors are reported too.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Parser.h"

#include <fmt/format.h>

#include "stencilc/Spec.h"
#include "stencilc/Suggest.h"

namespace stencilc {

static std::string describe(const Token &tok) {
  switch (tok.kind) {
  case TokenKind::EndOfFile:
    return "end of file";
  case TokenKind::Identifier:
  case TokenKind::Number:
    return fmt::format("'{}'", std::string_view(tok.text));
  default:
    return std::string(spelling(tok.kind));
  }
}

Parser::Parser(llvm::StringRef buffer, DiagnosticEngine &diags)
    : lexer(buffer, diags), diags(diags) {
  tok = lexer.next();
  previous = Token{TokenKind::EndOfFile, llvm::StringRef(buffer.data(), 0)};
}

void Parser::advance() {
  previous = tok;
  if (lookahead) {
    tok = *lookahead;
    lookahead.reset();
    return;
  }
  tok = lexer.next();
}

const Token &Parser::peek() {
  if (!lookahead) {
    lookahead = lexer.next();
  }
  return *lookahead;
}

bool Parser::consumeIf(TokenKind kind) {
  if (!tok.is(kind)) {
    return false;
  }
  advance();
  return true;
}

void Parser::errorAtToken(const llvm::Twine &message) {
  // The lexer has already reported an invalid character: one error is enough.
  if (!tok.is(TokenKind::Invalid)) {
    diags.error(tok.loc(), message);
  }
}

bool Parser::expect(TokenKind kind, llvm::StringRef what) {
  if (consumeIf(kind)) {
    return true;
  }
  if (kind == TokenKind::Semicolon && !tok.is(TokenKind::Invalid) && previous.text.data() &&
      !previous.text.empty()) {
    // As clang and rustc do: just past the statement's last token, where
    // the ';' goes, not at whatever the next line starts with.
    llvm::SMLoc end = previousEnd();
    diags.error(end, fmt::format("expected {}, found {}", std::string_view(what), describe(tok)),
                {}, llvm::SMFixIt(llvm::SMRange(end, end), ";"));
    return false;
  }
  errorAtToken(fmt::format("expected {}, found {}", std::string_view(what), describe(tok)));
  return false;
}

std::optional<Identifier> Parser::expectIdentifier(llvm::StringRef what) {
  if (!tok.is(TokenKind::Identifier)) {
    errorAtToken(fmt::format("expected {}, found {}", std::string_view(what), describe(tok)));
    return std::nullopt;
  }
  Identifier id{tok.text.str(), tok.range()};
  advance();
  return id;
}

void Parser::recoverToStatementEnd() {
  while (!tok.is(TokenKind::EndOfFile) && !tok.is(TokenKind::RBrace) &&
         !tok.is(TokenKind::KwStencil)) {
    if (consumeIf(TokenKind::Semicolon)) {
      return;
    }
    advance();
  }
}

bool Parser::reportMisspeltKeyword(const Token &word, llvm::ArrayRef<std::string_view> keywords) {
  if (!word.is(TokenKind::Identifier)) {
    return false;
  }
  std::optional<std::string> keyword = closestMatch(word.text, keywords);
  if (!keyword) {
    return false;
  }
  diags.error(word.loc(),
              fmt::format("unknown keyword '{}'; did you mean '{}'?", word.text.str(), *keyword),
              {word.range()}, llvm::SMFixIt(word.range(), *keyword));
  return true;
}

bool Parser::reportTooDeep() {
  diags.error(tok.loc(), fmt::format("expression nested too deeply (more than "
                                     "{} levels)",
                                     MaxNesting));
  return false;
}

/// The keywords and the declaration words, for "did you mean".
static std::vector<std::string_view> statementWords() {
  std::vector<std::string_view> words = keywordSpellings();
  for (const DeclarationWord &d : DeclarationWords) {
    words.push_back(d.word);
  }
  return words;
}

/// The words that begin a declaration when a name follows them.
static std::optional<Stmt::Kind> declarationKind(llvm::StringRef word) {
  for (const DeclarationWord &d : DeclarationWords) {
    if (word == llvm::StringRef(d.word)) {
      return d.kind;
    }
  }
  return std::nullopt;
}

/// module ::= (stencil | let)* EOF
Module Parser::parseModule() {
  Module module;
  if (tok.is(TokenKind::EndOfFile)) {
    diags.error(tok.loc(), "file defines no stencil; expected 'stencil NAME { ... }'");
    return module;
  }
  while (!tok.is(TokenKind::EndOfFile)) {
    if (tok.is(TokenKind::KwLet)) {
      // A constant of every stencil after it.
      StmtPtr let = parseLet();
      if (!let) {
        recoverToStatementEnd();
        continue;
      }
      module.lets.push_back({std::unique_ptr<LetStmt>(static_cast<LetStmt *>(let.release())),
                             module.stencils.size()});
      continue;
    }
    if (!tok.is(TokenKind::KwStencil)) {
      if (!reportMisspeltKeyword(tok, {"stencil"})) {
        errorAtToken(fmt::format("expected 'stencil', found {}", describe(tok)));
      }
      // Skip to the next stencil definition.
      while (!tok.is(TokenKind::EndOfFile) && !tok.is(TokenKind::KwStencil)) {
        advance();
      }
      continue;
    }
    if (auto decl = parseStencil()) {
      module.stencils.push_back(std::move(*decl));
    }
  }
  return module;
}

/// stencil ::= 'stencil' IDENT '{' stmt* '}'
std::optional<StencilDecl> Parser::parseStencil() {
  llvm::SMLoc start = tok.loc();
  advance(); // 'stencil'
  auto name = expectIdentifier("a stencil name after 'stencil'");
  if (!name) {
    // Resynchronise on the body, if there is one.
    while (!tok.is(TokenKind::EndOfFile) && !tok.is(TokenKind::LBrace) &&
           !tok.is(TokenKind::KwStencil)) {
      advance();
    }
    if (!tok.is(TokenKind::LBrace)) {
      return std::nullopt;
    }
  }
  llvm::SMLoc lbrace = tok.loc();
  if (!expect(TokenKind::LBrace, "'{' to open the stencil body")) {
    while (!tok.is(TokenKind::EndOfFile) && !tok.is(TokenKind::KwStencil)) {
      advance();
    }
    return std::nullopt;
  }
  StencilDecl decl;
  while (!tok.is(TokenKind::RBrace) && !tok.is(TokenKind::EndOfFile) &&
         !tok.is(TokenKind::KwStencil)) {
    if (StmtPtr stmt = parseStatement()) {
      decl.body.push_back(std::move(stmt));
    } else {
      recoverToStatementEnd();
    }
  }
  if (!consumeIf(TokenKind::RBrace)) {
    errorAtToken(fmt::format("expected '}}' to close stencil '{}', found {}",
                             name ? name->name : "", describe(tok)));
    diags.note(lbrace, "the stencil body opened here");
  }
  if (!name) {
    return std::nullopt;
  }
  decl.name = std::move(*name);
  decl.range = rangeFrom(start);
  return decl;
}

/// stmt ::= 'precision' IDENT ';' | 'shape' IDENT ';' | boundary | let
///        | 'radius' expr ';' | 'dims' expr ';' | update | weights
StmtPtr Parser::parseStatement() {
  switch (tok.kind) {
  case TokenKind::KwPrecision:
    return parseWordStatement(Stmt::Kind::Precision);
  case TokenKind::KwShape:
    return parseWordStatement(Stmt::Kind::Shape);
  case TokenKind::KwBoundary:
    return parseBoundary();
  case TokenKind::KwLet:
    return parseLet();
  case TokenKind::KwRadius:
    return parseIntegerStatement(Stmt::Kind::Radius);
  case TokenKind::KwDims:
    return parseIntegerStatement(Stmt::Kind::Dims);
  case TokenKind::KwWeights:
    return parseWeights();
  case TokenKind::Identifier:
    if (auto kind = declarationKind(tok.text); kind && peek().is(TokenKind::Identifier)) {
      return parseDeclaration(*kind);
    }
    return parseUpdate();
  default:
    errorAtToken(fmt::format("expected a statement (precision, boundary, let, "
                             "shape, radius, dims, weights or 'out[...] = ...'), "
                             "found {}",
                             describe(tok)));
    return nullptr;
  }
}

/// per-step ::= 'per' 'step'      (words only here, after a declared name)
/// Appends the range of `per` to `perStep`; false on an error.
bool Parser::parsePerStep(std::vector<llvm::SMRange> &perStep) {
  if (tok.is(TokenKind::Identifier) && tok.text == "step") {
    errorAtToken("expected 'per' before 'step'; a parameter that changes every step is "
                 "declared 'param NAME per step;'");
    return false;
  }
  while (tok.is(TokenKind::Identifier) && tok.text != "step" &&
         (tok.text == "per" || closestMatch(tok.text, {"per"}))) {
    if (tok.text != "per") {
      reportMisspeltKeyword(tok, {"per"});
      return false;
    }
    const llvm::SMRange per = tok.range();
    advance();
    if (!tok.is(TokenKind::Identifier) || tok.text != "step") {
      if (!reportMisspeltKeyword(tok, {"step"})) {
        errorAtToken(fmt::format("expected 'step' after 'per', found {}", describe(tok)));
      }
      return false;
    }
    advance();
    perStep.push_back(per);
  }
  return true;
}

/// decl ::= ('field' | 'coefficient' | 'param' | 'time' | 'record' | 'source') name (',' name)* ';'
/// name ::= IDENT (':' IDENT)? per-step*   (a precision, for fields; per
///          step, for a parameter declared alone: Sema checks both)
StmtPtr Parser::parseDeclaration(Stmt::Kind kind) {
  llvm::SMLoc start = tok.loc();
  std::string keywordText = tok.text.str();
  advance();
  std::vector<DeclaredName> names;
  do {
    auto name = expectIdentifier(fmt::format("a name after '{}'", keywordText));
    if (!name) {
      return nullptr;
    }
    DeclaredName declared{std::move(*name), std::nullopt, {}};
    if (consumeIf(TokenKind::Colon)) {
      auto precision = expectIdentifier("a precision after ':'");
      if (!precision) {
        return nullptr;
      }
      declared.precision = std::move(*precision);
    }
    if (!parsePerStep(declared.perStep)) {
      return nullptr;
    }
    names.push_back(std::move(declared));
  } while (consumeIf(TokenKind::Comma));
  if (!expect(TokenKind::Semicolon, "';'")) {
    return nullptr;
  }
  return std::make_unique<DeclStmt>(kind, std::move(names), rangeFrom(start));
}

/// word-stmt ::= ('precision' | 'shape') IDENT ';'
StmtPtr Parser::parseWordStatement(Stmt::Kind kind) {
  llvm::SMLoc start = tok.loc();
  std::string keywordText = tok.text.str();
  advance();
  auto word = expectIdentifier(fmt::format("a {} after '{}'",
                                           kind == Stmt::Kind::Precision
                                               ? "precision (fp16, bf16, tf32, fp32 or fp64)"
                                               : "shape (star or box)",
                                           keywordText));
  if (!word || !expect(TokenKind::Semicolon, "';'")) {
    return nullptr;
  }
  return std::make_unique<WordStmt>(kind, std::move(*word), rangeFrom(start));
}

/// boundary ::= 'boundary' IDENT expr? ';'
StmtPtr Parser::parseBoundary() {
  llvm::SMLoc start = tok.loc();
  advance();
  auto word = expectIdentifier("a boundary kind (" + boundaryChoicesText() + ") after 'boundary'");
  if (!word) {
    return nullptr;
  }
  ExprPtr value;
  if (!tok.is(TokenKind::Semicolon)) {
    value = parseExpr();
    if (!value) {
      return nullptr;
    }
  }
  if (!expect(TokenKind::Semicolon, "';'")) {
    return nullptr;
  }
  return std::make_unique<BoundaryStmt>(std::move(*word), std::move(value), rangeFrom(start));
}

/// let ::= 'let' IDENT '=' expr ';'
StmtPtr Parser::parseLet() {
  llvm::SMLoc start = tok.loc();
  advance();
  auto name = expectIdentifier("a constant name after 'let'");
  if (!name || !expect(TokenKind::Equal, "'=' after the constant's name")) {
    return nullptr;
  }
  ExprPtr value = parseExpr();
  if (!value || !expect(TokenKind::Semicolon, "';'")) {
    return nullptr;
  }
  return std::make_unique<LetStmt>(std::move(*name), std::move(value), rangeFrom(start));
}

/// integer-stmt ::= ('radius' | 'dims') expr ';'
StmtPtr Parser::parseIntegerStatement(Stmt::Kind kind) {
  llvm::SMLoc start = tok.loc();
  advance();
  ExprPtr value = parseExpr();
  if (!value || !expect(TokenKind::Semicolon, "';'")) {
    return nullptr;
  }
  return std::make_unique<IntegerStmt>(kind, std::move(value), rangeFrom(start));
}

/// update ::= IDENT '[' IDENT (',' IDENT)* ']' '=' expr ';'
StmtPtr Parser::parseUpdate() {
  llvm::SMLoc start = tok.loc();
  Identifier target{tok.text.str(), tok.range()};
  Token first = tok;
  advance();
  // `precison fp64;`: a statement keyword, misspelt (an update's name is
  // followed by '[', however close it is to a keyword).
  if (!tok.is(TokenKind::LBracket) && reportMisspeltKeyword(first, statementWords())) {
    return nullptr;
  }
  if (!expect(TokenKind::LBracket,
              fmt::format("'[' after '{}' (an update is 'out[i, j] = ...;')", target.name))) {
    return nullptr;
  }
  std::vector<Identifier> indices;
  do {
    auto index = expectIdentifier("an index name");
    if (!index) {
      return nullptr;
    }
    indices.push_back(std::move(*index));
  } while (consumeIf(TokenKind::Comma));
  if (!expect(TokenKind::RBracket, "']' after the indices") ||
      !expect(TokenKind::Equal, "'=' after the updated point")) {
    return nullptr;
  }
  ExprPtr value = parseExpr();
  if (!value || !expect(TokenKind::Semicolon, "';'")) {
    return nullptr;
  }
  return std::make_unique<UpdateStmt>(std::move(target), std::move(indices), std::move(value),
                                      rangeFrom(start));
}

/// weights ::= 'weights' list ';'
StmtPtr Parser::parseWeights() {
  llvm::SMLoc start = tok.loc();
  advance();
  if (!tok.is(TokenKind::LBracket)) {
    errorAtToken(fmt::format("expected '[' to open the weights table, found {}", describe(tok)));
    return nullptr;
  }
  auto table = parseList();
  if (!table || !expect(TokenKind::Semicolon, "';' after the weights table")) {
    return nullptr;
  }
  return std::make_unique<WeightsStmt>(std::move(table), rangeFrom(start));
}

/// list  ::= '[' entry (',' entry)* ']'
/// entry ::= list | expr
std::unique_ptr<TableList> Parser::parseList() {
  NestingGuard guard(*this);
  if (guard.tooDeep()) {
    reportTooDeep();
    return nullptr;
  }
  llvm::SMLoc start = tok.loc();
  advance(); // '['
  auto list = std::make_unique<TableList>();
  do {
    TableEntry entry;
    llvm::SMLoc entryStart = tok.loc();
    if (tok.is(TokenKind::LBracket)) {
      entry.list = parseList();
      if (!entry.list) {
        return nullptr;
      }
    } else {
      entry.value = parseExpr();
      if (!entry.value) {
        return nullptr;
      }
    }
    entry.range = rangeFrom(entryStart);
    list->entries.push_back(std::move(entry));
  } while (consumeIf(TokenKind::Comma));
  if (!expect(TokenKind::RBracket, "',' or ']' in the weights table")) {
    return nullptr;
  }
  list->range = rangeFrom(start);
  return list;
}

/// expr ::= term (('+' | '-') term)*
ExprPtr Parser::parseExpr() {
  llvm::SMLoc start = tok.loc();
  ExprPtr lhs = parseTerm();
  while (lhs && (tok.is(TokenKind::Plus) || tok.is(TokenKind::Minus))) {
    char op = tok.text[0];
    llvm::SMLoc opLoc = tok.loc();
    advance();
    ExprPtr rhs = parseTerm();
    if (!rhs) {
      return nullptr;
    }
    lhs = std::make_unique<BinaryExpr>(op, opLoc, std::move(lhs), std::move(rhs), rangeFrom(start));
  }
  return lhs;
}

/// term ::= unary (('*' | '/') unary)*
ExprPtr Parser::parseTerm() {
  llvm::SMLoc start = tok.loc();
  ExprPtr lhs = parseUnary();
  while (lhs && (tok.is(TokenKind::Star) || tok.is(TokenKind::Slash))) {
    char op = tok.text[0];
    llvm::SMLoc opLoc = tok.loc();
    advance();
    ExprPtr rhs = parseUnary();
    if (!rhs) {
      return nullptr;
    }
    lhs = std::make_unique<BinaryExpr>(op, opLoc, std::move(lhs), std::move(rhs), rangeFrom(start));
  }
  return lhs;
}

/// unary ::= ('-' | '+') unary | primary
ExprPtr Parser::parseUnary() {
  NestingGuard guard(*this);
  if (guard.tooDeep()) {
    reportTooDeep();
    return nullptr;
  }
  if (tok.is(TokenKind::Minus) || tok.is(TokenKind::Plus)) {
    llvm::SMLoc start = tok.loc();
    char op = tok.text[0];
    advance();
    ExprPtr operand = parseUnary();
    if (!operand) {
      return nullptr;
    }
    return std::make_unique<UnaryExpr>(op, std::move(operand), rangeFrom(start));
  }
  return parsePrimary();
}

/// call ::= IDENT '(' expr (',' expr)* ')'
ExprPtr Parser::parseCall(llvm::StringRef callee, llvm::SMRange calleeRange, llvm::SMLoc start) {
  advance(); // '('
  std::vector<ExprPtr> args;
  do {
    ExprPtr arg = parseExpr();
    if (!arg) {
      return nullptr;
    }
    args.push_back(std::move(arg));
  } while (consumeIf(TokenKind::Comma));
  if (!expect(TokenKind::RParen, "',' or ')' after an argument")) {
    return nullptr;
  }
  return std::make_unique<CallExpr>(callee, calleeRange, std::move(args), rangeFrom(start));
}

/// primary ::= NUMBER | call | IDENT | IDENT '[' expr (',' expr)* ']' | '(' expr ')'
ExprPtr Parser::parsePrimary() {
  llvm::SMLoc start = tok.loc();
  if (tok.is(TokenKind::Number)) {
    auto number = std::make_unique<NumberExpr>(tok.text, tok.range());
    advance();
    return number;
  }
  if (tok.is(TokenKind::Identifier)) {
    llvm::StringRef name = tok.text;
    llvm::SMRange nameRange = tok.range();
    advance();
    if (tok.is(TokenKind::LParen)) {
      return parseCall(name, nameRange, start);
    }
    if (!consumeIf(TokenKind::LBracket)) {
      return std::make_unique<NameExpr>(name, nameRange);
    }
    std::vector<ExprPtr> indices;
    do {
      ExprPtr index = parseExpr();
      if (!index) {
        return nullptr;
      }
      indices.push_back(std::move(index));
    } while (consumeIf(TokenKind::Comma));
    if (!expect(TokenKind::RBracket, "',' or ']' after an index")) {
      return nullptr;
    }
    return std::make_unique<ReadExpr>(name, nameRange, std::move(indices), rangeFrom(start));
  }
  if (tok.is(TokenKind::LParen)) {
    advance();
    ExprPtr inner = parseExpr();
    if (!inner || !expect(TokenKind::RParen, "')'")) {
      return nullptr;
    }
    return inner;
  }
  errorAtToken(fmt::format("expected an expression, found {}", describe(tok)));
  return nullptr;
}

} // namespace stencilc
