//===- Backend.cpp - Planning and code generation for the driver -----------===//
//
// Chooses a backend per stencil (reporting why a request cannot be honoured),
// plans it, prints the plans and generates the .cu and .h of the file.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Pipeline.h"

#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/BackendChoice.h"
#include "Backends/Common/CodeGen.h"
#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Tensor/TensorFields.h"
#include "Backends/Tensor/TensorPlanner.h"
#include "stencilc/PrintableText.h"

#ifndef STENCILC_VERSION
#define STENCILC_VERSION "unknown"
#endif

namespace stencilc {

namespace {

/// A stencil of fields: on tensor cores where --backend=tensor asks and the
/// tensor planner takes it (TensorFields.cpp), else on CUDA cores
/// (FieldsPlanner.cpp). `auto` takes the tensor cores only where they
/// measured faster (fieldsOnTensorCores, docs/performance.md): none today.
std::optional<Plan> planFieldsRequested(const StencilSpec &spec, llvm::SMLoc loc,
                                        const BackendOptions &options, DiagnosticEngine &diags) {
  if (options.backend == BackendRequest::Tensor) {
    PlanOrRefusal tensor = planTensorFields(spec, options.plan);
    if (!tensor) {
      diags.error(loc, fmt::format("cannot use the tensor-core backend for stencil '{}': {}",
                                   spec.name, tensor.reason()));
      return std::nullopt;
    }
    tensor->choice += ", as --backend=tensor requested";
    return *std::move(tensor);
  }
  // The CUDA-core plan, or (an error reported) null where the --plan-option
  // values ask for a block it cannot take.
  const auto planSimtFields = [&]() -> std::optional<Plan> {
    PlanOrRefusal simt = planFields(spec, options.plan);
    if (!simt) {
      diags.error(
          loc, fmt::format("cannot plan stencil '{}' on CUDA cores: {}", spec.name, simt.reason()));
      return std::nullopt;
    }
    return *std::move(simt);
  };
  std::optional<Plan> plan;
  if (options.backend == BackendRequest::Simt) {
    plan = planSimtFields();
    if (!plan) {
      return std::nullopt;
    }
    plan->choice = "the kernel of a stencil of fields, as --backend=simt requested";
  } else {
    // auto: the tensor cores where measured faster (BackendChoice.cpp).
    PlanOrRefusal tensor = planTensorFields(spec, options.plan);
    std::string why;
    if (tensor && fieldsOnTensorCores(*tensor, why)) {
      tensor->choice += ": " + why;
      return *std::move(tensor);
    }
    if (!tensor) {
      why = "the tensor-core backend cannot take it: " + tensor.reason();
    }
    plan = planSimtFields();
    if (!plan) {
      return std::nullopt;
    }
    plan->choice = "the CUDA-core kernel of a stencil of fields: " + why;
    diags.remark(loc, fmt::format("stencil '{}' uses the CUDA-core backend: {}", spec.name, why));
  }
  // The CUDA-core kernel of fields takes its block and chunk; not the plane
  // buffers or the L2 prefetch of the single-field kernel.
  std::vector<std::string> ignored;
  for (const std::string &name : options.planOptionsGiven) {
    if (!fieldsPlanTakesOption(spec, name)) {
      ignored.push_back(name);
    }
  }
  if (!ignored.empty()) {
    diags.warning(Warning::IgnoredPlanOption, loc,
                  fmt::format("--plan-option {} {} not reach stencil '{}': {}",
                              fmt::join(ignored, ", "), ignored.size() > 1 ? "do" : "does",
                              spec.name, fieldsPlanOptionsText(spec)));
  }
  return plan;
}

/// The plan of one stencil for `options.backend`, each backend's planner run
/// at most once; null after reporting why the requested backend cannot take
/// it.
std::optional<Plan> planRequested(const StencilSpec &spec, llvm::SMLoc loc,
                                  const BackendOptions &options, DiagnosticEngine &diags) {
  if (spec.hasFields()) {
    return planFieldsRequested(spec, loc, options, diags);
  }
  switch (options.backend) {
  case BackendRequest::Tensor: {
    PlanOrRefusal tensor = planTensor(spec, options.plan);
    if (!tensor) {
      diags.error(loc, fmt::format("cannot use the tensor-core backend for stencil "
                                   "'{}': {}",
                                   spec.name, tensor.reason()));
      return std::nullopt;
    }
    tensor->choice += ", as --backend=tensor requested";
    return *std::move(tensor);
  }
  case BackendRequest::Simt: {
    Plan plan = planSimt(spec, options.plan);
    plan.choice += ", as --backend=simt requested";
    return plan;
  }
  case BackendRequest::Auto:
    break;
  }
  // --backend=auto (BackendChoice.h): measured table, else a documented rule.
  PlanOrRefusal tensor = planTensor(spec, options.plan);
  if (!tensor) {
    diags.remark(loc, fmt::format("stencil '{}' uses the CUDA-core backend: the "
                                  "tensor-core backend cannot take it: {}",
                                  spec.name, tensor.reason()));
  }
  return planAuto(spec, std::move(tensor), options.plan);
}

/// The plan of one stencil, with the steps --plan-option fuse asked for: a
/// backend that was requested and cannot fuse that many is an error at the
/// stencil; --backend=auto takes the T it can plan (the plan says why).
std::optional<Plan> planStencil(const StencilSpec &spec, llvm::SMLoc loc,
                                const BackendOptions &options, DiagnosticEngine &diags) {
  std::optional<Plan> plan = planRequested(spec, loc, options, diags);
  if (!plan || !plan->schedule.lowered) {
    return plan;
  }
  const std::string what =
      fmt::format("{} steps of stencil '{}' on the {} backend: {}", options.plan.fusedSteps,
                  spec.name, keyword(plan->backend()), plan->schedule.why);
  if (options.backend != BackendRequest::Auto) {
    diags.error(loc, "cannot fuse " + what);
    return std::nullopt;
  }
  const int steps = plan->schedule.fusedSteps;
  diags.remark(loc, fmt::format("{} rather than fusing {}",
                                steps == 1 ? std::string("one step a launch")
                                           : fmt::format("{} steps a pass", steps),
                                what));
  return plan;
}

/// The --plan-option names given that `backend`'s plans do not have.
std::vector<std::string> ignoredPlanOptions(const BackendOptions &options, BackendKind backend) {
  std::vector<std::string> ignored;
  for (const std::string &name : options.planOptionsGiven) {
    const PlanOptionInfo *option = findPlanOption(name);
    if (option && !option->appliesTo(backend)) {
      ignored.push_back(name);
    }
  }
  return ignored;
}

} // namespace

Artefacts generateArtefacts(const std::vector<StencilSpec> &specs, llvm::ArrayRef<llvm::SMLoc> locs,
                            const BackendOptions &options, DiagnosticEngine &diags) {
  std::vector<Plan> plans;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (std::optional<Plan> plan =
            planStencil(specs[i], i < locs.size() ? locs[i] : llvm::SMLoc(), options, diags)) {
      plans.push_back(std::move(*plan));
    }
  }
  // A --plan-option of the other backend's plans does not reach a stencil:
  // say so rather than let a tuning run measure the default unawares.
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const bool tensor = plans[i].backend() == BackendKind::Tensor;
    const std::vector<std::string> ignored = ignoredPlanOptions(options, plans[i].backend());
    if (!ignored.empty() && !plans[i].spec.hasFields()) {
      diags.warning(Warning::IgnoredPlanOption, i < locs.size() ? locs[i] : llvm::SMLoc(),
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
