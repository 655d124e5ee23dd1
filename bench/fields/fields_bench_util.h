// fields_bench_util.h - what the two benchmarks of stencils of fields
// (fields_bench.cu, fields_run_bench.cu) share: fresh random values and the
// device-to-device copy bandwidth they are set against.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "../median_ms.h"
#include "stencilc/runtime/runtime.h"

namespace stencilc::bench {

/// n fresh random values in [lo, hi) (a 64-bit xorshift: fast enough for a
/// billion points), the same for the same seed.
template <class T> std::vector<T> randomValues(std::size_t n, unsigned seed, double lo, double hi) {
  std::uint64_t state = 0x9E3779B97F4A7C15ull * (seed + 1);
  std::vector<T> host(n);
  for (T &v : host) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    v = static_cast<T>(lo + (hi - lo) * static_cast<double>(state >> 11) * 0x1.0p-53);
  }
  return host;
}

/// Device-to-device copy bandwidth (bytes read + written per second) of a
/// 2 GiB buffer: the median of `reps` copies after two.
inline double copyBandwidth(int reps) {
  const std::size_t bytes = std::size_t(2) << 30;
  DeviceBuffer<char> a(bytes), b(bytes);
  STENCILC_CHECK(cudaMemset(a.data(), 1, bytes));
  const double ms = medianMs(
      [&](int) {
        STENCILC_CHECK(
            cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice, nullptr));
      },
      2, reps);
  return 2.0 * bytes / (ms * 1e-3);
}

/// The median time in ms of `run` (which `restore` gives its inputs first,
/// outside the timing) over `reps` repetitions, after one warm-up call:
/// CUDA events around each call.
inline float fieldsRunMedianMs(const std::function<void()> &restore,
                               const std::function<cudaError_t()> &run, int reps) {
  restore();
  STENCILC_CHECK(run());
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    restore();
    STENCILC_CHECK(cudaDeviceSynchronize());
    EventTimer timer;
    timer.start(nullptr);
    STENCILC_CHECK(run());
    times.push_back(timer.stopMs(nullptr));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// A Ricker wavelet's amplitude at each of `steps` steps (peak frequency
/// 0.05 a step, centred on step 40): the benchmarks' point sources.
inline std::vector<double> rickerAmplitudes(int steps) {
  std::vector<double> amp(static_cast<std::size_t>(steps));
  for (int s = 0; s < steps; ++s) {
    const double a = M_PI * 0.05 * (s - 40);
    amp[static_cast<std::size_t>(s)] = (1 - 2 * a * a) * std::exp(-a * a);
  }
  return amp;
}

/// fields_run_bench's arguments: [steps [reps]], each at least 1.
inline void runArguments(int argc, char **argv, int &steps, int &reps) {
  if (argc > 1) {
    steps = std::max(1, std::atoi(argv[1]));
  }
  if (argc > 2) {
    reps = std::max(1, std::atoi(argv[2]));
  }
}

/// Whether two device buffers hold the same bits.
template <class T> bool sameBits(const DeviceBuffer<T> &a, const DeviceBuffer<T> &b) {
  std::vector<T> x(a.size()), y(b.size());
  STENCILC_CHECK(cudaMemcpy(x.data(), a.data(), a.size() * sizeof(T), cudaMemcpyDeviceToHost));
  STENCILC_CHECK(cudaMemcpy(y.data(), b.data(), b.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

/// One line of fields_run_bench: both times, both rates (every point x
/// every step), the ratio, and whether the two results are the same bits.
inline void reportRun(const char *name, const char *size, double points, int steps, float fusedMs,
                      float oneMs, bool same) {
  const double work = points * steps;
  std::printf("%-18s %s x %d steps  fused %9.2f ms %7.1f GStencil/s   one a launch %9.2f ms "
              "%7.1f GStencil/s   %.2fx   %s\n",
              name, size, steps, fusedMs, work / (fusedMs * 1e-3) / 1e9, oneMs,
              work / (oneMs * 1e-3) / 1e9, oneMs / fusedMs, same ? "bit for bit" : "DIFFERENT");
  std::fflush(stdout);
}

} // namespace stencilc::bench
