// stencilc/device/rank_one.cuh - T steps of a rank-1 2D stencil as one
// pass of the stencil composed T times (issue 35, low rank; docs/design.md,
// "Composed rank-1 passes"). A stencil whose coefficients are a column
// times a row (the uniform blur, the binomial Gaussian) composes into one of
// the same kind: radius W = T r, its column and row the T-fold convolutions
// of the stencil's. So a pass is one x-pass of 2 W + 1 taps a row and one
// y-pass of 2 W + 1 taps a column, where T fused levels take T times the
// stencil's own operations and queues of them. The pass is exact only W or
// more inside the grid; composed.cuh's run puts the band kernel (band.cuh)
// beside it for the points within W of an edge.
//
// The kernel streams: a block takes a strip of kColumns output columns and
// kRows output rows and walks its window's rows down in batches of kBatch.
// A batch's rows are copied into one of two buffers a batch ahead
// (cp.async, overlapping the arithmetic of the batch before), then x-passed
// into a ring of kLag + 1 batches of rows, kLag = ceil(2 W / kBatch); the
// batch completes the y-passes of the output rows kLag batches above it,
// which read the ring. No row is x-passed twice and no input row read twice
// but the kLag batches past a block's rows. Each thread computes kOut
// outputs along its pass from registers (a pass of K taps loads K + kOut - 1
// values for kOut outputs). docs/performance.md, 2026-12-06 about 18:15,
// measured this form against others.
//
// Arithmetic, as the emulator models it (SimtRankOne.cpp): a row's value
// at x is the multiply-adds of kRow's taps in order from 0 over the input
// (converted to Compute), and an output the multiply-adds of kColumn's taps
// in order from 0 over those row values, rounded once to Element.
//
// Traits:
//   using Element, Compute;
//   static constexpr int kRadius;                 W
//   static constexpr int kColumns, kBatch, kRows, kThreads, kMinBlocks;
//   static __device__ Compute row(int k), column(int k);   k in [0, 2 W]
#pragma once

#include <cstddef>

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include "stencilc/device/arch.cuh"
#include "stencilc/device/host.cuh"

