// bench/tensor15/kconcat.cu - a prototype of a tensor-core form for wide 2D
// boxes in 16-bit (issue 35, item 1), measured beside the generated kernel.
//
// The generated form (TCStencil's) runs one GEMM per stencil row dy: a 16 x
// 32 window slice times a 32 x 8 band, 2 MMAs for 8 x 16 outputs and 15 of
// them for a radius of 7: 480 multiply-adds a point for 225 taps. Here the
// rows go into K instead: row g of A is the 15 rows' windows of 24 columns
// side by side (K = 15 x 24 = 360, 23 k16 steps), and B holds the 15 bands
// stacked, so 23 MMAs compute the 16 x 8 outputs (368 multiply-adds a
// point). A warp walks along x a tile of 8 columns at a time; a window of 24
// columns moves by 8, so two thirds of A stays in the lane's registers (an
// element moves from k to k - 8, which the fragment layout gives the same
// lane) and each step loads one new 8-column chunk per row: 30 4-byte
// shared loads per 23 MMAs against 60 per 60 MMAs.
//
// Modes: `rate` measures mma.sync m16n8k16 (fp16, fp32 accumulation) on its
// own: MMAs a clock per multiprocessor by independent chains and warps.
// `box` times the prototype at n x n (fixed boundary, one step a launch)
// beside the generated box15_fp16_step on the same input, and checks both
// against a float64 reference of the fp16-rounded input and coefficients.
#include "box15_fp16.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
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

__device__ __forceinline__ void mma16816(float (&c)[4], std::uint32_t a0, std::uint32_t a1,
                                         std::uint32_t a2, std::uint32_t a3, std::uint32_t b0,
                                         std::uint32_t b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
      "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// ---- rate: independent chains of MMAs -------------------------------------

template <int Chains> __global__ void mmaRate(int iterations, float *sink, std::uint32_t seed) {
  float c[Chains][4] = {};
  std::uint32_t a = seed ^ threadIdx.x, b = seed * 3u + threadIdx.x;
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < Chains; ++k)
      mma16816(c[k], a, a + 1, a + 2, a + 3, b, b + k);
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < Chains; ++k)
    s += c[k][0] + c[k][1] + c[k][2] + c[k][3];
  if (s == 12345.0f)
    sink[0] = s;
}

template <int Chains> void rateOf(int warpsPerSm, int sms, float *sink) {
  const int threads = 32 * std::min(warpsPerSm, 32);
  const int blocksPerSm = (warpsPerSm + 31) / 32;
  const int iterations = 4096;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  mmaRate<Chains><<<sms * blocksPerSm, threads>>>(iterations, sink, 1u);
  std::vector<float> ms;
  for (int r = 0; r < 5; ++r) {
    CHECK(cudaEventRecord(start));
    mmaRate<Chains><<<sms * blocksPerSm, threads>>>(iterations, sink, 1u);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  int clockKhz = 0;
  CHECK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, 0));
  const double mmas = double(sms) * blocksPerSm * threads / 32 * iterations * Chains;
  const double seconds = ms[2] * 1e-3;
  std::printf("rate chains %d warps/SM %2d: %.1f TFLOP/s, %.3f MMA/clock/SM at %d MHz\n", Chains,
              blocksPerSm * threads / 32, mmas * 4096.0 / seconds * 1e-12,
              mmas / seconds / sms / (clockKhz * 1e3), clockKhz / 1000);
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
}

// ---- box: the K-concatenated form -----------------------------------------

constexpr int kR = 7;             // radius
constexpr int kRows = 2 * kR + 1; // stencil rows, 15
constexpr int kChunks = 3;        // 8-column chunks of a row's window
constexpr int kPairs = kRows / 2; // 7 k16 steps a chunk: rows 2p and 2p + 1; row 14 takes a k8 step
constexpr int kWarps = 4;         // warps a block, 16 output rows each
constexpr int kTilesX = 16;       // n-tiles of 8 columns a warp walks
constexpr int kBlockRows = 16 * kWarps;          // 64
constexpr int kBlockCols = 8 * kTilesX;          // 128
constexpr int kWindowRows = kBlockRows + 2 * kR; // 78
constexpr int kWindowCols = kBlockCols + 16;     // 144: 8 left, 8 right
constexpr int kPitch = kWindowCols + 8;          // 152 halves: 76 words, lanes conflict-free

