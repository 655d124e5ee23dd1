//===- Sema.h - Meaning of a parsed .stencil file ------------------*- C++ -*-===//
//
// Sema checks what the grammar cannot (names, linearity in `in`, index order,
// constant integer offsets, the table's shape, declared shape/radius/dims
// against the body, precision and boundary), folds every coefficient exactly
// (IEEE quad arithmetic on the decimal literals, rounded once to double) and
// produces one StencilSpec per stencil. Stencils with errors produce no spec.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

#include "llvm/Support/SMLoc.h"

#include "stencilc/AST.h"
#include "stencilc/Diagnostics.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// The largest radius the language accepts (an implementation limit, so that
/// no input can ask for unbounded tables or code).
constexpr int MaxRadius = 32;

/// The most significant digits a number literal may have (an implementation
/// limit: LLVM's decimal conversion fails on very long ones).
constexpr size_t MaxSignificantDigits = 1000;

struct CheckedStencil {
  StencilSpec spec;
  llvm::SMLoc loc; ///< the stencil's name, for later diagnostics
};

/// Checks every stencil of `module`; returns the specs of those without
/// errors, in file order.
std::vector<CheckedStencil> checkModule(const Module &module, llvm::StringRef fileName,
                                        DiagnosticEngine &diags);

} // namespace stencilc
