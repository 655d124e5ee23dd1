//===- TensorCompose.h - T steps of a stencil as one stencil ----*- C++ -*-===//
//
// T steps of a linear constant-coefficient stencil are one stencil of radius
// T·r whose coefficients are the T-fold convolution of the stencil's own.
// The tensor backend's fused plans (issue 19, item 4, "the composed
// stencil") run that stencil on interior tiles; docs/design.md, "Fused steps
// on tensor cores".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Spec.h"

namespace stencilc {

/// The stencil of `steps` (>= 1) steps of `spec`: same name, dims,
/// precision and boundary; shape box (a composed star reads off the axes)
/// except in 1D. Each coefficient is the exact convolution of spec's
/// coefficients (as doubles; integer arithmetic, no rounding) rounded once
/// to double: the nearest double, ties to even (two roundings only where
/// that double is subnormal). Offsets whose coefficient is zero (an exact
/// cancellation, or below the smallest double) are left out, and the radius
/// is the largest offset left: steps·r unless the outermost ones cancel.
StencilSpec composeSteps(const StencilSpec &spec, int steps);

} // namespace stencilc