constexpr int kVectors = kWindowRows * (kWindowCols / 8); // 16-byte loads a window
constexpr int kThreads = 32 * kWarps;

// B's fragments, [fragment register][lane] so that a warp's load is one
// 128-byte line: for chunk c and row pair p (k16 steps, two registers) lane
// 4g + t holds the weights of columns 2t..2t+1 of chunk c, output column g,
// of row 2p (register 0) and row 2p + 1 (register 1); the k8 steps hold row
// 14's.
constexpr int kB16 = kChunks * kPairs * 2, kB8 = kChunks;
__device__ std::uint32_t gB[(kB16 + kB8) * 32];

struct Weights {
  std::uint32_t k16[kChunks][kPairs][2];
  std::uint32_t k8[kChunks];
};

__device__ __forceinline__ void mma1688(float (&c)[4], std::uint32_t a0, std::uint32_t a1,
                                        std::uint32_t b0) {
  asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
      "{%4, %5}, {%6}, {%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a0), "r"(a1), "r"(b0));
}

__device__ __forceinline__ void copyAsync(__half *dst, const __half *src, bool inside) {
  const auto d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src),
               "r"(inside ? 16 : 0));
}

// The window of block tile (ty, tx): rows y0 - 7 .., columns x0 - 8 ..,
// zero outside the grid (nx is a multiple of 8, so a vector is wholly
// inside or outside); one commit group.
__device__ __forceinline__ void fetchWindow(const __half *in, __half *window, int ty, int tx,
                                            int ny, int nx) {
  const int y0 = ty * kBlockRows, x0 = tx * kBlockCols;
#pragma unroll
  for (int i = 0; i < (kVectors + kThreads - 1) / kThreads; ++i) {
    const int v = threadIdx.x + i * kThreads;
    if (v < kVectors) {
      const int r = v / (kWindowCols / 8), c = v % (kWindowCols / 8) * 8;
      const int y = y0 - kR + r, x = x0 - 8 + c;
      const bool inside = y >= 0 && y < ny && x >= 0 && x < nx;
      copyAsync(window + r * kPitch + c, inside ? in + (long long)y * nx + x : in, inside);
    }
  }
  asm volatile("cp.async.commit_group;");
}

// A k16 step takes chunk c of rows 2p and 2p + 1 from one slot, as one
// quad of registers that one ldmatrix.x4 fills (matrices of rows 2p, 2p + 8,
// 2p + 1 and 2p + 9 below the lane's: the A fragment's order), so the quad
// stays where the MMAs read it in every tile; B follows the chunk, which the
// unrolled loop knows. Row 14 takes a k8 step from an ldmatrix.x2.
__device__ __forceinline__ void loadQuad(std::uint32_t (&q)[4], const __half *p) {
  const auto address = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(q[0]), "=r"(q[1]), "=r"(q[2]), "=r"(q[3])
               : "r"(address));
}
__device__ __forceinline__ void loadPair(std::uint32_t (&q)[2], const __half *p) {
  const auto address = static_cast<unsigned>(__cvta_generic_to_shared(p));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(q[0]), "=r"(q[1])
               : "r"(address));
}

template <int Split>
__device__ __forceinline__ void computeTile(const __half *window, const Weights &w, __half *out,
                                            int ty, int tx, int ny, int nx) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int g = lane / 4, t = lane % 4;
  const int y0 = ty * kBlockRows, x0 = tx * kBlockCols;
  // The row this lane addresses for ldmatrix: row lane % 8 of matrix lane /
  // 8, whose rows start 0, 8, 1 and 9 below the warp's.
  const int matrixRow = (lane / 8 % 2) * 8 + lane / 16;
  const __half *base = window + (16 * warp + lane % 8 + matrixRow) * kPitch;
  // quad[p][slot], pair[slot]: tile j's chunk c sits in slot (c + j) % 3.
  std::uint32_t quad[kPairs][kChunks][4], pair[kChunks][2];
  auto load = [&](int slot, int col) {
#pragma unroll
    for (int p = 0; p < kPairs; ++p)
      loadQuad(quad[p][slot], base + 2 * p * kPitch + col);
    loadPair(pair[slot], base + (kRows - 1) * kPitch + col);
  };
