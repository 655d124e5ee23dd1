// stencilc/device/range.cuh - the outermost indices a pass stores:
// NAME_pass_range's [first, first + count) (docs/generated-code.md). The
// CUDA-core kernels of 2D and 3D take it along the axis they stream (rows
// in 2D, planes in 3D): their blocks split the range instead of the whole
// axis, and read the grid wherever the steps reach, its edges (and its
// boundary rule) where they always are.
#pragma once

namespace stencilc {
namespace device {

/// Outermost indices [begin, end) of the grid, 0 <= begin < end <= n.
struct OuterRange {
  int begin, end;
  __host__ __device__ constexpr int count() const { return end - begin; }
  /// Whether it is the whole axis of n indices.
  __host__ __device__ constexpr bool whole(int n) const { return begin == 0 && end == n; }
};

} // namespace device
} // namespace stencilc
