// tiled_levels.cuh - issue 19, item 4, way B: T repeated steps inside a tile
// on the tensor cores (an experiment; bench/tcfuse/README.md).
//
// A block (persistent, or one a tile) walks final tiles of the grid,
// kOutRows x kOutCols outputs each. It loads a tile's window (the tile and T r more on each
// side, through the stencil's boundary rule) into shared memory; with
// Prefetch, the next tile's window is read into registers while the levels
// of this one run. Level 1 runs the single-step tensor-core method (the
// generated plan's slice GEMMs, unchanged) over NR x NC MMA tiles that
// cover the final tile and (T - 1) r more on each side. The accumulators go
// back to shared memory, rounded as NAME_step rounds what it stores (tf32:
// then as its next window load rounds), into a second buffer with the same
// layout, which is level 2's operand, and so on; level l skips the MMA
// tiles outside the final tile widened by (T - l) r. The last level's
// buffer is copied to the grid with 16-byte stores. So T levels are T
// NAME_step calls bit for bit.
//
// Measured on an H100 (docs/performance.md, 2026-11-25 03:30 UTC): slower
// than the CUDA-core fused kernel for every kind, so it stays here.
//
// Boundaries, select per point as the CUDA-core fused kernel does: under
// `fixed` a ring point, and under `fixed` or `constant` a point outside the
// grid, keeps its value of the level before (the ring, 0 or the constant);
// `periodic` windows are loaded wrapped and every point is computed.
// `clamp` and `mirror` are not implemented (a static_assert).
//
// The layout: buffer element (w, c) holds grid point (oy0 - r + w, ox0 - H
// + c), H = kHaloCols, where (oy0, ox0) is the first output of MMA tile
// (0, 0): MMA tile (i, j) reads the buffer exactly as the generated kernel
// reads its window, and writes its output (y, x) to the position of (y, x)
// in the other buffer. Points that no level writes keep their loaded value
// or zero, so every operand stays finite.
//
// The generated slice GEMMs come in through a type Gemms (written by
// gen-levels.sh from the generated file):
//   static const auto *table()              the generated kParams
//   template <class B> static auto load(const Element *params, int lane)
//       the parameter fragments, returned inside a callable
//       f(acc, window, tile) that runs the generated GEMM calls.
#pragma once

#include <type_traits>

#include <cuda_runtime.h>

#include <stencilc/device/element.cuh>
#include <stencilc/device/tensor.cuh>