#pragma unroll
  for (int c = 0; c < kChunks; ++c)
    load(c, 8 * c);

  const int yOut = y0 + 16 * warp + g;
#pragma unroll
  for (int j = 0; j < kTilesX; ++j) {
    float acc[Split][4] = {};
    int m = 0;
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      const int s = (c + j) % 3;
#pragma unroll
      for (int p = 0; p < kPairs; ++p, ++m)
        mma16816(acc[m % Split], quad[p][s][0], quad[p][s][1], quad[p][s][2], quad[p][s][3],
                 w.k16[c][p][0], w.k16[c][p][1]);
      mma1688(acc[m++ % Split], pair[s][0], pair[s][1], w.k8[c]);
      // Chunk 0's slot is free now: it takes tile j + 1's new chunk, two
      // chunks of MMAs ahead of its use.
      if (c == 0 && j + 1 < kTilesX)
        load(s, 8 * (j + 1) + 16);
    }
#pragma unroll
    for (int q = 1; q < Split; ++q)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        acc[0][e] += acc[q][e];
    const int x = x0 + 8 * j + 2 * t;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int y = yOut + 8 * h;
      if (y < kR || y >= ny - kR)
        continue;
      const __half2 pair = __floats2half2_rn(acc[0][2 * h], acc[0][2 * h + 1]);
      if (x >= kR && x + 1 < nx - kR) {
        *reinterpret_cast<__half2 *>(out + (long long)y * nx + x) = pair;
      } else {
        if (x >= kR && x < nx - kR)
          out[(long long)y * nx + x] = __low2half(pair);
        if (x + 1 >= kR && x + 1 < nx - kR)
          out[(long long)y * nx + x + 1] = __high2half(pair);
      }
    }
  }
}

// Persistent blocks: each walks block tiles gridDim.x apart, fetching the
// next tile's window (cp.async) into the other buffer while it computes.
template <int Split, int MinBlocks>
__global__ void __launch_bounds__(kThreads, MinBlocks)
    boxKConcat(const __half *__restrict__ in, __half *__restrict__ out, int ny, int nx) {
  extern __shared__ __align__(16) __half windows[];
  const int lane = threadIdx.x % 32;
  Weights w;
#pragma unroll
  for (int c = 0; c < kChunks; ++c) {
#pragma unroll
    for (int p = 0; p < kPairs; ++p)
#pragma unroll
      for (int h = 0; h < 2; ++h)
        w.k16[c][p][h] = gB[((c * kPairs + p) * 2 + h) * 32 + lane];
    w.k8[c] = gB[(kB16 + c) * 32 + lane];
  }
  const int tilesX = (nx + kBlockCols - 1) / kBlockCols;
  const int tiles = tilesX * ((ny + kBlockRows - 1) / kBlockRows);
  int tile = blockIdx.x;
  if (tile < tiles)
    fetchWindow(in, windows, tile / tilesX, tile % tilesX, ny, nx);
  for (int it = 0; tile < tiles; tile += gridDim.x, ++it) {
    const int next = tile + gridDim.x;
    __half *now = windows + (it % 2) * kWindowRows * kPitch;
    __half *later = windows + ((it + 1) % 2) * kWindowRows * kPitch;
    if (next < tiles)
      fetchWindow(in, later, next / tilesX, next % tilesX, ny, nx);
    else
      asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_group 1;");
    __syncthreads();
    computeTile<Split>(now, w, out, tile / tilesX, tile % tilesX, ny, nx);
    __syncthreads();
  }
}

