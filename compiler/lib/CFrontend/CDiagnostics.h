//===- CDiagnostics.h - Custom diagnostics in Clang's engine ----*- C++ -*-===//
//
// The C front end reports through Clang's own DiagnosticsEngine, so its
// errors print like Clang's: `file.c:7:17: error: ...`, the source line and
// a caret. Each message is a custom diagnostic ID made from its format string
// (%0, %1 are the streamed arguments); Clang caches the IDs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

namespace stencilc::cfront {

template <unsigned N>
clang::DiagnosticBuilder reportError(clang::DiagnosticsEngine &diags, clang::SourceLocation loc,
                                     const char (&format)[N]) {
  return diags.Report(loc, diags.getCustomDiagID(clang::DiagnosticsEngine::Error, format));
}

template <unsigned N>
clang::DiagnosticBuilder reportNote(clang::DiagnosticsEngine &diags, clang::SourceLocation loc,
                                    const char (&format)[N]) {
  return diags.Report(loc, diags.getCustomDiagID(clang::DiagnosticsEngine::Note, format));
}

} // namespace stencilc::cfront
