// stencilc/device/fused.cuh - the CUDA-core kernel for 2D that fuses
// several time steps into one pass over memory (temporal blocking in the
// manner of EBISU and AN5D), less the stencil itself. Issue 19; the
// compiler does not emit it yet.
//
// A block owns a strip of kTileX output columns and kChunkY output rows of
// an ny x nx grid and streams down the rows. It keeps, in shared memory, a
// ring of kRing = kBatch + 2r rows of kWidth columns per fused level: level
// 0 is the input, level t the result of t steps. The strip of a level is
// kWidth = kTileX + 2 kHalo columns wide, kHalo being kSteps * r rounded up
// to a 16-byte vector: the redundant halo that the levels eat into, r
// columns per level, so that level kSteps is right on the kTileX columns
// it stores. Each iteration of the stream:
//
//   1. starts the 16-byte loads of the next kBatch input rows into
//      registers (the boundary rule element by element at the grid's edge);
//   2. computes kBatch rows of each level t = 1 .. Levels from level t - 1,
//      level t lagging level t - 1 by r rows (level t's rows are
//      [q - t r, q - t r + kBatch) when level 0 has received rows up to
//      q + kBatch), a barrier after each level but the last; level Levels
//      goes to global memory (T = 1: a barrier after it too);
//   3. puts the loaded rows into level 0's ring, and a barrier.
//
// Per point and per level the value is what a stored single step gives:
// the terms' FMAs in the order of the stencil's term list, accumulated in
// the Compute type from 0, rounded to the Element type. Where a point of a
// level is not computed by a single step it keeps its value of the level
// before, which makes it the boundary's value at every level:
//
//   FixedBoundary             the ring of width r (and the outside, read as
//                             0 and never used by a computed point) keeps
//                             the input's value;
//   ConstantBoundary<Value>   the outside is loaded as Value at level 0 and
//                             keeps it;
//   PeriodicBoundary          every point is computed: the input is loaded
//                             wrapped, so every level is the periodic
//                             extension of the grid, halo included.
//
// The rows and columns of a level whose inputs are not yet (or no longer)
// in the block's window are computed too, from stale ring rows, but only
// ever feed points of later levels that are themselves outside the part
// the block stores. The result of `steps` steps is therefore bit-identical
// to `steps` single steps at every point, for any grid size (a grid smaller
// than the strip or than the halo included).
//
// The stencil comes from the traits type Params::Stencil:
//
//   struct Stencil {
//     static constexpr int kRadius = 1, kTerms = 5;
//     template <class C> static __host__ __device__ constexpr Term<C> term(int i);
//   };
//
// term(i) is the i-th term (dy, dx, coefficient) in the order of the FMAs;
// the coefficient is given in the Compute type (the host reference can use
// the same function). The rest of Params (listed at Geometry) are the
// kernel's numbers.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/boundary.cuh"
#include "stencilc/device/element.cuh"
#include "stencilc/device/memory.cuh"

