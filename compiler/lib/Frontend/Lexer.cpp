//===- Lexer.cpp - Splitting .stencil text into tokens --------------------===//
#include "stencilc/Lexer.h"

#include <fmt/format.h>

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/ErrorHandling.h"

namespace stencilc {

std::vector<std::string_view> keywordSpellings() {
  std::vector<std::string_view> words;
  for (int k = static_cast<int>(TokenKind::KwStencil); k <= static_cast<int>(TokenKind::KwWeights);
       ++k) {
    std::string_view quoted = spelling(static_cast<TokenKind>(k));
    words.push_back(quoted.substr(1, quoted.size() - 2));
  }
  return words;
}

std::string_view spelling(TokenKind kind) {
  switch (kind) {
  case TokenKind::EndOfFile:
    return "end of file";
  case TokenKind::Invalid:
    return "invalid character";
  case TokenKind::Identifier:
    return "identifier";
  case TokenKind::Number:
    return "number";
  case TokenKind::KwStencil:
    return "'stencil'";
  case TokenKind::KwPrecision:
    return "'precision'";
  case TokenKind::KwBoundary:
    return "'boundary'";
  case TokenKind::KwLet:
    return "'let'";
  case TokenKind::KwShape:
    return "'shape'";
  case TokenKind::KwRadius:
    return "'radius'";
  case TokenKind::KwDims:
    return "'dims'";
  case TokenKind::KwWeights:
    return "'weights'";
  case TokenKind::LBrace:
    return "'{'";
  case TokenKind::RBrace:
    return "'}'";
  case TokenKind::LBracket:
    return "'['";
  case TokenKind::RBracket:
    return "']'";
  case TokenKind::LParen:
    return "'('";
  case TokenKind::RParen:
    return "')'";
  case TokenKind::Semicolon:
    return "';'";
  case TokenKind::Comma:
    return "','";
  case TokenKind::Colon:
    return "':'";
  case TokenKind::Equal:
    return "'='";
  case TokenKind::Plus:
    return "'+'";
  case TokenKind::Minus:
    return "'-'";
  case TokenKind::Star:
    return "'*'";
  case TokenKind::Slash:
    return "'/'";
  }
  llvm_unreachable("unknown token kind");
}

static bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }
static bool isIdentBody(char c) { return isIdentStart(c) || isDigit(c); }

Lexer::Lexer(llvm::StringRef buffer, DiagnosticEngine &diags)
    : buffer(buffer), cur(buffer.begin()), end(buffer.end()), diags(diags) {
  if (buffer.starts_with("\xEF\xBB\xBF")) { // a UTF-8 byte order mark
    cur += 3;
  }
}

void Lexer::checkCommentText(const char *from, const char *to) {
  // Reports the first bad byte only: one error per comment is enough.
  while (from != to) {
    auto byte = static_cast<unsigned char>(*from);
    if (byte == 0) {
      diags.error(llvm::SMLoc::getFromPointer(from),
                  "NUL byte in a comment: the file is not a text file");
      return;
    }
    if (byte < 0x80) {
      ++from;
      continue;
    }
    unsigned length = llvm::getNumBytesForUTF8(byte);
    const auto *first = reinterpret_cast<const llvm::UTF8 *>(from);
    if (static_cast<size_t>(to - from) < length ||
        !llvm::isLegalUTF8Sequence(first, first + length)) {
      diags.error(
          llvm::SMLoc::getFromPointer(from),
          fmt::format("invalid byte 0x{:02X} in a comment: the file is not valid UTF-8", byte));
      return;
    }
    from += length;
  }
}

Token Lexer::make(TokenKind kind, const char *start) const {
  return Token{kind, llvm::StringRef(start, cur - start)};
}

void Lexer::skipWhitespaceAndComments() {
  while (cur != end) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++cur;
    } else if (c == '/' && cur + 1 != end && cur[1] == '/') {
      const char *start = cur;
      while (cur != end && *cur != '\n') {
        ++cur;
      }
      checkCommentText(start, cur);
    } else if (c == '/' && cur + 1 != end && cur[1] == '*') {
      const char *start = cur;
      cur += 2;
      while (cur != end && !(*cur == '*' && cur + 1 != end && cur[1] == '/')) {
        ++cur;
      }
      checkCommentText(start, cur);
      if (cur == end) {
        diags.error(llvm::SMLoc::getFromPointer(start), "unterminated '/*' comment");
        return;
      }
      cur += 2;
    } else {
      return;
    }
  }
}

