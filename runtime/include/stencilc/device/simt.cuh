// stencilc/device/simt.cuh - the CUDA-core ("simt") stencil kernel of
// stencilc, less the stencil itself.
//
// A generated kernel sees its grid as nz x ny x nx (1D: 1 x 1 x n, 2D:
// ny x 1 x nx, 3D as is) and streams it along z (2.5D blocking). A block
// owns kTileY x kTileX outputs of chunkZ consecutive planes. It walks the
// input planes those outputs need, reading each into shared memory once (a
// plane window of kPlaneRows x kPitch elements: the tile and its halo). A
// thread owns kItemsPerThread items, each kOutX consecutive outputs of one
// row, and for each item a queue of kQueue partial sums: the output planes
// p + kRadiusZ down to p - kRadiusZ that input plane p contributes to. After
// a plane is added, the oldest entry is complete; it is stored and the
// queue moves on.
//
// What depends on the stencil comes from the generated code, as a class
// `S` derived from Geometry<Params> (Params: the plan's numbers, listed at
// Geometry) with one more member:
//
//   static __device__ void addPlane(const Element* __restrict__ at, int o,
//                                   Compute (&queue)[kQueue][kOutX]);
//
// which adds the reads of one input plane into the queue of an item, for
// its output o: at[dy * kPitch + dx + o] is the input at offset (dy, dx) of
// output o, and queue entry kRadiusZ - dz takes the slice dz. Where S has
// kScale (scaled coefficients: the slices' coefficients are integers over
// one denominator, element.cuh's ScaleOf), a complete entry is multiplied by
// it, rounded once, before it is stored.
//
// A 3D stencil in the low-rank form (Params::kRowPasses > 0) shares its row
// passes: after a plane is in shared memory, the block computes each pass
// once for every row of the window and column of the tile (S::rowPasses,
// into kRowPasses x kPassSize values beside the planes), then a barrier;
// its addPlane takes the item's place in them as a second argument:
//
//   static __device__ void addPlane(const Element* __restrict__ at,
//                                   const Compute* __restrict__ pass, int o,
//                                   Compute (&queue)[kQueue][kOutX]);
//   static __device__ void rowPasses(const Element* __restrict__ at,
//                                    Compute (*passes)[kPassSize], int e);
//
// pass[k * kPassSize + dy * kTileX + o] being pass k of row offset dy at
// output o. (Computing the passes in each item instead would repeat every
// row's passes 2 kRadiusY + 1 times: no fewer operations than the direct
// form.)
//
// A 2D low-rank form in the paired order (S::kPairedSums, fused.cuh's
// Paired) adds its planes' row passes in pairs of an even plane and the
// next; its addPlane keeps an even plane's pass for the odd one after it:
//
//   static __device__ void addPlane(const Element* __restrict__ at, int o,
//                                   Compute (&queue)[kQueue][kOutX],
//                                   Compute &pending, bool pairStart);
//
// pairStart being whether the plane is even (of the grid's rows, not the
// block's), pending the item's value for output o, 0 at the block's start.
//
// How planes reach shared memory (kStages): 1 fetched straight into shared
// memory (streamDirect); 2 the next plane fetched into registers while this
// one is computed (streamPrefetch); 3 or more a ring of planes filled by
// cp.async, kStages - 1 ahead (streamAsync). One barrier per plane in the
// last two.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_runtime.h>

#include "stencilc/device/arch.cuh"
#include "stencilc/device/boundary.cuh"
#include "stencilc/device/element.cuh"
#include "stencilc/device/memory.cuh"
#include "stencilc/device/range.cuh"

