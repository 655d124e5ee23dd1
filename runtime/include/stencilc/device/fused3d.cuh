// stencilc/device/fused3d.cuh - the CUDA-core kernel for 3D that fuses
// several time steps into one pass over memory: 3.5D blocking (2.5D
// streaming along z, k steps per plane), the 3D sibling of fused.cuh, less
// the stencil itself. Issue 19; the compiler does not emit it yet.
//
// A block owns a tile of kTileX x kTileY output points of each plane of an
// nz x ny x nx grid and kChunkZ output planes, and streams along z. It
// keeps, in shared memory, a ring of kRing = kBatch + 2r planes of its
// kHeight x kWidth window per fused level: level 0 is the input, level t
// the result of t steps. The window is the tile and a redundant halo of
// kHaloX = T r columns each side (rounded up to a 16-byte vector) and
// kHaloY = T r rows each side: the levels eat into it, r per level, so that
// level T is right on the tile it stores. Each iteration of the stream:
//
//   1. starts the 16-byte loads of the next kBatch input planes into
//      registers (the boundary rule element by element at the grid's edge);
//   2. computes kBatch planes of each level t = 1 .. Levels from level
//      t - 1, level t lagging level t - 1 by r planes, a barrier after each
//      level but the last; level Levels goes to global memory;
//   3. puts the loaded planes into level 0's ring, and a barrier.
//
// Per point and per level the value is what a stored single step gives
// (the terms' FMAs in the order of the stencil's term list, accumulated in
// the Compute type from 0, rounded to the Element type), and a point a
// single step does not compute keeps its value of the level before, by
// fused::Computes<Boundary> (fused.cuh): the fixed ring of width r keeps
// the input's value, a constant boundary's outside is loaded as its value
// and keeps it, a periodic grid is loaded wrapped and every point is
// computed. Unlike fused.cuh, the last level stores every point of the tile
// inside the grid, the fixed ring (its kept input value) included, so run
// needs no copy of the ring into the scratch buffer.
//
// Points of a level whose inputs are not (or no longer) in the block's
// window are computed from stale ring planes, but only ever feed points of
// later levels outside the tile the block stores. The result of `steps`
// steps is bit-identical to `steps` single steps at every point, for any
// grid size (smaller than the tile or than the halo included).
//
// The stencil comes from the traits type Params::Stencil:
//
//   struct Stencil {
//     static constexpr int kRadius = 1, kTerms = 7;
//     template <class C> static __host__ __device__ constexpr Term<C> term(int i);
//   };
//
// term(i) is the i-th term (dz, dy, dx, coefficient) in the order of the
// FMAs. The rest of Params (listed at Geometry) are the kernel's numbers.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/fused.cuh"
#include "stencilc/device/simt.cuh"

