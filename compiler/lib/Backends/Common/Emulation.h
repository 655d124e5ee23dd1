//===- Emulation.h - What every backend's CPU model of its kernels shares -*- C++ -*-===//
//
// The grids the emulators run on, the boundary rule as the kernels read it
// (Boundaries.def, stencilc/runtime/boundary_index.h), the fused
// multiply-add in the kernels' arithmetic type, and the float64 reference
// the unit tests hold every backend's emulator to.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <vector>

#include "llvm/ADT/STLFunctionalExtras.h"

#include "stencilc/Spec.h"

namespace stencilc {

struct Plan;

/// A grid of 1, 2 or 3 dimensions, row-major, the contiguous axis last;
/// extents in index order (outermost first), only the first `dims` used.
struct GridND {
  int dims = 1;
  std::array<int, 3> n{1, 1, 1};
  std::vector<double> values;

  GridND() = default;
  GridND(int dims, std::array<int, 3> extents, double fill = 0.0);
  std::size_t points() const { return values.size(); }
  /// The linear index of a point given in index order.
  std::size_t index(const std::array<long long, 3> &i) const;
  double &at(const std::array<long long, 3> &i) { return values[index(i)]; }
  double at(const std::array<long long, 3> &i) const { return values[index(i)]; }
};

/// c * v + acc as one fused multiply-add rounded to `compute` (FP64, or FP32
/// for every other precision), as the kernels' __fma_rn / __fmaf_rn.
double multiplyAdd(double c, double v, double acc, Precision compute);

/// c * v + acc as one fused multiply-add of three fp16 or bf16 values
/// (`element`) rounded once to `element`, to nearest even, as the packed
/// kernels' __hfma2 (gradual underflow, overflow to infinity).
double packedMultiplyAdd(double c, double v, double acc, Precision element);

/// `value` rounded once to fp16 or bf16 (`element`), to nearest even: what
/// roundToStorage gives, without APFloat (the packed emulation rounds every
/// operation).
double roundToSixteenBit(double value, Precision element);

/// What a read outside the grid sees under the spec's boundary rule: 0
/// (fixed: only ring outputs read there), the constant, or (periodic, clamp,
/// mirror) folded(), the read of the point foldIndex puts on the grid.
double readOutside(const StencilSpec &spec, llvm::function_ref<double()> folded);

/// Where a read at `index` of an axis of `size` points lands under the
/// spec's boundary (periodic, clamp, mirror: stencilc_fold_index).
long long foldIndex(const StencilSpec &spec, long long index, long long size);

/// The value a read of point `i` (index order, possibly outside the grid)
/// sees under the spec's boundary rule.
double boundaryReadND(const StencilSpec &spec, const GridND &in, std::array<long long, 3> i);

/// Whether one step writes the point: the interior for `fixed`, all else.
bool stepWritesPointND(const StencilSpec &spec, const GridND &grid,
                       const std::array<long long, 3> &i);

/// Calls `fn(p)` for every point `p` one step writes (stepWritesPointND), in
/// index order.
template <typename Fn>
void forEachWrittenPoint(const StencilSpec &spec, const GridND &grid, Fn fn) {
  for (long long a = 0; a < grid.n[0]; ++a) {
    for (long long b = 0; b < grid.n[1]; ++b) {
      for (long long c = 0; c < grid.n[2]; ++c) {
        const std::array<long long, 3> p{a, b, c};
        if (stepWritesPointND(spec, grid, p)) {
          fn(p);
        }
      }
    }
  }
}

/// One step of the spec in float64, straight from the coefficients.
void referenceStepND(const StencilSpec &spec, const GridND &in, GridND &out);

/// ||result - reference|| / ||reference|| over the points a step writes.
double relativeL2ErrorND(const StencilSpec &spec, const GridND &result, const GridND &reference);

/// The parameters NAME_run of a stencil of fields takes, in the spec's
/// order: a constant parameter's one value, a per-step parameter's `steps`
/// values (entry s its value during step s, from 0).
using RunParams = std::vector<std::vector<double>>;

/// The parameters' values during step `step` (from 0), as NAME_step takes
/// them.
std::vector<double> paramsOfStep(const StencilSpec &spec, const RunParams &params, int step);

/// NAME_run of `steps` steps of a stencil of fields on the CPU, as the
/// generated host code runs it (Common/templates/fields_host.cu.tpl): the
/// ring copies of boundary fixed, then one step a launch by the plan's
/// backend's emulator (Backend::emulateFieldsStep) with that step's
/// parameters, the buffers rotating. `fields` (element-type values, in
/// declaration order) are left as NAME_run leaves them: the stepped field
/// holds the newest level and, with time levels, the previous field the one
/// before.
/// With `receivers` (`record u;`), also the records NAME_run writes: after
/// step s (from 0), records[s * count + k] is the level that step wrote at
/// point k (a quiet NaN for a point outside the grid or on the ring of
/// boundary fixed, as the gather kernel of stencilc/device/receivers.cuh
/// records it).
struct RunReceivers {
  /// dims ints a point, in index order, as NAME_run's `receivers`.
  std::vector<int> points;
  /// Filled by emulateFieldsRun: steps x (points.size() / dims).
  std::vector<double> records;
};

/// With `sources` (`source u;`), step s adds amplitudes[s * count + k] to
/// the level it wrote at point k, as sources.cuh's withSource: rounded to
/// the arithmetic type, added, rounded to the element type, in the list's
/// order. NAME_run refuses a point a step does not write; the model skips it.
struct RunSources {
  /// dims ints a point, in index order, as NAME_run's `sources`.
  std::vector<int> points;
  /// steps x (points.size() / dims).
  std::vector<double> amplitudes;
};

void emulateFieldsRun(const Plan &plan, std::vector<GridND> &fields, const RunParams &params,
                      int steps, RunReceivers *receivers = nullptr,
                      const RunSources *sources = nullptr);

} // namespace stencilc
