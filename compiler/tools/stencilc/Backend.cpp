//===- Backend.cpp - Planning and code generation for the driver -----------===//
//
// Chooses a backend per stencil (reporting why a request cannot be honoured),
// plans it, prints the plans and generates the .cu and .h of the file.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "stencilc/CodeGen.h"
#include "stencilc/Planner.h"

#ifndef STENCILC_VERSION
#define STENCILC_VERSION "unknown"
#endif

namespace stencilc {

Artefacts generateArtefacts(const std::vector<StencilSpec> &specs,
                            llvm::ArrayRef<llvm::SMLoc> locs,
                            const BackendOptions &options, DiagnosticEngine &diags) {
  std::vector<Plan> plans;
  PlannerOptions plannerOptions;
  plannerOptions.arch = options.arch;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const StencilSpec &spec = specs[i];
    const llvm::SMLoc loc = i < locs.size() ? locs[i] : llvm::SMLoc();
    std::optional<std::string> reason = tensorUnsupportedReason(spec);
    switch (options.backend) {
    case BackendRequest::Tensor:
      if (reason) {
        diags.error(loc, fmt::format("cannot use the tensor-core backend for stencil "
                                     "'{}': {}",
                                     spec.name, *reason));
        continue;
      }
      break;
    case BackendRequest::Simt:
      diags.error(loc, fmt::format("cannot compile stencil '{}' with --backend=simt: "
                                   "this stencilc has no CUDA-core backend yet",
                                   spec.name));
      continue;
    case BackendRequest::Auto:
      if (reason) {
        diags.error(loc, fmt::format("no backend of this stencilc can compile stencil "
                                     "'{}'",
                                     spec.name));
        diags.note(loc, fmt::format("the tensor-core backend was not chosen: {}; the "
                                    "CUDA-core backend does not exist yet",
                                    *reason));
        continue;
      }
      break;
    }
    Plan plan = planTensor(spec, plannerOptions);
    if (options.backend == BackendRequest::Tensor) {
      plan.choice += ", as --backend=tensor requested";
    } else {
      plan.choice += ", chosen by --backend=auto (2D, radius and precision fit a fragment)";
    }
    plans.push_back(std::move(plan));
  }

  Artefacts artefacts;
  if (diags.hasErrors()) {
    return artefacts;
  }
  llvm::raw_string_ostream planText(artefacts.plan);
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (i) {
      planText << "\n";
    }
    printPlan(plans[i], planText);
  }
  planText.flush();
  CodeGenOptions codegen;
  codegen.inputFile = options.inputFile;
  codegen.headerInclude = options.headerInclude;
  codegen.compilerVersion = STENCILC_VERSION;
  artefacts.cuda = emitCudaSource(plans, codegen);
  artefacts.header = emitHeader(plans, codegen);
  return artefacts;
}

} // namespace stencilc
