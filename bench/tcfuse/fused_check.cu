// fused_check.cu - the GPU check of the tensor cores' fused NAME_run (issue
// 19, item 4; the composed pass of stencilc/device/composed.cuh), built by
// bench/tcfuse/check-fused.sh with the generated files it lists.
//
//   --conformance  every stencil of TCFUSE_CHECKS: the argument checks and
//                  the harness's conformance run (grids up to 1.5 million
//                  points: the smallest legal, 17x19, 1000x1337; steps 0, 1,
//                  2, 5, T-1, T, T+1, 3T+2, 100) against the float64
//                  reference, within steps x the one-step tolerance, the
//                  fixed ring untouched, poisoned outputs all written
//   --sanitize     the same at the harness's sanitizer sizes, steps 1, T,
//                  T+1 (run under compute-sanitizer)
//   a second argument: only the stencils whose name contains it
//   --speed        TCFUSE_SPEEDS: NAME_run of 100 steps on 8192^2 (median of
//                  3 after a warm-up, fresh random data), GStencil/s = every
//                  point x 100 / time; the copy bandwidth first
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "all.h"
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/testing/fill.h"
#include "stencilc/testing/harness.h"

using namespace stencilc;

namespace {

template <class E>
double runSpeed(cudaError_t (*run)(E *, E *, int, int, int, cudaStream_t), int steps) {
  constexpr int n = 8192;
  DeviceBuffer<E> a(std::size_t(n) * n), b(std::size_t(n) * n);
  a.upload(randomUniform<E>(std::size_t(n) * n, freshSeed()));
  cudaEvent_t start, stop;
  STENCILC_CHECK(cudaEventCreate(&start));
  STENCILC_CHECK(cudaEventCreate(&stop));
  STENCILC_CHECK(run(a.data(), b.data(), n, n, steps, nullptr));
  std::vector<float> ms;
  for (int i = 0; i < 3; ++i) {
    STENCILC_CHECK(cudaEventRecord(start));
    STENCILC_CHECK(run(a.data(), b.data(), n, n, steps, nullptr));
    STENCILC_CHECK(cudaEventRecord(stop));
    STENCILC_CHECK(cudaEventSynchronize(stop));
    float t = 0;
    STENCILC_CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return double(n) * n * steps / (ms[1] * 1e6);
}

} // namespace

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "--conformance";
  STENCILC_CHECK(cudaFree(nullptr));
  std::printf("device: %s\n", deviceDescription().c_str());
  int failures = 0, ran = 0;
  if (mode == "--conformance" || mode == "--sanitize") {
    std::vector<StencilUnderTest> stencils;
#define TCFUSE_ADD(name)                                                                           \
  stencils.push_back(makeStencilUnderTest(name##_info, name##_step, name##_run));
    TCFUSE_CHECKS(TCFUSE_ADD)
    for (const StencilUnderTest &s : stencils) {
      if (argc > 2 && !std::strstr(s.info->name, argv[2]))
        continue;
      ConformanceOptions options;
      options.maxPoints = 1500000;
      if (mode == "--sanitize") {
        const int t = std::max(1, s.info->fused_steps);
        options.sizes = sanitizerSizes;
        options.stepCounts = {1, t, t + 1};
      }
      failures += checkBadArguments(s) + runConformance(s, options);
      ++ran;
    }
    std::printf("RESULT: %s (%d stencils, %d failed cases)\n", failures ? "FAIL" : "PASS", ran,
                failures);
    return failures ? 1 : 0;
  }
  std::printf("copy: %.1f GB/s\n", measureCopyBandwidth(std::size_t(1) << 30, 20));
#define TCFUSE_SPEED(name)                                                                         \
  std::printf("RUN %-24s T %d  NAME_run(100): %8.1f GStencil/s\n", #name, name##_info.fused_steps, \
              runSpeed(name##_run, 100));
  TCFUSE_SPEEDS(TCFUSE_SPEED)
  return 0;
}
