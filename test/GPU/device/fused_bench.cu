// fused_bench.cu - the timing mode of gpu-test-device-fused (--bench), a
// translation unit of its own so that it compiles beside the exactness test:
// 100 steps of star5p and box9p, fp32 and fp64, at 8192^2, fixed boundary,
// T 1 (single steps through the fused kernel), 2, 4, 6 and 8 in strips of
// 256 columns, 256 threads, batches of 4 rows, chunks of 256 rows; then, at
// T 4 and 8, batches of 8 rows, and chunks of 512 rows (the first numbers to
// tune). CUDA events, 2 warm-up runs, the median of 5, each on fresh random
// inputs in (0, 1); prints GStencil/s (8192^2 x 100 / time) beside T x the
// copy roofline measured in the same run (copy GB/s / (2 x element bytes)).
// Then each T and geometry runs once more on one input and must equal the
// result of T 1 bit for bit (every T, not only the test's 2 and 4, at
// 8192^2); the exit status is 1 where one does not.
#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "fused_test.h"
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/runtime/timer.h"

namespace {

using namespace stencilc;
namespace fused = stencilc::device::fused;
using fused_test::Params;

template <class E> const char *typeName() { return sizeof(E) == 8 ? "fp64" : "fp32"; }

template <class E> __global__ void fillRandom(E *grid, long long count, unsigned seed) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    unsigned long long h = (static_cast<unsigned long long>(i) + 1) * 0x9E3779B97F4A7C15ull ^
                           (static_cast<unsigned long long>(seed) << 32);
    h ^= h >> 31, h *= 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
    grid[i] = static_cast<E>(static_cast<double>((h >> 40) | 1) / 16777216.0); // (0, 1)
  }
}

constexpr int kBenchN = 8192;
constexpr int kBenchSteps = 100;
constexpr int kBenchRuns = 5;

/// The median milliseconds of kBenchRuns runs (after 2 warm-ups) of
/// `work`, each after fresh random inputs in a.
template <class E, class Work> double medianMs(E *a, long long count, Work work) {
  EventTimer timer;
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
  using Bits = std::conditional_t<sizeof(E) == 8, unsigned long long, unsigned>;
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
/// of T 1 from the input of seed kCheckSeed, which every other T and
/// geometry must equal bit for bit.
template <class E> struct Grids {
  static constexpr long long kCount = static_cast<long long>(kBenchN) * kBenchN;
  static constexpr unsigned kCheckSeed = 99;
  DeviceBuffer<E> a{kCount}, b{kCount}, singleSteps{kCount};
  DeviceBuffer<unsigned long long> different{1};
};

/// Times one geometry, then checks it against T 1 (T 1 itself: keeps its
/// result as the reference). Returns whether it matched.
template <class E, class St, int T, int Batch = 4, int ChunkY = 256>
bool benchOne(double copyGBs, Grids<E> &grids) {
  using S = fused::Geometry<Params<E, device::FixedBoundary, St, T, 256, 256, Batch, ChunkY>>;
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
  const double gstencils = static_cast<double>(count) * kBenchSteps / (ms * 1e6);
  const double roof = T * copyGBs / (2.0 * sizeof(E));
  std::printf("bench %-7s %s T=%d batch %d chunk %3d  %8.3f ms  %7.1f GStencil/s  T x copy "
              "roofline %7.1f  (%.0f %%)  %s\n",
              St::kName, typeName<E>(), T, Batch, ChunkY, ms, gstencils, roof,
              100.0 * gstencils / roof,
              T == 1           ? "(the reference)"
              : different == 0 ? "= T 1 bit for bit"
                               : "DIFFERS FROM T 1");
  if (different != 0) {
    std::printf("FAIL: %llu of %lld points differ from T 1\n", different, count);
  }
  return different == 0;
}

template <class E, class St> bool benchStencil(double copyGBs) {
  Grids<E> grids;
  bool same = benchOne<E, St, 1>(copyGBs, grids);
  same &= benchOne<E, St, 2>(copyGBs, grids);
  same &= benchOne<E, St, 4>(copyGBs, grids);
  same &= benchOne<E, St, 6>(copyGBs, grids);
  same &= benchOne<E, St, 8>(copyGBs, grids);
  same &= benchOne<E, St, 4, 8>(copyGBs, grids);
  same &= benchOne<E, St, 8, 8>(copyGBs, grids);
  same &= benchOne<E, St, 4, 4, 512>(copyGBs, grids);
  same &= benchOne<E, St, 8, 4, 512>(copyGBs, grids);
  return same;
}

} // namespace

int fused_test::bench() {
  const long long bytes = static_cast<long long>(kBenchN) * kBenchN * sizeof(double);
  DeviceBuffer<double> from(bytes / sizeof(double)), to(bytes / sizeof(double));
  const double copyMs = medianMs(from.data(), bytes / static_cast<long long>(sizeof(double)), [&] {
    STENCILC_CHECK(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));
  });
  const double copyGBs = 2.0 * bytes / (copyMs * 1e6);
  std::printf("copy %lld MiB device to device: %.3f ms, %.1f GB/s (read + write)\n", bytes >> 20,
              copyMs, copyGBs);
  bool same = benchStencil<float, fused_test::Star5>(copyGBs);
  same &= benchStencil<double, fused_test::Star5>(copyGBs);
  same &= benchStencil<float, fused_test::Box9>(copyGBs);
  same &= benchStencil<double, fused_test::Box9>(copyGBs);
  std::printf("bench: %s\n", same ? "every T and geometry equals T 1 bit for bit"
                                  : "FAIL: some T or geometry differs from T 1");
  return same ? 0 : 1;
}
