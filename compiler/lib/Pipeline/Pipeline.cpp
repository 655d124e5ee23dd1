//===- Pipeline.cpp - Planning and code generation for the driver ----------===//
//
// Chooses a backend per stencil (reporting why a request cannot be honoured),
// plans it, prints the plans and generates the .cu and .h of the file.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Pipeline.h"

#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/Backend.h"
#include "Backends/Common/CodeGen.h"
#include "Pipeline/BackendChoice.h"
#include "stencilc/PrintableText.h"

#ifndef STENCILC_VERSION
#define STENCILC_VERSION "unknown"
#endif

namespace stencilc {

// Each backend's registration (Backends/<Name>/<Name>Backend.h).
#define STENCILC_BACKEND(Enumerator, ...) void initialize##Enumerator##Backend();
#include "stencilc/Backends.def"

void initializeAllBackends() {
  static const bool initialized = [] {
#define STENCILC_BACKEND(Enumerator, ...) initialize##Enumerator##Backend();
#include "stencilc/Backends.def"
    return true;
  }();
  (void)initialized;
}

std::optional<BackendKind> requestedBackend(BackendRequest request) {
  if (request == BackendRequest::Auto) {
    return std::nullopt;
  }
  // BackendRequest lists Auto, then Backends.def's backends in order.
  return static_cast<BackendKind>(static_cast<int>(request) - 1);
}

std::optional<BackendRequest> parseBackendRequest(std::string_view word) {
  if (word == "auto") {
    return BackendRequest::Auto;
  }
  for (BackendKind kind : AllBackends) {
    if (keyword(kind) == word) {
      return static_cast<BackendRequest>(static_cast<int>(kind) + 1);
    }
  }
  return std::nullopt;
}

namespace {

/// The plan of `spec` on the backend --backend named, or null after an error
/// at the stencil saying why that backend cannot take it.
std::optional<Plan> planOnRequested(BackendKind kind, const StencilSpec &spec, llvm::SMLoc loc,
                                    const BackendOptions &options, DiagnosticEngine &diags) {
  const Backend &backend = backendFor(kind);
  PlanOrRefusal plan =
      spec.hasFields() ? backend.planFields(spec, options.plan) : backend.plan(spec, options.plan);
  if (!plan) {
    diags.error(loc, fmt::format("cannot use the {} backend for stencil '{}': {}",
                                 kernelsAdjective(kind), spec.name, plan.reason()));
    return std::nullopt;
  }
  plan->choice += fmt::format(", as --backend={} requested", keyword(kind));
  return *std::move(plan);
}

/// A stencil of fields under --backend=auto: on tensor cores only where they
/// measured faster (fieldsOnTensorCores, docs/performance.md: none today),
/// else on CUDA cores (FieldsPlanner.cpp); null after an error where the
/// --plan-option values ask for a block the CUDA cores cannot take.
std::optional<Plan> planFieldsAuto(const StencilSpec &spec, llvm::SMLoc loc,
                                   const BackendOptions &options, DiagnosticEngine &diags) {
  PlanOrRefusal tensor = backendFor(BackendKind::Tensor).planFields(spec, options.plan);
  std::string why;
  if (tensor && fieldsOnTensorCores(*tensor, why)) {
    tensor->choice += ": " + why;
    return *std::move(tensor);
  }
  if (!tensor) {
    why = "the tensor-core backend cannot take it: " + tensor.reason();
  }
  PlanOrRefusal simt = backendFor(BackendKind::Simt).planFields(spec, options.plan);
  if (!simt) {
    diags.error(
        loc, fmt::format("cannot plan stencil '{}' on CUDA cores: {}", spec.name, simt.reason()));
    return std::nullopt;
  }
  simt->choice = "the CUDA-core kernel of a stencil of fields: " + why;
  diags.remark(loc, fmt::format("stencil '{}' uses the CUDA-core backend: {}", spec.name, why));
  return *std::move(simt);
}

/// The CUDA-core kernel of fields takes its block and chunk, not the plane
/// buffers or the L2 prefetch of the single-field kernel: a warning names
/// the --plan-option values its plan does not read.
void warnIgnoredFieldsOptions(const Plan &plan, llvm::SMLoc loc, const BackendOptions &options,
                              DiagnosticEngine &diags) {
  const Backend &backend = backendFor(plan);
  std::vector<std::string> ignored;
  for (const std::string &name : options.planOptionsGiven) {
    const PlanOptionInfo *option = findPlanOption(name);
    if (option && !backend.takesOption(plan.spec, *option)) {
      ignored.push_back(name);
    }
  }
  if (!ignored.empty()) {
    diags.warning(Warning::IgnoredPlanOption, loc,
                  fmt::format("--plan-option {} {} not reach stencil '{}': {}",
                              fmt::join(ignored, ", "), ignored.size() > 1 ? "do" : "does",
                              plan.spec.name, backend.optionsText(plan.spec)));
  }
}

/// The plan of one stencil for `options.backend`, each backend's planner run
/// at most once; null after reporting why the requested backend cannot take
/// it.
std::optional<Plan> planRequested(const StencilSpec &spec, llvm::SMLoc loc,
                                  const BackendOptions &options, DiagnosticEngine &diags) {
  const std::optional<BackendKind> kind = requestedBackend(options.backend);
  if (kind && !(spec.hasFields() && *kind == BackendKind::Simt)) {
    return planOnRequested(*kind, spec, loc, options, diags);
  }
  if (spec.hasFields()) {
    std::optional<Plan> plan = kind ? planOnRequested(*kind, spec, loc, options, diags)
                                    : planFieldsAuto(spec, loc, options, diags);
    if (plan) {
      warnIgnoredFieldsOptions(*plan, loc, options, diags);
    }
    return plan;
  }
  // --backend=auto (BackendChoice.h): measured table, else a documented rule.
  PlanOrRefusal tensor = backendFor(BackendKind::Tensor).plan(spec, options.plan);
  if (!tensor) {
    diags.remark(loc, fmt::format("stencil '{}' uses the CUDA-core backend: the "
                                  "tensor-core backend cannot take it: {}",
                                  spec.name, tensor.reason()));
  }
  return planAuto(spec, std::move(tensor), options.plan);
}

/// Where --plan-option lowrank (auto or on) found 1D passes of fewer
/// operations but the CUDA-core plan keeps the direct form, a remark (-v)
/// says why.
void remarkLowRankFallBack(const Plan &plan, llvm::SMLoc loc, DiagnosticEngine &diags) {
  if (plan.backend() != BackendKind::Simt || !plan.simt().lowRank.fellBack) {
    return;
  }
  const LowRankChoice &lr = plan.simt().lowRank;
  diags.remark(loc, fmt::format("stencil '{}' keeps the direct form ({} operations a point) "
                                "rather than 1D passes ({}): {}",
                                plan.spec.name, lr.directOps, lr.decomposedOps, lr.why));
}

/// Every architecture the build plans for: --arch and the other targets
/// of a fat build.
std::vector<Arch> buildTargets(const BackendOptions &options) {
  std::vector<Arch> targets = options.targets;
  targets.push_back(options.plan.target);
  return targets;
}

/// The first SM generation with packed multiply-adds (__hfma2) of the
/// element type: fp16 from sm_53, bf16 from sm_80 (the CUDA Math API).
int packedArithmeticSm(Precision p) { return p == Precision::BF16 ? 80 : 53; }

/// What a stencil lacks for --plan-option arith=packed, in a phrase, or
/// nothing where the CUDA-core kernels can take it: fp16 or bf16 elements,
/// 2D, one field, the CUDA-core backend (a stencil --backend=auto puts on
/// tensor cores ignores the option with a warning, as it does lowrank),
/// the direct form, and targets with the instruction.
std::optional<std::string> packedUnavailable(const StencilSpec &spec,
                                             const BackendOptions &options) {
  if (!isSixteenBit(spec.precision)) {
    return fmt::format("it needs fp16 or bf16 elements, and stencil '{}' is {}", spec.name,
                       keyword(spec.precision));
  }
  if (spec.dims != 2) {
    return fmt::format("it is built for 2D stencils only, and stencil '{}' is {}D", spec.name,
                       spec.dims);
  }
  if (spec.hasFields()) {
    return fmt::format("it is built for stencils of one field, and stencil '{}' has fields",
                       spec.name);
  }
  if (requestedBackend(options.backend) == BackendKind::Tensor) {
    return std::string("the tensor-core backend has no packed form (--backend=tensor)");
  }
  if (options.plan.lowRank == LowRankRequest::On) {
    return std::string("it evaluates the terms directly, and --plan-option lowrank=on asks for "
                       "the low-rank form");
  }
  for (Arch a : buildTargets(options)) {
    if (info(a).sm < packedArithmeticSm(spec.precision)) {
      return fmt::format("{} __hfma2 needs sm_{} or later, and the target is {}",
                         keyword(spec.precision), packedArithmeticSm(spec.precision), info(a).name);
    }
  }
  return std::nullopt;
}

/// What a stencil lacks for the form --plan-option mma=sparse or
/// mma=stacked names, on every target of the build, or nothing
/// (sparseMmaUnavailable and stackedMmaUnavailable, TensorPlanner.cpp);
/// asked of the CUDA-core backend, that it has no MMAs.
std::optional<std::string> mmaFormUnavailable(const StencilSpec &spec,
                                              const BackendOptions &options) {
  if (requestedBackend(options.backend) == BackendKind::Simt) {
    return std::string("the CUDA-core backend has no MMAs (--backend=simt)");
  }
  if (options.plan.mma == MmaRequest::Stacked) {
    return stackedMmaUnavailable(spec);
  }
  for (Arch a : buildTargets(options)) {
    PlanOptions on = options.plan;
    on.target = a;
    if (std::optional<std::string> missing = sparseMmaUnavailable(spec, on)) {
      return missing;
    }
  }
  return std::nullopt;
}

/// Why `spec` has no fused 3D pass of one field on CUDA cores under
/// `options` for a plan option to shape, or nothing; `does` says what the
/// option does to such a pass.
std::optional<std::string> fused3DPassUnavailable(const StencilSpec &spec,
                                                  const BackendOptions &options,
                                                  std::string_view does) {
  if (spec.dims != 3 || spec.hasFields()) {
    return fmt::format("it {} of a fused 3D pass of one field, and stencil '{}' is {}D{}", does,
                       spec.name, spec.dims, spec.hasFields() ? " with fields" : "");
  }
  if (requestedBackend(options.backend) == BackendKind::Tensor) {
    return std::string("the tensor-core backend fuses no 3D passes (--backend=tensor)");
  }
  return std::nullopt;
}

/// Why `spec` cannot take --plan-option barrier=split under `options`, or
/// nothing: the split barrier orders the planes of fused3d.cuh's passes,
/// by mbarrier.try_wait (sm_90 on).
std::optional<std::string> splitBarrierUnavailable(const StencilSpec &spec,
                                                   const BackendOptions &options) {
  if (std::optional<std::string> missing =
          fused3DPassUnavailable(spec, options, "orders the planes")) {
    return missing;
  }
  for (Arch a : buildTargets(options)) {
    if (info(a).sm < 90) {
      return fmt::format("its mbarrier.try_wait needs sm_90 or later, and the target is {}",
                         info(a).name);
    }
  }
  return std::nullopt;
}

/// The plan of one stencil, with the steps --plan-option fuse asked for: a
/// backend that was requested and cannot fuse that many is an error at the
/// stencil; --backend=auto takes the T it can plan (the plan says why).
/// --plan-option arith=packed, mma=sparse, mma=stacked, barrier=split or
/// ring=rotate where the stencil cannot take it is an error at the stencil,
/// naming what is missing.
std::optional<Plan> planStencil(const StencilSpec &spec, llvm::SMLoc loc,
                                const BackendOptions &options, DiagnosticEngine &diags) {
  if (options.plan.arith == ArithRequest::Packed) {
    if (const std::optional<std::string> missing = packedUnavailable(spec, options)) {
      diags.error(loc, "cannot use --plan-option arith=packed: " + *missing);
      return std::nullopt;
    }
  }
  if (options.plan.mma == MmaRequest::Sparse || options.plan.mma == MmaRequest::Stacked) {
    if (const std::optional<std::string> missing = mmaFormUnavailable(spec, options)) {
      diags.error(loc, fmt::format("cannot use --plan-option mma={}: {}",
                                   options.plan.mma == MmaRequest::Sparse ? "sparse" : "stacked",
                                   *missing));
      return std::nullopt;
    }
  }
  if (options.plan.barrier == BarrierRequest::Split) {
    if (const std::optional<std::string> missing = splitBarrierUnavailable(spec, options)) {
      diags.error(loc, "cannot use --plan-option barrier=split: " + *missing);
      return std::nullopt;
    }
  }
  if (options.plan.ring == RingRequest::Rotate) {
    if (const std::optional<std::string> missing =
            fused3DPassUnavailable(spec, options, "unrolls the stream")) {
      diags.error(loc, "cannot use --plan-option ring=rotate: " + *missing);
      return std::nullopt;
    }
  }
  std::optional<Plan> plan = planRequested(spec, loc, options, diags);
  if (plan) {
    // The plan as the pipeline keeps it: --backend=auto may have given up
    // the tensor cores' composed pass since the backend planned it.
    assertPlanVerifies(*plan, options.plan);
    remarkLowRankFallBack(*plan, loc, diags);
  }
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

/// The --plan-option names given that `plan`'s backend does not read.
std::vector<std::string> ignoredPlanOptions(const BackendOptions &options, const Plan &plan) {
  std::vector<std::string> ignored;
  for (const std::string &name : options.planOptionsGiven) {
    const PlanOptionInfo *option = findPlanOption(name);
    const WordPlanOption *word = findWordPlanOption(name);
    if ((option && !backendFor(plan).takesOption(plan.spec, *option)) ||
        (word && plan.backend() != word->backend)) {
      ignored.push_back(name);
    }
  }
  return ignored;
}

/// Whether `plan`, or the composed step of its fused passes, is a
/// tensor-core plan in the stacked form.
bool takesStackedForm(const Plan &plan) {
  const auto stacked = [](const Plan &p) {
    return p.backend() == BackendKind::Tensor && p.tensor().stacked;
  };
  return stacked(plan) || (plan.schedule.composed && stacked(*plan.schedule.composed->plan));
}

/// The --plan-option names given that shape the tensor-core form `plan`
/// does not take: the dense block's (DenseBlockOptions), which a plan in
/// the stacked form ignores (its geometry is fixed, measured best), or the
/// stacked form's windows, which a tensor-core plan without it ignores.
std::vector<std::string> ignoredByTensorForm(const BackendOptions &options, const Plan &plan) {
  std::vector<std::string> ignored;
  if (plan.backend() != BackendKind::Tensor) {
    return ignored;
  }
  const bool stacked = plan.tensor().stacked, anyStacked = takesStackedForm(plan);
  for (const std::string &name : options.planOptionsGiven) {
    if ((stacked && shapesDenseBlock(name)) || (!anyStacked && shapesStackedWindows(name))) {
      ignored.push_back(name);
    }
  }
  return ignored;
}

/// The warning for ignoredByTensorForm's names.
std::string ignoredByTensorFormText(const std::vector<std::string> &names, const Plan &plan) {
  const bool many = names.size() > 1;
  if (plan.tensor().stacked) {
    return fmt::format("--plan-option {} {} not apply to the stacked tensor-core form, whose "
                       "geometry is fixed; stencil '{}' takes that form and ignores {}",
                       fmt::join(names, ", "), many ? "do" : "does", plan.spec.name,
                       many ? "them" : "it");
  }
  return fmt::format(
      "--plan-option {} {} to the stacked tensor-core form's windows and grid; stencil "
      "'{}' takes the {} form and ignores {}",
      fmt::join(names, ", "), many ? "apply" : "applies", plan.spec.name,
      plan.tensor().sparse ? "sparse" : "dense", many ? "them" : "it");
}

/// The kernels a --plan-option that `kind` ignores is for: the other
/// backends' ("CUDA-core" beside tensor cores).
std::string otherKernels(BackendKind kind) {
  std::vector<std::string_view> others;
  for (BackendKind other : AllBackends) {
    if (other != kind) {
      others.push_back(kernelsAdjective(other));
    }
  }
  return joinList(others, " or ");
}

/// Whether the stencils' generated code defines every name once, given the
/// names each stencil's code defines (`symbols`, in the order of the
/// stencils' `names`): an error at each stencil (`locs`) that would define a
/// name an earlier one defines (`a` with fields and `a_fields` both define
/// `a_fields_info`), with a note at the earlier one.
bool checkSymbolCollisions(const std::vector<std::string> &names,
                           const std::vector<std::set<std::string>> &symbols,
                           llvm::ArrayRef<llvm::SMLoc> locs, DiagnosticEngine &diags) {
  std::map<std::string, std::size_t> definedBy;
  bool ok = true;
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::set<std::size_t> reported; // one error for each earlier stencil
    for (const std::string &symbol : symbols[i]) {
      auto [it, inserted] = definedBy.emplace(symbol, i);
      if (inserted || !reported.insert(it->second).second) {
        continue;
      }
      const std::string &earlier = names[it->second];
      diags.error(i < locs.size() ? locs[i] : llvm::SMLoc(),
                  fmt::format("the generated code of stencil '{}' would define '{}', as that of "
                              "stencil '{}' does; rename one of the two stencils",
                              names[i], symbol, earlier));
      diags.note(it->second < locs.size() ? locs[it->second] : llvm::SMLoc(),
                 fmt::format("stencil '{}' is here", earlier));
      ok = false;
    }
  }
  return ok;
}

/// The same for one architecture's plans.
bool checkSymbolCollisions(const std::vector<Plan> &plans, llvm::ArrayRef<llvm::SMLoc> locs,
                           const CodeGenOptions &codegen, DiagnosticEngine &diags) {
  if (plans.size() < 2) {
    return true; // spares emitting the code once more
  }
  std::vector<std::string> names;
  std::vector<std::set<std::string>> symbols;
  for (const Plan &plan : plans) {
    names.push_back(plan.spec.name);
    symbols.push_back(generatedSymbols(plan, codegen));
  }
  return checkSymbolCollisions(names, symbols, locs, diags);
}

/// The same for a .cu of several architectures: `perArch[a]` the plans of
/// `archs[a]`, not yet renamed (stencil `a_sm_80` beside `a`, whose sm_80
/// plan is renamed `a_sm_80`, would define `a_sm_80_step` twice).
bool checkSymbolCollisions(const std::vector<std::vector<Plan>> &perArch,
                           llvm::ArrayRef<Arch> archs, const std::vector<std::string> &names,
                           llvm::ArrayRef<llvm::SMLoc> locs, const CodeGenOptions &codegen,
                           DiagnosticEngine &diags) {
  if (names.size() < 2) {
    return true;
  }
  std::vector<std::set<std::string>> symbols;
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::vector<Plan> plans;
    for (const std::vector<Plan> &arch : perArch) {
      plans.push_back(arch[i]);
    }
    symbols.push_back(generatedSymbols(plans, archs, codegen));
  }
  return checkSymbolCollisions(names, symbols, locs, diags);
}

} // namespace

