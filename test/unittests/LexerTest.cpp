// Unit tests of the lexer: token kinds, ranges and malformed input.
#include <gtest/gtest.h>

#include "llvm/Support/MemoryBuffer.h"

#include "stencilc/Lexer.h"

using namespace stencilc;

namespace {

struct Lexed {
  std::vector<Token> tokens;
  unsigned errors = 0;
  std::string diagnostics;
};

Lexed lex(llvm::StringRef text) {
  static std::vector<std::unique_ptr<llvm::SourceMgr>> keepAlive;
  keepAlive.push_back(std::make_unique<llvm::SourceMgr>());
  llvm::SourceMgr &sm = *keepAlive.back();
  unsigned id =
      sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, "t"), llvm::SMLoc());
  Lexed out;
  llvm::raw_string_ostream os(out.diagnostics);
  DiagnosticEngine diags(sm, os);
  Lexer lexer(sm.getMemoryBuffer(id)->getBuffer(), diags);
  for (Token t = lexer.next(); !t.is(TokenKind::EndOfFile); t = lexer.next()) {
    out.tokens.push_back(t);
  }
  out.errors = diags.errorCount();
  return out;
}

std::vector<TokenKind> kinds(const Lexed &l) {
  std::vector<TokenKind> k;
  for (const Token &t : l.tokens) {
    k.push_back(t.kind);
  }
  return k;
}

TEST(Lexer, KeywordsIdentifiersAndPunctuation) {
  auto l = lex("stencil s { precision fp16; out[i, j] = -in[i+1, j] / 2; }");
  using K = TokenKind;
  std::vector<K> expected = {
      K::KwStencil,  K::Identifier, K::LBrace,     K::KwPrecision, K::Identifier, K::Semicolon,
      K::Identifier, K::LBracket,   K::Identifier, K::Comma,       K::Identifier, K::RBracket,
      K::Equal,      K::Minus,      K::Identifier, K::LBracket,    K::Identifier, K::Plus,
      K::Number,     K::Comma,      K::Identifier, K::RBracket,    K::Slash,      K::Number,
      K::Semicolon,  K::RBrace};
  EXPECT_EQ(kinds(l), expected);
  EXPECT_EQ(l.errors, 0u);
}

TEST(Lexer, NumbersKeepTheirText) {
  auto l = lex("0.5 1e-3 2 .25 6.02E+23 7.");
  ASSERT_EQ(l.tokens.size(), 6u);
  EXPECT_EQ(l.tokens[0].text, "0.5");
  EXPECT_EQ(l.tokens[1].text, "1e-3");
  EXPECT_EQ(l.tokens[2].text, "2");
  EXPECT_EQ(l.tokens[3].text, ".25");
  EXPECT_EQ(l.tokens[4].text, "6.02E+23");
  EXPECT_EQ(l.tokens[5].text, "7.");
  EXPECT_EQ(l.errors, 0u);
}

TEST(Lexer, CommentsAreSkipped) {
  auto l = lex("// line\nstencil /* block\n comment */ s");
  EXPECT_EQ(kinds(l), (std::vector<TokenKind>{TokenKind::KwStencil, TokenKind::Identifier}));
}

TEST(Lexer, TokensCarryTheirSourceRange) {
  auto l = lex("  radius 12;");
  ASSERT_EQ(l.tokens.size(), 3u);
  EXPECT_EQ(l.tokens[1].text, "12");
  EXPECT_EQ(l.tokens[1].range().End.getPointer() - l.tokens[1].loc().getPointer(), 2);
}

TEST(Lexer, UnterminatedCommentIsOneError) {
  auto l = lex("stencil /* never closed");
  EXPECT_EQ(l.errors, 1u);
  EXPECT_NE(l.diagnostics.find("unterminated '/*' comment"), std::string::npos);
}

TEST(Lexer, StrayAndInvalidBytesBecomeReportedInvalidTokens) {
  auto l = lex("a @ b \xff c \xc3\xa9 d");
  EXPECT_EQ(l.errors, 3u);
  using K = TokenKind;
  EXPECT_EQ(kinds(l), (std::vector<K>{K::Identifier, K::Invalid, K::Identifier, K::Invalid,
                                      K::Identifier, K::Invalid, K::Identifier}));
  EXPECT_EQ(l.tokens[5].text, "\xc3\xa9"); // one token for the whole character
  EXPECT_NE(l.diagnostics.find("unexpected character '@'"), std::string::npos);
  EXPECT_NE(l.diagnostics.find("invalid byte 0xFF"), std::string::npos);
  EXPECT_NE(l.diagnostics.find("only ASCII"), std::string::npos);
}

TEST(Lexer, MalformedNumbers) {
  auto l = lex("1e+ 2x 3");
  EXPECT_EQ(l.errors, 2u);
  ASSERT_EQ(l.tokens.size(), 3u);
  EXPECT_EQ(l.tokens[0].text, "1");
  EXPECT_EQ(l.tokens[1].text, "2");
}

TEST(Lexer, NulByteIsAnError) {
  auto l = lex(llvm::StringRef("a\0b", 3));
  EXPECT_EQ(l.errors, 1u);
  EXPECT_EQ(l.tokens.size(), 3u);
}

} // namespace
