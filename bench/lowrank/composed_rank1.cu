// composed_rank1.cu - a measurement, not a plan stencilc makes: T steps of
// the uniform 7 x 7 blur (fp64) composed into one stencil of radius 3T,
// which has rank 1 like the blur (weights w_i w_j, w the T-fold convolution
// of seven 1/7s), run as two 1D passes of 6T + 1 taps, each thread 8
// outputs along its pass from registers, in two forms: tiles (a block's
// window and its halo of 3T in shared memory, its rows' x-passes, then the
// tile's y-passes) and streamed (streamPass: a strip's rows streamed down in
// batches, each row x-passed once into a ring, the y-passes from the ring).
// Issue 35's blur target asks 500 GStencil/s on an H100, where the fused
// pass of 4 steps runs 405. This times the passes over the interior only:
// the band of points within 3T of an edge (band.cuh) is not run, so the
// figures are an upper bound for a plan that adds it. Measured:
// bench/results/2026-12-06-1800-*.txt (tiles) and -1815-*.txt (streamed).
//
// Checks first, on a 1024^2 grid: one pass against T direct steps of the
// blur in float64 on the host (fixed ring of 3), at every point at least
// 3T from an edge, the largest difference printed. Then NAME_run's measure
// as sweep2d.cu takes it (test/GPU/device/fused_nd_bench.h: fresh random
// inputs, the median of 5 after 2 warm-ups, the copy in the same run):
// passes of T over an 8192^2 grid, ping-pong, for 100 steps (or the most
// whole passes under it), every grid point x step counted.
//
// Build (GPU machine): nvcc -std=c++17 -O3 -arch=sm_90 -I runtime/include
//   -I test/GPU/device bench/lowrank/composed_rank1.cu runtime/src/check.cpp
//   runtime/src/timer.cu -o composed_rank1
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include "fused_nd_bench.h" // test/GPU/device
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"

