// fused_bench.h - the timing mode of gpu-test-device-fused (--bench):
// what its translation units share (fused_bench.cu, the driver, and one
// generated unit per element type and stencil, test/GPU/CMakeLists.txt,
// which instantiates benchCases, so that they compile in parallel).
//
// benchOne times 100 steps of one stencil, element type and geometry at
// 8192^2, fixed boundary: CUDA events, 2 warm-up runs, the median of 5,
// each on fresh random inputs in (0, 1); it prints GStencil/s (8192^2 x 100
// / time) beside T x the copy roofline measured in the same run (copy GB/s
// / (2 x element bytes)). Then the geometry runs once more on one input and
// must equal the result of the stencil's first geometry (T 1: single
// steps) bit for bit.
#pragma once

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <type_traits>
#include <vector>

#include "fused_test.h"
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/runtime/timer.h"

namespace fused_test {

template <class E> const char *benchTypeName() {
  return std::is_same_v<E, double>   ? "fp64"
         : std::is_same_v<E, float>  ? "fp32"
         : std::is_same_v<E, __half> ? "fp16"
                                     : "bf16";
}

template <class E> __global__ void fillRandom(E *grid, long long count, unsigned seed) {
  using C = std::conditional_t<std::is_same_v<E, double>, double, float>;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned long long h = (static_cast<unsigned long long>(i) + 1) * 0x9E3779B97F4A7C15ull ^
                           (static_cast<unsigned long long>(seed) << 32);
    h ^= h >> 31, h *= 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
    const double u = static_cast<double>((h >> 40) | 1) / 16777216.0; // (0, 1)
    grid[i] = stencilc::device::toElement<E>(static_cast<C>(u));
  }
}

constexpr int kBenchN = 8192;
constexpr int kBenchSteps = 100;
constexpr int kBenchRuns = 5;

