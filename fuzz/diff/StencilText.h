//===- StencilText.h - .stencil text to specs, for both fuzzers -*- C++ -*-===//
#pragma once

#include <string>
#include <vector>

#include "stencilc/Sema.h"

namespace stencilc::fuzzdiff {

/// Parses and checks `text` as the driver does (diagnostics discarded): the
/// specs of the stencils without errors, in file order; `errors` says
/// whether any diagnostic was an error.
std::vector<CheckedStencil> checkStencilText(const std::string &text, bool &errors);

} // namespace stencilc::fuzzdiff
