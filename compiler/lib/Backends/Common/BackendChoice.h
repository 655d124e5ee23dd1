//===- BackendChoice.h - What --backend=auto chooses ------------*- C++ -*-===//
//
// The tensor-core path where it can run and is measured faster
// (BackendTable.inc), the CUDA-core path everywhere else, with the reason
// written into the plan.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string_view>

#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Tensor/TensorPlanner.h"
#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// A measured comparison of the two backends for one key of the table.
struct BackendMeasurement {
  double tensorGStencils = 0;
  double simtGStencils = 0;
};

/// The table entry for `spec` on `arch`, if the benchmark measured it.
std::optional<BackendMeasurement> measuredBackends(const StencilSpec &spec, std::string_view arch);

/// What `--backend=auto` plans for `spec`: the tensor-core plan when that
/// path can take the stencil and is measured (or, without a measurement,
/// expected by the documented rule) to be faster, else the simt plan. The
/// plan's `choice` says which and why.
Plan planAuto(const StencilSpec &spec, const PlannerOptions &options = {},
              const SimtOptions &simt = {});

} // namespace stencilc
