// experiment.cu - the tensor-fusion experiment of issue 19, item 4 (way A,
// the composed stencil). Built by bench/tcfuse/run-experiment.sh with the
// generated files of compose_suite.py's stencils and of the suite's
// star2d5p/box2d9p on CUDA cores (fixed, fused NAME_run).
//
// 1. Error: for every (single, composed, T) pair of pairs.h, on a periodic
//    1000 x 1337 grid of fresh random inputs, S steps as S single tensor
//    steps and as S / T composed steps, each against S float64 steps
//    (relative L2 over every point), for S = T and S = 96 (a multiple of
//    every T measured).
// 2. Speed: one composed step on 8192^2 (median of 20 after 3 warm-ups, four
//    buffer pairs of fresh random data rotated), as GStencil/s of T steps;
//    the single tensor step; and the CUDA-core fused NAME_run of 100 steps
//    (median of 3 after a warm-up); the copy bandwidth in the same run.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "median_ms.h"
#include "pairs.h"
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/testing/compare.h"
#include "stencilc/testing/fill.h"
#include "stencilc/testing/harness.h"
#include "stencilc/testing/reference.h"

using namespace stencilc;

template <class E> using StepFn = cudaError_t (*)(const E *, E *, int, int, cudaStream_t);
template <class E> using RunFn = cudaError_t (*)(E *, E *, int, int, int, cudaStream_t);

namespace {

template <class E>
double runError(const stencilc_stencil_info &info, RunFn<E> run, const Extents &e,
                const std::vector<E> &input, const std::vector<double> &reference, int calls) {
  DeviceBuffer<E> a(e.points()), b(e.points());
  a.upload(input);
  b.upload(poisoned<E>(e.points()));
  STENCILC_CHECK(run(a.data(), b.data(), e.n[0], e.n[1], calls, nullptr));
  STENCILC_CHECK(cudaDeviceSynchronize());
  const std::vector<E> result = a.download();
  const Comparison c = compareWithReference<E>(info, e, result, reference, nullptr, nullptr);
  if (c.nonFinite || c.unwritten)
    std::printf("  %s: %s\n", info.name, c.summary().c_str());
  return c.nonFinite || c.unwritten ? 1e300 : c.relativeL2;
}

template <class E>
void errorPair(const stencilc_stencil_info &single, RunFn<E> singleRun,
               const stencilc_stencil_info &composed, RunFn<E> composedRun, int T) {
  const Extents e = Extents::of2D(1000, 1337);
  for (int S : {T, 96}) {
    const std::vector<E> input = randomUniform<E>(e.points(), freshSeed());
    std::vector<double> reference = toDoubles(input);
    referenceRun(single, e, reference, S);
    const double stepErr = runError(single, singleRun, e, input, reference, S);
    const double compErr = runError(composed, composedRun, e, input, reference, S / T);
    std::printf("ERR %-18s T %d steps %3d  step-by-step %.3e  composed %.3e  ratio %.2f\n",
                composed.name, T, S, stepErr, compErr, compErr / stepErr);
  }
}

constexpr int kGrid = 8192;

/// Eight 8192^2 buffers of fresh random data per element type, made once
/// (filling them is most of the run's host time); runs overwrite them with
/// results, which stay finite and random-like.
template <class E> std::vector<DeviceBuffer<E>> &freshBuffers() {
  static std::vector<DeviceBuffer<E>> v;
  if (v.empty())
    for (int i = 0; i < 8; ++i) {
      v.emplace_back(std::size_t(kGrid) * kGrid);
      v.back().upload(randomUniform<E>(std::size_t(kGrid) * kGrid, freshSeed()));
    }
  return v;
}

/// GStencil/s of `steps` steps a call of `step`, 8192^2, rotating 4 pairs.
template <class E> double stepSpeed(StepFn<E> step, int steps) {
  std::vector<DeviceBuffer<E>> &buf = freshBuffers<E>();
  const double ms = medianMs(
      [&](int i) {
        const int k = i % 4;
        STENCILC_CHECK(step(buf[2 * k].data(), buf[2 * k + 1].data(), kGrid, kGrid, nullptr));
        STENCILC_CHECK(cudaGetLastError());
      },
      3, 20);
  return double(kGrid) * kGrid * steps / (ms * 1e6);
}

template <class E> double runSpeed(RunFn<E> run, int steps) {
  std::vector<DeviceBuffer<E>> &buf = freshBuffers<E>();
  const double ms = medianMs(
      [&](int) {
        STENCILC_CHECK(run(buf[0].data(), buf[1].data(), kGrid, kGrid, steps, nullptr));
        STENCILC_CHECK(cudaGetLastError());
      },
      1, 3);
  return double(kGrid) * kGrid * steps / (ms * 1e6);
}

} // namespace

int main(int argc, char **argv) {
  const bool speed = argc < 2 || std::string(argv[1]) != "--errors-only";
  STENCILC_CHECK(cudaFree(nullptr));
  std::printf("device: %s\n", deviceDescription().c_str());
#define TCFUSE_ERR(single, composed, T)                                                            \
  errorPair(single##_info, single##_run, composed##_info, composed##_run, T);
  TCFUSE_PAIRS(TCFUSE_ERR)
  if (!speed)
    return 0;
  std::printf("copy: %.1f GB/s\n", measureCopyBandwidth(std::size_t(1) << 30, 20));
#define TCFUSE_SPEED(single, composed, T)                                                          \
  std::printf("SPEED %-18s T %d composed step x T: %8.1f GStencil/s\n", #composed, T,              \
              stepSpeed(composed##_step, T));
  TCFUSE_PAIRS(TCFUSE_SPEED)
#define TCFUSE_SINGLE(name)                                                                        \
  std::printf("SPEED %-18s tensor single step:     %8.1f GStencil/s\n", #name,                     \
              stepSpeed(name##_step, 1));
  TCFUSE_SINGLES(TCFUSE_SINGLE)
#define TCFUSE_SIMT(name)                                                                          \
  std::printf("SPEED %-18s simt NAME_run(100):     %8.1f GStencil/s\n", #name,                     \
              runSpeed(name##_run, 100));
  TCFUSE_SIMTS(TCFUSE_SIMT)
  return 0;
}