namespace {

/// The plans of `specs` for one architecture, options.plan.target (an error
/// reported where a stencil cannot be planned as asked).
std::vector<Plan> planAll(const std::vector<StencilSpec> &specs, llvm::ArrayRef<llvm::SMLoc> locs,
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
    const BackendKind kind = plans[i].backend();
    const std::vector<std::string> ignored = ignoredPlanOptions(options, plans[i]);
    if (!ignored.empty() && !plans[i].spec.hasFields()) {
      diags.warning(Warning::IgnoredPlanOption, i < locs.size() ? locs[i] : llvm::SMLoc(),
                    fmt::format("--plan-option {} {} to {} kernels; stencil '{}' runs on {} "
                                "and ignores {}",
                                fmt::join(ignored, ", "), ignored.size() > 1 ? "apply" : "applies",
                                otherKernels(kind), plans[i].spec.name, unitsName(kind),
                                ignored.size() > 1 ? "them" : "it"));
    }
    const std::vector<std::string> form = ignoredByTensorForm(options, plans[i]);
    if (!form.empty()) {
      diags.warning(Warning::IgnoredPlanOption, i < locs.size() ? locs[i] : llvm::SMLoc(),
                    ignoredByTensorFormText(form, plans[i]));
    }
  }
  return plans;
}

