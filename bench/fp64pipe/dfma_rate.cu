// dfma_rate.cu - how many fp64 FMAs a multiprocessor retires a cycle, by
// the number of warps, of independent accumulators a thread and of the
// FMA's operands that are registers (issue 35: what binds the fp64 fused
// passes, which run at 8 warps an SM with about 20 accumulators a thread
// and keep the FP64 pipe 65-69 % busy).
//
// Each thread runs kAcc independent chains of kRounds DFMAs, with kMoves
// independent integer adds after each round of kAcc (the fused passes'
// non-FP64 instructions: moves of carried partial sums, shuffles,
// indexing). The DFMA's form (kForm):
//   1  acc * a + b     a, b kernel parameters (uniform registers)
//   2  x * a + acc     x a register of the thread's
//   3  x * y + acc     three registers, no two DFMAs in a row sharing one
//                      (a stencil's value times a coefficient held in a
//                      register, plus a partial sum)
//   4  x * t + acc     t from a table in constant memory
//   5  x * y + acc     three registers, one x for five DFMAs in a row (a
//                      row's value into five partial sums)
//   6  x * y + acc     three registers, one y for four DFMAs in a row (a
//                      coefficient over a thread's four columns)
//   7  x * p + acc     p one of 25 coefficients passed by value as a
//                      kernel parameter (25 accumulators)
// One wave: warpsPerSm warps on each multiprocessor (blocks of 128
// threads; a __launch_bounds__ of one block keeps the registers free).
// Each block records its multiprocessor and its first and last clock64; a
// multiprocessor's time is from its first block's start to its last
// block's stop (one clock per multiprocessor), its DFMAs those of the
// blocks it ran. Printed for each combination: DFMAs a multiprocessor
// retires per cycle, the median multiprocessor's (the H100's and H200's
// FP64 pipe: 64), and the fewest and most blocks a multiprocessor ran.
// Build: nvcc -std=c++17 -O3 -arch=sm_90 dfma_rate.cu -o dfma_rate
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 128;
constexpr int kRounds = 4096;

#define CHECK(call)                                                                                \
  do {                                                                                             \
    const cudaError_t status_ = (call);                                                            \
    if (status_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(status_));                        \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

/// Coefficients in constant memory (kForm 4).
__constant__ double kTable[5] = {0.5, 0.25, 0.125, 0.0625, 0.03125};

/// 25 coefficients passed by value as a kernel parameter (kForm 7).
struct Coefficients {
  double c[25];
};

/// kAcc chains of kRounds DFMAs of form kForm a thread, kMoves integer adds
/// a round; the block's multiprocessor, first and last clock in
/// times[3 blockIdx.x ..], the sums in out (so nothing is dead).
template <int kAcc, int kMoves, int kForm>
__global__ void __launch_bounds__(kThreads, 1)
    chains(double a, double b, Coefficients p, double *out, long long *times) {
  // Per-thread operands, in registers (kForm 2, 3, 5 and 6).
  double x[8], y[5];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    x[i] = 1.0 + 1e-9 * (threadIdx.x + i);
  }
#pragma unroll
  for (int i = 0; i < 5; ++i) {
    y[i] = 1e-9 * (threadIdx.x + 3 * i);
  }
  double acc[kAcc];
#pragma unroll
  for (int i = 0; i < kAcc; ++i) {
    acc[i] = threadIdx.x + i;
  }
  unsigned moved[kMoves > 0 ? kMoves : 1];
#pragma unroll
  for (int m = 0; m < (kMoves > 0 ? kMoves : 1); ++m) {
    moved[m] = threadIdx.x + m;
  }
  __syncthreads();
  const long long start = clock64();
#pragma unroll 4
  for (int round = 0; round < kRounds; ++round) {
#pragma unroll
    for (int i = 0; i < kAcc; ++i) {
      if constexpr (kForm == 1) { // acc * a + b
        acc[i] = __fma_rn(acc[i], a, b);
      } else if constexpr (kForm == 2) { // x * a + acc
        acc[i] = __fma_rn(x[i % 8], a, acc[i]);
      } else if constexpr (kForm == 3) {
        acc[i] = __fma_rn(x[i % 8], y[i % 5], acc[i]);
      } else if constexpr (kForm == 4) {
        acc[i] = __fma_rn(x[i % 8], kTable[i % 5], acc[i]);
      } else if constexpr (kForm == 5) {
        acc[i] = __fma_rn(x[i / 5], y[i % 5], acc[i]);
      } else if constexpr (kForm == 6) {
        acc[i] = __fma_rn(x[i % 4], y[i / 4], acc[i]);
      } else {
        acc[i] = __fma_rn(x[i % 8], p.c[i % 25], acc[i]);
      }
    }
#pragma unroll
    for (int m = 0; m < kMoves; ++m) {
      // An integer instruction the compiler cannot drop, independent of
      // the others, as the carried rows' moves are.
      asm volatile("add.u32 %0, %0, 1;" : "+r"(moved[m]));
    }
  }
  __syncthreads();
  const long long stop = clock64();
  double sum = moved[0];
#pragma unroll
  for (int i = 0; i < kAcc; ++i) {
    sum += acc[i];
  }
  out[blockIdx.x * kThreads + threadIdx.x] = sum;
  if (threadIdx.x == 0) {
    unsigned sm = 0;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    times[3 * blockIdx.x] = sm;
    times[3 * blockIdx.x + 1] = start;
    times[3 * blockIdx.x + 2] = stop;
  }
}

