// fields_run_bench: NAME_run of `steps` steps (default 1000) of each stencil
// of fields_run.stencil at 8192^2 down to 1024^2, fused as planned (or as --plan-option fuse
// asked when it was generated) against the same stencil one step a launch
// (generated with --plan-option fuse=1 and its names suffixed _one), in the
// same run: CUDA events after a warm-up, the median of the repetitions, every
// point x every step counted, the copy bandwidth measured beside. Each fused
// result is compared bit for bit with the one-step-a-launch result.
//
// Build: bench/fields/run-bench.sh gen and build (stencilc writes
// fields_run.cu/.h and fields_run_one.cu/.h from fields_run.stencil; nvcc
// builds them with this file and the runtime's check and timer).
// Usage: fields_run_bench [steps [reps]].
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "fields_bench_util.h"
#include "fields_run.h"
#include "fields_run_one.h"
#include "stencilc/runtime/runtime.h"

namespace {

int steps = 1000;
int reps = 3;

/// One line of a size of n^2 points.
void report(const char *name, int n, float fusedMs, float oneMs, bool same) {
  char size[32];
  std::snprintf(size, sizeof size, "%5d^2", n);
  stencilc::bench::reportRun(name, size, double(n) * n, steps, fusedMs, oneMs, same);
}

/// The median time in ms of `run` after `restore` (fieldsRunMedianMs).
float medianMs(const std::function<void()> &restore, const std::function<cudaError_t()> &run) {
  return stencilc::bench::fieldsRunMedianMs(restore, run, reps);
}

/// 1024 receivers: every 8th point of row n/8, (y, x) pairs.
constexpr int kReceivers = 1024;
std::vector<int> receiverLine(int n) {
  std::vector<int> line;
  for (int k = 0; k < kReceivers; ++k) {
    line.push_back(n / 8);
    line.push_back(4 + k * (n - 8) / kReceivers);
  }
  return line;
}

/// The wave equation with a Ricker point source at the centre, recording
/// 1024 receivers (every 8th point of row n/8) at every step.
void wave2d(int n) {
  const std::size_t points = static_cast<std::size_t>(n) * n;
  const auto u0 = stencilc::bench::randomValues<float>(points, 1, -1e-3, 1e-3);
  const auto c2 = stencilc::bench::randomValues<float>(points, 3, 0.05, 0.2);
  std::vector<float> src(points, 0.0f);
  src[points / 2 + n / 2] = 1.0f;
  const std::vector<double> amp = stencilc::bench::rickerAmplitudes(steps);
  stencilc::DeviceBuffer<float> u(points), prev(points), dSrc(points), dC2(points), scratch(points);
  stencilc::DeviceBuffer<float> uOne(points), prevOne(points);
  const std::vector<int> line = receiverLine(n);
  stencilc::DeviceBuffer<int> receivers(line.size());
  receivers.upload(line);
  const std::size_t recordCount = static_cast<std::size_t>(steps) * kReceivers;
  stencilc::DeviceBuffer<float> records(recordCount), recordsOne(recordCount);
  dSrc.upload(src);
  dC2.upload(c2);
  const auto restore = [&](stencilc::DeviceBuffer<float> &a, stencilc::DeviceBuffer<float> &b) {
    a.upload(u0);
    b.upload(u0);
  };
  const float fused =
      medianMs([&] { restore(u, prev); },
               [&] {
                 return wave2d_fp32_run(u.data(), prev.data(), dSrc.data(), dC2.data(),
                                        scratch.data(), n, n, 1.0, amp.data(), receivers.data(),
                                        kReceivers, records.data(), steps, nullptr);
               });
  const float one =
      medianMs([&] { restore(uOne, prevOne); },
               [&] {
                 return wave2d_fp32_one_run(uOne.data(), prevOne.data(), dSrc.data(), dC2.data(),
                                            scratch.data(), n, n, 1.0, amp.data(), receivers.data(),
                                            kReceivers, recordsOne.data(), steps, nullptr);
               });
  report("wave2d fp32", n, fused, one,
         stencilc::bench::sameBits(u, uOne) && stencilc::bench::sameBits(prev, prevOne) &&
             stencilc::bench::sameBits(records, recordsOne));
}

/// The wave with a point source (`source u;`) at the centre, the same
/// Ricker amplitudes in device memory, recording the same 1024 receivers.
void wave2dPoint(int n) {
  const std::size_t points = static_cast<std::size_t>(n) * n;
  const auto u0 = stencilc::bench::randomValues<float>(points, 1, -1e-3, 1e-3);
  stencilc::DeviceBuffer<float> u(points), prev(points), dC2(points), scratch(points);
  stencilc::DeviceBuffer<float> uOne(points), prevOne(points);
  dC2.upload(stencilc::bench::randomValues<float>(points, 3, 0.05, 0.2));
  const std::vector<double> amp = stencilc::bench::rickerAmplitudes(steps);
  stencilc::DeviceBuffer<double> amplitudes(steps);
  amplitudes.upload(amp);
  stencilc::DeviceBuffer<int> source(2);
  source.upload(std::vector<int>{n / 2, n / 2});
  const std::vector<int> line = receiverLine(n);
  stencilc::DeviceBuffer<int> receivers(line.size());
  receivers.upload(line);
  const std::size_t recordCount = static_cast<std::size_t>(steps) * kReceivers;
  stencilc::DeviceBuffer<float> records(recordCount), recordsOne(recordCount);
  const auto restore = [&](stencilc::DeviceBuffer<float> &a, stencilc::DeviceBuffer<float> &b) {
    a.upload(u0);
    b.upload(u0);
  };
  const float fused = medianMs([&] { restore(u, prev); },
                               [&] {
                                 return wave2d_point_fp32_run(
                                     u.data(), prev.data(), dC2.data(), scratch.data(), n, n, 1.0,
                                     source.data(), 1, amplitudes.data(), receivers.data(),
                                     kReceivers, records.data(), steps, nullptr);
                               });
  const float one = medianMs([&] { restore(uOne, prevOne); },
                             [&] {
                               return wave2d_point_fp32_one_run(
                                   uOne.data(), prevOne.data(), dC2.data(), scratch.data(), n, n,
                                   1.0, source.data(), 1, amplitudes.data(), receivers.data(),
                                   kReceivers, recordsOne.data(), steps, nullptr);
                             });
  report("wave2d point fp32", n, fused, one,
         stencilc::bench::sameBits(u, uOne) && stencilc::bench::sameBits(prev, prevOne) &&
             stencilc::bench::sameBits(records, recordsOne));
}

void varheat(int n) {
  const std::size_t points = static_cast<std::size_t>(n) * n;
  const auto u0 = stencilc::bench::randomValues<double>(points, 7, 0, 1);
  stencilc::DeviceBuffer<double> u(points), uOne(points), kappa(points), scratch(points);
  kappa.upload(stencilc::bench::randomValues<double>(points, 8, 0.01, 0.25));
  const float fused = medianMs([&] { u.upload(u0); },
                               [&] {
                                 return varheat_fp64_run(u.data(), kappa.data(), scratch.data(), n,
                                                         n, 1.0, steps, nullptr);
                               });
  const float one =
      medianMs([&] { uOne.upload(u0); },
               [&] {
                 return varheat_fp64_one_run(uOne.data(), kappa.data(), scratch.data(), n, n, 1.0,
                                             steps, nullptr);
               });
  report("varheat fp64", n, fused, one, stencilc::bench::sameBits(u, uOne));
}

} // namespace

int main(int argc, char **argv) {
  stencilc::bench::runArguments(argc, argv, steps, reps);
  cudaDeviceProp prop{};
  STENCILC_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s; copy bandwidth %.1f GB/s; fused T: wave2d %d, varheat %d; median of "
              "%d\n",
              prop.name, stencilc::bench::copyBandwidth(5) / 1e9, wave2d_fp32_info.fused_steps,
              varheat_fp64_info.fused_steps, reps);
  for (int n : {8192, 4096, 2048, 1024}) {
    wave2d(n);
    wave2dPoint(n);
    varheat(n);
  }
  return 0;
}
