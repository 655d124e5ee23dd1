//===- Backend.cpp - Planning and code generation for the driver -----------===//
//
// Chooses a backend per stencil (reporting why a request cannot be honoured),
// plans it, prints the plans and generates the .cu and .h of the file.
//
//===----------------------------------------------------------------------===//
#include "Backend.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "llvm/Support/raw_ostream.h"

#include "stencilc/CodeGen.h"
#include "stencilc/Planner.h"
#include "stencilc/PrintableText.h"
#include "stencilc/SimtPlanner.h"

#ifndef STENCILC_VERSION
#define STENCILC_VERSION "unknown"
#endif

namespace stencilc {

Artefacts generateArtefacts(const std::vector<StencilSpec> &specs, llvm::ArrayRef<llvm::SMLoc> locs,
                            const BackendOptions &options, DiagnosticEngine &diags) {
  std::vector<Plan> plans;
  PlannerOptions plannerOptions = options.planner;
  plannerOptions.arch = options.arch;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const StencilSpec &spec = specs[i];
    const llvm::SMLoc loc = i < locs.size() ? locs[i] : llvm::SMLoc();
    switch (options.backend) {
    case BackendRequest::Tensor: {
      if (std::optional<std::string> reason = tensorUnsupportedReason(spec, plannerOptions)) {
        diags.error(loc, fmt::format("cannot use the tensor-core backend for stencil "
                                     "'{}': {}",
                                     spec.name, *reason));
        continue;
      }
      Plan plan = planTensor(spec, plannerOptions);
      plan.choice += ", as --backend=tensor requested";
      plans.push_back(std::move(plan));
      continue;
    }
    case BackendRequest::Simt: {
      Plan plan = planSimt(spec, plannerOptions, options.simt);
      plan.choice += ", as --backend=simt requested";
      plans.push_back(std::move(plan));
      continue;
    }
    case BackendRequest::Auto:
      break;
    }
    // --backend=auto (SimtPlanner.h): measured table, else a documented rule.
    Plan plan = planAuto(spec, plannerOptions, options.simt);
    if (plan.backend == BackendKind::Simt) {
      if (std::optional<std::string> reason = tensorUnsupportedReason(spec, plannerOptions)) {
        diags.standaloneNote(loc, fmt::format("stencil '{}' uses the CUDA-core backend: the "
                                              "tensor-core backend cannot take it: {}",
                                              spec.name, *reason));
      }
    }
    plans.push_back(std::move(plan));
  }
  // A --plan-option of the other backend's plans does not reach a stencil:
  // say so rather than let a tuning run measure the default unawares.
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const bool tensor = plans[i].backend == BackendKind::Tensor;
    const std::vector<std::string> &ignored =
        tensor ? options.simtPlanOptions : options.tensorPlanOptions;
    if (!ignored.empty()) {
      diags.warning(i < locs.size() ? locs[i] : llvm::SMLoc(),
                    fmt::format("--plan-option {} {} to {} kernels; stencil '{}' runs on {} "
                                "and ignores {}",
                                fmt::join(ignored, ", "), ignored.size() > 1 ? "apply" : "applies",
                                tensor ? "CUDA-core" : "tensor-core", plans[i].spec.name,
                                tensor ? "tensor cores" : "CUDA cores",
                                ignored.size() > 1 ? "them" : "it"));
    }
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
  // Names the user chose reach the generated files' comments only escaped:
  // a newline or a "*/" in a file name must not end the comment.
  for (Plan &plan : plans) {
    plan.spec.sourceFile = commentText(plan.spec.sourceFile);
  }
  CodeGenOptions codegen;
  codegen.inputFile = commentText(options.inputFile);
  codegen.headerInclude = options.headerInclude;
  codegen.compilerVersion = STENCILC_VERSION;
  artefacts.cuda = emitCudaSource(plans, codegen);
  artefacts.header = emitHeader(plans, codegen);
  return artefacts;
}

} // namespace stencilc