namespace stencilc {
namespace device {
namespace fused {

/// One term of a stencil: coefficient c times the input at (y + dy, x + dx).
template <class C> struct Term {
  int dy, dx;
  C c;
};

/// Which points a single step computes, by the boundary rule; the others
/// keep their value (the fixed ring, the outside of a constant boundary).
template <class Boundary> struct Computes {
  /// Whether the point at y, of a grid of n along that axis, is computed.
  static __device__ __forceinline__ bool axis(long long y, int n, int) { return y >= 0 && y < n; }
};
template <> struct Computes<FixedBoundary> {
  static __device__ __forceinline__ bool axis(long long y, int n, int r) {
    return y >= r && y < n - r;
  }
};
template <> struct Computes<PeriodicBoundary> {
  static __device__ __forceinline__ bool axis(long long, int, int) { return true; }
};

/// The smallest extent per axis a boundary rule allows (fixed: 2r + 1).
template <class Boundary> constexpr int minExtent(int radius) {
  return std::is_same_v<Boundary, FixedBoundary> ? 2 * radius + 1 : 1;
}

/// The sizes of a fused kernel, from Params:
///   Element, Compute   the grid's element type and the arithmetic type
///   Boundary           a boundary policy of boundary.cuh
///   Stencil            the terms (see above); Stencil::kRadius is r
///   kSteps             T, the steps fused per pass (1 .. 8)
///   kWidth             the strip's columns in shared memory, halo included
///                      (a multiple of the 16-byte vector and of kThreads)
///   kThreads           threads per block (each owns kWidth / kThreads
///                      columns, kThreads apart)
///   kBatch             rows per level per iteration
///   kChunkY            output rows per block
template <class Params> struct Geometry : Params {
  using Element = typename Params::Element;
  using Compute = typename Params::Compute;
  using Stencil = typename Params::Stencil;
  static constexpr int kRadius = Stencil::kRadius;
  static constexpr int kTerms = Stencil::kTerms;
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Element));
  /// The redundant halo each side: kSteps * r, whole vectors.
  static constexpr int kHalo = (Params::kSteps * kRadius + kVec - 1) / kVec * kVec;
  static constexpr int kTileX = Params::kWidth - 2 * kHalo;
  /// Rows of a level's ring: a batch and the 2r rows before it.
  static constexpr int kRing = Params::kBatch + 2 * kRadius;
  static constexpr int kColsPerThread = Params::kWidth / Params::kThreads;
  static constexpr int kGroupsPerRow = Params::kWidth / kVec;
  /// 16-byte groups of a batch of input rows, and per thread.
  static constexpr int kGroups = Params::kBatch * kGroupsPerRow;
  static constexpr int kGroupsPerThread = (kGroups + Params::kThreads - 1) / Params::kThreads;

  static_assert(Params::kSteps >= 1 && Params::kSteps <= 8, "1 to 8 fused steps");
  static_assert(kRadius >= 1, "a stencil of radius 0 needs no kernel");
  static_assert(Params::kWidth % kVec == 0 && Params::kWidth % Params::kThreads == 0,
                "the strip is whole vectors, and whole columns per thread");
  static_assert(kTileX >= kVec, "the halo leaves columns to store");
  static_assert(Params::kChunkY >= 1 && Params::kBatch >= 1, "rows per block and per batch");

