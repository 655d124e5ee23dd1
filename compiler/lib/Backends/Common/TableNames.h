//===- TableNames.h - Short names for the measured tables' entries -*- C++ -*-===//
//
// BackendTable.inc and TunedPlans.inc are written by scripts from benchmark
// output; their entries use these names. Include inside the namespace that
// includes the table.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc::table {

constexpr Shape Star = Shape::Star;
constexpr Shape Box = Shape::Box;
constexpr Precision FP16 = Precision::FP16;
constexpr Precision BF16 = Precision::BF16;
constexpr Precision TF32 = Precision::TF32;
constexpr Precision FP32 = Precision::FP32;
constexpr Precision FP64 = Precision::FP64;
constexpr BackendKind Tensor = BackendKind::Tensor;
constexpr BackendKind Simt = BackendKind::Simt;

} // namespace stencilc::table
