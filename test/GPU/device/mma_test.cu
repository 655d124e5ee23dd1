// GPU test of stencilc/device/mma.cuh: every MMA shape against a CPU matrix
// product, over chains of 1, 3, 17 and 1000 k-chunks (C = A B with K = n
// kK); roundToTf32 against a CPU rounding; storeRows16 and storeTwo against
// the CPU's rounding of the same accumulators. The chains use small
// integers, so every product and sum is exact in every precision and the
// check is exact: a wrong fragment layout cannot hide in a tolerance.
// Exit status 0 when every case passes, 1 otherwise, 77 without a GPU.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include <stencilc/device/mma.cuh>

#include "device_test.h"
#include "stencilc/runtime/check.h"

namespace sd = stencilc::device;

namespace {

/// The checks of this test: one per case, the count of wrong values its detail.
stencilc::device_test::Tally &tally() {
  static stencilc::device_test::Tally t;
  return t;
}

/// The major x 10 + minor compute capability of the current device.
int computeCapability() {
  int device = 0, major = 0, minor = 0;
  STENCILC_CHECK(cudaGetDevice(&device));
  STENCILC_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  STENCILC_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major * 10 + minor;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
constexpr bool kHasFp64M16 = false;
#else
constexpr bool kHasFp64M16 = true;
#endif

/// The (row, column) of C element i that lane 4g + t holds (PTX ISA).
template <class Mma> __host__ __device__ void cAt(int lane, int i, int &row, int &col) {
  const int g = lane / 4, t = lane % 4;
  row = g + (i / 2) * 8;
  col = 2 * t + i % 2;
  if (Mma::kM == 8) {
    row = g;
  }
}

/// c (kM x kN, row-major) = a (kM x K, row-major) * b (K x kN, row-major),
/// K = chunks kK, by one warp: A fragments from global memory, B through
/// shared memory (the m16n8k16 B load reads shared memory only).
template <class Mma>
__global__ void mmaChain(const typename Mma::Element *a, const typename Mma::Element *b,
                         typename Mma::Accumulator *c, int chunks) {
  using Element = typename Mma::Element;
  constexpr bool kUnavailable = std::is_same_v<Mma, sd::MmaM16N8K4F64> && !kHasFp64M16;
  if constexpr (kUnavailable) {
    __trap(); // the host does not run this case on such a GPU
  } else {
    __shared__ __align__(16) Element bs[Mma::kK * Mma::kN];
    const int lane = threadIdx.x;
    const int K = chunks * Mma::kK;
    typename Mma::FragmentC acc;
    for (int k = 0; k < chunks; ++k) {
      for (int i = lane; i < Mma::kK * Mma::kN; i += 32) {
        bs[i] = b[k * Mma::kK * Mma::kN + i];
      }
      __syncwarp();
      Mma::mma(acc, Mma::loadA(a + k * Mma::kK, K, lane), Mma::loadB(bs, Mma::kN, lane));
      __syncwarp();
    }
    constexpr int kPerLane = Mma::kM * Mma::kN / 32;
    for (int i = 0; i < kPerLane; ++i) {
      int row = 0, col = 0;
      cAt<Mma>(lane, i, row, col);
      c[row * Mma::kN + col] = acc.x[i];
    }
  }
}

template <class Element> Element fromDouble(double v) {
  if constexpr (std::is_same_v<Element, __half>) {
    return __double2half(v);
  } else if constexpr (std::is_same_v<Element, __nv_bfloat16>) {
    return __double2bfloat16(v);
  } else {
    return static_cast<Element>(v);
  }
}

template <class Mma> void checkChain(const char *name, int chunks) {
  using Element = typename Mma::Element;
  using Accumulator = typename Mma::Accumulator;
  const int K = chunks * Mma::kK;
  std::vector<double> av(std::size_t(Mma::kM) * K), bv(std::size_t(K) * Mma::kN);
  // Small integers, -3..3: exact in every operand type, and so are the sums
  // (at most 16000 products of 9 in magnitude, below 2^24).
  for (std::size_t i = 0; i < av.size(); ++i) {
    av[i] = static_cast<double>(static_cast<int>((i * 7 + 3) % 7) - 3);
  }
  for (std::size_t i = 0; i < bv.size(); ++i) {
    bv[i] = static_cast<double>(static_cast<int>((i * 5 + 1) % 7) - 3);
  }
  std::vector<Element> a(av.size()), b(bv.size());
  for (std::size_t i = 0; i < av.size(); ++i) {
    a[i] = fromDouble<Element>(av[i]);
  }
  for (std::size_t i = 0; i < bv.size(); ++i) {
    b[i] = fromDouble<Element>(bv[i]);
  }
  Element *da = nullptr, *db = nullptr;
  Accumulator *dc = nullptr;
  STENCILC_CHECK(cudaMalloc(&da, a.size() * sizeof(Element)));
  STENCILC_CHECK(cudaMalloc(&db, b.size() * sizeof(Element)));
  STENCILC_CHECK(cudaMalloc(&dc, Mma::kM * Mma::kN * sizeof(Accumulator)));
  STENCILC_CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(Element), cudaMemcpyHostToDevice));
  STENCILC_CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(Element), cudaMemcpyHostToDevice));
  mmaChain<Mma><<<1, 32>>>(da, db, dc, chunks);
  STENCILC_CHECK_LAUNCH();
  std::vector<Accumulator> c(Mma::kM * Mma::kN);
  STENCILC_CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(Accumulator), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int m = 0; m < Mma::kM; ++m) {
    for (int n = 0; n < Mma::kN; ++n) {
      double ref = 0;
      for (int k = 0; k < K; ++k) {
        ref += av[std::size_t(m) * K + k] * bv[std::size_t(k) * Mma::kN + n];
      }
      wrong += static_cast<double>(c[m * Mma::kN + n]) != ref ? 1 : 0;
    }
  }
  char title[160];
  std::snprintf(title, sizeof title, "%s chain of %d chunks (K = %d)", name, chunks, K);
  tally().check(wrong == 0, title, wrong);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
}