  /// Shared memory of a pass of `levels` fused steps: the rings of levels
  /// 0 .. levels - 1.
  static constexpr int sharedBytes(int levels) {
    return levels * kRing * Params::kWidth * static_cast<int>(sizeof(Element));
  }
};

/// The ring slot of row y (any sign) in a ring of S::kRing rows.
template <class S> __device__ __forceinline__ int slotOf(long long y) {
  const long long m = y % S::kRing;
  return static_cast<int>(m < 0 ? m + S::kRing : m);
}

/// The kVec elements of row y, columns [x, x + kVec): one 16-byte load
/// where the whole vector is in the grid (and `vectorRows`), the boundary
/// rule element by element elsewhere.
template <class S>
__device__ __forceinline__ uint4 fetchGroup(const typename S::Element *__restrict__ in, long long y,
                                            long long x, int ny, int nx, bool vectorRows) {
  using Element = typename S::Element;
  if (vectorRows && y >= 0 && y < ny && x >= 0 && x + S::kVec <= nx) {
    return loadVector<0>(in + y * nx + x);
  }
  alignas(16) Element values[S::kVec];
#pragma unroll
  for (int e = 0; e < S::kVec; ++e) {
    values[e] = S::Boundary::read(in, y, x + e, ny, nx);
  }
  return *reinterpret_cast<const uint4 *>(values);
}

/// A block's part of a pass: its strip's first stored column x0 (the
/// strip's shared memory starts at x0 - kHalo), its stored rows [yBegin,
/// yEnd), and whether input rows are whole, aligned 16-byte vectors.
struct Block {
  long long x0, yBegin, yEnd;
  bool vectorRows;
};

/// Starts this thread's loads of the input rows [p, p + kBatch) of the
/// block's strip (group g: row g / kGroupsPerRow, vector g % kGroupsPerRow).
template <class S>
__device__ __forceinline__ void fetchBatch(uint4 (&groups)[S::kGroupsPerThread],
                                           const typename S::Element *__restrict__ in, long long p,
                                           const Block &b, int ny, int nx) {
#pragma unroll
  for (int k = 0; k < S::kGroupsPerThread; ++k) {
    const int g = threadIdx.x + k * S::kThreads;
    if (S::kGroups % S::kThreads == 0 || g < S::kGroups) {
      groups[k] =
          fetchGroup<S>(in, p + g / S::kGroupsPerRow,
                        b.x0 - S::kHalo + g % S::kGroupsPerRow * S::kVec, ny, nx, b.vectorRows);
    }
  }
}

/// Puts the loaded rows [p, p + kBatch) into level 0's ring.
template <class S>
__device__ __forceinline__ void putBatch(typename S::Element *ring,
                                         const uint4 (&groups)[S::kGroupsPerThread], long long p) {
  const int first = slotOf<S>(p);
#pragma unroll
  for (int k = 0; k < S::kGroupsPerThread; ++k) {
    const int g = threadIdx.x + k * S::kThreads;
    if (S::kGroups % S::kThreads == 0 || g < S::kGroups) {
      int slot = first + g / S::kGroupsPerRow;
      slot -= slot >= S::kRing ? S::kRing : 0;
      *reinterpret_cast<uint4 *>(&ring[slot * S::kWidth + g % S::kGroupsPerRow * S::kVec]) =
          groups[k];
    }
  }
}

/// Rows [y0, y0 + kBatch) of one level from the level before (`from`, its
/// ring): each thread its columns, from a window of kBatch + 2r rows by
/// 2r + 1 columns read once into registers. Last: the rows are stored to
/// `out` (the block's stored part only), else written to `to`, the
/// level's ring.
template <class S, bool Last>
__device__ __forceinline__ void
computeLevel(const typename S::Element *from, typename S::Element *to,
             typename S::Element *__restrict__ out, long long y0, const Block &b, int ny, int nx) {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  using Computes = fused::Computes<typename S::Boundary>;
  constexpr int r = S::kRadius;
  constexpr int kRows = S::kBatch + 2 * r;
  const int firstSlot = slotOf<S>(y0 - r); // of window row 0
  bool rowComputed[S::kBatch];
  bool rowStored[S::kBatch];
#pragma unroll
  for (int j = 0; j < S::kBatch; ++j) {
    const long long y = y0 + j;
    rowComputed[j] = Computes::axis(y, ny, r);
    rowStored[j] = y >= b.yBegin && y < b.yEnd;
  }
#pragma unroll
  for (int k = 0; k < S::kColsPerThread; ++k) {
    const int c = threadIdx.x + k * S::kThreads;
    if (c < r || c >= S::kWidth - r) {
      continue; // the strip's outermost columns: nothing to read beside them
    }
    const long long x = b.x0 - S::kHalo + c;
    const bool colComputed = Computes::axis(x, nx, r);
    Element window[kRows][2 * r + 1];
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      int slot = firstSlot + i;
      slot -= slot >= S::kRing ? S::kRing : 0;
#pragma unroll
      for (int dx = -r; dx <= r; ++dx) {
        window[i][dx + r] = from[slot * S::kWidth + c + dx];
      }
    }
#pragma unroll
    for (int j = 0; j < S::kBatch; ++j) {
      Compute acc = Compute(0);
#pragma unroll
      for (int t = 0; t < S::kTerms; ++t) {
        const Term<Compute> term = S::Stencil::template term<Compute>(t);
        acc = madd(term.c, toCompute(window[j + r + term.dy][r + term.dx]), acc);
      }
      const Element value =
          rowComputed[j] && colComputed ? toElement<Element>(acc) : window[j + r][r];
      if constexpr (Last) {
        if (rowStored[j] && c >= S::kHalo && c < S::kHalo + S::kTileX && x < nx && rowComputed[j] &&
            colComputed) {
          out[(y0 + j) * nx + x] = value;
        }
      } else {
        int slot = firstSlot + r + j;
        slot -= slot >= S::kRing ? S::kRing : 0;
        to[slot * S::kWidth + c] = value;
      }
    }
  }
}

