//===- SimtPlanner.h - The CUDA-core plan -----------------------*- C++ -*-===//
//
// planSimt() plans the CUDA-core (simt) kernel of any stencil the language
// accepts. The choice between the backends (`--backend=auto`) is
// Backends/Common/BackendChoice.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// Plans the simt kernel of `spec`. Needs: nothing (every spec the front end
/// accepts). Guarantees: tileX is a multiple of vectorWidth and outputsX,
/// haloX a multiple of vectorWidth and >= radiusX, sharedBytes() within the
/// limit, and every (dz, dy, dx) with a non-zero coefficient in exactly one
/// slice term.
Plan planSimt(const StencilSpec &spec, const PlanOptions &options = {});

} // namespace stencilc
