// fields_bench: one step of each stencil of fields_bench.stencil (the wave
// equation in 2D and 3D star radius 4, the variable-conductivity heat step;
// fp32 and fp64), timed with CUDA events after a warm-up (median of the
// repetitions), on fresh random fields, against a roofline that counts every
// stream: bytes per point = (fields read + 1 written) x element size, at the
// device-to-device copy bandwidth measured in the same run.
//
// Build: scripts/gen-gpu-sources.sh writes build-gen/bench/fields_bench_stencils.*
// and the GPU build (scripts/gpu-check.sh) makes stencilc-bench-fields
// (bench/CMakeLists.txt).
// Usage: fields_bench [reps]   (default 20). One line a stencil.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "fields_bench_stencils.h"
#include "fields_bench_util.h"
#include "stencilc/runtime/runtime.h"

namespace {

int reps = 20;

/// The median time in ms of `launch`, after two warm-up calls.
float medianMs(const std::function<cudaError_t()> &launch) {
  STENCILC_CHECK(launch());
  STENCILC_CHECK(launch());
  STENCILC_CHECK(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int r = 0; r < reps; ++r) {
    stencilc::EventTimer timer;
    timer.start(nullptr);
    STENCILC_CHECK(launch());
    times.push_back(timer.stopMs(nullptr));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/// Fresh random values in [lo, hi) (fields_bench_util.h).
template <class T>
void fillRandom(stencilc::DeviceBuffer<T> &buffer, unsigned seed, double lo, double hi) {
  buffer.upload(stencilc::bench::randomValues<T>(buffer.size(), seed, lo, hi));
}

void report(const char *name, const char *shape, double points, int streams, int elementBytes,
            float ms, double copy) {
  double bytes = points * streams * elementBytes;
  double achieved = bytes / (ms * 1e-3);
  std::printf("%-18s %-12s %2d streams x %d B  %8.3f ms  %7.1f GB/s  %6.1f GStencil/s  %5.1f %% "
              "of copy\n",
              name, shape, streams, elementBytes, ms, achieved / 1e9, points / (ms * 1e-3) / 1e9,
              100.0 * achieved / copy);
}

template <class T, class Step> void wave2d(const char *name, int n, Step step, double copy) {
  std::size_t points = static_cast<std::size_t>(n) * n;
  stencilc::DeviceBuffer<T> u(points), prev(points), c2(points), out(points);
  fillRandom(u, 1, -1, 1);
  fillRandom(prev, 2, -1, 1);
  fillRandom(c2, 3, 0.1, 1);
  float ms = medianMs(
      [&] { return step(u.data(), prev.data(), c2.data(), out.data(), n, n, 0.3, nullptr); });
  report(name, (std::to_string(n) + "^2").c_str(), double(points), 4, sizeof(T), ms, copy);
}

template <class T, class Step> void wave3d(const char *name, int n, Step step, double copy) {
  std::size_t points = static_cast<std::size_t>(n) * n * n;
  stencilc::DeviceBuffer<T> u(points), prev(points), c2(points), out(points);
  fillRandom(u, 4, -1, 1);
  fillRandom(prev, 5, -1, 1);
  fillRandom(c2, 6, 0.1, 1);
  float ms = medianMs(
      [&] { return step(u.data(), prev.data(), c2.data(), out.data(), n, n, n, 0.3, nullptr); });
  report(name, (std::to_string(n) + "^3").c_str(), double(points), 4, sizeof(T), ms, copy);
}

template <class T, class Step> void varheat(const char *name, int n, Step step, double copy) {
  std::size_t points = static_cast<std::size_t>(n) * n;
  stencilc::DeviceBuffer<T> u(points), kappa(points), out(points);
  fillRandom(u, 7, 0, 1);
  fillRandom(kappa, 8, 0.01, 0.25);
  float ms = medianMs([&] { return step(u.data(), kappa.data(), out.data(), n, n, 1.0, nullptr); });
  report(name, (std::to_string(n) + "^2").c_str(), double(points), 3, sizeof(T), ms, copy);
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1) {
    reps = std::max(3, std::atoi(argv[1]));
  }
  cudaDeviceProp prop{};
  STENCILC_CHECK(cudaGetDeviceProperties(&prop, 0));
  double copy = stencilc::bench::copyBandwidth(reps);
  std::printf("device: %s; copy bandwidth %.1f GB/s (cudaMemcpy device to device, 2 GiB, "
              "read + write); median of %d\n",
              prop.name, copy / 1e9, reps);
  wave2d<float>("wave2d fp32", 8192, wave2d_fp32_step, copy);
  wave2d<double>("wave2d fp64", 8192, wave2d_fp64_step, copy);
  wave3d<float>("wave3d r4 fp32", 512, wave3d_r4_fp32_step, copy);
  wave3d<double>("wave3d r4 fp64", 512, wave3d_r4_fp64_step, copy);
  varheat<float>("varheat fp32", 8192, varheat_fp32_step, copy);
  varheat<double>("varheat fp64", 8192, varheat_fp64_step, copy);
  // The copy once more, after: the roofline did not drift.
  std::printf("copy bandwidth after: %.1f GB/s\n", stencilc::bench::copyBandwidth(reps) / 1e9);
  return 0;
}