/// x rounded to tf32 as cvt.rna does: to nearest, ties away from zero.
float cpuTf32(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  bits = (bits + 0x1000u) & 0xffffe000u;
  float r;
  std::memcpy(&r, &bits, 4);
  return r;
}

__global__ void roundAll(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = sd::roundToTf32(in[i]);
  }
}

void checkTf32Rounding(int n) {
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) {
    // Values with the low 13 bits at, below and above the halfway point.
    const std::uint32_t bits = 0x3f800000u + static_cast<std::uint32_t>(i) * 0x0800u + (i % 3);
    std::memcpy(&in[i], &bits, 4);
    in[i] = i % 2 ? -in[i] : in[i];
  }
  float *din = nullptr, *dout = nullptr;
  STENCILC_CHECK(cudaMalloc(&din, n * sizeof(float)));
  STENCILC_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  STENCILC_CHECK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  roundAll<<<(n + 127) / 128, 128>>>(din, dout, n);
  STENCILC_CHECK_LAUNCH();
  STENCILC_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    wrong += out[i] != cpuTf32(in[i]) ? 1 : 0;
  }
  char title[160];
  std::snprintf(title, sizeof title, "roundToTf32 n=%d", n);
  tally().check(wrong == 0, title, wrong);
  cudaFree(din);
  cudaFree(dout);
}

/// The accumulator value of tile element (row, col): exact in float however
/// the compiler evaluates it (contracted or not), not exact in 16 bits, so
/// the stores' rounding shows.
__host__ __device__ float tileValue(int row, int col) {
  return row * 3.0f + col * 0.0625f + 0.03125f;
}

/// One warp stores a 16 x 16 tile of tileValue at dst, rows ld apart.
template <class Element> __global__ void storeTile16(Element *dst, int ld) {
  using Mma = sd::MmaM16N8K16<Element>;
  const int lane = threadIdx.x;
  typename Mma::FragmentC left, right;
  for (int i = 0; i < 4; ++i) {
    int row = 0, col = 0;
    cAt<Mma>(lane, i, row, col);
    left.x[i] = tileValue(row, col);
    right.x[i] = tileValue(row, col + 8);
  }
  Mma::storeRows16(dst, ld, left, right, lane);
}

template <class Element> float toFloat(Element e) {
  if constexpr (std::is_same_v<Element, __half>) {
    return __half2float(e);
  } else {
    return __bfloat162float(e);
  }
}

template <class Element> Element roundFloat(float v) {
  if constexpr (std::is_same_v<Element, __half>) {
    return __float2half_rn(v);
  } else {
    return __float2bfloat16_rn(v);
  }
}