namespace stencilc {
namespace device {
namespace levels {

/// The generated geometry G with NR x NC MMA tiles per block and T levels;
/// MinBlocks blocks a multiprocessor asked of the register allocation;
/// Prefetch: whether the next tile's window is read into registers while
/// the levels of a tile run (else it is read when the tile starts);
/// Persistent: as many blocks as fit at once, each walking tiles (else one
/// block a tile).
template <class G, int T, int NR, int NC, int MinBlocks = 1, bool Prefetch = true,
          bool Persistent = true>
struct Geometry : G {
  using Element = typename G::Element;
  static constexpr int kSteps = T;
  static constexpr int kMinBlocks = MinBlocks;
  static constexpr bool kPrefetch = Prefetch;
  static constexpr bool kPersistent = Persistent;
  static constexpr int kWarps = 8;
  static constexpr int kTileRows = NR;
  static constexpr int kTileCols = NC;
  static constexpr int kExtra = (T - 1) * G::kRadius; // level 1's outputs past the final tile, down
  static constexpr int kExtraCols =
      (kExtra + G::kVec - 1) / G::kVec * G::kVec; // across, whole vectors
  static constexpr int kOutRows = NR * G::kTileM - 2 * kExtra;
  static constexpr int kOutCols = NC * G::kTileN - 2 * kExtraCols;
  static constexpr int kWindowRows = NR * G::kTileM + G::kWindowRows - G::kTileRows * G::kTileM;
  static constexpr int kLoadedRows = NR * G::kTileM + G::kLoadedRows - G::kTileRows * G::kTileM;
  static constexpr int kLoadedColEnd = NC * G::kTileN + G::kLoadedColEnd - G::kTileCols * G::kTileN;
  /// The generated pitch's room past the block tile, and the same offset
  /// modulo 128 bytes (its padding against bank conflicts).
  static constexpr int pitch() {
    int p = NC * G::kTileN + G::kPitch - G::kTileCols * G::kTileN;
    while (p * sizeof(Element) % 128 != G::kPitch * sizeof(Element) % 128) {
      p += G::kVec;
    }
    return p;
  }
  static constexpr int kPitch = pitch();
  static constexpr int kBufferElements = kWindowRows * kPitch;
  static constexpr int kSharedBytes =
      static_cast<int>((2 * kBufferElements + G::kParamElements) * sizeof(Element));
  static_assert(kOutRows > 0 && kOutCols > 0, "the tile must outgrow the fused halo");
};

template <class LG> struct Levels {
  using B = TensorBlock<LG>;
  using Element = typename LG::Element;
  using Boundary = typename LG::Boundary;
  static constexpr int kTiles = LG::kTileRows * LG::kTileCols;
  static constexpr bool kPeriodic = std::is_same_v<Boundary, PeriodicBoundary>;
  static constexpr bool kTf32 = std::is_same_v<typename LG::Mma, MmaM16N8K8Tf32>;
  static_assert(kPeriodic || std::is_same_v<Boundary, FixedBoundary> || B::kRing == 0,
                "fixed, constant and periodic only");
  static_assert(!std::is_same_v<Boundary, ClampBoundary> &&
                    !std::is_same_v<Boundary, MirrorBoundary>,
                "clamp and mirror are not implemented in way B");

  struct alignas(2 * sizeof(Element)) Pair {
    Element v[2];
  };

  /// Whether grid point (y, x) keeps its value from level to level.
  static __device__ __forceinline__ bool keeps(long long y, long long x, int ny, int nx) {
    return !kPeriodic && (y < B::kRing || y >= ny - B::kRing || x < B::kRing || x >= nx - B::kRing);
  }

  /// An accumulator as a level stores it: NAME_step's rounding, and for
  /// tf32 the next window load's (not on the last level, which is stored).
  static __device__ __forceinline__ Element level(typename B::Accumulator acc, bool last) {
    Element v = toElement<Element>(acc);
    if constexpr (kTf32) {
      if (!last) {
        v = roundToTf32(v);
      }
    }
    return v;
  }

  static constexpr int kGroupsPerRow = LG::kLoadedColEnd / B::kVec;
  static constexpr int kGroups = LG::kLoadedRows * kGroupsPerRow;
  static constexpr int kGroupsPerThread = (kGroups + B::kThreads - 1) / B::kThreads;
  /// The 16-byte groups of a window this thread fetches and puts.
  using Staged = uint4[kGroupsPerThread];

  /// Reads the window of grid points (oy0 - r + w, ox0 - H + c) into
  /// registers (every load issued before any is used).
  static __device__ __forceinline__ void fetch(const Element *__restrict__ in, Staged &staged,
                                               long long oy0, long long ox0, int ny, int nx) {
    const bool vectors = nx % B::kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
#pragma unroll
    for (int i = 0; i < kGroupsPerThread; ++i) {
      const int g = threadIdx.x + i * B::kThreads;
      const int w = g / kGroupsPerRow;
      const int c = g % kGroupsPerRow * B::kVec;
      const long long y = oy0 - B::kRadius + w;
      const long long x = ox0 - B::kHaloCols + c;
      if (g >= kGroups) {
        continue;
      }
      if (vectors && y >= 0 && y < ny && x >= 0 && x + B::kVec <= nx) {
        staged[i] = *reinterpret_cast<const uint4 *>(in + y * nx + x);
      } else {
        alignas(16) Element v[B::kVec];
#pragma unroll
        for (int e = 0; e < B::kVec; ++e) {
          v[e] = Boundary::read(in, y, x + e, ny, nx);
        }
        staged[i] = *reinterpret_cast<const uint4 *>(v);
      }
    }
  }

  /// Writes a fetched window into buf (tf32 rounded as the MMA reads it).
  static __device__ __forceinline__ void put(Element *buf, const Staged &staged) {
#pragma unroll
    for (int i = 0; i < kGroupsPerThread; ++i) {
      const int g = threadIdx.x + i * B::kThreads;
      if (g >= kGroups) {
        continue;
      }
      alignas(16) Element v[B::kVec];
      *reinterpret_cast<uint4 *>(v) = staged[i];
      if constexpr (kTf32) {
#pragma unroll
        for (int e = 0; e < B::kVec; ++e) {
          v[e] = roundToTf32(v[e]);
        }
      }
      *reinterpret_cast<uint4 *>(
          &buf[g / kGroupsPerRow * B::kPitch + g % kGroupsPerRow * B::kVec]) =
          *reinterpret_cast<const uint4 *>(v);
    }
  }

  /// Writes MMA tile t's accumulators into dst at their points' places;
  /// points that keep their value take it from src.
  static __device__ __forceinline__ void writeTile(Element *dst, const Element *src,
                                                   const typename B::Tile &t,
                                                   const typename B::FragmentC (&acc)[LG::kNBlocks],
                                                   bool last, long long oy0, long long ox0, int ny,
                                                   int nx, int lane) {
    constexpr int kHalves = LG::kTileM / 8; // accumulator rows g and g + 8, or g alone
    // Whether no point of the tile keeps its value (most tiles).
    const bool computed =
        kPeriodic || (t.outRow >= B::kRing && t.outRow + LG::kTileM <= ny - B::kRing &&
                      t.outCol >= B::kRing && t.outCol + LG::kTileN <= nx - B::kRing);
#pragma unroll
    for (int j = 0; j < LG::kNBlocks; ++j) {
#pragma unroll
      for (int h = 0; h < kHalves; ++h) {
        const int row = t.row + lane / 4 + 8 * h;
        const int col = t.col + j * B::kMmaN + lane % 4 * 2;
        const int at = (row + B::kRadius) * B::kPitch + col + B::kHaloCols;
        const long long y = oy0 + row, x = ox0 + col;
        Pair p;
        p.v[0] = level(acc[j].x[2 * h], last);
        p.v[1] = level(acc[j].x[2 * h + 1], last);
        if (!computed && (keeps(y, x, ny, nx) || keeps(y, x + 1, ny, nx))) {
          const Pair old = *reinterpret_cast<const Pair *>(&src[at]);
          p.v[0] = keeps(y, x, ny, nx) ? old.v[0] : p.v[0];
          p.v[1] = keeps(y, x + 1, ny, nx) ? old.v[1] : p.v[1];
        }
        *reinterpret_cast<Pair *>(&dst[at]) = p;
      }
    }
  }

  /// Copies the final tile from buf to the grid: rows of 16-byte vectors,
  /// element by element at the ring and the grid's edge.
  static __device__ __forceinline__ void store(Element *__restrict__ out, const Element *buf,
                                               long long y0, long long x0, int ny, int nx) {
    constexpr int kGroupsPerRow = LG::kOutCols / B::kVec;
    const bool vectors = nx % B::kVec == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    for (int g = threadIdx.x; g < LG::kOutRows * kGroupsPerRow; g += B::kThreads) {
      const int r = g / kGroupsPerRow;
      const int c = g % kGroupsPerRow * B::kVec;
      const long long y = y0 + r, x = x0 + c;
      if (y < B::kRing || y >= ny - B::kRing || x >= nx) {
        continue;
      }
      const Element *s =
          &buf[(r + LG::kExtra + B::kRadius) * B::kPitch + c + LG::kExtraCols + B::kHaloCols];
      if (vectors && x >= B::kRing && x + B::kVec <= nx - B::kRing) {
        *reinterpret_cast<uint4 *>(out + y * nx + x) = *reinterpret_cast<const uint4 *>(s);
      } else {
#pragma unroll
        for (int e = 0; e < B::kVec; ++e) {
          if (x + e >= B::kRing && x + e < nx - B::kRing) {
            out[y * nx + x + e] = s[e];
          }
        }
      }
    }
  }
};

/// T levels over final tiles: a persistent block walks them (tile, tile +
/// gridDim.x, ...), fetching the next tile's window into registers while
/// its levels run on the one before.
template <class LG, class Gemms>
__global__ void __launch_bounds__(LG::kWarps * 32, LG::kMinBlocks)
    levelsKernel(const typename LG::Element *__restrict__ in,
                 typename LG::Element *__restrict__ out, int ny, int nx, int across, int count) {
  using L = Levels<LG>;
  using B = typename L::B;
  using Element = typename LG::Element;
  extern __shared__ __align__(128) unsigned char shared[];
  Element *const buffers = reinterpret_cast<Element *>(shared); // two, kBufferElements apart
  Element *params = buffers + 2 * LG::kBufferElements;
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;

  typename L::Staged staged;
  auto origin = [&](int tile, long long &y0, long long &x0) {
    y0 = static_cast<long long>(tile / across) * LG::kOutRows;
    x0 = static_cast<long long>(tile % across) * LG::kOutCols;
  };
  long long y0, x0;
  origin(blockIdx.x, y0, x0);
  if constexpr (LG::kPrefetch) {
    L::fetch(in, staged, y0 - LG::kExtra, x0 - LG::kExtraCols, ny, nx);
  }
  for (int i = threadIdx.x; i < 2 * LG::kBufferElements * int(sizeof(Element)) / 16;
       i += B::kThreads) {
    reinterpret_cast<uint4 *>(shared)[i] = make_uint4(0u, 0u, 0u, 0u);
  }
  B::copyParams(params, Gemms::table()); // (ends in a barrier)
  const auto gemms = Gemms::template load<B>(params, lane);

  for (int tile = blockIdx.x; tile < count; tile += gridDim.x) {
    origin(tile, y0, x0);
    const long long oy0 = y0 - LG::kExtra, ox0 = x0 - LG::kExtraCols;
    if constexpr (!LG::kPrefetch) {
      L::fetch(in, staged, oy0, ox0, ny, nx);
    }
    L::put(buffers, staged);
    if (LG::kPrefetch && tile + gridDim.x < count) {
      long long ny0, nx0;
      origin(tile + gridDim.x, ny0, nx0);
      L::fetch(in, staged, ny0 - LG::kExtra, nx0 - LG::kExtraCols, ny, nx);
    }
    __syncthreads();
    for (int level = 1; level <= LG::kSteps; ++level) {
      const Element *src = buffers + ((level - 1) & 1) * LG::kBufferElements;
      Element *dst = buffers + (level & 1) * LG::kBufferElements;
      const int need =
          (LG::kSteps - level) * LG::kRadius; // outputs past the final tile still needed
      const bool last = level == LG::kSteps;
#pragma unroll
      for (int k = 0; k < (L::kTiles + LG::kWarps - 1) / LG::kWarps; ++k) {
        const int index = warp + k * LG::kWarps;
        if (L::kTiles % LG::kWarps != 0 && index >= L::kTiles) {
          continue;
        }
        typename B::Tile t;
        t.index = index;
        t.row = index / LG::kTileCols * LG::kTileM;
        t.col = index % LG::kTileCols * LG::kTileN;
        t.outRow = oy0 + t.row;
        t.outCol = ox0 + t.col;
        const int top = t.row - LG::kExtra, left = t.col - LG::kExtraCols; // from the final tile
        if (top + LG::kTileM <= -need || top >= LG::kOutRows + need || left + LG::kTileN <= -need ||
            left >= LG::kOutCols + need || t.outRow >= ny + need || t.outCol >= nx + need) {
          continue; // no output of this level needed here
        }
        typename B::FragmentC acc[LG::kNBlocks];
        gemms(acc, src, t);
        L::writeTile(dst, src, t, acc, last, oy0, ox0, ny, nx, lane);
      }
      __syncthreads();
    }
    L::store(out, buffers + (LG::kSteps & 1) * LG::kBufferElements, y0, x0, ny, nx);
    __syncthreads(); // the store has read the last level before the next window lands
  }
}

/// One pass of T levels, from in to out (out's fixed ring untouched).
template <class LG, class Gemms>
cudaError_t pass(const typename LG::Element *in, typename LG::Element *out, int ny, int nx,
                 cudaStream_t stream) {
  auto kernel = levelsKernel<LG, Gemms>;
  static const cudaError_t attribute =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, LG::kSharedBytes);
  if (attribute != cudaSuccess) {
    return attribute;
  }
  static int resident = 0;
  if (resident == 0) {
    int device = 0, multiprocessors = 0, perMultiprocessor = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess) {
      status = cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
    }
    if (status == cudaSuccess) {
      status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, kernel,
                                                             LG::kWarps * 32, LG::kSharedBytes);
    }
    if (status != cudaSuccess) {
      return status;
    }
    resident = multiprocessors * (perMultiprocessor > 0 ? perMultiprocessor : 1);
  }
  const int across = (nx + LG::kOutCols - 1) / LG::kOutCols;
  const long long tiles = static_cast<long long>(across) * ((ny + LG::kOutRows - 1) / LG::kOutRows);
  if (tiles > 0x7fffffffLL) {
    return cudaErrorInvalidValue;
  }
  const int count = static_cast<int>(tiles);
  const int blocks = LG::kPersistent && resident < count ? resident : count;
  kernel<<<blocks, LG::kWarps * 32, LG::kSharedBytes, stream>>>(in, out, ny, nx, across, count);
  return cudaGetLastError();
}

