//===- FieldsEmulator.h - A stencil of fields on the CPU ------------*- C++ -*-===//
//
// The CPU model of stencilc/device/fields.cuh (what the generated kernel of a
// stencil of fields computes, bit for bit: each coefficient rounded once to
// the arithmetic type, times its coefficient field's value with one
// rounding, one FMA a term in the terms' order, one rounding to the element
// type when stored) and the float64 reference it is held to.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "Backends/Simt/SimtEmulator.h"
#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// One step of the plan of a stencil of fields (plan.spec.hasFields()):
/// `fields` in the spec's declaration order (element-type values), `params`
/// in its parameter order. Points a step does not write keep their value.
void emulateFieldsStep(const Plan &plan, const std::vector<GridND> &fields,
                       const std::vector<double> &params, GridND &out);

/// One step of the spec of fields in float64, straight from its terms.
void referenceFieldsStepND(const StencilSpec &spec, const std::vector<GridND> &fields,
                           const std::vector<double> &params, GridND &out);

} // namespace stencilc