namespace stencilc {
namespace device {
namespace simt {

/// The bytes of shared memory a block may declare statically; beyond them
/// the planes are dynamic shared memory and the launch opts in.
constexpr int kStaticSharedBytes = 48 * 1024;

/// Params::kRowPasses where Params has it (a 3D low-rank form), else 0.
template <class P, class = void> struct RowPassesOf {
  static constexpr int value = 0;
};
template <class P> struct RowPassesOf<P, std::void_t<decltype(P::kRowPasses)>> {
  static constexpr int value = P::kRowPasses;
};

/// The sizes of a simt kernel, from the plan's numbers in Params:
///   Element, Compute   the grid's element type and the arithmetic type
///   Boundary           a boundary policy of boundary.cuh
///   kRadiusZ, kRadiusY, kRadiusX  the radius along the streamed axis, the
///                      plane's rows and the contiguous axis
///   kTileX, kTileY     outputs per block along x and y
///   kChunkZ, kMinChunkZ  output planes per block: at most kChunkZ, halved
///                      at launch (not below kMinChunkZ) while the grid
///                      has fewer than kTargetBlocks blocks
///   kThreads           threads per block
///   kOutX              consecutive x outputs per item (kVec or 1)
///   kHaloX             kRadiusX rounded up to kVec: tiles start 16-byte aligned
///   kStages            plane buffers (see above)
///   kPrefetchBytes     the L2 prefetch of each 16-byte read (0, 64, 128, 256)
///   kRingZ, kRingY, kRingX  the points a step leaves unwritten at each edge
///   kRowPasses         (3D low-rank form only) the row passes shared a plane
template <class Params> struct Geometry : Params {
  using Element = typename Params::Element;
  using Compute = typename Params::Compute;
  /// Elements per 16-byte vector.
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Element));
  static constexpr int kPlaneRows = Params::kTileY + 2 * Params::kRadiusY;
  /// Plane column c is x = tile start - kHaloX + c.
  static constexpr int kPitch = Params::kTileX + 2 * Params::kHaloX;
  static constexpr int kPlaneSize = kPlaneRows * kPitch;
  static constexpr int kGroupsPerRow = kPitch / kVec;
  /// 16-byte loads per plane, and per thread.
  static constexpr int kGroups = kPlaneRows * kGroupsPerRow;
  static constexpr int kGroupsPerThread = (kGroups + Params::kThreads - 1) / Params::kThreads;
  static constexpr int kColGroups = Params::kTileX / Params::kOutX;
  /// Items of kOutX outputs of one plane row each: per block, and per thread.
  static constexpr int kItems = Params::kTileY * kColGroups;
  static constexpr int kItemsPerThread = (kItems + Params::kThreads - 1) / Params::kThreads;
  /// Partial outputs of an item's z column.
  static constexpr int kQueue = 2 * Params::kRadiusZ + 1;
  /// The shared row passes of the 3D low-rank form: a value per row of the
  /// window and column of the tile, each.
  static constexpr int kRowPasses = RowPassesOf<Params>::value;
  static constexpr int kPassSize = kPlaneRows * Params::kTileX;
  static constexpr int kPlanesBytes =
      Params::kStages * kPlaneSize * static_cast<int>(sizeof(Element));
  static constexpr int kSharedBytes =
      kPlanesBytes + kRowPasses * kPassSize * static_cast<int>(sizeof(Compute));
  static constexpr bool kDynamicShared = kSharedBytes > kStaticSharedBytes;

