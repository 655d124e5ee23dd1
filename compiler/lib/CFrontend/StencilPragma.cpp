//===- StencilPragma.cpp - Parsing the clauses of `#pragma stencil` -------===//
#include "StencilPragma.h"

#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"

#include "CDiagnostics.h"
#include "stencilc/CFrontend.h"

namespace stencilc::cfront {

namespace {

/// Reads the tokens of one pragma line. On the first error it reports,
/// marks the pragma invalid and stops; the caller skips to the line's end.
class ClauseParser {
public:
  ClauseParser(clang::Preprocessor &pp, StencilPragma &pragma)
      : pp(pp), diags(pp.getDiagnostics()), pragma(pragma) {}

  /// pragma ::= 'stencil' (clause ','?)*
  void parse() {
    next();
    while (!tok.is(clang::tok::eod)) {
      if (!parseClause()) {
        pragma.valid = false;
        break;
      }
      if (tok.is(clang::tok::comma)) {
        next();
      }
    }
    while (!tok.is(clang::tok::eod)) {
      next();
    }
    pragma.endLoc = tok.getLocation();
  }

private:
  void next() { pp.Lex(tok); }

  std::string spelling() const { return pp.getSpelling(tok); }

  bool isWord() const { return tok.getIdentifierInfo() != nullptr; }

  bool expect(clang::tok::TokenKind kind, const char *what) {
    if (tok.is(kind)) {
      next();
      return true;
    }
    reportError(diags, tok.getLocation(), "expected %0 in '#pragma stencil', found %1")
        << what << found();
    return false;
  }

  std::string found() const {
    if (tok.is(clang::tok::eod)) {
      return "the end of the line";
    }
    std::string quoted = "'";
    quoted += spelling();
    quoted += '\'';
    return quoted;
  }

  /// clause ::= name '(' ... ')'
  bool parseClause() {
    if (!isWord()) {
      reportError(diags, tok.getLocation(),
                  "expected a clause in '#pragma stencil' (name, precision or "
                  "boundary), found %0")
          << found();
      return false;
    }
    std::string clause = spelling();
    clang::SourceLocation clauseLoc = tok.getLocation();
    bool duplicate = false;
    if (clause == "name") {
      duplicate = pragma.name.has_value();
    } else if (clause == "precision") {
      duplicate = pragma.precision.has_value();
    } else if (clause == "boundary") {
      duplicate = pragma.boundary.has_value();
    } else {
      reportError(diags, clauseLoc,
                  "unknown clause '%0' in '#pragma stencil'; expected name, "
                  "precision or boundary")
          << clause;
      return false;
    }
    if (duplicate) {
      reportError(diags, clauseLoc, "duplicate '%0' clause in '#pragma stencil'") << clause;
      return false;
    }
    next();
    if (!expect(clang::tok::l_paren, "'('")) {
      return false;
    }
    bool ok = clause == "name"        ? parseName()
              : clause == "precision" ? parsePrecision()
                                      : parseBoundary();
    return ok && expect(clang::tok::r_paren, "')'");
  }

  /// 'name' '(' identifier ')'
  bool parseName() {
    if (!tok.is(clang::tok::identifier)) {
      reportError(diags, tok.getLocation(), "expected the stencil's name in 'name(...)', found %0")
          << found();
      return false;
    }
    std::string name = spelling();
    const std::string why =
        isReservedStencilWord(name)
            ? "is a reserved word of the .stencil language and cannot name a stencil"
        : hasReservedPrefix(name) ? "cannot name a stencil: " + reservedPrefixText()
                                  : std::string();
    if (!why.empty()) {
      reportError(diags, tok.getLocation(), "'%0' %1") << name << why;
      return false;
    }
    pragma.name = name;
    pragma.nameLoc = tok.getLocation();
    next();
    return true;
  }

  /// 'precision' '(' ('fp16'|'bf16'|'tf32'|'fp32'|'fp64') ')'
  bool parsePrecision() {
    std::optional<Precision> precision;
    if (isWord()) {
      precision = stencilc::parsePrecision(spelling());
    }
    if (!precision) {
      reportError(diags, tok.getLocation(), "unknown precision %0; expected %1")
          << found() << joinList(precisionKeywords(), " or ");
      return false;
    }
    pragma.precision = precision;
    next();
    return true;
  }

