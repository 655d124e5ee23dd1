//===- Lexer.h - Tokens of the .stencil language ------------------*- C++ -*-===//
//
// The lexer turns a buffer into tokens, each with its source range. It knows
// nothing of the grammar: keywords are recognised here only so that the
// parser can name them in diagnostics. Malformed input (stray bytes,
// unterminated comments, bad numbers) is reported and skipped so that lexing
// always reaches the end of the buffer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string_view>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include "stencilc/Diagnostics.h"

namespace stencilc {

enum class TokenKind {
  EndOfFile,
  /// Bytes that start no token; already reported by the lexer.
  Invalid,
  Identifier,
  Number,
  // Keywords.
  KwStencil,
  KwPrecision,
  KwBoundary,
  KwLet,
  KwShape,
  KwRadius,
  KwDims,
  KwWeights,
  // Punctuation.
  LBrace,
  RBrace,
  LBracket,
  RBracket,
  LParen,
  RParen,
  Semicolon,
  Comma,
  Colon,
  Equal,
  Plus,
  Minus,
  Star,
  Slash,
};

/// How a token kind is written, for diagnostics ("'{'", "identifier").
std::string_view spelling(TokenKind kind);
/// The keywords, unquoted ("stencil", "precision", ...), for suggestions.
std::vector<std::string_view> keywordSpellings();

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  llvm::StringRef text;

  bool is(TokenKind k) const { return kind == k; }
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(text.data()); }
  llvm::SMRange range() const {
    return {loc(), llvm::SMLoc::getFromPointer(text.data() + text.size())};
  }
};

class Lexer {
public:
  /// Lexes `buffer`, which must stay alive as long as the tokens do. A
  /// UTF-8 byte order mark at its start is skipped.
  Lexer(llvm::StringRef buffer, DiagnosticEngine &diags);

  /// Returns the next token; EndOfFile forever once the buffer is done.
  Token next();

private:
  void skipWhitespaceAndComments();
  /// Reports the first NUL byte or invalid UTF-8 sequence in a comment's
  /// text [from, to): comments may hold any character, but must be text.
  void checkCommentText(const char *from, const char *to);
  Token lexNumber();
  Token lexIdentifier();
  Token make(TokenKind kind, const char *start) const;
  /// Reports a byte that cannot start a token and returns it as an Invalid
  /// token (a whole UTF-8 sequence where the bytes form one).
  Token lexInvalidCharacter();

  llvm::StringRef buffer;
  const char *cur;
  const char *end;
  DiagnosticEngine &diags;
};

} // namespace stencilc
