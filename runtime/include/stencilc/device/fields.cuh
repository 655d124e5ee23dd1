// stencilc/device/fields.cuh - the CUDA-core kernel of a stencil of fields
// (docs/language.md, "Fields, coefficient fields and parameters"): a thread
// a chunk of consecutive outputs along the outermost axis (z in 3D, y in
// 2D), every term a fused multiply-add of a read of an input field, its
// coefficient (folded by the host per call) and, where the term has one, a
// coefficient field's read.
//
// A chunk whose outputs are all written and whose reads all lie inside the
// grid reads directly (the point's linear index plus a constant offset),
// its outputs unrolled so that their loads are in flight together and the
// points two outputs share are loaded once; a chunk at the grid's edges
// goes output by output, every read through the boundary rule. Both give
// the same result: the same operations in the same order.
//
// A generated stencil gives a traits struct S with
//   using Element, Compute, Boundary;   the element type, float or double,
//                                       a policy of boundary.cuh
//   static constexpr int kFields, kTermCount;
//   static constexpr FieldTerm kTerms[kTermCount];
//   static constexpr int kThreadsX, kThreadsY;   the block (threads along x
//                                                and along the other axis)
//   static constexpr int kChunkZ;                outputs a thread computes
//   static constexpr int kChunkAxis;             along z (0) or y (1)
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

/// The same term for output i of a chunk whose first output is at linear
/// index `at`, where every read of the point is inside the grid: a read at
/// `at` plus a constant multiple of each axis's stride, no boundary rule.
/// The same operations in the same order, so the same result. The chunk
/// runs along z (axis 0) or y (axis 1); writing the offset along it as the
/// constant (i + d) lets the compiler see that two outputs of a chunk read
/// the same point, and load it once.
template <class S, int A, int I>
__device__ __forceinline__ typename S::Compute addInnerTerm(const Args<S> &args,
                                                            typename S::Compute acc, long long at,
                                                            int i, long long plane, long long row) {
  constexpr FieldTerm t = S::kTerms[I];
  const auto offset = [&](int dz, int dy, int dx) {
    return A == 0 ? (i + dz) * plane + dy * row + dx : dz * plane + (i + dy) * row + dx;
  };
  typename S::Compute k = args.k[I];
  if constexpr (t.coefField >= 0) {
    const typename S::Element *__restrict__ c = args.field[t.coefField];
    k = k * toCompute(c[at + offset(t.cz, t.cy, t.cx)]);
  }
  const typename S::Element *__restrict__ f = args.field[t.field];
  return madd(k, toCompute(f[at + offset(t.dz, t.dy, t.dx)]), acc);
}

template <class S, int... I>
__device__ __forceinline__ typename S::Compute sumTerms(const Args<S> &args, long long z,
                                                        long long y, long long x, int nz, int ny,
                                                        int nx, std::integer_sequence<int, I...>) {
  typename S::Compute acc = 0;
  ((acc = addTerm<S, I>(args, acc, z, y, x, nz, ny, nx)), ...);
  return acc;
}

template <class S, int A, int... I>
__device__ __forceinline__ typename S::Compute sumInnerTerms(const Args<S> &args, long long at,
                                                             int i, long long plane, long long row,
                                                             std::integer_sequence<int, I...>) {
  typename S::Compute acc = 0;
  ((acc = addInnerTerm<S, A, I>(args, acc, at, i, plane, row)), ...);
  return acc;
}

/// Where a thread's chunk of kChunkZ outputs lies: it runs along z
/// (kChunkAxis 0: a thread a column of a 3D grid) or y (kChunkAxis 1: a
/// thread kChunkZ consecutive rows of a 2D grid); the block is
/// kThreadsX x kThreadsY threads over x and the other axis.
struct Chunk {
  long long z, y, x;  ///< its first output
  long long first, n; ///< its first output's index along the chunk's axis, and that axis's size
};

template <class S> __device__ __forceinline__ Chunk chunkOf(int nz, int ny) {
  Chunk c;
  c.x = static_cast<long long>(blockIdx.x) * S::kThreadsX + threadIdx.x;
  const long long row = static_cast<long long>(blockIdx.y) * S::kThreadsY + threadIdx.y;
  if constexpr (S::kChunkAxis == 0) {
    c.z = static_cast<long long>(blockIdx.z) * S::kChunkZ;
    c.y = row;
    c.first = c.z;
    c.n = nz;
  } else {
    c.z = blockIdx.z;
    c.y = row * S::kChunkZ;
    c.first = c.y;
    c.n = ny;
  }
  return c;
}

/// Whether a point's coordinate along an axis of n points is written: not
/// in the ring of `ring` points a fixed step leaves at each edge.
__device__ __forceinline__ bool written(long long v, long long n, int ring) {
  return v >= ring && v < n - ring;
}

