//===- BackendChoice.h - What --backend=auto chooses ------------*- C++ -*-===//
//
// The tensor-core path where it can run and is measured faster
// (BackendTable.inc), the CUDA-core path everywhere else, with the reason
// written into the plan.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"
#include "stencilc/Target.h"

namespace stencilc {

/// A measured comparison of the two backends for one key of the table.
struct BackendMeasurement {
  double tensorGStencils = 0;
  double simtGStencils = 0;
};

/// The table entry for `spec` on `arch`, if the benchmark measured it.
std::optional<BackendMeasurement> measuredBackends(const StencilSpec &spec, Arch arch);

/// What `--backend=auto` plans for `spec`, given the tensor-core planner's
/// answer for it with the same options (planned once, by the caller): that
/// plan when the tensor cores can take the stencil and are measured (or,
/// without a measurement, expected by the documented rule) to be faster, else
/// the simt plan, planned here. The plan's `choice` says which and why.
Plan planAuto(const StencilSpec &spec, PlanOrRefusal tensor, const PlanOptions &options);
/// The same, planning the tensor-core answer itself.
Plan planAuto(const StencilSpec &spec, const PlanOptions &options = {});

/// Whether `--backend=auto` runs a stencil of fields on its tensor-core plan
/// (Tensor/TensorFields.cpp) rather than on CUDA cores: only the kinds the
/// H100 measured faster there (docs/performance.md, "Stencils of fields on
/// tensor cores"), none since the CUDA cores' chunk and plane kernels.
/// `why` says why not.
bool fieldsOnTensorCores(const Plan &tensor, std::string &why);

} // namespace stencilc
