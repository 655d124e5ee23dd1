//===- SimtEmulator.h - Runs a simt Plan on the CPU as the kernel would -*- C++ -*-===//
//
// The CPU model of the simt kernel (stencilc/device/simt.cuh, with the FMAs
// of Simt/templates/simt.cu.tpl): block by block, plane by plane, the
// same plane window (with the boundary rule), the same queue of partial
// outputs and the same FMAs in the same order in the same arithmetic type
// (fp32 for fp32/tf32/fp16/bf16, fp64 for fp64), the same points stored.
// With explicit FMAs in the kernel this is bit for bit what the GPU computes.
// The unit tests compare it with a float64 stencil of any dimension.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Backends/Common/Emulation.h"
#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// One step of the simt `plan` (backend Simt) on `in` (element-type values)
/// into `out`, as the generated kernel computes it. Unwritten points keep
/// their value.
void emulateSimtStep(const Plan &plan, const GridND &in, GridND &out);

} // namespace stencilc