namespace {

constexpr int kOut = 8; // outputs a thread computes along its pass

/// The composed 1D weights of T steps: n_k / 7^T, n the T-fold convolution
/// of seven ones (exact integers), each rounded once to double.
std::vector<double> composedWeights(int steps) {
  std::vector<double> n{1.0};
  for (int s = 0; s < steps; ++s) {
    std::vector<double> next(n.size() + 6, 0.0);
    for (size_t i = 0; i < n.size(); ++i)
      for (int k = 0; k < 7; ++k)
        next[i + k] += n[i];
    n = next;
  }
  const double scale = std::pow(7.0, steps);
  for (double &v : n)
    v /= scale;
  return n;
}

__constant__ double cWeights[64];

/// kOut outputs of a 1D pass of K taps from registers: sums[o] is the sum
/// over k of cWeights[k] src[(o + k) * stride], the loads made once.
template <int K>
__device__ __forceinline__ void passOf(const double *src, int stride, double (&sums)[kOut]) {
  double v[kOut + K - 1];
#pragma unroll
  for (int j = 0; j < kOut + K - 1; ++j)
    v[j] = src[j * stride];
#pragma unroll
  for (int o = 0; o < kOut; ++o) {
    double s = 0.0;
#pragma unroll
    for (int k = 0; k < K; ++k)
      s = fma(cWeights[k], v[o + k], s);
    sums[o] = s;
  }
}

/// One pass of T composed steps over the tile of kTx x kTy outputs whose
/// window starts at (blockIdx.y * kTy, blockIdx.x * kTx); outputs are the
/// points at least R = 3T inside the grid, the rest of `out` untouched.
template <int T, int kTx, int kTy, int kThreads, int kBlocks>
__global__ void __launch_bounds__(kThreads, kBlocks)
    composedPass(const double *__restrict__ in, double *__restrict__ out, int ny, int nx) {
  constexpr int R = 3 * T, K = 2 * R + 1, WX = kTx + 2 * R, WY = kTy + 2 * R;
  constexpr int WXP = WX | 1; // odd pitches: a warp's rows fall in distinct banks
  constexpr int HXP = kTx | 1;
  extern __shared__ double smem[];
  double *win = smem;
  double *hx = smem + WY * WXP;
  const int wx0 = blockIdx.x * kTx, wy0 = blockIdx.y * kTy;
  for (int i = threadIdx.x; i < WY * WX; i += kThreads) {
    const int r = i / WX, c = i % WX, gy = wy0 + r, gx = wx0 + c;
    win[r * WXP + c] = gy < ny && gx < nx ? in[size_t(gy) * nx + gx] : 0.0;
  }
  __syncthreads();
  double sums[kOut];
  // x-passes of every window row: lanes take consecutive rows.
  for (int i = threadIdx.x; i < WY * (kTx / kOut); i += kThreads) {
    const int r = i % WY, c0 = (i / WY) * kOut;
    passOf<K>(win + r * WXP + c0, 1, sums);
#pragma unroll
    for (int o = 0; o < kOut; ++o)
      hx[r * HXP + c0 + o] = sums[o];
  }
  __syncthreads();
  // y-passes of the tile: lanes take consecutive columns.
  for (int i = threadIdx.x; i < kTx * (kTy / kOut); i += kThreads) {
    const int c = i % kTx, r0 = (i / kTx) * kOut, gx = wx0 + R + c;
    passOf<K>(hx + r0 * HXP + c, HXP, sums);
#pragma unroll
    for (int o = 0; o < kOut; ++o) {
      const int gy = wy0 + R + r0 + o;
      if (gy < ny - R && gx < nx - R)
        out[size_t(gy) * nx + gx] = sums[o];
    }
  }
}

/// The streamed pass: a block takes a strip of kTx output columns and kRows
/// output rows and streams its window's rows down in batches of kB. Batch
/// b's rows are copied (cp.async, one batch ahead) into one of two buffers
/// and x-passed into a ring of hx rows; then the group of kB output rows
/// whose y-passes batch b completes (b - kLag, kLag = ceil(2R / kB)) is
/// y-passed from the ring to `out`. Unlike the tiles above, no window row
/// is x-passed twice and no input row is read twice (but kLag kB rows a
/// block), and the copies of a batch overlap the arithmetic of the last.
template <int T, int kTx, int kB, int kRows, int kThreads, int kBlocks>
__global__ void __launch_bounds__(kThreads, kBlocks)
    streamPass(const double *__restrict__ in, double *__restrict__ out, int ny, int nx) {
  constexpr int R = 3 * T, K = 2 * R + 1, WX = kTx + 2 * R, WXP = WX | 1, HXP = kTx | 1;
  constexpr int kLag = (2 * R + kB - 1) / kB, kRing = kB * (kLag + 1);
  constexpr int kBatches = kRows / kB + kLag;
  static_assert(kRows % kB == 0 && kB % kOut == 0 && kTx % kOut == 0, "whole tasks");
  extern __shared__ double smem[];
  double *buf = smem;               // 2 x kB rows of WXP
  double *hx = smem + 2 * kB * WXP; // the ring: kRing rows of HXP
  const int x0 = blockIdx.x * kTx, y0 = blockIdx.y * kRows;
  const auto load = [&](int b) { // batch b's window rows into buf[b & 1]
    double *dst = buf + (b & 1) * kB * WXP;
    for (int i = threadIdx.x; i < kB * WX; i += kThreads) {
      const int r = i / WX, c = i - r * WX, gy = y0 + b * kB + r, gx = x0 + c;
      if (gy < ny && gx < nx)
        __pipeline_memcpy_async(dst + r * WXP + c, in + size_t(gy) * nx + gx, sizeof(double));
      else
        dst[r * WXP + c] = 0.0;
    }
    __pipeline_commit();
  };
  double sums[kOut];
  load(0);
  for (int b0 = 0; b0 < kBatches; b0 += kLag + 1) {
#pragma unroll
    for (int p = 0; p <= kLag; ++p) { // p = b mod (kLag + 1): the ring's slot of batch b
      const int b = b0 + p;
      if (b >= kBatches)
        break;
      if (b + 1 < kBatches)
        load(b + 1);
      else
        __pipeline_commit(); // an empty group: wait_prior(1) below still means batch b
      __pipeline_wait_prior(1);
      __syncthreads();
      const double *rows = buf + (b & 1) * kB * WXP;
      for (int i = threadIdx.x; i < kB * (kTx / kOut); i += kThreads) {
        const int r = i % kB, c0 = (i / kB) * kOut;
        passOf<K>(rows + r * WXP + c0, 1, sums);
#pragma unroll
        for (int o = 0; o < kOut; ++o)
          hx[(p * kB + r) * HXP + c0 + o] = sums[o];
      }
      __syncthreads();
      if (b < kLag)
        continue;
      // Group b - kLag: window rows from (b - kLag) kB, whose slot is first.
      const int first = ((p + 1) % (kLag + 1)) * kB;
      for (int i = threadIdx.x; i < kTx * (kB / kOut); i += kThreads) {
        const int c = i % kTx, r0 = (i / kTx) * kOut;
        double v[kOut + K - 1];
#pragma unroll
        for (int j = 0; j < kOut + K - 1; ++j)
          v[j] = hx[((first + r0 + j) % kRing) * HXP + c];
        const int gx = x0 + R + c;
#pragma unroll
        for (int o = 0; o < kOut; ++o) {
          double s = 0.0;
#pragma unroll
          for (int k = 0; k < K; ++k)
            s = fma(cWeights[k], v[o + k], s);
          const int gy = y0 + R + (b - kLag) * kB + r0 + o;
          if (gy < ny - R && gx < nx - R)
            out[size_t(gy) * nx + gx] = s;
        }
      }
    }
  }
}

template <int T, int kTx, int kB, int kRows, int kThreads, int kBlocks> struct Streamed {
  static constexpr int kSteps = T, R = 3 * T;
  static constexpr int kLag = (2 * R + kB - 1) / kB;
  static constexpr size_t bytes() {
    return sizeof(double) *
           (size_t(2 * kB * ((kTx + 2 * R) | 1)) + size_t(kB * (kLag + 1) * (kTx | 1)));
  }
  static void prepare() {
    STENCILC_CHECK(cudaFuncSetAttribute(streamPass<T, kTx, kB, kRows, kThreads, kBlocks>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(bytes())));
  }
  static void launch(const double *in, double *out, int ny, int nx) {
    const dim3 grid((nx - 2 * R + kTx - 1) / kTx, (ny - 2 * R + kRows - 1) / kRows);
    streamPass<T, kTx, kB, kRows, kThreads, kBlocks><<<grid, kThreads, bytes()>>>(in, out, ny, nx);
  }
};

template <int T, int kTx, int kTy, int kThreads, int kBlocks> struct Variant {
  static constexpr int kSteps = T, R = 3 * T;
  static constexpr size_t bytes() {
    return sizeof(double) *
           (size_t((kTy + 2 * R) * ((kTx + 2 * R) | 1)) + size_t((kTy + 2 * R) * (kTx | 1)));
  }
  /// Once, before any launch: the block's shared memory past 48 KB.
  static void prepare() {
    STENCILC_CHECK(cudaFuncSetAttribute(composedPass<T, kTx, kTy, kThreads, kBlocks>,
                                        cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(bytes())));
  }
  static void launch(const double *in, double *out, int ny, int nx) {
    const dim3 grid((nx - 2 * R + kTx - 1) / kTx, (ny - 2 * R + kTy - 1) / kTy);
    composedPass<T, kTx, kTy, kThreads, kBlocks><<<grid, kThreads, bytes()>>>(in, out, ny, nx);
  }
};

/// T direct steps of the blur in float64, fixed ring of 3.
std::vector<double> reference(std::vector<double> u, int n, int steps) {
  std::vector<double> next = u;
  for (int s = 0; s < steps; ++s) {
    for (int y = 3; y < n - 3; ++y)
      for (int x = 3; x < n - 3; ++x) {
        double sum = 0.0;
        for (int dy = -3; dy <= 3; ++dy)
          for (int dx = -3; dx <= 3; ++dx)
            sum += (1.0 / 49.0) * u[size_t(y + dy) * n + x + dx];
        next[size_t(y) * n + x] = sum;
      }
    std::swap(u, next);
  }
  return u;
}

template <class V> void runOne(const char *label, double *a, double *b, int n) {
  constexpr int T = V::kSteps;
  const std::vector<double> w = composedWeights(T);
  STENCILC_CHECK(cudaMemcpyToSymbol(cWeights, w.data(), w.size() * sizeof(double)));
  V::prepare();
  // The check.
  constexpr int kCheck = 1024;
  std::vector<double> host(size_t(kCheck) * kCheck);
  std::mt19937_64 rng(T * 7919 + V::bytes());
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (double &v : host)
    v = dist(rng);
  STENCILC_CHECK(cudaMemcpy(a, host.data(), host.size() * sizeof(double), cudaMemcpyHostToDevice));
  STENCILC_CHECK(cudaMemset(b, 0xff, host.size() * sizeof(double))); // NaN: poisoned
  V::launch(a, b, kCheck, kCheck);
  STENCILC_CHECK(cudaGetLastError());
  std::vector<double> got(host.size());
  STENCILC_CHECK(cudaMemcpy(got.data(), b, got.size() * sizeof(double), cudaMemcpyDeviceToHost));
  const std::vector<double> want = reference(host, kCheck, T);
  double worst = 0.0;
  const int R = 3 * T;
  for (int y = R; y < kCheck - R; ++y)
    for (int x = R; x < kCheck - R; ++x) {
      const double d = std::fabs(got[size_t(y) * kCheck + x] - want[size_t(y) * kCheck + x]);
      worst = std::isnan(d) ? INFINITY : std::max(worst, d);
    }
  // The measure: a is refilled before each run, b's ring (never written) zeroed.
  STENCILC_CHECK(cudaMemset(b, 0, size_t(n) * n * sizeof(double)));
  const int passes = 100 / T;
  const double ms = fused_nd_bench::medianMs(a, static_cast<long long>(n) * n, [&] {
    for (int p = 0; p < passes; ++p)
      V::launch(p % 2 ? b : a, p % 2 ? a : b, n, n);
  });
  STENCILC_CHECK(cudaGetLastError());
  const double points = double(n) * n * passes * T;
  std::printf("%-28s T %d: %d passes (%d steps) %8.3f ms %7.1f GStencil/s  check max |diff| %.3g "
              "(%zu bytes of shared memory a block)\n",
              label, T, passes, passes * T, ms, points / (ms * 1e6), worst, V::bytes());
}

} // namespace

