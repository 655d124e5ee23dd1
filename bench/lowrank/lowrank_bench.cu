// lowrank_bench.cu - the low-rank form's benchmark (bench/lowrank/gen.sh
// builds it, run.sh runs it on the GPU): NAME_run of 100 steps at 8192^2,
// fixed boundary, of each stencil of the list header in three plans side
// by side in one run: NAME_lr (CUDA cores, the low-rank form), NAME_simt
// (CUDA cores, lowrank=off) and NAME_auto (lowrank=off, the backend
// --backend=auto picks). CUDA events, 2 warm-up runs, the median of 5, each
// on fresh random inputs in (0, 1); GStencil/s counts every point and step.
// Each low-rank result is compared with the direct CUDA-core one on the
// same input (the largest difference: they round differently). One kind's
// fused geometry is swept by sweep2d.cu.
//
// The list header (bench-list.h, stencil_list.py) is included first by
// the build (-include).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "fused_nd_bench.h" // test/GPU/device: fillRandom
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/runtime/timer.h"

namespace {

constexpr int kN = 8192;
constexpr int kSteps = 100;
constexpr int kRuns = 5;

using fused_nd_bench::fillRandom;

/// The median milliseconds of kRuns runs (after 2 warm-ups) of
/// run(a, b), each after fresh random inputs in a.
template <class E, class Run> double medianMs(E *a, E *b, Run run) {
  const long long count = static_cast<long long>(kN) * kN;
  stencilc::EventTimer timer;
  std::vector<double> ms;
  for (int i = 0; i < 2 + kRuns; ++i) {
    fillRandom<E><<<1024, 256>>>(a, count, 1234u + i);
    STENCILC_CHECK(cudaDeviceSynchronize());
    timer.start(nullptr);
    STENCILC_CHECK(run(a, b));
    const double t = timer.stopMs(nullptr);
    if (i >= 2) {
      ms.push_back(t);
    }
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

double gstencils(double ms) { return double(kN) * kN * kSteps / (ms * 1e6); }

/// The largest |x - y| of two results, over the largest |y|.
template <class E> double difference(const std::vector<E> &x, const std::vector<E> &y) {
  double worst = 0.0, most = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    worst = std::max(worst, std::fabs(double(x[i]) - double(y[i])));
    most = std::max(most, std::fabs(double(y[i])));
  }
  return most > 0 ? worst / most : worst;
}

/// 100 steps of `run` from the seeded input, downloaded.
template <class E, class Run> std::vector<E> resultOf(E *a, E *b, Run run) {
  const long long count = static_cast<long long>(kN) * kN;
  fillRandom<E><<<1024, 256>>>(a, count, 99u);
  STENCILC_CHECK(cudaDeviceSynchronize());
  STENCILC_CHECK(run(a, b));
  STENCILC_CHECK(cudaDeviceSynchronize());
  std::vector<E> host(count);
  STENCILC_CHECK(cudaMemcpy(host.data(), a, count * sizeof(E), cudaMemcpyDeviceToHost));
  return host;
}

template <class E, class Lr, class Simt, class Auto>
void compare(const char *name, Lr lr, Simt simt, Auto automatic) {
  const long long count = static_cast<long long>(kN) * kN;
  stencilc::DeviceBuffer<E> a(count), b(count);
  const double msLr = medianMs(a.data(), b.data(), lr);
  const double msSimt = medianMs(a.data(), b.data(), simt);
  const double msAuto = medianMs(a.data(), b.data(), automatic);
  const double diff =
      difference(resultOf(a.data(), b.data(), lr), resultOf(a.data(), b.data(), simt));
  std::printf("%-14s lowrank %7.1f  direct-simt %7.1f  direct-auto %7.1f GStencil/s  "
              "(x%.2f vs the faster direct)  max|lowrank - direct|/max %.1e\n",
              name, gstencils(msLr), gstencils(msSimt), gstencils(msAuto),
              std::min(msSimt, msAuto) / msLr, diff);
}

} // namespace

#define LR_COMPARE(E, base)                                                                        \
  compare<E>(                                                                                      \
      #base, [](E *a, E *b) { return base##_lr_run(a, b, kN, kN, kSteps, nullptr); },              \
      [](E *a, E *b) { return base##_simt_run(a, b, kN, kN, kSteps, nullptr); },                   \
      [](E *a, E *b) { return base##_auto_run(a, b, kN, kN, kSteps, nullptr); })

int main() {
  std::printf("device: %s\n", [] {
    cudaDeviceProp p;
    STENCILC_CHECK(cudaGetDeviceProperties(&p, 0));
    static char text[256];
    std::snprintf(text, sizeof text, "%s (sm_%d%d)", p.name, p.major, p.minor);
    return text;
  }());
  std::printf("NAME_run, %d steps at %d^2, fixed boundary; median of %d after 2 warm-ups\n", kSteps,
              kN, kRuns);
  LR_COMPARE(double, blur7x7_fp64);
  LR_COMPARE(float, blur7x7_fp32);
  LR_COMPARE(double, gauss5x5_fp64);
  LR_COMPARE(float, gauss5x5_fp32);
  LR_COMPARE(double, box2d9p_fp64);
  LR_COMPARE(double, box2d25p_fp64);
  LR_COMPARE(float, box2d25p_fp32);
  LR_COMPARE(double, box2d49p_fp64);
  LR_COMPARE(float, box2d49p_fp32);
  return 0;
}
