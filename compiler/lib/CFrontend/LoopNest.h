//===- LoopNest.h - Recognising one `#pragma stencil` loop nest -*- C++ -*-===//
//
// Given the `for` a pragma marks, checks that it is a perfect nest of 1-3
// counting loops around one assignment `B[i][j] = EXPR;`, that EXPR is linear
// in reads of one other array at constant offsets, and that the loop bounds
// leave exactly the ring a fixed boundary of the stencil's radius needs. It
// reports every problem it finds through Clang's diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include "StencilPragma.h"
#include "stencilc/CFrontend.h"

namespace stencilc::cfront {

/// A loop nest and the pragma that marks it.
struct MarkedNest {
  const clang::ForStmt *loop = nullptr;
  /// The function whose body holds the nest (names the stencil by default).
  const clang::FunctionDecl *function = nullptr;
  const StencilPragma *pragma = nullptr;
};

/// Recognises the nest. The result has everything but the stencil's name,
/// which is chosen once every nest of the file is known. Returns nullopt
/// after reporting at least one error.
std::optional<TranslatedStencil> recogniseNest(const MarkedNest &nest, clang::ASTContext &context);

} // namespace stencilc::cfront