/// The shared memory of a pass: Levels rings of kRing x kWidth elements.
template <class S> __device__ __forceinline__ typename S::Element *rings() {
  extern __shared__ __align__(16) unsigned char sharedRings[];
  return reinterpret_cast<typename S::Element *>(sharedRings);
}

/// One pass of Levels fused steps (1 <= Levels <= kSteps) by the block
/// (the whole body of a kernel): in -> out, an ny x nx grid, kChunkY rows
/// per block along blockIdx.y, kTileX columns along blockIdx.x. Needs
/// S::sharedBytes(Levels) bytes of dynamic shared memory.
template <class S, int Levels>
__device__ __forceinline__ void pass(const typename S::Element *__restrict__ in,
                                     typename S::Element *__restrict__ out, int ny, int nx) {
  static_assert(Levels >= 1 && Levels <= S::kSteps, "a pass fuses 1 .. kSteps steps");
  using Element = typename S::Element;
  constexpr int r = S::kRadius;
  constexpr int kLag = Levels * r; // level Levels lags the input by this
  Element *const ring = rings<S>();
  Block b;
  b.x0 = static_cast<long long>(blockIdx.x) * S::kTileX;
  b.yBegin = static_cast<long long>(blockIdx.y) * S::kChunkY;
  b.yEnd = b.yBegin + S::kChunkY < ny ? b.yBegin + S::kChunkY : ny;
  b.vectorRows = nx % S::kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;

  // Stale rows only ever feed rows the block does not store, but keep them
  // finite and initialised all the same.
  for (int i = threadIdx.x; i < Levels * S::kRing * S::kWidth; i += S::kThreads) {
    ring[i] = Element(0.0f);
  }
  __syncthreads();

  const long long pFirst = b.yBegin - kLag; // the first input row
  uint4 groups[S::kGroupsPerThread];
  fetchBatch<S>(groups, in, pFirst, b, ny, nx);
  putBatch<S>(ring, groups, pFirst);
  __syncthreads();
  // q: the first row of the batch of level 0 in the ring.
  for (long long q = pFirst; q - kLag < b.yEnd; q += S::kBatch) {
    const bool more = q + S::kBatch - kLag < b.yEnd;
    if (more) {
      fetchBatch<S>(groups, in, q + S::kBatch, b, ny, nx);
    }
#pragma unroll
    for (int t = 1; t <= Levels; ++t) {
      const long long y0 = q - static_cast<long long>(t) * r;
      // Level t is right from row pFirst + t r on; earlier batches are
      // skipped (block-uniform, so the barrier below is too).
      const bool useful = y0 + S::kBatch > pFirst + static_cast<long long>(t) * r;
      const Element *from = ring + (t - 1) * S::kRing * S::kWidth;
      if (t == Levels) {
        if (useful) {
          computeLevel<S, true>(from, nullptr, out, y0, b, ny, nx);
        }
      } else {
        if (useful) {
          computeLevel<S, false>(from, ring + t * S::kRing * S::kWidth, out, y0, b, ny, nx);
        }
        __syncthreads(); // level t + 1 reads what level t wrote
      }
    }
    if (!more) {
      break;
    }
    if constexpr (Levels == 1) {
      __syncthreads(); // level 1 has read the rows the batch replaces
    }
    putBatch<S>(ring, groups, q + S::kBatch);
    __syncthreads();
  }
}

/// The kernel of a pass of Levels fused steps.
template <class S, int Levels>
__global__ void __launch_bounds__(S::kThreads)
    passKernel(const typename S::Element *__restrict__ in, typename S::Element *__restrict__ out,
               int ny, int nx) {
  pass<S, Levels>(in, out, ny, nx);
}