/// What perSm finds: DFMAs per cycle of the median multiprocessor, and the
/// fewest and most blocks one ran.
struct PerSm {
  double rate;
  int fewest, most;
};

/// PerSm from each block's (multiprocessor, start, stop) in `times`, each
/// block dfmaPerBlock DFMAs (a multiprocessor's id may pass the count of
/// them: the tables grow to the largest seen).
PerSm perSm(const std::vector<long long> &times, int sms, double dfmaPerBlock) {
  for (size_t b = 0; b < times.size() / 3; ++b) {
    sms = std::max(sms, static_cast<int>(times[3 * b]) + 1);
  }
  std::vector<long long> first(sms, -1), last(sms, 0);
  std::vector<int> blocks(sms, 0);
  for (size_t b = 0; b < times.size() / 3; ++b) {
    const int sm = static_cast<int>(times[3 * b]);
    first[sm] = first[sm] < 0 ? times[3 * b + 1] : std::min(first[sm], times[3 * b + 1]);
    last[sm] = std::max(last[sm], times[3 * b + 2]);
    ++blocks[sm];
  }
  std::vector<double> rates;
  for (int sm = 0; sm < sms; ++sm) {
    if (blocks[sm] > 0) {
      rates.push_back(blocks[sm] * dfmaPerBlock / static_cast<double>(last[sm] - first[sm]));
    }
  }
  std::sort(rates.begin(), rates.end());
  int fewest = 1 << 30, most = 0;
  for (const int n : blocks) {
    fewest = n > 0 ? std::min(fewest, n) : fewest;
    most = std::max(most, n);
  }
  return {rates[rates.size() / 2], fewest, most};
}

/// Runs one combination on `sms` multiprocessors at warpsPerSm warps each
/// and prints what perSm finds.
template <int kAcc, int kMoves, int kForm = 1> int measure(int sms, int warpsPerSm) {
  const int blocks = sms * warpsPerSm / (kThreads / 32);
  double *out = nullptr;
  long long *times = nullptr;
  CHECK(cudaMalloc(&out, sizeof(double) * blocks * kThreads));
  CHECK(cudaMalloc(&times, sizeof(long long) * 3 * blocks));
  for (int run = 0; run < 3; ++run) { // the last run counts
    Coefficients p{};
    for (int i = 0; i < 25; ++i) {
      p.c[i] = 1.0 / (i + 3);
    }
    chains<kAcc, kMoves, kForm><<<blocks, kThreads>>>(1.0000001, 1e-9, p, out, times);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  std::vector<long long> t(3 * blocks);
  CHECK(cudaMemcpy(t.data(), times, sizeof(long long) * 3 * blocks, cudaMemcpyDeviceToHost));
  const PerSm r = perSm(t, sms, static_cast<double>(kAcc) * kRounds * kThreads);
  std::printf("warps/SM %2d  accumulators %2d  adds/round %2d  form %d  DFMA per "
              "SM-cycle %5.1f  (%3.0f %% of 64)  blocks an SM %d-%d\n",
              warpsPerSm, kAcc, kMoves, kForm, r.rate, 100.0 * r.rate / 64.0, r.fewest, r.most);
  CHECK(cudaFree(out));
  CHECK(cudaFree(times));
  return 0;
}

} // namespace

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs\n", prop.name, sms);
  int status = 0;
  for (const int warps : {4, 8, 12, 16, 32}) {
    status |= measure<4, 0>(sms, warps);
    status |= measure<8, 0>(sms, warps);
    status |= measure<20, 0>(sms, warps);
    status |= measure<20, 6>(sms, warps);
    status |= measure<20, 12>(sms, warps);
    status |= measure<20, 0, 2>(sms, warps);
    status |= measure<20, 0, 3>(sms, warps);
    status |= measure<20, 12, 3>(sms, warps);
    status |= measure<20, 0, 4>(sms, warps);
    status |= measure<20, 0, 5>(sms, warps);
    status |= measure<20, 0, 6>(sms, warps);
    status |= measure<25, 0, 7>(sms, warps);
  }
  return status;
}
