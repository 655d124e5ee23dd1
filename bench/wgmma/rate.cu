// bench/wgmma/rate.cu - Hopper's warpgroup MMA (wgmma, sm_90a) beside
// mma.sync, for the 16-bit targets of issue 35 (item 4).
//
// The stacked tensor-core form runs mma.sync m16n8k16 (fp16, fp32
// accumulation), which peaked at 0.58 MMAs a clock a multiprocessor on an
// H200 (bench/tensor15/kconcat.cu rate: about 630 TFLOP/s, two thirds of
// the chip's dense fp16 rate). wgmma is the instruction Hopper's full rate
// needs: a warpgroup of 4 warps multiplies a 64 x 16 A (each warp's 16
// rows in registers, in mma.sync's A fragment) by a 16 x N B in shared
// memory into 64 x N fp32 accumulators in registers, asynchronously. The
// stacked form's B is the band (N = 8 output columns, the narrowest, since
// a band's multiply-adds a point grow with N), so the rate that matters is
// m64n8k16's, beside the wider shapes.
//
// Modes:
//   check   one m64nNk16 product (N 8 and 64) against the host, for two
//           readings of the no-swizzle descriptor's offsets (LBO between the
//           8 x 16-byte core matrices along K, SBO along N, or the other way
//           round): which one the hardware takes, settled by the device.
//           Values are small integers: the products are exact in fp32.
//   rate    wgmma.mma_async by N, warpgroups a multiprocessor and batches in
//           flight, TFLOP/s and k16 MMAs a clock a multiprocessor (one
//           m64nNk16 counts N / 8 m16n8k16's worth per warp: the 4 warps'
//           work is 4 N / 8 of them).
//   mma     mma.sync m16n8k16 by independent chains and warps a
//           multiprocessor, in the same units.
// Build (sm_90a: wgmma needs the arch-specific target):
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a bench/wgmma/rate.cu -o wg
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));             \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