  static_assert(Params::kTileX % kVec == 0 && Params::kHaloX % kVec == 0,
                "plane rows are whole 16-byte vectors");
  static_assert(Params::kTileX % Params::kOutX == 0 && Params::kHaloX >= Params::kRadiusX,
                "items tile the block; the halo covers the radius");
};

/// The kVec elements of plane z, row y, columns [x, x + kVec): one 16-byte
/// load where the whole vector lies in the grid, the boundary rule elsewhere.
template <class S>
__device__ __forceinline__ uint4 fetchGroup(const typename S::Element *__restrict__ in, long long z,
                                            long long y, long long x, int nz, int ny, int nx,
                                            bool vectorRows) {
  using Element = typename S::Element;
  if (vectorRows && z >= 0 && z < nz && y >= 0 && y < ny && x >= 0 && x + S::kVec <= nx) {
    return loadVector<S::kPrefetchBytes>(in + (z * ny + y) * nx + x);
  }
  // A call where rows stream (a 2D grid), inline where a plane is a line
  // or a 2D plane: measured, the call made the 2D step 3-8% faster, the
  // 1D one 17% slower and the 3D one 1-3% (docs/performance.md,
  // 2026-12-03 23:46).
  constexpr bool kRowsStream = S::kRadiusZ > 0 && S::kRadiusY == 0;
  constexpr RunRead kHow = kRowsStream ? RunRead::kCall : RunRead::kRow;
  return readRun<typename S::Boundary, uint4, kHow>(in, z, y, x, nz, ny, nx);
}

/// A group at the grid's edge, element by element with the boundary rule
/// (out of line: the rare case keeps no registers of the plane loop).
template <class S>
static __device__ __noinline__ void
fetchEdgeGroup(typename S::Element *dst, const typename S::Element *__restrict__ in, long long z,
               long long y, long long x, int nz, int ny, int nx) {
  *reinterpret_cast<uint4 *>(dst) = fetchGroup<S>(in, z, y, x, nz, ny, nx, false);
}

/// Where a block's groups come from, for the cp.async ring: group k of the
/// thread (plane element g * kVec, g = threadIdx.x + k * kThreads) starts at
/// offset[k] = y * nx + x of its plane; vector[k] says whether it is a whole
/// 16-byte vector inside the plane's rows and columns. Neither changes with
/// the plane.
template <class S> struct GroupSources {
  long long offset[S::kGroupsPerThread];
  bool vector[S::kGroupsPerThread];

  __device__ __forceinline__ GroupSources(long long y0, long long x0, int ny, int nx,
                                          bool vectorRows) {
#pragma unroll
    for (int k = 0; k < S::kGroupsPerThread; ++k) {
      const int g = threadIdx.x + k * S::kThreads;
      const long long y = y0 - S::kRadiusY + g / S::kGroupsPerRow;
      const long long x = x0 - S::kHaloX + g % S::kGroupsPerRow * S::kVec;
      offset[k] = y * nx + x;
      vector[k] = g < S::kGroups && vectorRows && y >= 0 && y < ny && x >= 0 && x + S::kVec <= nx;
    }
  }
};

/// This thread's part of input plane z of the block's window into `plane`:
/// whole vectors of planes inside the grid by asynchronous copies, the
/// other groups with the boundary rule (an ordinary store).
template <class S>
__device__ __forceinline__ void
fetchPlane(typename S::Element *plane, const typename S::Element *__restrict__ in, long long z,
           const GroupSources<S> &sources, long long y0, long long x0, int nz, int ny, int nx) {
  using Element = typename S::Element;
  const bool zInside = z >= 0 && z < nz;
  const Element *__restrict__ source = in + (zInside ? z : 0) * (static_cast<long long>(ny) * nx);
#pragma unroll
  for (int k = 0; k < S::kGroupsPerThread; ++k) {
    const int g = threadIdx.x + k * S::kThreads;
    if (S::kGroups % S::kThreads == 0 || g < S::kGroups) {
      if (zInside && sources.vector[k]) {
        copyAsync<S::kPrefetchBytes>(&plane[g * S::kVec], source + sources.offset[k]);
      } else {
        fetchEdgeGroup<S>(&plane[g * S::kVec], in, z, y0 - S::kRadiusY + g / S::kGroupsPerRow,
                          x0 - S::kHaloX + g % S::kGroupsPerRow * S::kVec, nz, ny, nx);
      }
    }
  }
}

/// Group g of input plane z of the block's window, fetched with fetchGroup.
template <class S>
__device__ __forceinline__ uint4 fetchWindowGroup(const typename S::Element *__restrict__ in,
                                                  long long z, int g, long long y0, long long x0,
                                                  int nz, int ny, int nx, bool vectorRows) {
  return fetchGroup<S>(in, z, y0 - S::kRadiusY + g / S::kGroupsPerRow,
                       x0 - S::kHaloX + g % S::kGroupsPerRow * S::kVec, nz, ny, nx, vectorRows);
}

/// Whether the generated Stencil keeps its queue as packed pairs
/// (kPackedPairs, --plan-option arith=packed): entry o, o even, holds
/// outputs o and o + 1 as the bits of a pair (asPair), the odd entries are
/// unused.
template <class S, class = void> struct PackedQueue : std::false_type {};
template <class S>
struct PackedQueue<S, std::void_t<decltype(S::kPackedPairs)>> : std::true_type {};

/// Output o of an item's finished queue entry, in the element type.
template <class S>
__device__ __forceinline__ typename S::Element
outputElement(const typename S::Compute (&done)[S::kOutX], int o) {
  using Element = typename S::Element;
  if constexpr (PackedQueue<S>::value) {
    const auto pair = asPair<Element>(done[o & ~1]);
    return (o & 1) != 0 ? Packed<Element>::high(pair) : Packed<Element>::low(pair);
  } else {
    return toElement<Element>(scaledSum<S>(done[o]));
  }
}

/// Stores an item's kOutX finished outputs at dst, point x of its row: as
/// one 16-byte vector where `whole` (the item lies inside the written
/// columns and the row is vector aligned), else point by point inside the
/// written columns.
template <class S>
__device__ __forceinline__ void storeItem(typename S::Element *dst, long long x, int nx, bool whole,
                                          const typename S::Compute (&done)[S::kOutX]) {
  using Element = typename S::Element;
  if constexpr (S::kOutX == S::kVec) {
    if (whole) {
      alignas(16) Element packed[S::kVec];
#pragma unroll
      for (int o = 0; o < S::kOutX; ++o) {
        packed[o] = outputElement<S>(done, o);
      }
      storeVector(dst, *reinterpret_cast<const uint4 *>(packed));
      return;
    }
  }
#pragma unroll
  for (int o = 0; o < S::kOutX; ++o) {
    if (x + o >= S::kRingX && x + o < nx - S::kRingX) {
      dst[o] = outputElement<S>(done, o);
    }
  }
}

/// Starts an item's queue from 0 (the direct and register schemes;
/// streamAsync keeps its own loop, so that its kernels' PTX stays as it was).
template <class S>
__device__ __forceinline__ void clearQueue(typename S::Compute (&queue)[S::kQueue][S::kOutX]) {
#pragma unroll
  for (int j = 0; j < S::kQueue; ++j) {
#pragma unroll
    for (int o = 0; o < S::kOutX; ++o) {
      queue[j][o] = typename S::Compute(0);
    }
  }
}

/// Moves an item's queue on by one plane: entry j takes entry j + 1, and the
/// last starts again from 0.
template <class S>
__device__ __forceinline__ void shiftQueue(typename S::Compute (&queue)[S::kQueue][S::kOutX]) {
  using Compute = typename S::Compute;
#pragma unroll
  for (int o = 0; o < S::kOutX; ++o) {
#pragma unroll
    for (int j = 0; j + 1 < S::kQueue; ++j) {
      queue[j][o] = queue[j + 1][o];
    }
    queue[S::kQueue - 1][o] = Compute(0);
  }
}

/// The plane buffers of a block in shared memory, kStages of kPlaneSize
/// elements: declared statically up to 48 KiB, else dynamic shared memory
/// (kSharedBytes of it, which the launch asks for).
template <class S> __device__ __forceinline__ auto planeBuffers() {
  using Element = typename S::Element;
  if constexpr (S::kDynamicShared) {
    extern __shared__ __align__(16) unsigned char sharedPlanes[];
    return reinterpret_cast<Element(*)[S::kPlaneSize]>(sharedPlanes);
  } else {
    __shared__ __align__(16) Element planes[S::kStages][S::kPlaneSize];
    return planes;
  }
}

/// The row passes of the 3D low-rank form in shared memory (kRowPasses > 0):
/// after the planes, statically up to 48 KiB, else in the dynamic shared
/// memory (whose planes are whole 16-byte vectors, so the passes stay
/// aligned).
template <class S> __device__ __forceinline__ auto passBuffers() {
  using Compute = typename S::Compute;
  if constexpr (S::kDynamicShared) {
    extern __shared__ __align__(16) unsigned char sharedPlanes[];
    return reinterpret_cast<Compute(*)[S::kPassSize]>(sharedPlanes + S::kPlanesBytes);
  } else {
    __shared__ __align__(16) Compute passes[S::kRowPasses][S::kPassSize];
    return passes;
  }
}

/// The 3D low-rank form's row passes of `plane` (in shared memory, complete)
/// into passBuffers, every row of the window and column of the tile once
/// for the block, then a barrier so that every item reads them. Nothing
/// where the stencil shares no row passes.
template <class S>
__device__ __forceinline__ void passPlane(const typename S::Element *__restrict__ plane) {
  if constexpr (S::kRowPasses > 0) {
    const auto passes = passBuffers<S>();
    for (int e = threadIdx.x; e < S::kPassSize; e += S::kThreads) {
      S::rowPasses(&plane[e / S::kTileX * S::kPitch + S::kHaloX + e % S::kTileX], passes, e);
    }
    __syncthreads();
  }
}

/// Adds plane p to an item's queue for its output o (S::addPlane): `at` is
/// the item's place in the plane window, `pass` its place in the shared row
/// passes (used by a 3D low-rank form only), `pending` the output's row
/// pass of the even plane before an odd p (the paired order of a 2D
/// low-rank form only, PairedSumsOf: an even plane's pass waits there for
/// its pair).
template <class S>
__device__ __forceinline__ void addItemPlane(const typename S::Element *__restrict__ at, int pass,
                                             int o,
                                             typename S::Compute (&queue)[S::kQueue][S::kOutX],
                                             typename S::Compute &pending, long long p) {
  if constexpr (S::kRowPasses > 0) {
    S::addPlane(at, &passBuffers<S>()[0][pass], o, queue);
  } else if constexpr (PairedSumsOf<S>::value) {
    S::addPlane(at, o, queue, pending, (p & 1) == 0);
  } else {
    S::addPlane(at, o, queue);
  }
}

/// A block's part of the step: its tile's first column x0 and row y0, its
/// output planes [zBegin, zEnd), the input planes [pFirst, pLast] those
/// need, and whether the input and output rows are whole, aligned 16-byte
/// vectors.
struct Block {
  long long x0, y0, zBegin, zEnd, pFirst, pLast;
  bool vectorRows, vectorOut;
};

/// This thread's items and their queues, for the direct and the register
/// schemes: item k is outputs [col[k], col[k] + kOutX) of plane row row[k],
/// where active[k] (a block's last thread may have fewer items).
template <class S> struct Items {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  int row[S::kItemsPerThread];
  int col[S::kItemsPerThread];
  bool active[S::kItemsPerThread];
  Compute queue[S::kItemsPerThread][S::kQueue][S::kOutX];
  Compute pending[S::kItemsPerThread][S::kOutX]; // the paired order's (addItemPlane)

  __device__ __forceinline__ Items() {
#pragma unroll
    for (int k = 0; k < S::kItemsPerThread; ++k) {
      const int item = threadIdx.x + k * S::kThreads;
      active[k] = item < S::kItems;
      row[k] = active[k] ? item / S::kColGroups : 0;
      col[k] = active[k] ? item % S::kColGroups * S::kOutX : 0;
      clearQueue<S>(queue[k]);
#pragma unroll
      for (int o = 0; o < S::kOutX; ++o) {
        pending[k][o] = Compute(0);
      }
    }
  }

  /// Where item k's first output is in the plane window.
  __device__ __forceinline__ int planeIndex(int k) const {
    return (row[k] + S::kRadiusY) * S::kPitch + col[k] + S::kHaloX;
  }

  /// ... and in the shared row passes (a 3D low-rank form).
  __device__ __forceinline__ int passIndex(int k) const {
    return (row[k] + S::kRadiusY) * S::kTileX + col[k];
  }

  /// Output plane p - kRadiusZ is complete: stores it, then shifts the queues.
  __device__ __forceinline__ void storeAndShift(Element *__restrict__ out, long long p,
                                                const Block &b, int nz, int ny, int nx) {
    const long long z = p - S::kRadiusZ;
    const bool storePlane = z >= b.zBegin && z >= S::kRingZ && z < nz - S::kRingZ;
#pragma unroll
    for (int k = 0; k < S::kItemsPerThread; ++k) {
      const long long y = b.y0 + row[k];
      const long long x = b.x0 + col[k];
      if (storePlane && active[k] && y >= S::kRingY && y < ny - S::kRingY) {
        const bool whole = b.vectorOut && x >= S::kRingX && x + S::kOutX <= nx - S::kRingX;
        storeItem<S>(out + (z * ny + y) * nx + x, x, nx, whole, queue[k][0]);
      }
      shiftQueue<S>(queue[k]);
    }
  }
};

/// Adds a plane in shared memory to every item's queue (S::addPlane; a 3D
/// low-rank form first shares its row passes, passPlane), then stores the
/// outputs it completes. The caller's barrier after it keeps the passes
/// until every item has read them.
template <class S, class ItemSet>
__device__ __forceinline__ void consumePlane(const typename S::Element *__restrict__ plane,
                                             ItemSet &items, typename S::Element *__restrict__ out,
                                             long long p, const Block &b, int nz, int ny, int nx) {
  using Element = typename S::Element;
  passPlane<S>(plane);
#pragma unroll
  for (int k = 0; k < S::kItemsPerThread; ++k) {
    const Element *__restrict__ at = &plane[items.planeIndex(k)];
#pragma unroll
    for (int o = 0; o < S::kOutX; ++o) {
      addItemPlane<S>(at, items.passIndex(k), o, items.queue[k], items.pending[k][o], p);
    }
  }
  items.storeAndShift(out, p, b, nz, ny, nx);
}

/// kStages 1: each plane straight into shared memory, one buffer (a 1D
/// block has one plane, and a very large plane leaves no room for a second).
template <class S, class ItemSet>
__device__ __forceinline__ void streamDirect(typename S::Element (*planes)[S::kPlaneSize],
                                             const typename S::Element *__restrict__ in,
                                             typename S::Element *__restrict__ out, const Block &b,
                                             int nz, int ny, int nx, ItemSet &items) {
  for (long long p = b.pFirst; p <= b.pLast; ++p) {
    for (int g = threadIdx.x; g < S::kGroups; g += S::kThreads) {
      *reinterpret_cast<uint4 *>(&planes[0][g * S::kVec]) =
          fetchWindowGroup<S>(in, p, g, b.y0, b.x0, nz, ny, nx, b.vectorRows);
    }
    __syncthreads();
    consumePlane<S>(planes[0], items, out, p, b, nz, ny, nx);
    __syncthreads(); // the plane is overwritten next
  }
}

/// kStages 2: the first plane straight into shared memory; then each
/// plane's successor is fetched into registers while the plane is computed
/// (two buffers, one barrier per plane).
template <class S, class ItemSet>
__device__ __forceinline__ void
streamPrefetch(typename S::Element (*planes)[S::kPlaneSize],
               const typename S::Element *__restrict__ in, typename S::Element *__restrict__ out,
               const Block &b, int nz, int ny, int nx, ItemSet &items) {
  for (int g = threadIdx.x; g < S::kGroups; g += S::kThreads) {
    *reinterpret_cast<uint4 *>(&planes[0][g * S::kVec]) =
        fetchWindowGroup<S>(in, b.pFirst, g, b.y0, b.x0, nz, ny, nx, b.vectorRows);
  }
  __syncthreads();
  for (long long p = b.pFirst; p <= b.pLast; ++p) {
    const int buffer = static_cast<int>(p - b.pFirst) & 1;
    uint4 next[S::kGroupsPerThread];
#pragma unroll
    for (int k = 0; k < S::kGroupsPerThread; ++k) {
      const int g = threadIdx.x + k * S::kThreads;
      next[k] = make_uint4(0u, 0u, 0u, 0u);
      if (p < b.pLast && g < S::kGroups) {
        next[k] = fetchWindowGroup<S>(in, p + 1, g, b.y0, b.x0, nz, ny, nx, b.vectorRows);
      }
    }
    consumePlane<S>(planes[buffer], items, out, p, b, nz, ny, nx);
#pragma unroll
    for (int k = 0; k < S::kGroupsPerThread; ++k) {
      const int g = threadIdx.x + k * S::kThreads;
      if (p < b.pLast && g < S::kGroups) {
        *reinterpret_cast<uint4 *>(&planes[buffer ^ 1][g * S::kVec]) = next[k];
      }
    }
    __syncthreads();
  }
}

/// kStages 3 or more: planes arrive by asynchronous copies (cp.async) into a
/// ring of kStages buffers, kStages - 1 planes ahead of the one computed:
/// one barrier per plane, and no registers hold data in flight. What does
/// not change with the plane is worked out once: where each item is in the
/// plane window (at) and in an output plane (offset = y * nx + x), whether
/// its row is stored, and whether its outputs are stored as one 16-byte
/// vector.
///
/// (This scheme is the one the large stencils take, and it is written out in
/// one function, its arrays locals of it, in the order the generated kernels
/// had before the headers: spread over helper functions and structs, the
/// same code let the compiler recompute the items' stores in the plane loop
/// and ptxas allocate the loop's registers differently, up to 6 % slower.)
template <class S>
__device__ __forceinline__ void streamAsync(typename S::Element (*planes)[S::kPlaneSize],
                                            const typename S::Element *__restrict__ in,
                                            typename S::Element *__restrict__ out, const Block &b,
                                            int nz, int ny, int nx) {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  const long long planeSize = static_cast<long long>(ny) * nx; // elements of a plane
  int itemAt[S::kItemsPerThread];
  int itemPass[S::kItemsPerThread]; // in the shared row passes (a 3D low-rank form)
  int itemCol[S::kItemsPerThread];
  long long itemOffset[S::kItemsPerThread];
  bool storeRow[S::kItemsPerThread];
  bool storeWhole[S::kItemsPerThread];
  Compute queue[S::kItemsPerThread][S::kQueue][S::kOutX];
  Compute pending[S::kItemsPerThread][S::kOutX]; // the paired order's (addItemPlane)
#pragma unroll
  for (int k = 0; k < S::kItemsPerThread; ++k) {
    const int item = threadIdx.x + k * S::kThreads;
    const bool active = item < S::kItems;
    const int row = active ? item / S::kColGroups : 0;
    itemCol[k] = active ? item % S::kColGroups * S::kOutX : 0;
    itemAt[k] = (row + S::kRadiusY) * S::kPitch + itemCol[k] + S::kHaloX;
    itemPass[k] = (row + S::kRadiusY) * S::kTileX + itemCol[k];
    const long long y = b.y0 + row;
    const long long x = b.x0 + itemCol[k];
    itemOffset[k] = y * nx + x;
    storeRow[k] = active && y >= S::kRingY && y < ny - S::kRingY;
    storeWhole[k] =
        S::kOutX == S::kVec && b.vectorOut && x >= S::kRingX && x + S::kOutX <= nx - S::kRingX;
#pragma unroll
    for (int j = 0; j < S::kQueue; ++j) {
#pragma unroll
      for (int o = 0; o < S::kOutX; ++o) {
        queue[k][j][o] = Compute(0);
      }
    }
#pragma unroll
    for (int o = 0; o < S::kOutX; ++o) {
      pending[k][o] = Compute(0);
    }
  }
  const GroupSources<S> sources(b.y0, b.x0, ny, nx, b.vectorRows);
#pragma unroll
  for (int s = 0; s + 1 < S::kStages; ++s) {
    if (b.pFirst + s <= b.pLast) {
      fetchPlane<S>(planes[s], in, b.pFirst + s, sources, b.y0, b.x0, nz, ny, nx);
    }
    commitCopies();
  }
  int buffer = 0; // plane p's
  for (long long p = b.pFirst; p <= b.pLast; ++p) {
    waitCopies<S::kStages - 2>(); // this thread's copies of plane p have landed ...
    __syncthreads();              // ... and everybody's; plane p - 1's buffer is free
    if (p + S::kStages - 1 <= b.pLast) {
      fetchPlane<S>(planes[buffer == 0 ? S::kStages - 1 : buffer - 1], in, p + S::kStages - 1,
                    sources, b.y0, b.x0, nz, ny, nx);
    }
    commitCopies();
    const Element *__restrict__ plane = planes[buffer];
    passPlane<S>(plane); // the next top barrier keeps the passes until all are read
#pragma unroll
    for (int k = 0; k < S::kItemsPerThread; ++k) {
      const Element *__restrict__ at = &plane[itemAt[k]];
#pragma unroll
      for (int o = 0; o < S::kOutX; ++o) {
        addItemPlane<S>(at, itemPass[k], o, queue[k], pending[k][o], p);
      }
    }
    { // Output plane p - kRadiusZ is complete: store it, then shift the queues.
      const long long z = p - S::kRadiusZ;
      const bool storePlane = z >= b.zBegin && z >= S::kRingZ && z < nz - S::kRingZ;
      Element *const planeOut = out + (storePlane ? z : 0) * planeSize;
#pragma unroll
      for (int k = 0; k < S::kItemsPerThread; ++k) {
        if (storePlane && storeRow[k]) {
          storeItem<S>(planeOut + itemOffset[k], b.x0 + itemCol[k], nx, storeWhole[k], queue[k][0]);
        }
        shiftQueue<S>(queue[k]);
      }
    }
    buffer = buffer + 1 == S::kStages ? 0 : buffer + 1;
  }
}

/// One time step of the block storing the planes `stored` of the kernel's
/// view (step(), or the kernel of NAME_pass_range): chunkZ is the planes
/// per block of the launch (launch(), launchRange()).
template <class S>
__device__ __forceinline__ void stepStoring(const typename S::Element *__restrict__ in,
                                            typename S::Element *__restrict__ out, int nz, int ny,
                                            int nx, int chunkZ, OuterRange stored) {
  const auto planes = planeBuffers<S>();
  // (Worked out here rather than by a helper function: there the compiler
  // folds the bounds so that the plane loop recomputes them.)
  Block b;
  b.x0 = static_cast<long long>(blockIdx.x) * S::kTileX;
  b.y0 = static_cast<long long>(blockIdx.y) * S::kTileY;
  b.zBegin = stored.begin + static_cast<long long>(blockIdx.z) * chunkZ;
  b.zEnd = b.zBegin + chunkZ < stored.end ? b.zBegin + chunkZ : stored.end;
  b.pFirst = b.zBegin - S::kRadiusZ;
  b.pLast = b.zEnd - 1 + S::kRadiusZ;
  b.vectorRows = nx % S::kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  b.vectorOut = nx % S::kVec == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  if constexpr (S::kStages > 2) {
    streamAsync<S>(planes, in, out, b, nz, ny, nx);
  } else if constexpr (S::kStages == 2) {
    Items<S> items;
    streamPrefetch<S>(planes, in, out, b, nz, ny, nx, items);
  } else {
    Items<S> items;
    streamDirect<S>(planes, in, out, b, nz, ny, nx, items);
  }
}

/// One time step of the block (the whole body of a generated kernel):
/// chunkZ is the planes per block of the launch (launch()).
template <class S>
__device__ __forceinline__ void step(const typename S::Element *__restrict__ in,
                                     typename S::Element *__restrict__ out, int nz, int ny, int nx,
                                     int chunkZ) {
  stepStoring<S>(in, out, nz, ny, nx, chunkZ, OuterRange{0, nz});
}

/// The kernel of one step that stores the planes `stored` of its view only
/// (NAME_pass_range; the generated kernel of a step stores every plane).
/// Like the step, it leaves a fixed boundary's ring of out as it was: the
/// caller gives out in's ring once, as NAME_run does. (Copying the ring
/// here instead, from shared memory while each plane was there, cost
/// registers and instructions: +15.7 % for box3d27p fp32 on an H200; a
/// copy of the range before the step moved as many bytes as the step.)
template <class S>
__global__ void __launch_bounds__(S::kThreads)
    stepRangeKernel(const typename S::Element *__restrict__ in,
                    typename S::Element *__restrict__ out, int nz, int ny, int nx, int chunkZ,
                    OuterRange stored) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    stepStoring<S>(in, out, nz, ny, nx, chunkZ, stored);
  }
}

