//===- FieldsPlanner.cpp - The CUDA-core plan of a stencil of fields --------===//
//
// A stencil of fields (several input fields, coefficient fields, run-time
// parameters; docs/language.md) runs on CUDA cores, one thread a point
// (stencilc/device/fields.cuh), one step a launch: the fused kernels do not
// take it yet, and the tensor cores only where asked (Tensor/TensorFields.cpp).
// This is its plan and its `--emit=plan` text.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtPlanner.h"

#include <algorithm>

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/PlanText.h"

namespace stencilc {

Plan planFields(const StencilSpec &spec, const PlanOptions &options) {
  Plan plan;
  plan.spec = spec;
  plan.target = options.target;
  SimtPlan sp;
  sp.compute = spec.precision == Precision::FP64 ? Precision::FP64 : Precision::FP32;
  // One thread a point: a 1D grid in rows of 256, otherwise 32 x 8 points.
  sp.tileX = spec.dims == 1 ? 256 : 32;
  sp.tileY = spec.dims == 1 ? 1 : 8;
  sp.threads = sp.tileX * sp.tileY;
  // A 3D stencil that reads along z: a thread a column of 8 points, so that
  // the planes above and below stay in L1 between them (docs/performance.md,
  // "Stencils of fields").
  auto readsZ = [](const FieldTerm &t) {
    return t.offset.d[0] != 0 || (t.coefficientField >= 0 && t.coefficientOffset.d[0] != 0);
  };
  sp.chunkZ =
      spec.dims == 3 && std::any_of(spec.fieldTerms.begin(), spec.fieldTerms.end(), readsZ) ? 8 : 1;
  sp.radiusX = spec.radius;
  sp.radiusY = spec.dims >= 2 ? spec.radius : 0;
  sp.radiusZ = spec.dims == 3 ? spec.radius : 0;
  plan.kernel = sp;
  plan.schedule.fusedSteps = 1;
  plan.schedule.why = "a stencil of fields is not fused yet";
  plan.schedule.lowered = options.fusedSteps > 1;
  return plan;
}

void printFieldsPlanBody(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  std::string fields;
  for (const FieldDecl &f : spec.fields) {
    fields += fmt::format("{}{}{}", fields.empty() ? "" : ", ", f.name,
                          f.role == FieldRole::Coefficient ? " (coefficient)" : "");
  }
  os << "  fields     " << fields << "; " << elementTypeName(spec.precision) << " each\n";
  if (!spec.params.empty()) {
    std::string params;
    for (const std::string &p : spec.params) {
      params += (params.empty() ? "" : ", ") + p;
    }
    os << "  params     " << params
       << ": the coefficients that use them are evaluated in double on the host every call\n";
  }
  os << fmt::format("  arithmetic {} FMAs ({}), one a term; a term with a coefficient field "
                    "multiplies its coefficient by the field's value first (one rounding)\n",
                    keyword(sp.compute), sp.compute == Precision::FP64 ? "__fma_rn" : "__fmaf_rn");
  if (sp.chunkZ == 1) {
    os << fmt::format("  block      {} threads, one output each: {} x {} outputs "
                      "(stencilc/device/fields.cuh; every read through the boundary rule)\n",
                      sp.threads, sp.tileY, sp.tileX);
  } else {
    os << fmt::format("  block      {} threads, each a column of {} outputs along z: {} x {} x {} "
                      "outputs (stencilc/device/fields.cuh; a point whose reads are all inside "
                      "the grid reads them directly, the others through the boundary rule)\n",
                      sp.threads, sp.chunkZ, sp.chunkZ, sp.tileY, sp.tileX);
  }
  os << "  boundary   " << boundaryText(spec) << "\n";
  os << fmt::format("  terms      {}, coefficients rounded once to {}\n", spec.fieldTerms.size(),
                    keyword(sp.compute));
}

std::string fieldsThreadText(const SimtPlan &sp) {
  if (sp.chunkZ == 1) {
    return fmt::format("one thread a point in blocks of {} x {}", sp.tileY, sp.tileX);
  }
  return fmt::format("a thread a column of {} points along z, in blocks of {} x {} x {}", sp.chunkZ,
                     sp.chunkZ, sp.tileY, sp.tileX);
}

std::string summarizeFieldsPlan(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  return fmt::format("simt backend, a stencil of {} fields, {} arithmetic; {}; {} terms, one FMA "
                     "each",
                     plan.spec.fields.size(), keyword(sp.compute), fieldsThreadText(sp),
                     plan.spec.fieldTerms.size());
}

} // namespace stencilc