  /// 'boundary' '(' (KIND | 'constant' '(' number ')') ')', KIND a rule of
  /// Boundaries.def'
  bool parseBoundary() {
    std::optional<BoundaryKind> kind;
    if (isWord()) {
      kind = parseBoundaryKind(spelling());
    }
    if (!kind) {
      reportError(diags, tok.getLocation(), "unknown boundary %0; expected %1")
          << found() << boundaryChoicesText(" or ", "(V)");
      return false;
    }
    clang::SourceLocation kindLoc = tok.getLocation();
    pragma.boundary = kind;
    next();
    if (*kind != BoundaryKind::Constant) {
      if (tok.is(clang::tok::l_paren)) {
        reportError(diags, tok.getLocation(), "'boundary(%0)' takes no value")
            << std::string(keyword(*kind));
        return false;
      }
      return true;
    }
    if (!tok.is(clang::tok::l_paren)) {
      reportError(diags, kindLoc,
                  "'boundary(constant)' needs the value read outside the grid: "
                  "boundary(constant(V))");
      return false;
    }
    next();
    if (!parseNumber(pragma.boundaryValue)) {
      return false;
    }
    return expect(clang::tok::r_paren, "')'");
  }

  /// number ::= ('+' | '-')? numeric-literal
  bool parseNumber(double &value) {
    bool negative = false;
    if (tok.isOneOf(clang::tok::plus, clang::tok::minus)) {
      negative = tok.is(clang::tok::minus);
      next();
    }
    if (!tok.is(clang::tok::numeric_constant)) {
      reportError(diags, tok.getLocation(), "expected a number for 'constant(V)', found %0")
          << found();
      return false;
    }
    llvm::SmallString<32> buffer;
    bool invalid = false;
    llvm::StringRef text = pp.getSpelling(tok, buffer, &invalid);
    clang::NumericLiteralParser literal(text, tok.getLocation(), pp.getSourceManager(),
                                        pp.getLangOpts(), pp.getTargetInfo(), diags);
    if (invalid || literal.hadError) {
      return false; // the literal parser has reported it
    }
    if (literal.isFloatingLiteral()) {
      llvm::APFloat result(llvm::APFloat::IEEEdouble());
      auto status = literal.GetFloatValue(result, llvm::RoundingMode::NearestTiesToEven);
      if (status & llvm::APFloat::opOverflow) {
        reportError(diags, tok.getLocation(), "boundary value '%0' is too large for a double")
            << text;
        return false;
      }
      if ((status & llvm::APFloat::opUnderflow) && result.isZero()) {
        // Clang's own warning for such a literal in C code (-Wliteral-range):
        // the value outside the grid is zero, not the number written.
        llvm::SmallString<32> smallest;
        llvm::APFloat::getSmallest(llvm::APFloat::IEEEdouble()).toString(smallest);
        diags.Report(tok.getLocation(), clang::diag::warn_float_underflow)
            << "'double'" << smallest.str();
      }
      value = result.convertToDouble();
    } else {
      llvm::APInt result(64, 0);
      if (literal.GetIntegerValue(result)) {
        reportError(diags, tok.getLocation(), "boundary value '%0' is too large") << text;
        return false;
      }
      value = static_cast<double>(result.getZExtValue());
    }
    if (negative) {
      value = -value;
    }
    next();
    return true;
  }

  clang::Preprocessor &pp;
  clang::DiagnosticsEngine &diags;
  StencilPragma &pragma;
  clang::Token tok;
};

} // namespace

void StencilPragmaHandler::HandlePragma(clang::Preprocessor &pp,
                                        clang::PragmaIntroducer /*introducer*/,
                                        clang::Token &firstToken) {
  StencilPragma pragma;
  pragma.loc = firstToken.getLocation();
  clang::DiagnosticConsumer &client = *pp.getDiagnostics().getClient();
  unsigned before = client.getNumErrors();
  ClauseParser(pp, pragma).parse();
  errors += client.getNumErrors() - before;
  pragmas.push_back(std::move(pragma));
}

void UnknownPragmaHandler::HandlePragma(clang::Preprocessor &pp,
                                        clang::PragmaIntroducer /*introducer*/,
                                        clang::Token &firstToken) {
  pp.Diag(firstToken, clang::diag::warn_pragma_ignored);
  const clang::IdentifierInfo *name = firstToken.getIdentifierInfo();
  if (name && llvm::StringRef(name->getName().lower()).edit_distance("stencil", true, 3) <= 2) {
    reportNote(pp.getDiagnostics(), firstToken.getLocation(),
               "did you mean '#pragma stencil'? The loop nest under an unknown pragma is not "
               "compiled");
  }
}

} // namespace stencilc::cfront