/// NAME_run in passes of T levels and single steps (NAME_step) for the
/// remainder; the result in a, as the generated NAME_run leaves it.
template <class LG, class Gemms, class Step>
cudaError_t run(typename LG::Element *a, typename LG::Element *b, int ny, int nx, int steps,
                Step step, cudaStream_t stream) {
  using Element = typename LG::Element;
  if (a == nullptr || b == nullptr || steps < 0 || ny < 1 || nx < 1) {
    return cudaErrorInvalidValue;
  }
  if (steps == 0) {
    return cudaSuccess;
  }
  const size_t bytes = static_cast<size_t>(ny) * static_cast<size_t>(nx) * sizeof(Element);
  cudaError_t status = cudaSuccess;
  if (LG::kRing > 0) { // fixed: b's ring is a's from the start
    status = cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
  }
  Element *from = a, *to = b;
  for (int done = 0; status == cudaSuccess && done < steps;) {
    if (steps - done >= LG::kSteps) {
      status = pass<LG, Gemms>(from, to, ny, nx, stream);
      done += LG::kSteps;
    } else {
      status = step(from, to, ny, nx, stream);
      done += 1;
    }
    Element *swap = from;
    from = to;
    to = swap;
  }
  if (status == cudaSuccess && from != a) {
    status = cudaMemcpyAsync(a, from, bytes, cudaMemcpyDeviceToDevice, stream);
  }
  return status;
}

} // namespace levels
} // namespace device
} // namespace stencilc