/// The median milliseconds of kBenchRuns runs (after 2 warm-ups) of
/// `work`, each after fresh random inputs in a.
template <class E, class Work> double medianMs(E *a, long long count, Work work) {
  stencilc::EventTimer timer;
  std::vector<double> ms;
  for (int run = 0; run < 2 + kBenchRuns; ++run) {
    fillRandom<E><<<1024, 256>>>(a, count, 1234u + run);
    STENCILC_CHECK_LAUNCH();
    STENCILC_CHECK(cudaDeviceSynchronize());
    timer.start(nullptr);
    work();
    const float t = timer.stopMs(nullptr);
    if (run >= 2) {
      ms.push_back(t);
    }
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
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

/// The grids of a stencil's runs: a and b for fused::run, and the result
/// of the first geometry (T 1) from the input of seed kCheckSeed, which
/// every other geometry must equal bit for bit.
template <class E> struct Grids {
  static constexpr long long kCount = static_cast<long long>(kBenchN) * kBenchN;
  static constexpr unsigned kCheckSeed = 99;
  stencilc::DeviceBuffer<E> a{kCount}, b{kCount}, singleSteps{kCount};
  stencilc::DeviceBuffer<unsigned long long> different{1};
  bool haveReference = false;
};

/// A geometry to time: T, kWidth, kThreads, kBatch, kChunkY, kMinBlocks.
template <int T, int Width, int Threads, int Batch, int ChunkY, int MinBlocks = 1> struct G {};

/// Times one geometry, then checks it against the reference (the first
/// geometry timed keeps its result as the reference). Returns whether it
/// matched.
template <class E, class St, int T, int Width, int Threads, int Batch, int ChunkY, int MinBlocks>
bool benchOne(double copyGBs, Grids<E> &grids, G<T, Width, Threads, Batch, ChunkY, MinBlocks>) {
  namespace fused = stencilc::device::fused;
  using S = fused::Geometry<WithMinBlocks<
      Params<E, stencilc::device::FixedBoundary, St, T, Width, Threads, Batch, ChunkY>, MinBlocks>>;
  constexpr long long count = Grids<E>::kCount;
  E *const a = grids.a.data();
  E *const b = grids.b.data();
  const double ms = medianMs(a, count, [&] {
    STENCILC_CHECK(fused::run<S>(a, b, kBenchN, kBenchN, kBenchSteps, nullptr));
  });
  fillRandom<E><<<1024, 256>>>(a, count, Grids<E>::kCheckSeed);
  STENCILC_CHECK_LAUNCH();
  STENCILC_CHECK(fused::run<S>(a, b, kBenchN, kBenchN, kBenchSteps, nullptr));
  unsigned long long different = 0;
  const bool reference = !grids.haveReference;
  if (reference) {
    STENCILC_CHECK(
        cudaMemcpy(grids.singleSteps.data(), a, grids.a.bytes(), cudaMemcpyDeviceToDevice));
    grids.haveReference = true;
  } else {
    STENCILC_CHECK(cudaMemset(grids.different.data(), 0, sizeof(unsigned long long)));
    countDifferent<E><<<1024, 256>>>(a, grids.singleSteps.data(), count, grids.different.data());
    STENCILC_CHECK_LAUNCH();
    STENCILC_CHECK(
        cudaMemcpy(&different, grids.different.data(), sizeof different, cudaMemcpyDeviceToHost));
  }
  const double gstencils = static_cast<double>(count) * kBenchSteps / (ms * 1e6);
  const double roof = T * copyGBs / (2.0 * sizeof(E));
  std::printf("bench %-8s %s T=%d width %3d threads %3d batch %d chunk %4d minblocks %d  %8.3f ms  "
              "%7.1f GStencil/s  T x copy roofline %7.1f (%3.0f %%)  %s\n",
              St::kName, benchTypeName<E>(), T, Width, Threads, Batch, ChunkY, MinBlocks, ms,
              gstencils, roof, 100.0 * gstencils / roof,
              reference        ? "(the reference)"
              : different == 0 ? "= reference bit for bit"
                               : "DIFFERS FROM THE REFERENCE");
  if (different != 0) {
    std::printf("FAIL: %llu of %lld points differ from the reference\n", different, count);
  }
  std::fflush(stdout);
  return different == 0;
}

/// Times each geometry of Gs in turn (the first one: T 1, the reference).
template <class E, class St, class... Gs> bool benchAll(double copyGBs, Gs... gs) {
  Grids<E> grids;
  bool same = true;
  ((same &= benchOne<E, St>(copyGBs, grids, gs)), ...);
  return same;
}

/// The geometries each element type and stencil is timed at, the first
/// (T 1) the reference: std::tuple<G<T, kWidth, kThreads, kBatch,
/// kChunkY>...>.
template <class E, class St> struct Sweep;

#define FUSED_SWEEP(E, St, ...)                                                                    \
  template <> struct Sweep<E, St> {                                                                \
    using type = std::tuple<__VA_ARGS__>;                                                          \
  };
// The first of each: T 1, the reference. The sixth number, where given,
// caps the registers (kMinBlocks). The chunks of 64 to 128 rows come from
// bench/results/2026-11-24-2203-fused2d-bench-h100.txt, which has the
// earlier, wider sweep too.
FUSED_SWEEP(double, Star5, G<1, 64, 128, 4, 256>, G<8, 64, 128, 4, 256, 3>,
            G<8, 64, 128, 4, 128, 3>, G<8, 64, 128, 4, 96, 3>, G<8, 64, 128, 4, 64, 3>,
            G<7, 64, 128, 4, 128, 3>, G<8, 64, 128, 6, 96, 3>, G<8, 64, 128, 4, 96, 4>)
FUSED_SWEEP(float, Star5, G<1, 128, 128, 4, 256>, G<8, 128, 128, 4, 256, 2>,
            G<8, 128, 128, 4, 128, 2>, G<8, 128, 128, 4, 96, 2>, G<8, 128, 128, 4, 64, 2>,
            G<8, 128, 128, 4, 128, 3>)
FUSED_SWEEP(__half, Star5, G<1, 128, 128, 4, 256>, G<8, 128, 128, 4, 128, 3>,
            G<8, 128, 128, 4, 96, 3>, G<8, 128, 128, 4, 64, 3>, G<8, 128, 128, 4, 128, 2>)
FUSED_SWEEP(double, Box9, G<1, 64, 128, 4, 256>, G<6, 64, 128, 4, 128, 3>, G<6, 64, 128, 4, 96, 3>,
            G<6, 64, 128, 4, 64, 3>, G<6, 64, 128, 2, 128, 3>)
FUSED_SWEEP(float, Box9, G<1, 128, 128, 4, 256>, G<8, 128, 64, 2, 128, 6>, G<8, 128, 64, 2, 96, 6>,
            G<8, 128, 64, 2, 64, 6>, G<8, 128, 128, 2, 128, 3>)
FUSED_SWEEP(__half, Box9, G<1, 128, 128, 4, 256>, G<8, 128, 128, 3, 128, 3>,
            G<8, 128, 128, 3, 96, 3>, G<8, 128, 128, 3, 64, 3>, G<8, 128, 128, 2, 128, 3>)
// Stars share their rows' side columns where they are read (fused.cuh,
// SidesOf), which frees registers for more steps and rows a level: the
// sweeps of radius 2 and 3 reach past the geometries measured before that
// (2026-11-30, the planner's T and batch first after the reference).
FUSED_SWEEP(double, Star9, G<1, 64, 128, 4, 256>, G<4, 64, 128, 6, 128, 2>,
            G<4, 64, 128, 4, 128, 2>, G<5, 64, 128, 4, 128, 2>, G<6, 64, 128, 4, 128, 2>,
            G<6, 64, 128, 6, 128, 2>, G<4, 128, 128, 4, 128, 2>, G<4, 64, 128, 4, 128, 3>,
            G<6, 64, 128, 2, 128, 3>)
FUSED_SWEEP(float, Star9, G<1, 128, 128, 4, 256>, G<6, 128, 128, 2, 128, 2>,
            G<8, 128, 128, 2, 128, 2>, G<6, 128, 128, 4, 128, 2>, G<8, 128, 128, 4, 128, 2>,
            G<4, 128, 128, 2, 128, 3>)
FUSED_SWEEP(__half, Star9, G<1, 128, 128, 4, 256>, G<4, 128, 128, 4, 96, 3>,
            G<6, 128, 128, 4, 96, 3>, G<8, 128, 128, 4, 128, 2>, G<6, 128, 128, 2, 128, 3>,
            G<8, 128, 128, 2, 128, 2>)
FUSED_SWEEP(double, Star13, G<1, 128, 128, 4, 256>, G<2, 128, 128, 4, 128, 2>,
            G<3, 128, 128, 4, 128, 2>, G<3, 128, 128, 2, 128, 2>, G<4, 128, 128, 2, 128, 2>,
            G<4, 128, 128, 4, 128, 1>, G<2, 128, 128, 2, 128, 3>)
FUSED_SWEEP(float, Star13, G<1, 128, 128, 4, 256>, G<2, 128, 128, 4, 128, 2>,
            G<3, 128, 128, 4, 128, 2>, G<4, 128, 128, 4, 128, 2>, G<5, 128, 128, 2, 128, 2>,
            G<6, 128, 128, 2, 128, 2>)
FUSED_SWEEP(__half, Star13, G<1, 128, 128, 4, 256>, G<2, 128, 128, 4, 128, 2>,
            G<4, 128, 128, 4, 128, 2>, G<6, 128, 128, 2, 128, 2>, G<6, 128, 128, 4, 128, 2>)
FUSED_SWEEP(double, Box25, G<1, 64, 128, 4, 256>, G<3, 64, 128, 4, 128, 2>, G<3, 64, 128, 4, 64, 2>,
            G<2, 64, 128, 6, 128>, G<3, 64, 128, 6, 128, 2>)
FUSED_SWEEP(float, Box25, G<1, 128, 128, 4, 256>, G<4, 128, 128, 2, 128, 2>,
            G<4, 128, 128, 2, 64, 2>, G<3, 128, 128, 2, 128, 2>, G<5, 128, 128, 2, 128, 2>)
FUSED_SWEEP(__half, Box25, G<1, 128, 128, 4, 256>, G<3, 128, 128, 2, 128, 2>,
            G<3, 128, 128, 2, 64, 2>, G<2, 128, 128, 4, 128, 3>, G<4, 128, 128, 2, 128, 2>)
FUSED_SWEEP(double, Box49, G<1, 128, 128, 3, 256>, G<1, 128, 128, 3, 128>, G<1, 128, 128, 3, 64>,
            G<2, 128, 128, 1, 128, 2>)
FUSED_SWEEP(float, Box49, G<1, 128, 128, 4, 256>, G<2, 128, 128, 2, 128, 2>,
            G<2, 128, 128, 2, 64, 2>, G<1, 128, 128, 4, 128>, G<2, 128, 128, 1, 128, 2>)
FUSED_SWEEP(__half, Box49, G<1, 128, 128, 4, 256>, G<1, 128, 128, 4, 128>,
            G<2, 128, 128, 2, 128, 2>, G<2, 128, 128, 2, 64, 2>)
#undef FUSED_SWEEP
/// bf16 is timed at fp16's geometries (the same registers and accesses).
template <class St> struct Sweep<__nv_bfloat16, St> : Sweep<__half, St> {};

/// Times one element type and stencil at each geometry of its sweep;
/// returns whether every geometry matched the reference. Instantiated once
/// per case of FUSED_BENCH_CASES, each in a translation unit of its own.
template <class E, class St> bool benchCases(double copyGBs) {
  return std::apply([&](auto... g) { return benchAll<E, St>(copyGBs, g...); },
                    typename Sweep<E, St>::type{});
}

} // namespace fused_test