namespace stencilc {
namespace device {
namespace fused3d {

using fused::Computes;
using fused::minExtent;

/// The ring slot of plane z (any sign) in a ring of S::kRing planes.
template <class S> __device__ __forceinline__ int slotOf(long long z) {
  const long long m = z % S::kRing;
  return static_cast<int>(m < 0 ? m + S::kRing : m);
}

/// The shared memory of a pass: the rings of its levels.
template <class S> __device__ __forceinline__ typename S::Element *rings() {
  extern __shared__ __align__(16) unsigned char sharedRings[];
  return reinterpret_cast<typename S::Element *>(sharedRings);
}

/// One term of a stencil: coefficient c times the input at (z + dz, y + dy,
/// x + dx).
template <class C> struct Term {
  int dz, dy, dx;
  C c;
};

/// The sizes of a fused 3D kernel, from Params:
///   Element, Compute   the grid's element type and the arithmetic type
///   Boundary           a boundary policy of boundary.cuh
///   Stencil            the terms (see above); Stencil::kRadius is r
///   kSteps             T, the steps fused per pass (1 .. 8)
///   kWidth             the window's columns (x), halo included: a multiple
///                      of the 16-byte vector
///   kHeight            the window's rows (y), halo included
///   kRows              rows of a thread's column piece: a plane of the
///                      window is kWidth x (kHeight / kRows) pieces of kRows
///                      points along y, computed from one register window
///   kThreads           threads per block (piece u, row-major, belongs to
///                      thread u % kThreads)
///   kBatch             planes per level per iteration
///   kChunkZ            output planes per block
template <class Params> struct Geometry : Params {
  using Element = typename Params::Element;
  using Compute = typename Params::Compute;
  using Stencil = typename Params::Stencil;
  static constexpr int kRadius = Stencil::kRadius;
  static constexpr int kTerms = Stencil::kTerms;
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Element));
  /// The input is read with simt::fetchGroup (16-byte vectors, the boundary
  /// rule at the edges), without an L2 prefetch hint.
  static constexpr int kPrefetchBytes = 0;
  /// The redundant halo each side: kSteps * r, in x whole vectors.
  static constexpr int kHaloX = (Params::kSteps * kRadius + kVec - 1) / kVec * kVec;
  static constexpr int kHaloY = Params::kSteps * kRadius;
  static constexpr int kTileX = Params::kWidth - 2 * kHaloX;
  static constexpr int kTileY = Params::kHeight - 2 * kHaloY;
  static constexpr int kPlane = Params::kWidth * Params::kHeight;
  /// Planes of a level's ring: a batch and the 2r planes before it.
  static constexpr int kRing = Params::kBatch + 2 * kRadius;
  /// A plane's pieces of kRows points along y, and per thread.
  static constexpr int kColumns = Params::kWidth * (Params::kHeight / Params::kRows);
  static constexpr int kColumnsPerThread = (kColumns + Params::kThreads - 1) / Params::kThreads;
  static constexpr int kGroupsPerRow = Params::kWidth / kVec;
  /// 16-byte groups of a batch of input planes, and per thread.
  static constexpr int kGroups = Params::kBatch * Params::kHeight * kGroupsPerRow;
  static constexpr int kGroupsPerThread = (kGroups + Params::kThreads - 1) / Params::kThreads;

  static_assert(Params::kSteps >= 1 && Params::kSteps <= 8, "1 to 8 fused steps");
  static_assert(kRadius >= 1, "a stencil of radius 0 needs no kernel");
  static_assert(Params::kWidth % kVec == 0, "the window's rows are whole vectors");
  static_assert(kTileX >= 1 && kTileY >= 1, "the halo leaves points to store");
  static_assert(Params::kRows >= 1 && Params::kHeight % Params::kRows == 0,
                "the window's rows are whole pieces");
  static_assert(Params::kChunkZ >= 1 && Params::kBatch >= 1, "planes per block and per batch");