namespace stencilc {
namespace device {
namespace rank_one {

/// Outputs a thread computes along its pass.
constexpr int kOut = 8;

template <class P> struct Shape {
  static constexpr int kW = P::kRadius, kTaps = 2 * kW + 1;
  static constexpr int kWindow = P::kColumns + 2 * kW;
  // Odd pitches: a warp's lanes on consecutive rows fall in distinct banks.
  static constexpr int kWindowPitch = kWindow | 1, kRingPitch = P::kColumns | 1;
  static constexpr int kLag = (2 * kW + P::kBatch - 1) / P::kBatch;
  static constexpr int kRingRows = P::kBatch * (kLag + 1);
  static constexpr int kBatches = P::kRows / P::kBatch + kLag;
  static constexpr size_t kBufferBytes = sizeof(typename P::Element) * 2 * P::kBatch * kWindowPitch;
  static constexpr size_t kSharedBytes =
      kBufferBytes + sizeof(typename P::Compute) * kRingRows * kRingPitch;
  static_assert(P::kRows % P::kBatch == 0 && P::kBatch % kOut == 0 && P::kColumns % kOut == 0,
                "whole tasks: kOut outputs a thread along each pass");
  static_assert(kBufferBytes % sizeof(typename P::Compute) == 0, "the ring is aligned");
};

/// Batch b's window rows (b * kBatch on from the block's first) into its
/// buffer; points past the grid read 0 (no output reads them).
template <class P>
__device__ __forceinline__ void copyBatch(const typename P::Element *__restrict__ in,
                                          typename P::Element *buffer, int b, int y0, int x0,
                                          int ny, int nx) {
  using S = Shape<P>;
  for (int i = threadIdx.x; i < P::kBatch * S::kWindow; i += P::kThreads) {
    const int r = i / S::kWindow, c = i - r * S::kWindow;
    const int gy = y0 + b * P::kBatch + r, gx = x0 + c;
    typename P::Element *to = buffer + r * S::kWindowPitch + c;
    if (gy < ny && gx < nx) {
      __pipeline_memcpy_async(to, in + static_cast<size_t>(gy) * nx + gx,
                              sizeof(typename P::Element));
    } else {
      *to = typename P::Element(0);
    }
  }
  __pipeline_commit();
}

/// kOut sums of a pass of K taps: sums[o] = the multiply-adds over k of
/// tap(k) * at(o + k), in order from 0, each value loaded once.
template <class Compute, int K, class Tap, class At>
__device__ __forceinline__ void passOf(Tap tap, At at, Compute (&sums)[kOut]) {
  Compute v[kOut + K - 1];
#pragma unroll
  for (int j = 0; j < kOut + K - 1; ++j) {
    v[j] = at(j);
  }
#pragma unroll
  for (int o = 0; o < kOut; ++o) {
    Compute s = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      s = fma(tap(k), v[o + k], s);
    }
    sums[o] = s;
  }
}

/// The x-passes of a batch's rows into ring slot `slot` (batches).
template <class P>
__device__ __forceinline__ void xPasses(const typename P::Element *rows, typename P::Compute *ring,
                                        int slot) {
  using S = Shape<P>;
  using Compute = typename P::Compute;
  for (int i = threadIdx.x; i < P::kBatch * (P::kColumns / kOut); i += P::kThreads) {
    const int r = i % P::kBatch, c0 = (i / P::kBatch) * kOut; // lanes on consecutive rows
    const typename P::Element *from = rows + r * S::kWindowPitch + c0;
    Compute sums[kOut];
    passOf<Compute, S::kTaps>([](int k) { return P::row(k); },
                              [&](int j) { return static_cast<Compute>(from[j]); }, sums);
#pragma unroll
    for (int o = 0; o < kOut; ++o) {
      ring[(slot * P::kBatch + r) * S::kRingPitch + c0 + o] = sums[o];
    }
  }
}

/// The y-passes of output group g (window rows from g * kBatch, whose ring
/// row is `first`), stored where the output lies W or more inside the grid.
template <class P>
__device__ __forceinline__ void yPasses(const typename P::Compute *ring, int first, int g,
                                        typename P::Element *__restrict__ out, int y0, int x0,
                                        int ny, int nx) {
  using S = Shape<P>;
  using Compute = typename P::Compute;
  for (int i = threadIdx.x; i < P::kColumns * (P::kBatch / kOut); i += P::kThreads) {
    const int c = i % P::kColumns, r0 = (i / P::kColumns) * kOut; // lanes on consecutive columns
    Compute sums[kOut];
    passOf<Compute, S::kTaps>(
        [](int k) { return P::column(k); },
        [&](int j) { return ring[((first + r0 + j) % S::kRingRows) * S::kRingPitch + c]; }, sums);
    const int gx = x0 + S::kW + c;
#pragma unroll
    for (int o = 0; o < kOut; ++o) {
      const int gy = y0 + S::kW + g * P::kBatch + r0 + o;
      if (gy < ny - S::kW && gx < nx - S::kW) {
        out[static_cast<size_t>(gy) * nx + gx] = static_cast<typename P::Element>(sums[o]);
      }
    }
  }
}

/// One pass over the block's strip. The loop over a round of kLag + 1
/// batches is unrolled, so each batch's ring slot (p) is a constant.
template <class P>
__global__ void __launch_bounds__(P::kThreads, P::kMinBlocks)
    kernel(const typename P::Element *__restrict__ in, typename P::Element *__restrict__ out,
           int ny, int nx) {
  if constexpr (planCompiledHere(static_cast<const P *>(nullptr))) {
    using S = Shape<P>;
    extern __shared__ __align__(16) unsigned char shared[];
    auto *buffers = reinterpret_cast<typename P::Element *>(shared);
    auto *ring = reinterpret_cast<typename P::Compute *>(shared + S::kBufferBytes);
    const int x0 = blockIdx.x * P::kColumns, y0 = blockIdx.y * P::kRows;
    const auto buffer = [&](int b) { return buffers + (b & 1) * P::kBatch * S::kWindowPitch; };
    copyBatch<P>(in, buffer(0), 0, y0, x0, ny, nx);
    for (int b0 = 0; b0 < S::kBatches; b0 += S::kLag + 1) {
#pragma unroll
      for (int p = 0; p <= S::kLag; ++p) {
        const int b = b0 + p;
        if (b >= S::kBatches) {
          break;
        }
        if (b + 1 < S::kBatches) {
          copyBatch<P>(in, buffer(b + 1), b + 1, y0, x0, ny, nx);
        } else {
          __pipeline_commit(); // empty: wait_prior(1) still means batch b
        }
        __pipeline_wait_prior(1);
        __syncthreads(); // batch b copied; the ring's slot p read by all
        xPasses<P>(buffer(b), ring, p);
        __syncthreads();
        if (b >= S::kLag) { // the group kLag batches up: its first row's slot follows p's
          yPasses<P>(ring, ((p + 1) % (S::kLag + 1)) * P::kBatch, b - S::kLag, out, y0, x0, ny, nx);
        }
      }
    }
  }
}

/// One pass, in -> out, on `stream`: every point W or more inside the grid
/// (the caller's grid is wider than 2 W on both axes); no other point of
/// `out` is written.
template <class P>
cudaError_t launch(const typename P::Element *in, typename P::Element *out, int ny, int nx,
                   cudaStream_t stream) {
  using S = Shape<P>;
  // On the current device, before every launch (host.cuh).
  if (const cudaError_t status = allowDynamicShared(kernel<P>, static_cast<int>(S::kSharedBytes));
      status != cudaSuccess) {
    return status;
  }
  const dim3 grid((nx - 2 * S::kW + P::kColumns - 1) / P::kColumns,
                  (ny - 2 * S::kW + P::kRows - 1) / P::kRows);
  kernel<P><<<grid, P::kThreads, S::kSharedBytes, stream>>>(in, out, ny, nx);
  return cudaGetLastError();
}

} // namespace rank_one
} // namespace device
} // namespace stencilc
