// fused_nd_bench.h - what the timing modes of the 1D and 3D fused kernels
// (fused1d_bench.cu, fused3d_bench.cu) and the sweeps of bench/lowrank and
// bench/lowrank3d share: fresh random inputs, the median of event-timed
// runs (sustained ones with STENCILC_BENCH_RUNS=60), the copy roofline, and
// the check of every T and geometry against T 1 bit for bit.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/runtime/timer.h"

namespace fused_nd_bench {

template <class E> __global__ void fillRandom(E *grid, long long count, unsigned seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned long long h = (static_cast<unsigned long long>(i) + 1) * 0x9E3779B97F4A7C15ull ^
                           (static_cast<unsigned long long>(seed) << 32);
    h ^= h >> 31, h *= 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
    grid[i] = static_cast<E>(static_cast<float>((h >> 40) | 1) / 16777216.0f); // (0, 1)
  }
}

/// The number of elements whose bits differ between a and b.
template <class E>
__global__ void countDifferent(const E *a, const E *b, long long count,
                               unsigned long long *different) {
  using Bits = std::conditional_t<sizeof(E) == 8, unsigned long long,
                                  std::conditional_t<sizeof(E) == 4, unsigned, unsigned short>>;
  unsigned long long mine = 0;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    mine += reinterpret_cast<const Bits *>(a)[i] != reinterpret_cast<const Bits *>(b)[i];
  }
  if (mine != 0) {
    atomicAdd(different, mine);
  }
}

/// Timed runs of medianMs: STENCILC_BENCH_RUNS where set (at least 1), else
/// 5. From kSustainedRuns on, the figure is the median of the last 20 runs:
/// on an H200 the 3D fp64 passes reach the board's power cap after about a
/// second of such work and lose 2-5 % (docs/performance.md, "How the
/// numbers are taken").
inline int timedRuns() {
  const char *text = std::getenv("STENCILC_BENCH_RUNS");
  const int runs = text != nullptr ? std::atoi(text) : 0;
  return runs >= 1 ? runs : 5;
}
constexpr int kSustainedRuns = 25;

/// The SM clock in MHz: one thread's clock64 over Microseconds of the
/// global timer (a template, as the other kernels here: the header is in
/// several translation units of one program).
template <int Microseconds = 50> __global__ void smClockMHz(unsigned long long *mhz) {
  unsigned long long begin, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(begin));
  const long long cycles = clock64();
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - begin < Microseconds * 1000ull);
  *mhz = static_cast<unsigned long long>(clock64() - cycles) * 1000ull / (now - begin);
}

/// The median of `values` (the upper middle one of an even count).
template <class V> V medianOf(std::vector<V> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// The median milliseconds of timedRuns() runs (after 2 warm-ups) of
/// `work`, each after fresh random inputs in a; with kSustainedRuns or
/// more, prints the median of the first 5 and of the last 20 with the SM
/// clock measured after each run, and returns the last 20's.
template <class E, class Work> double medianMs(E *a, long long count, Work work) {
  stencilc::EventTimer timer;
  const int runs = timedRuns();
  const bool sustained = runs >= kSustainedRuns;
  std::vector<double> ms;
  std::vector<unsigned long long> mhz;
  stencilc::DeviceBuffer<unsigned long long> probe(1);
  for (int run = 0; run < 2 + runs; ++run) {
    fillRandom<E><<<1024, 256>>>(a, count, 1234u + run);
    STENCILC_CHECK_LAUNCH();
    STENCILC_CHECK(cudaDeviceSynchronize());
    timer.start(nullptr);
    work();
    const float t = timer.stopMs(nullptr);
    unsigned long long m = 0;
    if (sustained) {
      smClockMHz<><<<1, 1>>>(probe.data());
      STENCILC_CHECK_LAUNCH();
      STENCILC_CHECK(cudaMemcpy(&m, probe.data(), sizeof m, cudaMemcpyDeviceToHost));
    }
    if (run >= 2) {
      ms.push_back(t);
      mhz.push_back(m);
    }
  }
  if (!sustained) {
    return medianOf(ms);
  }
  const std::vector<double> last(ms.end() - 20, ms.end());
  const std::vector<unsigned long long> lastMHz(mhz.end() - 20, mhz.end());
  std::printf("sustained: runs 1-5 %.3f ms at %llu MHz, the last 20 %.3f ms at %llu MHz (least "
              "%llu)\n",
              medianOf(std::vector<double>(ms.begin(), ms.begin() + 5)),
              medianOf(std::vector<unsigned long long>(mhz.begin(), mhz.begin() + 5)),
              medianOf(last), medianOf(lastMHz), *std::min_element(lastMHz.begin(), lastMHz.end()));
  return medianOf(last);
}

/// Device-to-device copy bandwidth (bytes read + written per second, GB/s)
/// over two buffers of `bytes`.
inline double copyGBs(long long bytes) {
  stencilc::DeviceBuffer<double> from(bytes / 8), to(bytes / 8);
  const double ms = medianMs(from.data(), bytes / 8, [&] {
    STENCILC_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));
  });
  const double gbs = 2.0 * bytes / (ms * 1e6);
  std::printf("copy %lld MiB device to device: %.3f ms, %.1f GB/s (read + write)\n", bytes >> 20,
              ms, gbs);
  return gbs;
}