/// The planes per block for a grid of planesZ x rowsY x colsX (the kernel's
/// view): kChunkZ, halved (not below kMinChunkZ) while the grid would have
/// fewer than kTargetBlocks blocks (a thin grid, or a last wave left mostly
/// idle).
template <class S> inline int chunkFor(int planesZ, int rowsY, int colsX) {
  const long long blocksXY =
      static_cast<long long>((colsX - 1) / S::kTileX + 1) * ((rowsY - 1) / S::kTileY + 1);
  int chunkZ = S::kChunkZ;
  while (chunkZ > S::kMinChunkZ && blocksXY * ((planesZ - 1) / chunkZ + 1) < S::kTargetBlocks) {
    chunkZ = chunkZ / 2 > S::kMinChunkZ ? chunkZ / 2 : S::kMinChunkZ;
  }
  return chunkZ;
}

/// The blocks of a launch on planesZ x rowsY x colsX with chunkZ planes per
/// block.
template <class S> inline dim3 gridFor(int planesZ, int rowsY, int colsX, int chunkZ) {
  return dim3(static_cast<unsigned>((colsX - 1) / S::kTileX + 1),
              static_cast<unsigned>((rowsY - 1) / S::kTileY + 1),
              static_cast<unsigned>((planesZ - 1) / chunkZ + 1));
}