/// storeRows16 into a buffer of 16 rows, ld apart, of which the tile covers
/// 16 columns: the rest must stay as it was.
template <class Element> void checkRows16(const char *name, int ld) {
  const std::size_t n = std::size_t(16) * ld;
  const Element sentinel = roundFloat<Element>(-7.0f);
  std::vector<Element> host(n, sentinel);
  Element *d = nullptr;
  STENCILC_CHECK(cudaMalloc(&d, n * sizeof(Element)));
  STENCILC_CHECK(cudaMemcpy(d, host.data(), n * sizeof(Element), cudaMemcpyHostToDevice));
  storeTile16<Element><<<1, 32>>>(d, ld);
  STENCILC_CHECK_LAUNCH();
  STENCILC_CHECK(cudaMemcpy(host.data(), d, n * sizeof(Element), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int row = 0; row < 16; ++row) {
    for (int col = 0; col < ld; ++col) {
      const float want = col < 16 ? toFloat(roundFloat<Element>(tileValue(row, col))) : -7.0f;
      wrong += toFloat(host[std::size_t(row) * ld + col]) != want ? 1 : 0;
    }
  }
  char title[160];
  std::snprintf(title, sizeof title, "%s storeRows16 ld=%d", name, ld);
  tally().check(wrong == 0, title, wrong);
  cudaFree(d);
}

/// Thread i stores the pair (tileValue(i, 0), tileValue(i, 1)) at dst + 2 i.
template <class Element, class Accumulator> __global__ void storeTwoAll(Element *dst, int pairs) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) {
    sd::storeTwo(dst + 2 * i, static_cast<Accumulator>(tileValue(i, 0)),
                 static_cast<Accumulator>(tileValue(i, 1)));
  }
}

template <class Element, class Accumulator> void checkStoreTwo(const char *name, int pairs) {
  std::vector<Element> host(2 * std::size_t(pairs));
  Element *d = nullptr;
  STENCILC_CHECK(cudaMalloc(&d, host.size() * sizeof(Element)));
  storeTwoAll<Element, Accumulator><<<(pairs + 127) / 128, 128>>>(d, pairs);
  STENCILC_CHECK_LAUNCH();
  STENCILC_CHECK(cudaMemcpy(host.data(), d, host.size() * sizeof(Element), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < pairs; ++i) {
    for (int k = 0; k < 2; ++k) {
      const float v = tileValue(i, k);
      bool ok;
      if constexpr (std::is_same_v<Element, __half> || std::is_same_v<Element, __nv_bfloat16>) {
        ok = toFloat(host[2 * i + k]) == toFloat(roundFloat<Element>(v));
      } else {
        ok = host[2 * i + k] == static_cast<Element>(static_cast<Accumulator>(v));
      }
      wrong += ok ? 0 : 1;
    }
  }
  char title[160];
  std::snprintf(title, sizeof title, "%s storeTwo pairs=%d", name, pairs);
  tally().check(wrong == 0, title, wrong);
  cudaFree(d);
}

} // namespace

int main() {
  stencilc::device_test::skipWithoutDevice();
  const int cc = computeCapability();
  for (int chunks : stencilc::device_test::kSizes) {
    checkChain<sd::MmaM16N8K16<__half>>("m16n8k16 fp16", chunks);
    checkChain<sd::MmaM16N8K16<__nv_bfloat16>>("m16n8k16 bf16", chunks);
    checkChain<sd::MmaM16N8K8Tf32>("m16n8k8 tf32", chunks);
    checkChain<sd::MmaM8N8K4F64>("m8n8k4 fp64", chunks);
    if (cc >= 90) {
      checkChain<sd::MmaM16N8K4F64>("m16n8k4 fp64", chunks);
    } else {
      std::printf("skipped: m16n8k4 fp64 chain of %d: needs sm_90, the GPU is sm_%d\n", chunks, cc);
    }
  }
  for (int n : stencilc::device_test::kSizes) {
    checkTf32Rounding(n);
    checkStoreTwo<__half, float>("fp16", n);
    checkStoreTwo<__nv_bfloat16, float>("bf16", n);
    checkStoreTwo<float, float>("fp32", n);
    checkStoreTwo<double, double>("fp64", n);
  }
  for (int ld : {16, 24, 1000}) {
    checkRows16<__half>("fp16", ld);
    checkRows16<__nv_bfloat16>("bf16", ld);
  }
  return tally().finish("mma_test");
}
