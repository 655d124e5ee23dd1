//===- Backend.h - The driver's door to planning and code generation -*- C++ -*-===//
//
// The driver parses and checks the input itself; everything after the
// StencilSpec (planning, CUDA and header emission) goes through this one call
// so the driver stays a straight list of stages.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/SMLoc.h"

#include "stencilc/Diagnostics.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"

namespace stencilc {

enum class BackendRequest { Auto, Tensor, Simt };

struct BackendOptions {
  BackendRequest backend = BackendRequest::Auto;
  /// The target architecture and the free parameters of the plans set by
  /// --plan-option (0: the planner's choice).
  PlanOptions plan;
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

} // namespace stencilc
