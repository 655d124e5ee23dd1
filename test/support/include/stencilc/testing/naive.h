// naive.h - a plain one-point-per-thread GPU stencil driven by a
// stencilc_stencil_info: the benchmark's baseline, and a known-good stand-in
// for generated kernels when testing the harness.
//
// Each thread computes one output point as a loop over the stencil's points;
// the coefficients (rounded once to the accumulator type: float for
// fp16/bf16/tf32/fp32, double for fp64) and the points' offsets travel in
// the kernel's parameters, so they sit in the constant bank. Boundaries are
// those of docs/generated-code.md.
#pragma once

#include <cuda_runtime_api.h>

#include "stencilc/runtime/stencil_info.h"
#include "stencilc/testing/extents.h"

namespace stencilc {

/// The most points the naive kernel takes (a 3D box of radius 4).
inline constexpr int kNaiveMaxPoints = 729;

/// One step, out = stencil(in), with NAME_step's argument checks: returns
/// cudaErrorInvalidValue (launching nothing) for bad arguments or a stencil
/// of more than kNaiveMaxPoints points, else the launch's status. T is the
/// storage type of info.precision.
template <class T>
cudaError_t naiveStep(const stencilc_stencil_info &info, const T *in, T *out, const Extents &e,
                      cudaStream_t stream);

/// `steps` steps ping-ponging between a and b, the result left in a, with
/// NAME_run's semantics (b's ring made equal to a's first when fixed).
template <class T>
cudaError_t naiveRun(const stencilc_stencil_info &info, T *a, T *b, const Extents &e, int steps,
                     cudaStream_t stream);

} // namespace stencilc
