// stencilc/device/fields.cuh - the CUDA-core kernel of a stencil of fields
// (docs/language.md, "Fields, coefficient fields and parameters"): one
// thread per output point, every term a fused multiply-add of a read of an
// input field, its coefficient (folded by the host per call) and, where the
// term has one, a coefficient field's read.
//
// A generated stencil gives a traits struct S with
//   using Element, Compute, Boundary;   the element type, float or double,
//                                       a policy of boundary.cuh
//   static constexpr int kFields, kTermCount;
//   static constexpr FieldTerm kTerms[kTermCount];
//   static constexpr int kThreadsX, kThreadsY;   the block
//   static constexpr int kRingZ, kRingY, kRingX; fixed: the ring not written
// and launches step<S> through launch<S>. Every grid is seen as
// nz x ny x nx (ny = nz = 1 in 1D, nz = 1 in 2D).
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "stencilc/device/boundary.cuh"
#include "stencilc/device/element.cuh"

namespace stencilc {
namespace device {
namespace fields {

/// One term: coefficient k[t] x (field coefField at (cz, cy, cx), when
/// coefField >= 0) x (input field `field` at (dz, dy, dx)).
struct FieldTerm {
  int field;
  int dz, dy, dx;
  int coefField;
  int cz, cy, cx;
};

/// What a launch passes by value: the fields in declaration order and the
/// terms' coefficients, rounded to the arithmetic type.
template <class S> struct Args {
  const typename S::Element *field[S::kFields];
  typename S::Compute k[S::kTermCount];
};

template <class S>
__device__ __forceinline__ typename S::Compute readField(const typename S::Element *__restrict__ f,
                                                         long long z, long long y, long long x,
                                                         int nz, int ny, int nx) {
  return toCompute(S::Boundary::read(f, z, y, x, nz, ny, nx));
}

/// acc + term I at (z, y, x): its coefficient times the coefficient field's
/// read (one rounding), then one FMA with the input read.
template <class S, int I>
__device__ __forceinline__ typename S::Compute addTerm(const Args<S> &args, typename S::Compute acc,
                                                       long long z, long long y, long long x,
                                                       int nz, int ny, int nx) {
  constexpr FieldTerm t = S::kTerms[I];
  typename S::Compute k = args.k[I];
  if constexpr (t.coefField >= 0) {
    k = k * readField<S>(args.field[t.coefField], z + t.cz, y + t.cy, x + t.cx, nz, ny, nx);
  }
  return madd(k, readField<S>(args.field[t.field], z + t.dz, y + t.dy, x + t.dx, nz, ny, nx), acc);
}

template <class S, int... I>
__device__ __forceinline__ typename S::Compute sumTerms(const Args<S> &args, long long z,
                                                        long long y, long long x, int nz, int ny,
                                                        int nx, std::integer_sequence<int, I...>) {
  typename S::Compute acc = 0;
  ((acc = addTerm<S, I>(args, acc, z, y, x, nz, ny, nx)), ...);
  return acc;
}

/// One step: every point of the grid (the interior for a fixed boundary).
template <class S>
__device__ __forceinline__ void step(const Args<S> &args, typename S::Element *__restrict__ out,
                                     int nz, int ny, int nx) {
  const long long x = static_cast<long long>(blockIdx.x) * S::kThreadsX + threadIdx.x;
  const long long y = static_cast<long long>(blockIdx.y) * S::kThreadsY + threadIdx.y;
  const long long z = blockIdx.z;
  if (x >= nx || y >= ny || x < S::kRingX || x >= nx - S::kRingX || y < S::kRingY ||
      y >= ny - S::kRingY || z < S::kRingZ || z >= nz - S::kRingZ) {
    return;
  }
  const typename S::Compute acc =
      sumTerms<S>(args, z, y, x, nz, ny, nx, std::make_integer_sequence<int, S::kTermCount>());
  out[(z * ny + y) * nx + x] = toElement<typename S::Element>(acc);
}

/// Copies the points of `from` that a fixed step does not write (its ring)
/// into `to`.
template <class S>
__device__ __forceinline__ void copyRing(const typename S::Element *__restrict__ from,
                                         typename S::Element *__restrict__ to, int nz, int ny,
                                         int nx) {
  const long long x = static_cast<long long>(blockIdx.x) * S::kThreadsX + threadIdx.x;
  const long long y = static_cast<long long>(blockIdx.y) * S::kThreadsY + threadIdx.y;
  const long long z = blockIdx.z;
  if (x >= nx || y >= ny) {
    return;
  }
  const bool interior = x >= S::kRingX && x < nx - S::kRingX && y >= S::kRingY &&
                        y < ny - S::kRingY && z >= S::kRingZ && z < nz - S::kRingZ;
  if (!interior) {
    to[(z * ny + y) * nx + x] = from[(z * ny + y) * nx + x];
  }
}

/// The launch of a kernel over the grid, one thread a point; false (launching
/// nothing) where the grid needs more than CUDA's 65535 blocks along y or z.
template <class S> bool launchGrid(int nz, int ny, int nx, dim3 &grid, dim3 &block) {
  block = dim3(S::kThreadsX, S::kThreadsY, 1);
  const long long blocksY = (static_cast<long long>(ny) + S::kThreadsY - 1) / S::kThreadsY;
  if (blocksY > 65535 || nz > 65535) {
    return false;
  }
  grid = dim3(static_cast<unsigned>((static_cast<long long>(nx) + S::kThreadsX - 1) / S::kThreadsX),
              static_cast<unsigned>(blocksY), static_cast<unsigned>(nz));
  return true;
}

} // namespace fields
} // namespace device
} // namespace stencilc
