// packed_bench.cu - packed 16-bit arithmetic on the GPU (bench/packed/gen.sh
// builds it, run.sh runs it): for each stencil of PACKED_CASES in fp16 and
// bf16, the relative L2 error against float64 after 100 and 1000 steps on a
// 512^2 grid of random values in [0, 1), fixed boundary, packed
// (arith=packed) and widened (the default); then NAME_run of 100 steps at
// 8192^2, packed, widened and the fp32 stencil of the same shape (CUDA
// cores, each as generated), CUDA events, 2 warm-up runs, the median of 5;
// GStencil/s counts every point and step. The copy bandwidth is measured
// in the same run.
//
// The generated headers come first (-include of gen.sh's list header).
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "fused_nd_bench.h" // test/GPU/device: fillRandom, medianMs, copyGBs
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/testing/harness.h"
#include "stencilc/testing/reference.h"

namespace {

constexpr int kN = 8192, kSteps = 100, kErrorN = 512;

template <class E, class Run> double gstencils(Run run) {
  const long long count = static_cast<long long>(kN) * kN;
  stencilc::DeviceBuffer<E> a(count), b(count);
  fused_nd_bench::fillRandom<E><<<1024, 256>>>(a.data(), count, 1234u);
  STENCILC_CHECK(cudaDeviceSynchronize());
  const double ms =
      fused_nd_bench::medianMs(a.data(), count, [&] { STENCILC_CHECK(run(a.data(), b.data())); });
  return double(kN) * kN * kSteps / (ms * 1e6);
}

/// The relative L2 error after `steps` of run against float64 (the
/// interior, which a fixed boundary writes), on the seeded 512^2 input.
template <class E, class Run>
double runError(const stencilc_stencil_info &info, Run run, int steps) {
  const std::size_t n = std::size_t(kErrorN) * kErrorN;
  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::vector<E> host(n);
  std::vector<double> ref(n);
  for (std::size_t i = 0; i < n; ++i) {
    host[i] = E(uniform(rng));
    ref[i] = double(float(host[i]));
  }
  stencilc::DeviceBuffer<E> a(n), b(n);
  STENCILC_CHECK(cudaMemcpy(a.data(), host.data(), n * sizeof(E), cudaMemcpyHostToDevice));
  STENCILC_CHECK(run(a.data(), b.data(), kErrorN, steps));
  STENCILC_CHECK(cudaMemcpy(host.data(), a.data(), n * sizeof(E), cudaMemcpyDeviceToHost));
  stencilc::referenceRun(info, stencilc::Extents::of2D(kErrorN, kErrorN), ref, steps);
  double diff = 0.0, norm = 0.0;
  const int r = info.radius;
  for (int y = r; y < kErrorN - r; ++y) {
    for (int x = r; x < kErrorN - r; ++x) {
      const double d = double(float(host[y * kErrorN + x])) - ref[y * kErrorN + x];
      diff += d * d;
      norm += ref[y * kErrorN + x] * ref[y * kErrorN + x];
    }
  }
  return std::sqrt(diff / norm);
}

} // namespace

// X(name of the packed stencil, of the widened one, of the fp32 one, element type)
#define PACKED_RUN(fn)                                                                             \
  [](auto *a, auto *b, int n, int steps) { return fn(a, b, n, n, steps, nullptr); }
#define PACKED_ERRORS(packed, widened, fp32, E)                                                    \
  for (int steps : {100, 1000})                                                                    \
    std::printf("error %-16s %4d steps at 512^2: packed %.2e, widened %.2e (relative L2)\n",       \
                #widened, steps, runError<E>(packed##_info, PACKED_RUN(packed##_run), steps),      \
                runError<E>(widened##_info, PACKED_RUN(widened##_run), steps));
#define PACKED_SPEED(packed, widened, fp32, E)                                                     \
  {                                                                                                \
    const auto at = [](auto fn) {                                                                  \
      return [fn](auto *a, auto *b) { return fn(a, b, kN, kN, kSteps, nullptr); };                 \
    };                                                                                             \
    const double p = gstencils<E>(at(packed##_run)), w = gstencils<E>(at(widened##_run));          \
    const double f = gstencils<float>(at(fp32##_run));                                             \
    std::printf("speed %-16s packed %7.1f  widened %7.1f  fp32 %7.1f GStencil/s  packed/widened "  \
                "x%.2f  packed/fp32 x%.2f\n",                                                      \
                #widened, p, w, f, p / w, p / f);                                                  \
  }

int main() {
  std::printf("device: %s\n", stencilc::deviceDescription().c_str());
  PACKED_CASES(PACKED_ERRORS)
  fused_nd_bench::copyGBs(static_cast<long long>(kN) * kN * 2);
  PACKED_CASES(PACKED_SPEED)
  return 0;
}
