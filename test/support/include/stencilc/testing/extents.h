// extents.h - the sizes of a grid, as the generated API takes them, and the
// same sizes seen as a 3D grid (leading axes of size 1).
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

#include "stencilc/runtime/stencil_info.h"

namespace stencilc {

/// Sizes in index order, outermost first, exactly as NAME_step takes them:
/// 1D (nx), 2D (ny, nx), 3D (nz, ny, nx).
struct Extents {
  int dims = 0;
  int n[3] = {0, 0, 0};

  static Extents of1D(int nx) { return {1, {nx, 0, 0}}; }
  static Extents of2D(int ny, int nx) { return {2, {ny, nx, 0}}; }
  static Extents of3D(int nz, int ny, int nx) { return {3, {nz, ny, nx}}; }

  /// Size along axis a of the 3D view (0 = z, 1 = y, 2 = x); 1 for the
  /// axes the grid does not have.
  long long axis3(int a) const { return a < 3 - dims ? 1 : n[a - (3 - dims)]; }
  long long nz() const { return axis3(0); }
  long long ny() const { return axis3(1); }
  long long nx() const { return axis3(2); }
  std::size_t points() const { return static_cast<std::size_t>(nz() * ny() * nx()); }
  /// "4096x4096" style.
  std::string str() const;
  /// The same grid: rank and sizes.
  bool operator==(const Extents &o) const {
    return dims == o.dims && n[0] == o.n[0] && n[1] == o.n[1] && n[2] == o.n[2];
  }
};

/// An offset of a stencil point in the 3D view: {dz, dy, dx}.
struct Offset3 {
  int d[3];
};

/// The offset of `info.points[k]` in the 3D view (info offsets are in index
/// order with unused trailing components zero).
Offset3 offset3(const stencilc_stencil_info &info, int k);

/// Width of the fixed ring along each 3D axis: the radius on the grid's own
/// axes, 0 on the padding axes. All zero unless the boundary is fixed.
void ringWidth3(const stencilc_stencil_info &info, int width[3]);

/// Number of points a step writes: the interior for `boundary fixed`, every
/// point otherwise.
std::size_t writtenPoints(const stencilc_stencil_info &info, const Extents &e);

/// The smallest size along an axis the contract accepts: 2r+1 for fixed, 1
/// otherwise.
int minimumSize(const stencilc_stencil_info &info);

/// The argument checks every NAME_step / NAME_run makes (docs/generated-code.md):
/// cudaErrorInvalidValue for a size below minimumSize, a null pointer, in
/// and out overlapping (grids of `elementSize`-byte elements that share a
/// byte), or negative steps; cudaSuccess otherwise. Pass steps = 0 for a
/// step.
cudaError_t validateArguments(const stencilc_stencil_info &info, const void *in, const void *out,
                              const Extents &e, int steps, std::size_t elementSize);

} // namespace stencilc