/// Lets `kernel` take S::kSharedBytes of dynamic shared memory where its
/// planes pass the 48 KiB a block declares statically (on the current
/// device: call it before every launch, since the stream may be another
/// device's); cudaSuccess where they do not.
template <class S, class Kernel> inline cudaError_t optInShared(Kernel kernel) {
  if constexpr (S::kDynamicShared) {
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                S::kSharedBytes);
  } else {
    return cudaSuccess;
  }
}

/// Launches `kernel` on `stream` for one step on a grid of planesZ x rowsY
/// x colsX that stores `storedZ` of its planes, with the arguments (in,
/// out, planesZ, rowsY, colsX, chunkZ, rest...), and returns the launch's
/// status: cudaErrorInvalidValue where the grid passes the launch limits of
/// this block shape. Past 48 KiB of planes the kernel opts in to the
/// dynamic shared memory first (on the current device: every launch, since
/// the stream may be another device's).
template <class S, class Kernel, class... Rest>
inline cudaError_t launchStoring(Kernel kernel, const typename S::Element *in,
                                 typename S::Element *out, int planesZ, int rowsY, int colsX,
                                 int storedZ, cudaStream_t stream, Rest... rest) {
  const int chunkZ = chunkFor<S>(storedZ, rowsY, colsX);
  const dim3 grid = gridFor<S>(storedZ, rowsY, colsX, chunkZ);
  if (grid.y > 65535u || grid.z > 65535u) {
    return cudaErrorInvalidValue;
  }
  if (const cudaError_t optIn = optInShared<S>(kernel); optIn != cudaSuccess) {
    return optIn;
  }
  kernel<<<grid, S::kThreads, S::kDynamicShared ? S::kSharedBytes : 0, stream>>>(
      in, out, planesZ, rowsY, colsX, chunkZ, rest...);
  return cudaGetLastError();
}

/// Launches `kernel` (a __global__ function that runs step<S>) on `stream`
/// for one step on a grid of planesZ x rowsY x colsX (launchStoring, every
/// plane stored).
template <class S>
inline cudaError_t launch(void (*kernel)(const typename S::Element *, typename S::Element *, int,
                                         int, int, int),
                          const typename S::Element *in, typename S::Element *out, int planesZ,
                          int rowsY, int colsX, cudaStream_t stream) {
  return launchStoring<S>(kernel, in, out, planesZ, rowsY, colsX, planesZ, stream);
}

/// One step on a grid of planesZ x rowsY x colsX storing the planes
/// [first, first + count) only (NAME_pass_range: rows in 2D, planes in 3D),
/// a fixed boundary's ring left as it was (stepRangeKernel). The caller has
/// checked the range (validRange).
template <class S>
inline cudaError_t launchRange(const typename S::Element *in, typename S::Element *out, int planesZ,
                               int rowsY, int colsX, int first, int count, cudaStream_t stream) {
  return launchStoring<S>(stepRangeKernel<S>, in, out, planesZ, rowsY, colsX, count, stream,
                          OuterRange{first, first + count});
}

} // namespace simt
} // namespace device
} // namespace stencilc