/// One step: every point of the grid (the interior for a fixed boundary), a
/// thread a chunk of kChunkZ outputs along z (3D) or y (2D). A chunk whose
/// every output is written and reads only inside the grid takes the direct
/// reads, its outputs unrolled so that their reads are issued together and
/// the points they share are loaded once; any other chunk (at the grid's
/// edges) goes output by output, every read through the boundary rule.
template <class S>
__device__ __forceinline__ void step(const Args<S> &args, typename S::Element *__restrict__ out,
                                     int nz, int ny, int nx) {
  constexpr int A = S::kChunkAxis;
  constexpr int P = S::kChunkZ;
  constexpr auto terms = std::make_integer_sequence<int, S::kTermCount>();
  const Chunk c = chunkOf<S>(nz, ny);
  // The axis across the chunk (y for a z chunk, z for a y chunk), and x.
  const long long across = A == 0 ? c.y : c.z;
  const long long nAcross = A == 0 ? ny : nz;
  const int ringAcross = A == 0 ? S::kRingY : S::kRingZ;
  const int ringAlong = A == 0 ? S::kRingZ : S::kRingY;
  if (c.x >= nx || across >= nAcross || !written(c.x, nx, S::kRingX) ||
      !written(across, nAcross, ringAcross)) {
    return;
  }
  constexpr int rx = reach<S>(2);
  constexpr int rAcross = reach<S>(A == 0 ? 1 : 0);
  constexpr int rAlong = reach<S>(A);
  const int edgeAlong = rAlong > ringAlong ? rAlong : ringAlong;
  const long long plane = static_cast<long long>(ny) * nx;
  const long long stride = A == 0 ? plane : static_cast<long long>(nx);
  const long long at = (c.z * ny + c.y) * nx + c.x;
  if (written(c.x, nx, rx) && written(across, nAcross, rAcross) && c.first >= edgeAlong &&
      c.first + P <= c.n - edgeAlong) {
#pragma unroll
    for (int i = 0; i < P; ++i) {
      out[at + i * stride] =
          toElement<typename S::Element>(sumInnerTerms<S, A>(args, at, i, plane, nx, terms));
    }
    return;
  }
#pragma unroll 1
  for (int i = 0; i < P && c.first + i < c.n; ++i) {
    if (!written(c.first + i, c.n, ringAlong)) {
      continue;
    }
    const long long z = A == 0 ? c.z + i : c.z, y = A == 0 ? c.y : c.y + i;
    out[at + i * stride] =
        toElement<typename S::Element>(sumTerms<S>(args, z, y, c.x, nz, ny, nx, terms));
  }
}

/// Copies the points of `from` that a fixed step does not write (its ring)
/// into `to`, a thread a chunk as in step.
template <class S>
__device__ __forceinline__ void copyRing(const typename S::Element *__restrict__ from,
                                         typename S::Element *__restrict__ to, int nz, int ny,
                                         int nx) {
  constexpr int A = S::kChunkAxis;
  const Chunk c = chunkOf<S>(nz, ny);
  const long long across = A == 0 ? c.y : c.z;
  const long long nAcross = A == 0 ? ny : nz;
  if (c.x >= nx || across >= nAcross) {
    return;
  }
  const bool inside =
      written(c.x, nx, S::kRingX) && written(across, nAcross, A == 0 ? S::kRingY : S::kRingZ);
  const long long stride = A == 0 ? static_cast<long long>(ny) * nx : static_cast<long long>(nx);
  const long long at = (c.z * ny + c.y) * nx + c.x;
  for (int i = 0; i < S::kChunkZ && c.first + i < c.n; ++i) {
    if (!inside || !written(c.first + i, c.n, A == 0 ? S::kRingZ : S::kRingY)) {
      to[at + i * stride] = from[at + i * stride];
    }
  }
}

/// The launch of a kernel over the grid, a thread a chunk of kChunkZ
/// outputs; false (launching nothing) where the grid needs more than CUDA's
/// 65535 blocks along y or z.
template <class S> bool launchGrid(int nz, int ny, int nx, dim3 &grid, dim3 &block) {
  block = dim3(S::kThreadsX, S::kThreadsY, 1);
  const long long chunks =
      S::kChunkAxis == 0 ? ny : (static_cast<long long>(ny) + S::kChunkZ - 1) / S::kChunkZ;
  const long long blocksY = (chunks + S::kThreadsY - 1) / S::kThreadsY;
  const long long blocksZ =
      S::kChunkAxis == 0 ? (static_cast<long long>(nz) + S::kChunkZ - 1) / S::kChunkZ : nz;
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