namespace {

/// wgmma.mma_async m64nNk16, fp16 in, fp32 accumulators d (N / 2 a
/// thread), A in registers (a thread's mma.sync A fragment of its warp's 16
/// rows), B by its shared-memory descriptor; d = A B (+ d where accumulate).
template <int N>
__device__ __forceinline__ void wgmma(float (&d)[N / 2], const std::uint32_t (&a)[4],
                                      std::uint64_t desc, int accumulate);

template <>
__device__ __forceinline__ void wgmma<8>(float (&d)[4], const std::uint32_t (&a)[4],
                                         std::uint64_t desc, int accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {"
               "%0, %1, %2, %3"
               "}, {%4, %5, %6, %7}, %8, p, 1, 1, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(accumulate));
}

template <>
__device__ __forceinline__ void wgmma<16>(float (&d)[8], const std::uint32_t (&a)[4],
                                          std::uint64_t desc, int accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {"
               "%0, %1, %2, %3, %4, %5, %6, %7"
               "}, {%8, %9, %10, %11}, %12, p, 1, 1, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(accumulate));
}

template <>
__device__ __forceinline__ void wgmma<32>(float (&d)[16], const std::uint32_t (&a)[4],
                                          std::uint64_t desc, int accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {"
               "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
               "}, {%16, %17, %18, %19}, %20, p, 1, 1, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
                 "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(accumulate));
}

template <>
__device__ __forceinline__ void wgmma<64>(float (&d)[32], const std::uint32_t (&a)[4],
                                          std::uint64_t desc, int accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {"
               "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
               "}, {%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
                 "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
                 "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
                 "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
                 "+f"(d[31])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(accumulate));
}

template <>
__device__ __forceinline__ void wgmma<128>(float (&d)[64], const std::uint32_t (&a)[4],
                                           std::uint64_t desc, int accumulate) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {"
               "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
               "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
               "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
               "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
               "}, {%64, %65, %66, %67}, %68, p, 1, 1, 0;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
                 "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
                 "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
                 "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
                 "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
                 "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),
                 "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
                 "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
                 "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]),
                 "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),
                 "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(accumulate));
}

__device__ __forceinline__ void wgmmaFence() {
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaCommit() {
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmmaWaitAll() {
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
/// Makes this thread's ordinary shared-memory stores visible to the async
/// proxy (the wgmma's reads of B), before the barrier that follows.
__device__ __forceinline__ void fenceProxyAsync() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/// A shared-memory matrix descriptor without swizzling: start address,
/// leading and stride byte offsets (each encoded >> 4, 14 bits).
__device__ __forceinline__ std::uint64_t descriptor(const void *smem, unsigned lbo, unsigned sbo) {
  const auto addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  return static_cast<std::uint64_t>((addr & 0x3FFFF) >> 4) |
         static_cast<std::uint64_t>((lbo >> 4) & 0x3FFF) << 16 |
         static_cast<std::uint64_t>((sbo >> 4) & 0x3FFF) << 32;
}

__host__ __device__ std::uint32_t bitsOf(__half2 h) {
  std::uint32_t u;
  std::memcpy(&u, &h, sizeof u);
  return u;
}

// ---- check: the descriptor's layout, settled on the device -----------------

constexpr int kCheckMaxN = 64;
__constant__ float cA[64 * 16];         // A, row-major 64 x 16
__constant__ float cB[16 * kCheckMaxN]; // B, row-major 16 x N (k, n)

/// Byte offset of B(k, n) in shared memory: core matrices of 8 rows (n) by
/// 16 bytes (8 consecutive k), alongK bytes apart along k and alongN apart
/// along n.
__host__ __device__ int offsetOfB(int k, int n, int alongK, int alongN) {
  return (k / 8) * alongK + (n / 8) * alongN + (n % 8) * 16 + (k % 8) * 2;
}

__device__ std::uint32_t pairA(int row, int k) {
  return bitsOf(__floats2half2_rn(cA[row * 16 + k], cA[row * 16 + k + 1]));
}

/// One product D = A B by a warpgroup: B stored with core matrices alongK
/// and alongN bytes apart, the descriptor's LBO and SBO as given.
template <int N>
__global__ void product(float *out, int alongK, int alongN, unsigned lbo, unsigned sbo) {
  __shared__ alignas(128) unsigned char smem[8192];
  for (int i = threadIdx.x; i < 16 * N; i += blockDim.x) {
    const int k = i / N, n = i % N;
    *reinterpret_cast<__half *>(smem + offsetOfB(k, n, alongK, alongN)) = __float2half(cB[i]);
  }
  fenceProxyAsync();
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int row = 16 * warp + g;
  const std::uint32_t a[4] = {pairA(row, 2 * t), pairA(row + 8, 2 * t), pairA(row, 2 * t + 8),
                              pairA(row + 8, 2 * t + 8)};
  float d[N / 2] = {};
  wgmmaFence();
  wgmma<N>(d, a, descriptor(smem, lbo, sbo), 0);
  wgmmaCommit();
  wgmmaWaitAll();
  for (int j = 0; j < N / 8; ++j) {
    out[row * N + 8 * j + 2 * t] = d[4 * j];
    out[row * N + 8 * j + 2 * t + 1] = d[4 * j + 1];
    out[(row + 8) * N + 8 * j + 2 * t] = d[4 * j + 2];
    out[(row + 8) * N + 8 * j + 2 * t + 1] = d[4 * j + 3];
  }
}

template <int N> void checkOne() {
  std::vector<float> a(64 * 16), b(16 * N), want(64 * N, 0.0f), got(64 * N);
  for (int i = 0; i < 64 * 16; ++i)
    a[i] = float((i * 7 + 3) % 9) - 4.0f;
  for (int i = 0; i < 16 * N; ++i)
    b[i] = float((i * 5 + 1) % 7) - 3.0f;
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < 16; ++k)
        want[m * N + n] += a[m * 16 + k] * b[k * N + n];
  CHECK(cudaMemcpyToSymbol(cA, a.data(), a.size() * sizeof(float)));
  CHECK(cudaMemcpyToSymbol(cB, b.data(), b.size() * sizeof(float)));
  float *out;
  CHECK(cudaMalloc(&out, got.size() * sizeof(float)));
  // Core matrices 128 bytes apart along k and 256 along n, or the reverse;
  // the descriptor given LBO = along k and SBO = along n, or swapped.
  const int layouts[2][2] = {{128, 256}, {N * 16, 128}};
  for (const auto &layout : layouts) {
    for (int swapped = 0; swapped < 2; ++swapped) {
      const unsigned lbo = swapped ? layout[1] : layout[0], sbo = swapped ? layout[0] : layout[1];
      CHECK(cudaMemset(out, 0xFF, got.size() * sizeof(float)));
      product<N><<<1, 128>>>(out, layout[0], layout[1], lbo, sbo);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
      int wrong = 0;
      for (int i = 0; i < 64 * N; ++i)
        wrong += !(got[i] == want[i]);
      std::printf("check m64n%dk16: core matrices %4d bytes apart along k, %4d along n; "
                  "LBO %4u SBO %4u: %s (%d of %d wrong)\n",
                  N, layout[0], layout[1], lbo, sbo, wrong ? "differs" : "EXACT", wrong, 64 * N);
    }
  }
  CHECK(cudaFree(out));
}

// ---- rate: batches of wgmma in flight --------------------------------------

/// Each warpgroup: Iterations times, Sets accumulator sets of Depth
/// wgmmas each (one batch, committed, then waited for). B cycles through
/// 4 tiles: the rate, not shared-memory capacity, is what is measured.
template <int N, int Sets, int Depth>
__global__ void rateKernel(int iterations, float *sink, std::uint32_t seed) {
  __shared__ alignas(128) unsigned char smem[4 * 16 * N * 2];
  for (int i = threadIdx.x; i < 4 * 8 * N; i += blockDim.x)
    reinterpret_cast<std::uint32_t *>(smem)[i] = seed * 2654435761u + i;
  fenceProxyAsync();
  __syncthreads();
  const std::uint32_t a[4] = {seed ^ threadIdx.x, seed + 1, seed + 2, seed + 3};
  float d[Sets][N / 2] = {};
  for (int i = 0; i < iterations; ++i) {
    wgmmaFence();
#pragma unroll
    for (int k = 0; k < Depth; ++k)
#pragma unroll
      for (int s = 0; s < Sets; ++s)
        wgmma<N>(d[s], a, descriptor(smem + (k % 4) * 16 * N * 2, 128, 256), 1);
    wgmmaCommit();
    wgmmaWaitAll();
  }
  float sum = 0.0f;
#pragma unroll
  for (int s = 0; s < Sets; ++s)
#pragma unroll
    for (int j = 0; j < N / 2; ++j)
      sum += d[s][j];
  if (sum == 12345.0f)
    sink[0] = sum;
}

/// Seconds of one launch: the median of 5 timed with CUDA events after
/// one warm-up.
template <class Launch> double medianSeconds(Launch launch) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  launch();
  CHECK(cudaGetLastError());
  std::vector<float> ms;
  for (int r = 0; r < 5; ++r) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  std::sort(ms.begin(), ms.end());
  return ms[2] * 1e-3;
}

/// The multiprocessors' reported maximum clock, in clocks a second.
double clockHz() {
  int clockKhz = 0;
  CHECK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, 0));
  return clockKhz * 1e3;
}

template <int N, int Sets, int Depth> void rateOf(int groupsPerSm, int sms, float *sink) {
  const int iterations = 2048;
  const int blocks = sms * groupsPerSm;
  const double seconds =
      medianSeconds([&] { rateKernel<N, Sets, Depth><<<blocks, 128>>>(iterations, sink, 1u); });
  const double wgmmas = double(blocks) * iterations * Sets * Depth;
  const double flops = wgmmas * 2.0 * 64 * N * 16;
  // One m64nNk16 is 4 * N / 8 m16n8k16's worth of multiply-adds.
  std::printf("rate m64n%-3dk16 sets %d depth %2d warpgroups/SM %d: %6.1f TFLOP/s, %.3f "
              "m16n8k16-equivalents/clock/SM at %.0f MHz\n",
              N, Sets, Depth, groupsPerSm, flops / seconds * 1e-12,
              wgmmas * (N / 2) / seconds / sms / clockHz(), clockHz() * 1e-6);
}

template <int N> void ratesOf(int sms, float *sink) {
  for (int groups : {1, 2, 4}) {
    rateOf<N, 1, 4>(groups, sms, sink);
    rateOf<N, 2, 4>(groups, sms, sink);
    rateOf<N, 1, 16>(groups, sms, sink);
  }
}

// ---- mma: mma.sync m16n8k16 beside it, in the same run ---------------------

/// Each warp: Iterations times, Chains independent m16n8k16 accumulations.
template <int Chains>
__global__ void mmaSyncKernel(int iterations, float *sink, std::uint32_t seed) {
  const std::uint32_t a[4] = {seed ^ threadIdx.x, seed + 1, seed + 2, seed + 3};
  const std::uint32_t b[2] = {seed * 3, seed * 5};
  float d[Chains][4] = {};
  for (int i = 0; i < iterations; ++i)
#pragma unroll
    for (int c = 0; c < Chains; ++c)
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                   "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                   : "+f"(d[c][0]), "+f"(d[c][1]), "+f"(d[c][2]), "+f"(d[c][3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  float sum = 0.0f;
#pragma unroll
  for (int c = 0; c < Chains; ++c)
    sum += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  if (sum == 12345.0f)
    sink[0] = sum;
}

template <int Chains> void mmaSyncRateOf(int warpsPerSm, int sms, float *sink) {
  const int iterations = 8192, blocks = sms * warpsPerSm / 4;
  const double seconds =
      medianSeconds([&] { mmaSyncKernel<Chains><<<blocks, 128>>>(iterations, sink, 1u); });
  const double mmas = double(blocks) * 4 * iterations * Chains;
  std::printf("mma.sync m16n8k16 chains %d warps/SM %2d: %6.1f TFLOP/s, %.3f "
              "m16n8k16/clock/SM at %.0f MHz\n",
              Chains, warpsPerSm, mmas * 2.0 * 16 * 8 * 16 / seconds * 1e-12,
              mmas / seconds / sms / clockHz(), clockHz() * 1e-6);
}

} // namespace

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "check";
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (std::strcmp(mode, "check") == 0) {
    checkOne<8>();
    checkOne<64>();
    return 0;
  }
  float *sink;
  CHECK(cudaMalloc(&sink, 4));
  if (std::strcmp(mode, "mma") == 0) {
    for (int warps : {8, 16, 32}) {
      mmaSyncRateOf<2>(warps, sms, sink);
      mmaSyncRateOf<4>(warps, sms, sink);
      mmaSyncRateOf<8>(warps, sms, sink);
    }
    CHECK(cudaFree(sink));
    return 0;
  }
  ratesOf<8>(sms, sink);
  ratesOf<16>(sms, sink);
  ratesOf<32>(sms, sink);
  ratesOf<64>(sms, sink);
  ratesOf<128>(sms, sink);
  CHECK(cudaFree(sink));
  return 0;
}
