//===- Pipeline.h - The driver's door to planning and code generation -*- C++ -*-===//
//
// The driver parses and checks the input itself; everything after the
// StencilSpec (planning, CUDA and header emission) goes through this one call
// so the driver stays a straight list of stages.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include "stencilc/Diagnostics.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"
#include "stencilc/Target.h"

namespace stencilc {

/// What --backend asks for: `auto` (the compiler's choice per stencil) or one
/// backend of Backends.def, by the same name.
enum class BackendRequest {
  Auto,
#define STENCILC_BACKEND(Enumerator, ...) Enumerator,
#include "stencilc/Backends.def"
};
/// Registers every backend of Backends.def (Backends/Common/Backend.h);
/// generateArtefacts calls it, and so must any other user of a backend.
/// Thread-safe, and once is enough.
void initializeAllBackends();

/// The backend a request names, or nothing for `auto`.
std::optional<BackendKind> requestedBackend(BackendRequest request);
/// The request --backend=`word` makes ("auto", "tensor", "simt"), if any.
std::optional<BackendRequest> parseBackendRequest(std::string_view word);

struct BackendOptions {
  BackendRequest backend = BackendRequest::Auto;
  /// The target architecture and the free parameters of the plans set by
  /// --plan-option (0: the planner's choice).
  PlanOptions plan;
  /// A list --arch gave (two or more, oldest first): the .cu holds a plan
  /// of each stencil for each, plan.target being the newest. Empty for
  /// one architecture, plan.target.
  std::vector<Arch> targets;
  /// The --plan-option names given, in the order given, so that a stencil
  /// planned on a backend that lacks one can say it ignores it.
  std::vector<std::string> planOptionsGiven;
  /// The input file as given on the command line (for comments).
  std::string inputFile;
  /// The file name the .cu should #include for its header.
  std::string headerInclude;
};

/// The printed plan, the CUDA source and the header for all stencils of one
/// input file.
struct Artefacts {
  std::string plan;
  std::string cuda;
  std::string header;
};

/// Plans and generates code for `specs` (locs[i] is where specs[i] was
/// defined, for diagnostics). Reports problems through `diags`; the artefacts
/// are meaningful only when no error was reported.
Artefacts generateArtefacts(const std::vector<StencilSpec> &specs, llvm::ArrayRef<llvm::SMLoc> locs,
                            const BackendOptions &options, DiagnosticEngine &diags);

/// The --plan-option names, of one backend's plans or (`lastJoin` before the
/// last) of all (PlanOptionText.cpp).
std::string planOptionNames(std::string_view lastJoin, std::optional<BackendKind> backend);

/// A --plan-option that takes a word, not an integer (so not a line of
/// PlanOptions.def): lowrank, arith, mma. PlanOptionText.cpp's table holds
/// each one's words and the PlanOptions field they set.
struct WordPlanOption {
  std::string_view name;
  BackendKind backend; ///< the backend whose plans read it
  std::string_view help;
};

/// The word-valued --plan-option of a name, or null.
const WordPlanOption *findWordPlanOption(std::string_view name);

/// Their lines of --help, after the lines of PlanOptions.def.
std::string wordPlanOptionHelp();

/// The values a --plan-option takes: "an integer from 1 to 16".
std::string planOptionRange(const PlanOptionInfo &o);

/// Applies one --plan-option "name=value" to `options`; returns what is
/// wrong (an unknown name, a value out of range), or nothing.
std::optional<std::string> applyPlanOption(llvm::StringRef option, BackendOptions &options);

} // namespace stencilc
