//===- TensorFields.h - Stencils of fields on tensor cores -------*- C++ -*-===//
//
// The tensor-core plan of a stencil of fields (docs/design.md, "Stencils of
// fields on tensor cores"): the terms that read an input field at its
// neighbours become slice GEMMs over that field's window, one accumulator
// group per such field and coefficient field read at the output point; the
// rest are point terms of the epilogue. The
// parameter matrices hold the terms' coefficients, which the host code folds
// from the run-time parameters on every call.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "Backends/Common/Emulation.h"
#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// The bytes a launch passes by value besides the parameter matrices: the
/// field pointers and the point terms' coefficients, bounded by CUDA's
/// 32764 bytes of kernel parameters (CUDA 12.1, sm_70 and newer).
inline constexpr int MaxKernelParamBytes = 32000;

/// Plans a stencil of fields (spec.hasFields()) on tensor cores, or says why
/// they cannot take it (naming the term where it is a term's form).
PlanOrRefusal planTensorFields(const StencilSpec &spec, const PlanOptions &options = {});

/// A term's coefficient (a double, from NAME_coefficients) as a parameter
/// matrix holds it: fp16 and bf16 rounded once to nearest even, tf32 first
/// to float then to tf32 as the kernel rounds its inputs, fp64 as is.
double roundFieldsParam(double coefficient, Precision p);

/// Every group's parameter matrices for these parameter values, group after
/// group, each the plan's slice GEMMs in order: what the generated host code
/// uploads with the launch.
std::vector<double> fieldsParamMatrices(const Plan &plan, const std::vector<double> &params);

/// One step of a tensor-core plan of fields on the CPU, as the generated
/// kernel computes it (TensorFieldsEmulator.cpp): each group's slice GEMMs on
/// the window of its field (TensorEmulator.cpp's model of the MMAs),
/// then the epilogue in the accumulator type. `fields` in declaration order
/// (element-type values, 1D or 2D grids), `params` in parameter order; points a
/// step does not write keep their value in `out`.
void emulateTensorFieldsStep(const Plan &plan, const std::vector<GridND> &fields,
                             const std::vector<double> &params, GridND &out);

} // namespace stencilc
