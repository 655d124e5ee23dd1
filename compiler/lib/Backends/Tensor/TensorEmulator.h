//===- TensorEmulator.h - Runs a tensor-core Plan on the CPU as the kernel would -*- C++ -*-===//
//
// The emulator executes a tensor-core plan block by block and tile by tile:
// it fills each block's shared-memory window with the plan's boundary rule,
// rounds operands to the MMA input type, accumulates every MMA in the
// accumulator type and rounds the result to the element type, storing exactly
// the points the kernel stores. The unit tests compare it with a direct
// float64 stencil (referenceStep); that is how CI, which has no GPU, checks
// the decomposition of every shape, radius, precision and boundary.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <vector>

#include "llvm/ADT/STLFunctionalExtras.h"

#include "Backends/Common/Emulation.h"
#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// A 2D grid of values, row-major, the contiguous axis last. A 1D line of n
/// points is the grid of one row (ny = 1, nx = n).
struct Grid2D {
  int ny = 0;
  int nx = 0;
  std::vector<double> values;

  Grid2D() = default;
  Grid2D(int ny, int nx, double fill = 0.0) : ny(ny), nx(nx), values(std::size_t(ny) * nx, fill) {}
  double &at(long long y, long long x) { return values[std::size_t(y * nx + x)]; }
  double at(long long y, long long x) const { return values[std::size_t(y * nx + x)]; }
};

/// Whether one step writes the point (y, x): the interior for `fixed`,
/// every point otherwise (for a 1D spec: x alone, on the grid of one row).
bool stepWritesPoint(const StencilSpec &spec, int ny, int nx, long long y, long long x);

/// The value a read of (y, x) sees under the spec's boundary rule; (y, x)
/// may lie outside the grid. For `fixed`, reads outside the grid (which only
/// ring outputs make) see 0.
double boundaryRead(const StencilSpec &spec, const Grid2D &in, long long y, long long x);

/// One step of `plan` on `in` (values of the element type; see
/// roundToStorage) into `out`, as the generated kernel computes it. Points
/// the kernel does not write keep their value in `out`.
void emulateStep(const Plan &plan, const Grid2D &in, Grid2D &out);

/// The accumulators of every output of the 1D or 2D `plan` on `in` (a line:
/// one row), before the rounding to the element type: store(y, x, value)
/// for each point of the grid (written or not; the caller decides). For a stencil of fields the
/// plan's gemms hold one group's parameter matrices.
void emulateAccumulators(const Plan &plan, const Grid2D &in,
                         llvm::function_ref<void(long long, long long, double)> store);

/// One step of the 3D `plan` on `in` (a 3D grid of element-type values) into
/// `out`, as the generated kernel computes it: plane by plane, each block's
/// window holding the 2r + 1 input planes around the output plane.
void emulateStep3D(const Plan &plan, const GridND &in, GridND &out);

/// The accumulators of every output of the 3D `plan` on `in`, before the
/// rounding to the element type: store({z, y, x}, value) for each point of
/// the grid (written or not; the caller decides). For a stencil of fields
/// the plan's gemms hold one group's parameter matrices.
void emulateAccumulators3D(
    const Plan &plan, const GridND &in,
    llvm::function_ref<void(const std::array<long long, 3> &, double)> store);

/// NAME_run of `steps` steps of `plan` on `a` (element-type values; the
/// result replaces them), as the generated code computes it: for a plan with
/// a composed pass (Schedule::composed), passes of T steps (the composed
/// stencil's step, then the band: every point within T·r of an edge, T
/// single steps with the CUDA-core band kernel's FMAs) and single steps for
/// the remainder; otherwise `steps` single steps (TensorFusionEmulator.cpp).
void emulateRun(const Plan &plan, Grid2D &a, int steps);

/// One step of the spec in float64, straight from the coefficients, writing
/// the same points.
void referenceStep(const StencilSpec &spec, const Grid2D &in, Grid2D &out);

/// ||result - reference|| / ||reference|| over the points a step writes.
double relativeL2Error(const StencilSpec &spec, const Grid2D &result, const Grid2D &reference);

} // namespace stencilc