int main() {
  constexpr int kN = 8192;
  stencilc::DeviceBuffer<double> grids[2] = {stencilc::DeviceBuffer<double>(size_t(kN) * kN),
                                             stencilc::DeviceBuffer<double>(size_t(kN) * kN)};
  double *a = grids[0].data(), *b = grids[1].data();
  fused_nd_bench::copyGBs(size_t(kN) * kN * sizeof(double));
  runOne<Variant<4, 64, 32, 256, 3>>("T4 64x32 256 threads 3 blocks", a, b, kN);
  runOne<Streamed<4, 128, 16, 512, 256, 2>>("S T4 128 b16 r512 256x2", a, b, kN);
  runOne<Streamed<4, 128, 16, 1024, 256, 2>>("S T4 128 b16 r1024 256x2", a, b, kN);
  runOne<Streamed<4, 64, 16, 512, 128, 4>>("S T4 64 b16 r512 128x4", a, b, kN);
  runOne<Streamed<4, 128, 8, 512, 128, 4>>("S T4 128 b8 r512 128x4", a, b, kN);
  runOne<Streamed<4, 256, 16, 512, 512, 1>>("S T4 256 b16 r512 512x1", a, b, kN);
  runOne<Streamed<3, 128, 16, 512, 256, 2>>("S T3 128 b16 r512 256x2", a, b, kN);
  runOne<Streamed<5, 128, 16, 512, 256, 2>>("S T5 128 b16 r512 256x2", a, b, kN);
  runOne<Streamed<6, 128, 16, 512, 256, 2>>("S T6 128 b16 r512 256x2", a, b, kN);
  return 0;
}