/// The printed plans, a blank line between two.
std::string planText(const std::vector<Plan> &plans) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (i) {
      os << "\n";
    }
    printPlan(plans[i], os);
  }
  os.flush();
  return text;
}

/// Names the user chose reach the generated files' comments only escaped:
/// a newline or a "*/" in a file name must not end the comment.
void escapeSourceNames(std::vector<Plan> &plans) {
  for (Plan &plan : plans) {
    plan.spec.sourceFile = commentText(plan.spec.sourceFile);
  }
}

CodeGenOptions codeGenOptions(const BackendOptions &options) {
  CodeGenOptions codegen;
  codegen.inputFile = commentText(options.inputFile);
  codegen.headerInclude = options.headerInclude;
  codegen.compilerVersion = STENCILC_VERSION;
  return codegen;
}

/// The artefacts of --arch=sm_80,sm_90 (MultiArch.cpp): each architecture's
/// plans and header as for one, then the .cu and .h that hold them all.
Artefacts generateMultiArch(const std::vector<StencilSpec> &specs, llvm::ArrayRef<llvm::SMLoc> locs,
                            const BackendOptions &options, DiagnosticEngine &diags) {
  const std::vector<Arch> &archs = options.targets;
  std::vector<std::vector<Plan>> perArch;
  Artefacts artefacts;
  // Each architecture's remarks and warnings are its own (a plan may differ
  // by architecture); an error stops at the first that has it.
  for (Arch arch : archs) {
    BackendOptions one = options;
    one.plan.target = arch;
    perArch.push_back(planAll(specs, locs, one, diags));
    if (diags.hasErrors()) {
      return artefacts;
    }
  }
  const CodeGenOptions codegen = codeGenOptions(options);
  for (std::size_t a = 0; a < archs.size(); ++a) {
    artefacts.plan +=
        fmt::format("{}plans for {}:\n{}", a ? "\n" : "", keyword(archs[a]), planText(perArch[a]));
    escapeSourceNames(perArch[a]);
  }
  std::vector<std::string> names;
  for (const StencilSpec &spec : specs) {
    names.push_back(spec.name);
  }
  if (!checkSymbolCollisions(perArch, archs, names, locs, codegen, diags)) {
    return artefacts;
  }
  const MultiArchParts parts = multiArchParts(perArch, archs, codegen);
  artefacts.cuda = emitMultiArchCuda(parts.renamed, archs, parts.headers, codegen);
  artefacts.header = emitMultiArchHeader(parts.headers, archs, names);
  return artefacts;
}

} // namespace

Artefacts generateArtefacts(const std::vector<StencilSpec> &specs, llvm::ArrayRef<llvm::SMLoc> locs,
                            const BackendOptions &options, DiagnosticEngine &diags) {
  initializeAllBackends();
  if (options.targets.size() > 1) {
    return generateMultiArch(specs, locs, options, diags);
  }
  std::vector<Plan> plans = planAll(specs, locs, options, diags);
  Artefacts artefacts;
  if (diags.hasErrors()) {
    return artefacts;
  }
  artefacts.plan = planText(plans);
  escapeSourceNames(plans);
  const CodeGenOptions codegen = codeGenOptions(options);
  if (!checkSymbolCollisions(plans, locs, codegen, diags)) {
    return artefacts;
  }
  artefacts.cuda = emitCudaSource(plans, codegen);
  artefacts.header = emitHeader(plans, codegen);
  return artefacts;
}

} // namespace stencilc