// The stencil of bench/tensor15/box15_fp16.stencil: integer weights over 1248.
const int kWeights[kRows][kRows] = {
    {2, 6, 9, 9, 2, 4, 9, 7, 9, 8, 8, 4, 1, 2, 2}, {5, 2, 8, 1, 8, 6, 4, 7, 5, 6, 6, 7, 9, 2, 6},
    {2, 9, 9, 5, 5, 8, 3, 5, 1, 6, 6, 8, 7, 2, 7}, {9, 8, 2, 7, 9, 8, 7, 9, 5, 7, 8, 9, 9, 1, 4},
    {3, 1, 9, 2, 7, 8, 3, 8, 4, 2, 8, 8, 9, 5, 9}, {7, 5, 9, 9, 8, 7, 7, 4, 5, 5, 1, 1, 3, 8, 9},
    {8, 6, 4, 5, 8, 8, 9, 8, 7, 9, 1, 5, 6, 8, 2}, {8, 9, 5, 8, 3, 7, 8, 2, 5, 8, 6, 2, 4, 7, 3},
    {8, 1, 2, 1, 8, 9, 2, 4, 4, 2, 1, 9, 5, 6, 3}, {1, 6, 8, 3, 9, 4, 8, 3, 9, 5, 2, 7, 3, 3, 5},
    {9, 7, 7, 3, 9, 4, 7, 1, 2, 7, 2, 1, 6, 6, 1}, {1, 9, 8, 6, 5, 8, 6, 2, 8, 8, 3, 3, 9, 4, 7},
    {6, 8, 4, 2, 9, 7, 1, 4, 3, 1, 9, 1, 8, 4, 8}, {1, 3, 9, 4, 9, 3, 3, 3, 7, 5, 7, 9, 7, 2, 7},
    {5, 3, 6, 3, 5, 8, 8, 7, 5, 8, 3, 6, 9, 8, 8}};

float weight(int dy, int dx) { return __half2float(__float2half(kWeights[dy][dx] / 1248.0f)); }

std::uint16_t bitsOf(float v) {
  const __half h = __float2half(v);
  std::uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

void uploadB() {
  // The weight of row dy, chunk c's column cc for output column n of a tile
  // (the chunk starts 8 columns left of the tile): dx = 8c + cc - 8 - n.
  auto at = [](int dy, int c, int cc, int n) -> float {
    const int dx = 8 * c + cc - 8 - n;
    return dx < -kR || dx > kR ? 0.0f : weight(dy, dx + kR);
  };
  auto pair = [&](int dy, int c, int lane) {
    const int g = lane / 4, t = lane % 4;
    return bitsOf(at(dy, c, 2 * t, g)) | std::uint32_t(bitsOf(at(dy, c, 2 * t + 1, g))) << 16;
  };
  std::vector<std::uint32_t> host((kB16 + kB8) * 32);
  for (int lane = 0; lane < 32; ++lane)
    for (int c = 0; c < kChunks; ++c) {
      for (int p = 0; p < kPairs; ++p)
        for (int h = 0; h < 2; ++h)
          host[((c * kPairs + p) * 2 + h) * 32 + lane] = pair(2 * p + h, c, lane);
      host[(kB16 + c) * 32 + lane] = pair(kRows - 1, c, lane);
    }
  CHECK(cudaMemcpyToSymbol(gB, host.data(), host.size() * 4));
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Launch> float timeIt(Launch launch, int reps) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int r = 0; r < 3; ++r)
    launch();
  std::vector<float> ms;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  CHECK(cudaGetLastError());
  return median(ms);
}

// Largest error against float64 on rows every `stride` apart, and the
// largest difference between the two kernels on the whole grid (in fp16
// units of the last place where both are nonzero).
void compare(const std::vector<std::uint16_t> &input, const std::vector<std::uint16_t> &ours,
             const std::vector<std::uint16_t> &theirs, int n, int stride) {
  auto f = [](std::uint16_t bits) {
    __half h;
    std::memcpy(&h, &bits, 2);
    return double(__half2float(h));
  };
  double errOurs = 0, errTheirs = 0;
  long long compared = 0;
  for (int y = kR; y < n - kR; y += stride)
    for (int x = kR; x < n - kR; ++x) {
      double sum = 0;
      for (int dy = -kR; dy <= kR; ++dy)
        for (int dx = -kR; dx <= kR; ++dx)
          sum += double(weight(dy + kR, dx + kR)) * f(input[(long long)(y + dy) * n + x + dx]);
      const long long i = (long long)y * n + x;
      errOurs = std::max(errOurs, std::fabs(f(ours[i]) - sum));
      errTheirs = std::max(errTheirs, std::fabs(f(theirs[i]) - sum));
      ++compared;
    }
  long long differ = 0, ringWritten = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const long long i = (long long)y * n + x;
      const bool ring = y < kR || y >= n - kR || x < kR || x >= n - kR;
      if (ring)
        ringWritten += ours[i] != 0xFFFF;
      else
        differ += ours[i] != theirs[i];
    }
  std::printf("n %d: float64 error on %lld points: prototype %.3g, generated %.3g; interior "
              "points differing from the generated kernel %lld of %lld; ring points written %lld\n",
              n, compared, errOurs, errTheirs, differ, (long long)(n - 2 * kR) * (n - 2 * kR),
              ringWritten);
}