/// The blocks of a pass on an ny x nx grid.
template <class S> inline dim3 gridFor(int ny, int nx) {
  return dim3(static_cast<unsigned>((nx - 1) / S::kTileX + 1),
              static_cast<unsigned>((ny - 1) / S::kChunkY + 1), 1u);
}

/// Launches one pass of `levels` fused steps (1 .. kSteps) on `stream`,
/// in -> out, and returns the launch's status (cudaErrorInvalidValue for a
/// grid past the launch limits or levels out of range).
template <class S, int Levels = S::kSteps>
inline cudaError_t launchPass(int levels, const typename S::Element *in, typename S::Element *out,
                              int ny, int nx, cudaStream_t stream) {
  if constexpr (Levels < 1) {
    return cudaErrorInvalidValue;
  } else {
    if (levels != Levels) {
      return launchPass<S, Levels - 1>(levels, in, out, ny, nx, stream);
    }
    const dim3 grid = gridFor<S>(ny, nx);
    if (grid.y > 65535u) {
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
    passKernel<S, Levels><<<grid, S::kThreads, bytes, stream>>>(in, out, ny, nx);
    return cudaGetLastError();
  }
}

/// `steps` steps on an ny x nx grid, as NAME_run does them: passes of
/// kSteps fused steps and one pass of the remainder, ping-ponging between a
/// and b; the result is left in a (b is scratch of the same size). With a
/// fixed boundary the ring of a is copied into b first, so that every
/// pass's output has the ring of the input. cudaErrorInvalidValue, and
/// nothing enqueued, for a null pointer, a == b, a size below the
/// boundary's minimum (fixed: 2r + 1) or steps < 0.
template <class S>
inline cudaError_t run(typename S::Element *a, typename S::Element *b, int ny, int nx, int steps,
                       cudaStream_t stream) {
  using Element = typename S::Element;
  const int least = minExtent<typename S::Boundary>(S::kRadius);
  if (a == nullptr || b == nullptr || a == b || ny < least || nx < least || steps < 0) {
    return cudaErrorInvalidValue;
  }
  if (steps == 0) {
    return cudaSuccess;
  }
  const size_t row = static_cast<size_t>(nx) * sizeof(Element);
  if constexpr (std::is_same_v<typename S::Boundary, FixedBoundary>) {
    constexpr int r = S::kRadius;
    const size_t edge = static_cast<size_t>(r) * sizeof(Element);
    const size_t bottom = static_cast<size_t>(ny - r) * nx;
    const size_t right = static_cast<size_t>(nx - r);
    cudaError_t status = cudaMemcpyAsync(b, a, r * row, cudaMemcpyDeviceToDevice, stream);
    if (status == cudaSuccess) {
      status = cudaMemcpyAsync(b + bottom, a + bottom, r * row, cudaMemcpyDeviceToDevice, stream);
    }
    if (status == cudaSuccess) {
      status = cudaMemcpy2DAsync(b, row, a, row, edge, ny, cudaMemcpyDeviceToDevice, stream);
    }
    if (status == cudaSuccess) {
      status = cudaMemcpy2DAsync(b + right, row, a + right, row, edge, ny, cudaMemcpyDeviceToDevice,
                                 stream);
    }
    if (status != cudaSuccess) {
      return status;
    }
  }
  Element *src = a;
  Element *dst = b;
  for (int done = 0; done < steps; done += S::kSteps) {
    const int levels = steps - done < S::kSteps ? steps - done : S::kSteps;
    if (const cudaError_t status = launchPass<S>(levels, src, dst, ny, nx, stream);
        status != cudaSuccess) {
      return status;
    }
    std::swap(src, dst);
  }
  if (src != a) {
    return cudaMemcpyAsync(a, src, static_cast<size_t>(ny) * row, cudaMemcpyDeviceToDevice, stream);
  }
  return cudaSuccess;
}

} // namespace fused
} // namespace device
} // namespace stencilc
