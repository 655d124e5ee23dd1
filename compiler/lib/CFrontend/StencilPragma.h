//===- StencilPragma.h - `#pragma stencil` and its clauses ------*- C++ -*-===//
//
// The preprocessor hands every `#pragma stencil` line to StencilPragmaHandler,
// which parses its clauses and records them with the pragma's location. Which
// loop nest a pragma marks is decided after parsing (CFrontend.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"

#include "stencilc/Spec.h"

namespace stencilc::cfront {

/// One `#pragma stencil [name(ID)] [precision(P)] [boundary(B)]` line.
struct StencilPragma {
  /// The `stencil` word, where diagnostics about the pragma point.
  clang::SourceLocation loc;
  /// The end of the pragma line: the marked loop must follow it.
  clang::SourceLocation endLoc;
  /// False when a clause had an error (already reported): the nest is still
  /// claimed by this pragma but not translated.
  bool valid = true;

  std::optional<std::string> name;
  clang::SourceLocation nameLoc;
  std::optional<Precision> precision;
  std::optional<BoundaryKind> boundary;
  double boundaryValue = 0.0;
};

/// Parses the clauses of `#pragma stencil` lines into `pragmas`, in source
/// order, reporting malformed clauses through the preprocessor's diagnostics.
///
///   pragma   ::= 'stencil' (clause ','?)*
///   clause   ::= 'name' '(' identifier ')'
///              | 'precision' '(' ('fp16'|'bf16'|'tf32'|'fp32'|'fp64') ')'
///              | 'boundary' '(' ('fixed' | 'periodic' | 'constant' '(' number ')') ')'
///   number   ::= ('+' | '-')? numeric-literal      (macros expand first)
class StencilPragmaHandler : public clang::PragmaHandler {
public:
  StencilPragmaHandler(std::vector<StencilPragma> &pragmas, unsigned &errors)
      : clang::PragmaHandler("stencil"), pragmas(pragmas), errors(errors) {}

  void HandlePragma(clang::Preprocessor &pp, clang::PragmaIntroducer introducer,
                    clang::Token &firstToken) override;

private:
  std::vector<StencilPragma> &pragmas;
  /// Errors reported in pragmas, to tell them from errors in the C code.
  unsigned &errors;
};

/// Every pragma of the root namespace that no other handler knows: warns
/// as Clang would (-Wunknown-pragmas), and where the name is close to
/// `stencil` (`#pragma stencl`), adds a note naming that spelling, since
/// the nest under it is otherwise silently left alone.
class UnknownPragmaHandler : public clang::PragmaHandler {
public:
  UnknownPragmaHandler() : clang::PragmaHandler("") {}

  void HandlePragma(clang::Preprocessor &pp, clang::PragmaIntroducer introducer,
                    clang::Token &firstToken) override;
};

} // namespace stencilc::cfront