/// The element type's keyword (bf16 told from fp16 by type, not by size).
template <class E> const char *typeName() {
  return std::is_same_v<E, __nv_bfloat16> ? "bf16"
         : sizeof(E) == 8                 ? "fp64"
         : sizeof(E) == 4                 ? "fp32"
                                          : "fp16";
}

/// The grids of a stencil's runs: a and b for run, and the result of T 1
/// from the input of seed kCheckSeed, which every other T and geometry must
/// equal bit for bit.
template <class E> struct Grids {
  static constexpr unsigned kCheckSeed = 99;
  explicit Grids(long long n) : count(n), a(n), b(n), singleSteps(n), different(1) {}
  long long count;
  stencilc::DeviceBuffer<E> a, b, singleSteps;
  stencilc::DeviceBuffer<unsigned long long> different;
};

/// Times `run(a, b)` (`steps` steps, T fused), then checks it against T 1
/// (T 1 itself: keeps its result as the reference). Prints one line and
/// returns whether it matched.
template <class E, class Run>
bool benchOne(const char *stencil, int T, const char *geometry, int steps, double copy,
              Grids<E> &grids, Run run) {
  E *const a = grids.a.data();
  E *const b = grids.b.data();
  const long long count = grids.count;
  const double ms = medianMs(a, count, [&] { STENCILC_CHECK(run(a, b)); });
  fillRandom<E><<<1024, 256>>>(a, count, Grids<E>::kCheckSeed);
  STENCILC_CHECK_LAUNCH();
  STENCILC_CHECK(run(a, b));
  unsigned long long different = 0;
  if (T == 1) {
    STENCILC_CHECK(
        cudaMemcpy(grids.singleSteps.data(), a, grids.a.bytes(), cudaMemcpyDeviceToDevice));
  } else {
    STENCILC_CHECK(cudaMemset(grids.different.data(), 0, sizeof(unsigned long long)));
    countDifferent<E><<<1024, 256>>>(a, grids.singleSteps.data(), count, grids.different.data());
    STENCILC_CHECK_LAUNCH();
    STENCILC_CHECK(
        cudaMemcpy(&different, grids.different.data(), sizeof different, cudaMemcpyDeviceToHost));
  }
  const double gstencils = static_cast<double>(count) * steps / (ms * 1e6);
  const double roof = T * copy / (2.0 * sizeof(E));
  std::printf("bench %-8s %s T=%-2d %-28s %8.3f ms  %7.1f GStencil/s  T x copy roofline %7.1f  "
              "(%3.0f %%)  %s\n",
              stencil, typeName<E>(), T, geometry, ms, gstencils, roof, 100.0 * gstencils / roof,
              T == 1           ? "(the reference)"
              : different == 0 ? "= T 1 bit for bit"
                               : "DIFFERS FROM T 1");
  if (different != 0) {
    std::printf("FAIL: %llu of %lld points differ from T 1\n", different, count);
  }
  return different == 0;
}

} // namespace fused_nd_bench
