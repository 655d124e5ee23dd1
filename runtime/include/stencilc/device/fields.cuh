// stencilc/device/fields.cuh - the CUDA-core kernel of a stencil of fields
// (docs/language.md, "Fields, coefficient fields and parameters"): one
// thread per output point (for a 3D stencil that reads along z, a column of
// up to kChunkZ points),
// every term a fused multiply-add of a read of an input field, its
// coefficient (folded by the host per call) and, where the term has one, a
// coefficient field's read.
//
// With a column, where every read of a point lies inside the grid (every point
// written, for a fixed boundary), the reads skip the boundary rule and take
// the point's linear index plus a constant offset; the others read through
// it. Otherwise every read goes through the boundary rule.
//
// A generated stencil gives a traits struct S with
//   using Element, Compute, Boundary;   the element type, float or double,
//                                       a policy of boundary.cuh
//   static constexpr int kFields, kTermCount;
//   static constexpr FieldTerm kTerms[kTermCount];
//   static constexpr int kThreadsX, kThreadsY;   the block
//   static constexpr int kChunkZ;                points a thread steps along z
//                                                (1, or 8 for a 3D stencil
//                                                that reads along z)
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

/// The farthest read of any term (input or coefficient field) along an
/// axis: 0 for z, 1 for y, 2 for x.
template <class S> __host__ __device__ constexpr int reach(int axis) {
  int r = 0;
  for (int i = 0; i < S::kTermCount; ++i) {
    const FieldTerm &t = S::kTerms[i];
    const int d = axis == 0 ? t.dz : axis == 1 ? t.dy : t.dx;
    const int c = axis == 0 ? t.cz : axis == 1 ? t.cy : t.cx;
    r = d < 0 ? (-d > r ? -d : r) : (d > r ? d : r);
    if (t.coefField >= 0) {
      r = c < 0 ? (-c > r ? -c : r) : (c > r ? c : r);
    }
  }
  return r;
}

/// acc + term I at (z, y, x): its coefficient times the coefficient field's
/// read (one rounding), then one FMA with the input read. Every read goes
/// through the boundary rule.
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

/// The same term where every read of the point is inside the grid: a read
/// at the point's linear index plus the offset's, no boundary rule. The
/// same operations in the same order, so the same result.
template <class S, int I>
__device__ __forceinline__ typename S::Compute
addInnerTerm(const Args<S> &args, typename S::Compute acc, long long at, long long plane, int nx) {
  constexpr FieldTerm t = S::kTerms[I];
  typename S::Compute k = args.k[I];
  if constexpr (t.coefField >= 0) {
    const typename S::Element *__restrict__ c = args.field[t.coefField];
    k = k * toCompute(c[at + t.cz * plane + t.cy * static_cast<long long>(nx) + t.cx]);
  }
  const typename S::Element *__restrict__ f = args.field[t.field];
  return madd(k, toCompute(f[at + t.dz * plane + t.dy * static_cast<long long>(nx) + t.dx]), acc);
}

template <class S, int... I>
__device__ __forceinline__ typename S::Compute sumTerms(const Args<S> &args, long long z,
                                                        long long y, long long x, int nz, int ny,
                                                        int nx, std::integer_sequence<int, I...>) {
  typename S::Compute acc = 0;
  ((acc = addTerm<S, I>(args, acc, z, y, x, nz, ny, nx)), ...);
  return acc;
}

template <class S, int... I>
__device__ __forceinline__ typename S::Compute sumInnerTerms(const Args<S> &args, long long at,
                                                             long long plane, int nx,
                                                             std::integer_sequence<int, I...>) {
  typename S::Compute acc = 0;
  ((acc = addInnerTerm<S, I>(args, acc, at, plane, nx)), ...);
  return acc;
}

/// The planes of this block's chunk: [first, last).
template <class S>
__device__ __forceinline__ void chunkOf(int nz, long long &first, long long &last) {
  first = static_cast<long long>(blockIdx.z) * S::kChunkZ;
  last = first + S::kChunkZ < nz ? first + S::kChunkZ : nz;
}