template <int Split, int MinBlocks> void runBox(int n, int reps) {
  const long long points = (long long)n * n;
  std::vector<std::uint16_t> input(points);
  std::mt19937 rng(2026 + n);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  for (auto &v : input)
    v = bitsOf(dist(rng));
  __half *in, *outOurs, *outTheirs;
  CHECK(cudaMalloc(&in, points * 2));
  CHECK(cudaMalloc(&outOurs, points * 2));
  CHECK(cudaMalloc(&outTheirs, points * 2));
  CHECK(cudaMemcpy(in, input.data(), points * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(outOurs, 0xFF, points * 2)); // poison: 0xFFFF is a NaN
  CHECK(cudaMemset(outTheirs, 0xFF, points * 2));
  constexpr int shared = 2 * kWindowRows * kPitch * 2;
  CHECK(cudaFuncSetAttribute(boxKConcat<Split, MinBlocks>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  int sms = 0, perSm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, boxKConcat<Split, MinBlocks>,
                                                      kThreads, shared));
  const int grid = sms * perSm;
  boxKConcat<Split, MinBlocks><<<grid, kThreads, shared>>>(in, outOurs, n, n);
  CHECK(box15_fp16_step(in, outTheirs, n, n, 0));
  CHECK(cudaDeviceSynchronize());
  std::vector<std::uint16_t> ours(points), theirs(points);
  CHECK(cudaMemcpy(ours.data(), outOurs, points * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(theirs.data(), outTheirs, points * 2, cudaMemcpyDeviceToHost));
  compare(input, ours, theirs, n, n > 1000 ? 97 : 1);
  if (reps > 0) {
    const float tOurs = timeIt(
        [&] { boxKConcat<Split, MinBlocks><<<grid, kThreads, shared>>>(in, outOurs, n, n); }, reps);
    const float tTheirs = timeIt([&] { CHECK(box15_fp16_step(in, outTheirs, n, n, 0)); }, reps);
    const float tCopy = timeIt(
        [&] { CHECK(cudaMemcpyAsync(outOurs, in, points * 2, cudaMemcpyDeviceToDevice)); }, reps);
    std::printf("n %d split %d blocks/SM %d: prototype %.3f ms %.1f GStencil/s; generated step "
                "%.3f ms %.1f "
                "GStencil/s; copy %.1f GB/s\n",
                n, Split, MinBlocks, tOurs, points / (tOurs * 1e6), tTheirs,
                points / (tTheirs * 1e6), 2.0 * points * 2 / (tCopy * 1e6));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(outOurs));
  CHECK(cudaFree(outTheirs));
}

} // namespace

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "box";
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  if (std::strcmp(mode, "rate") == 0) {
    float *sink;
    CHECK(cudaMalloc(&sink, 4));
    for (int warps : {4, 8, 12, 16, 32}) {
      rateOf<1>(warps, sms, sink);
      rateOf<2>(warps, sms, sink);
      rateOf<4>(warps, sms, sink);
      rateOf<8>(warps, sms, sink);
    }
    return 0;
  }
  uploadB();
  const int n = argc > 2 ? std::atoi(argv[2]) : 10240;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 30;
  const int split = argc > 4 ? std::atoi(argv[4]) : 1;
  const int blocks = argc > 5 ? std::atoi(argv[5]) : 2;
  if (split == 2)
    blocks == 3 ? runBox<2, 3>(n, reps) : runBox<2, 2>(n, reps);
  else if (split == 3)
    blocks == 3 ? runBox<3, 3>(n, reps) : runBox<3, 2>(n, reps);
  else if (split == 4)
    blocks == 3 ? runBox<4, 3>(n, reps) : runBox<4, 2>(n, reps);
  else
    blocks == 3 ? runBox<1, 3>(n, reps) : runBox<1, 2>(n, reps);
  return 0;
}
