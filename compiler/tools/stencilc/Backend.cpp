//===- Backend.cpp - Placeholder until the planner and emitters land -------===//
// TEMPORARY: replaced by the code-generation work; never shipped as is.
#include "Backend.h"

namespace stencilc {

Artefacts generateArtefacts(const std::vector<StencilSpec> &specs,
                            llvm::ArrayRef<llvm::SMLoc> locs,
                            const BackendOptions &, DiagnosticEngine &diags) {
  for (std::size_t i = 0; i < specs.size(); ++i) {
    diags.error(locs[i], "code generation is not built into this stencilc yet");
  }
  return {};
}

} // namespace stencilc