Token Lexer::lexInvalidCharacter() {
  const char *start = cur;
  auto byte = static_cast<unsigned char>(*cur);
  if (byte < 0x80) {
    ++cur;
    if (byte >= 0x20 && byte < 0x7f) {
      diags.error(llvm::SMLoc::getFromPointer(start),
                  fmt::format("unexpected character '{}'", static_cast<char>(byte)));
    } else {
      // A run of one control character (a file of NUL bytes) is one error,
      // not one per byte.
      while (cur != end && *cur == *start) {
        ++cur;
      }
      diags.error(llvm::SMLoc::getFromPointer(start),
                  fmt::format("unexpected control character 0x{:02X}{}", byte,
                              cur - start > 1 ? fmt::format(" ({} in a row)", cur - start) : ""));
    }
    return make(TokenKind::Invalid, start);
  }
  // A multi-byte UTF-8 character is reported once, not once per byte.
  unsigned length = llvm::getNumBytesForUTF8(byte);
  const auto *first = reinterpret_cast<const llvm::UTF8 *>(cur);
  if (cur + length <= end && llvm::isLegalUTF8Sequence(first, first + length)) {
    cur += length;
    diags.error(llvm::SMLoc::getFromPointer(start),
                fmt::format("unexpected character '{}' (only ASCII is allowed "
                            "outside comments)",
                            std::string_view(start, length)));
    return make(TokenKind::Invalid, start);
  }
  ++cur;
  while (cur != end && *cur == *start) { // a run of one byte is one error
    ++cur;
  }
  diags.error(llvm::SMLoc::getFromPointer(start),
              fmt::format("invalid byte 0x{:02X}{}: the file is not valid UTF-8", byte,
                          cur - start > 1 ? fmt::format(" ({} in a row)", cur - start) : ""));
  return make(TokenKind::Invalid, start);
}

// number ::= digits ('.' digits?)? exponent? | '.' digits exponent?
// exponent ::= ('e' | 'E') ('+' | '-')? digits
Token Lexer::lexNumber() {
  const char *start = cur;
  while (cur != end && isDigit(*cur)) {
    ++cur;
  }
  if (cur != end && *cur == '.') {
    ++cur;
    while (cur != end && isDigit(*cur)) {
      ++cur;
    }
  }
  // The token covers only a well-formed number; a malformed tail is reported
  // here and skipped, so later stages never see it.
  const char *tokenEnd = cur;
  if (cur != end && (*cur == 'e' || *cur == 'E')) {
    const char *exponent = cur;
    ++cur;
    if (cur != end && (*cur == '+' || *cur == '-')) {
      ++cur;
    }
    if (cur == end || !isDigit(*cur)) {
      diags.error(llvm::SMLoc::getFromPointer(exponent), "exponent has no digits");
    } else {
      while (cur != end && isDigit(*cur)) {
        ++cur;
      }
      tokenEnd = cur;
    }
  }
  if (cur != end && (isIdentBody(*cur) || *cur == '.')) {
    const char *suffix = cur;
    while (cur != end && (isIdentBody(*cur) || *cur == '.')) {
      ++cur;
    }
    diags.error(
        llvm::SMLoc::getFromPointer(suffix),
        fmt::format("invalid suffix '{}' on number", std::string_view(suffix, cur - suffix)));
  }
  return Token{TokenKind::Number, llvm::StringRef(start, tokenEnd - start)};
}

Token Lexer::lexIdentifier() {
  const char *start = cur;
  while (cur != end && isIdentBody(*cur)) {
    ++cur;
  }
  llvm::StringRef word(start, cur - start);
  TokenKind kind = llvm::StringSwitch<TokenKind>(word)
                       .Case("stencil", TokenKind::KwStencil)
                       .Case("precision", TokenKind::KwPrecision)
                       .Case("boundary", TokenKind::KwBoundary)
                       .Case("let", TokenKind::KwLet)
                       .Case("shape", TokenKind::KwShape)
                       .Case("radius", TokenKind::KwRadius)
                       .Case("dims", TokenKind::KwDims)
                       .Case("weights", TokenKind::KwWeights)
                       .Default(TokenKind::Identifier);
  return make(kind, start);
}

Token Lexer::next() {
  {
    skipWhitespaceAndComments();
    if (cur == end) {
      return Token{TokenKind::EndOfFile, llvm::StringRef(end, 0)};
    }
    const char *start = cur;
    char c = *cur;
    if (isIdentStart(c)) {
      return lexIdentifier();
    }
    if (isDigit(c) || (c == '.' && cur + 1 != end && isDigit(cur[1]))) {
      return lexNumber();
    }
    TokenKind kind;
    switch (c) {
    case '{':
      kind = TokenKind::LBrace;
      break;
    case '}':
      kind = TokenKind::RBrace;
      break;
    case '[':
      kind = TokenKind::LBracket;
      break;
    case ']':
      kind = TokenKind::RBracket;
      break;
    case '(':
      kind = TokenKind::LParen;
      break;
    case ')':
      kind = TokenKind::RParen;
      break;
    case ';':
      kind = TokenKind::Semicolon;
      break;
    case ',':
      kind = TokenKind::Comma;
      break;
    case ':':
      kind = TokenKind::Colon;
      break;
    case '=':
      kind = TokenKind::Equal;
      break;
    case '+':
      kind = TokenKind::Plus;
      break;
    case '-':
      kind = TokenKind::Minus;
      break;
    case '*':
      kind = TokenKind::Star;
      break;
    case '/':
      kind = TokenKind::Slash;
      break;
    default:
      return lexInvalidCharacter();
    }
    ++cur;
    return make(kind, start);
  }
}

} // namespace stencilc