  /// Shared memory of a pass of `levels` fused steps: the rings of levels
  /// 0 .. levels - 1.
  static constexpr int sharedBytes(int levels) {
    return levels * kRing * kPlane * static_cast<int>(sizeof(Element));
  }
};

/// A block's part of a pass: its tile's first stored column x0 and row y0
/// (the window starts at x0 - kHaloX, y0 - kHaloY), its stored planes
/// [zBegin, zEnd), and whether input rows are whole, aligned 16-byte vectors.
struct Block {
  long long x0, y0, zBegin, zEnd;
  bool vectorRows;
};

/// Starts this thread's loads of the input planes [p, p + kBatch) of the
/// block's window (group g: plane g / (kHeight kGroupsPerRow), then row and
/// vector).
template <class S>
__device__ __forceinline__ void fetchBatch(uint4 (&groups)[S::kGroupsPerThread],
                                           const typename S::Element *__restrict__ in, long long p,
                                           const Block &b, int nz, int ny, int nx) {
  constexpr int kPerPlane = S::kHeight * S::kGroupsPerRow;
#pragma unroll
  for (int k = 0; k < S::kGroupsPerThread; ++k) {
    const int g = threadIdx.x + k * S::kThreads;
    if (S::kGroups % S::kThreads == 0 || g < S::kGroups) {
      const int inPlane = g % kPerPlane;
      groups[k] = simt::fetchGroup<S>(
          in, p + g / kPerPlane, b.y0 - S::kHaloY + inPlane / S::kGroupsPerRow,
          b.x0 - S::kHaloX + inPlane % S::kGroupsPerRow * S::kVec, nz, ny, nx, b.vectorRows);
    }
  }
}

/// Puts the loaded planes [p, p + kBatch) into level 0's ring.
template <class S>
__device__ __forceinline__ void putBatch(typename S::Element *ring,
                                         const uint4 (&groups)[S::kGroupsPerThread], long long p) {
  constexpr int kPerPlane = S::kHeight * S::kGroupsPerRow;
  const int first = slotOf<S>(p);
#pragma unroll
  for (int k = 0; k < S::kGroupsPerThread; ++k) {
    const int g = threadIdx.x + k * S::kThreads;
    if (S::kGroups % S::kThreads == 0 || g < S::kGroups) {
      int slot = first + g / kPerPlane;
      slot -= slot >= S::kRing ? S::kRing : 0;
      *reinterpret_cast<uint4 *>(&ring[slot * S::kPlane + g % kPerPlane * S::kVec]) = groups[k];
    }
  }
}

/// Planes [z0, z0 + kBatch) of one level from the level before (`from`,
/// its ring): each thread its columns of kRows points, each from a window of
/// kBatch + 2r planes by kRows + 2r rows by 2r + 1 columns read once into
/// registers (the compiler drops the reads no term uses). Last: the planes
/// are stored to `out` (the block's tile inside the grid only), else written
/// to `to`, the level's ring.
template <class S, bool Last>
__device__ __forceinline__ void computeLevel(const typename S::Element *from,
                                             typename S::Element *to,
                                             typename S::Element *__restrict__ out, long long z0,
                                             const Block &b, int nz, int ny, int nx) {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  using Rule = Computes<typename S::Boundary>;
  constexpr int r = S::kRadius;
  constexpr int kSide = 2 * r + 1;
  constexpr int kPlanes = S::kBatch + 2 * r;
  constexpr int kRows = S::kRows;
  const int firstSlot = slotOf<S>(z0 - r); // of window plane 0
  bool planeComputed[S::kBatch];
  bool planeStored[S::kBatch];
#pragma unroll
  for (int j = 0; j < S::kBatch; ++j) {
    const long long z = z0 + j;
    planeComputed[j] = Rule::axis(z, nz, r);
    planeStored[j] = z >= b.zBegin && z < b.zEnd;
  }
#pragma unroll
  for (int k = 0; k < S::kColumnsPerThread; ++k) {
    const int u = threadIdx.x + k * S::kThreads;
    const int cx = u % S::kWidth, cy0 = u / S::kWidth * kRows;
    if ((S::kColumns % S::kThreads != 0 && u >= S::kColumns) || cx < r || cx >= S::kWidth - r) {
      continue; // the window's outermost columns: nothing to read beside them
    }
    const long long x = b.x0 - S::kHaloX + cx;
    const bool xComputed = Rule::axis(x, nx, r);
    const bool xInTile = cx >= S::kHaloX && cx < S::kHaloX + S::kTileX && x < nx;
    Element window[kPlanes][kRows + 2 * r][kSide];
#pragma unroll
    for (int i = 0; i < kPlanes; ++i) {
      int slot = firstSlot + i;
      slot -= slot >= S::kRing ? S::kRing : 0;
#pragma unroll
      for (int w = 0; w < kRows + 2 * r; ++w) {
        // Rows past the window's edge only feed points that are skipped.
        int cy = cy0 + w - r;
        cy = cy < 0 ? 0 : cy >= S::kHeight ? S::kHeight - 1 : cy;
#pragma unroll
        for (int dx = -r; dx <= r; ++dx) {
          window[i][w][dx + r] = from[slot * S::kPlane + cy * S::kWidth + cx + dx];
        }
      }
    }
#pragma unroll
    for (int e = 0; e < kRows; ++e) {
      const int cy = cy0 + e;
      if (cy < r || cy >= S::kHeight - r) {
        continue;
      }
      const long long y = b.y0 - S::kHaloY + cy;
      const bool pointComputed = xComputed && Rule::axis(y, ny, r);
      const bool inTile = xInTile && cy >= S::kHaloY && cy < S::kHaloY + S::kTileY && y < ny;
#pragma unroll
      for (int j = 0; j < S::kBatch; ++j) {
        Compute acc = Compute(0);
#pragma unroll
        for (int t = 0; t < S::kTerms; ++t) {
          const Term<Compute> term = S::Stencil::template term<Compute>(t);
          acc = madd(term.c, toCompute(window[j + r + term.dz][e + r + term.dy][r + term.dx]), acc);
        }
        const Element value =
            planeComputed[j] && pointComputed ? toElement<Element>(acc) : window[j + r][e + r][r];
        if constexpr (Last) {
          if (planeStored[j] && inTile) {
            out[((z0 + j) * ny + y) * nx + x] = value;
          }
        } else {
          int slot = firstSlot + r + j;
          slot -= slot >= S::kRing ? S::kRing : 0;
          to[slot * S::kPlane + cy * S::kWidth + cx] = value;
        }
      }
    }
  }
}

/// One pass of Levels fused steps (1 <= Levels <= kSteps) by the block
/// (the whole body of a kernel): in -> out, an nz x ny x nx grid, tiles
/// along blockIdx.x (x) and blockIdx.y (y), kChunkZ planes per block along
/// blockIdx.z. Needs S::sharedBytes(Levels) bytes of dynamic shared memory.
template <class S, int Levels>
__device__ __forceinline__ void pass(const typename S::Element *__restrict__ in,
                                     typename S::Element *__restrict__ out, int nz, int ny,
                                     int nx) {
  static_assert(Levels >= 1 && Levels <= S::kSteps, "a pass fuses 1 .. kSteps steps");
  using Element = typename S::Element;
  constexpr int r = S::kRadius;
  constexpr int kLag = Levels * r; // level Levels lags the input by this
  Element *const ring = rings<S>();
  Block b;
  b.x0 = static_cast<long long>(blockIdx.x) * S::kTileX;
  b.y0 = static_cast<long long>(blockIdx.y) * S::kTileY;
  b.zBegin = static_cast<long long>(blockIdx.z) * S::kChunkZ;
  b.zEnd = b.zBegin + S::kChunkZ < nz ? b.zBegin + S::kChunkZ : nz;
  b.vectorRows = nx % S::kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;

  // Stale planes only ever feed points the block does not store, but keep
  // them finite and initialised all the same.
  for (int i = threadIdx.x; i < Levels * S::kRing * S::kPlane; i += S::kThreads) {
    ring[i] = Element(0.0f);
  }
  __syncthreads();

  const long long pFirst = b.zBegin - kLag; // the first input plane
  uint4 groups[S::kGroupsPerThread];
  fetchBatch<S>(groups, in, pFirst, b, nz, ny, nx);
  putBatch<S>(ring, groups, pFirst);
  __syncthreads();
  // q: the first plane of the batch of level 0 in the ring.
  for (long long q = pFirst; q - kLag < b.zEnd; q += S::kBatch) {
    const bool more = q + S::kBatch - kLag < b.zEnd;
    if (more) {
      fetchBatch<S>(groups, in, q + S::kBatch, b, nz, ny, nx);
    }
#pragma unroll
    for (int t = 1; t <= Levels; ++t) {
      const long long z0 = q - static_cast<long long>(t) * r;
      // Level t is right from plane pFirst + t r on; earlier batches are
      // skipped (block-uniform, so the barrier below is too).
      const bool useful = z0 + S::kBatch > pFirst + static_cast<long long>(t) * r;
      const Element *from = ring + (t - 1) * S::kRing * S::kPlane;
      if (t == Levels) {
        if (useful) {
          computeLevel<S, true>(from, nullptr, out, z0, b, nz, ny, nx);
        }
      } else {
        if (useful) {
          computeLevel<S, false>(from, ring + t * S::kRing * S::kPlane, out, z0, b, nz, ny, nx);
        }
        __syncthreads(); // level t + 1 reads what level t wrote
      }
    }
    if (!more) {
      break;
    }
    if constexpr (Levels == 1) {
      __syncthreads(); // level 1 has read the planes the batch replaces
    }
    putBatch<S>(ring, groups, q + S::kBatch);
    __syncthreads();
  }
}

/// The kernel of a pass of Levels fused steps.
template <class S, int Levels>
__global__ void __launch_bounds__(S::kThreads)
    passKernel(const typename S::Element *__restrict__ in, typename S::Element *__restrict__ out,
               int nz, int ny, int nx) {
  pass<S, Levels>(in, out, nz, ny, nx);
}

/// The blocks of a pass on an nz x ny x nx grid.
template <class S> inline dim3 gridFor(int nz, int ny, int nx) {
  return dim3(static_cast<unsigned>((nx - 1) / S::kTileX + 1),
              static_cast<unsigned>((ny - 1) / S::kTileY + 1),
              static_cast<unsigned>((nz - 1) / S::kChunkZ + 1));
}

/// Launches one pass of `levels` fused steps (1 .. kSteps) on `stream`,
/// in -> out, and returns the launch's status (cudaErrorInvalidValue for a
/// grid past the launch limits or levels out of range).
template <class S, int Levels = S::kSteps>
inline cudaError_t launchPass(int levels, const typename S::Element *in, typename S::Element *out,
                              int nz, int ny, int nx, cudaStream_t stream) {
  if constexpr (Levels < 1) {
    return cudaErrorInvalidValue;
  } else {
    if (levels != Levels) {
      return launchPass<S, Levels - 1>(levels, in, out, nz, ny, nx, stream);
    }
    const dim3 grid = gridFor<S>(nz, ny, nx);
    if (grid.y > 65535u || grid.z > 65535u) {
      return cudaErrorInvalidValue;
    }
    constexpr int bytes = S::sharedBytes(Levels);
    if (bytes > 48 * 1024) {
      const cudaError_t optIn = cudaFuncSetAttribute(
          passKernel<S, Levels>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
      if (optIn != cudaSuccess) {
        return optIn;
      }
    }
    passKernel<S, Levels><<<grid, S::kThreads, bytes, stream>>>(in, out, nz, ny, nx);
    return cudaGetLastError();
  }
}

/// `steps` steps on an nz x ny x nx grid: passes of kSteps fused steps and
/// one pass of the remainder, ping-ponging between a and b; the result is
/// left in a (b is scratch of the same size, its contents never read).
/// cudaErrorInvalidValue, and nothing enqueued, for a null pointer, a == b,
/// a size below the boundary's minimum (fixed: 2r + 1) or steps < 0.
template <class S>
inline cudaError_t run(typename S::Element *a, typename S::Element *b, int nz, int ny, int nx,
                       int steps, cudaStream_t stream) {
  using Element = typename S::Element;
  const int least = minExtent<typename S::Boundary>(S::kRadius);
  if (a == nullptr || b == nullptr || a == b || nz < least || ny < least || nx < least ||
      steps < 0) {
    return cudaErrorInvalidValue;
  }
  Element *src = a;
  Element *dst = b;
  for (int done = 0; done < steps; done += S::kSteps) {
    const int levels = steps - done < S::kSteps ? steps - done : S::kSteps;
    if (const cudaError_t status = launchPass<S>(levels, src, dst, nz, ny, nx, stream);
        status != cudaSuccess) {
      return status;
    }
    std::swap(src, dst);
  }
  if (src != a) {
    return cudaMemcpyAsync(a, src, static_cast<size_t>(nz) * ny * nx * sizeof(Element),
                           cudaMemcpyDeviceToDevice, stream);
  }
  return cudaSuccess;
}

} // namespace fused3d
} // namespace device
} // namespace stencilc
