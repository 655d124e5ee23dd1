// fields_bench_util.h - what the two benchmarks of stencils of fields
// (fields_bench.cu, fields_run_bench.cu) share: fresh random values and the
// device-to-device copy bandwidth they are set against.
#pragma once

#include <cstddef>
#include <cstdint>
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

} // namespace stencilc::bench