/// One step: every point of the grid (the interior for a fixed boundary).
/// A stencil that reads along z: a thread a column of up to kChunkZ points,
/// read directly where every read of the point is inside the grid. Any
/// other: a thread a point, every read through the boundary rule (in 2D this
/// measured faster than the direct reads, whose second path costs
/// registers: docs/performance.md, "Stencils of fields").
template <class S>
__device__ __forceinline__ void step(const Args<S> &args, typename S::Element *__restrict__ out,
                                     int nz, int ny, int nx) {
  const long long x = static_cast<long long>(blockIdx.x) * S::kThreadsX + threadIdx.x;
  const long long y = static_cast<long long>(blockIdx.y) * S::kThreadsY + threadIdx.y;
  constexpr auto terms = std::make_integer_sequence<int, S::kTermCount>();
  if constexpr (S::kChunkZ == 1) {
    const long long z = blockIdx.z;
    if (x >= nx || y >= ny || x < S::kRingX || x >= nx - S::kRingX || y < S::kRingY ||
        y >= ny - S::kRingY || z < S::kRingZ || z >= nz - S::kRingZ) {
      return;
    }
    const typename S::Compute acc = sumTerms<S>(args, z, y, x, nz, ny, nx, terms);
    out[(z * ny + y) * nx + x] = toElement<typename S::Element>(acc);
  } else {
    if (x >= nx || y >= ny || x < S::kRingX || x >= nx - S::kRingX || y < S::kRingY ||
        y >= ny - S::kRingY) {
      return;
    }
    constexpr int rz = reach<S>(0), ry = reach<S>(1), rx = reach<S>(2);
    const bool innerXY = x >= rx && x < nx - rx && y >= ry && y < ny - ry;
    const long long plane = static_cast<long long>(ny) * nx;
    long long first, last;
    chunkOf<S>(nz, first, last);
    for (long long z = first; z < last; ++z) {
      if (z < S::kRingZ || z >= nz - S::kRingZ) {
        continue;
      }
      const long long at = z * plane + y * nx + x;
      const typename S::Compute acc = innerXY && z >= rz && z < nz - rz
                                          ? sumInnerTerms<S>(args, at, plane, nx, terms)
                                          : sumTerms<S>(args, z, y, x, nz, ny, nx, terms);
      out[at] = toElement<typename S::Element>(acc);
    }
  }
}

/// Copies the points of `from` that a fixed step does not write (its ring)
/// into `to`.
template <class S>
__device__ __forceinline__ void copyRing(const typename S::Element *__restrict__ from,
                                         typename S::Element *__restrict__ to, int nz, int ny,
                                         int nx) {
  const long long x = static_cast<long long>(blockIdx.x) * S::kThreadsX + threadIdx.x;
  const long long y = static_cast<long long>(blockIdx.y) * S::kThreadsY + threadIdx.y;
  if (x >= nx || y >= ny) {
    return;
  }
  long long first, last;
  chunkOf<S>(nz, first, last);
  for (long long z = first; z < last; ++z) {
    const bool interior = x >= S::kRingX && x < nx - S::kRingX && y >= S::kRingY &&
                          y < ny - S::kRingY && z >= S::kRingZ && z < nz - S::kRingZ;
    if (!interior) {
      to[(z * ny + y) * nx + x] = from[(z * ny + y) * nx + x];
    }
  }
}

/// The launch of a kernel over the grid, a thread a point or (3D) a column
/// of up to kChunkZ points; false (launching nothing) where the grid needs more than CUDA's
/// 65535 blocks along y or z.
template <class S> bool launchGrid(int nz, int ny, int nx, dim3 &grid, dim3 &block) {
  block = dim3(S::kThreadsX, S::kThreadsY, 1);
  const long long blocksY = (static_cast<long long>(ny) + S::kThreadsY - 1) / S::kThreadsY;
  const long long blocksZ = (static_cast<long long>(nz) + S::kChunkZ - 1) / S::kChunkZ;
  if (blocksY > 65535 || blocksZ > 65535) {
    return false;
  }
  grid = dim3(static_cast<unsigned>((static_cast<long long>(nx) + S::kThreadsX - 1) / S::kThreadsX),
              static_cast<unsigned>(blocksY), static_cast<unsigned>(blocksZ));
  return true;
}

} // namespace fields
} // namespace device
} // namespace stencilc
