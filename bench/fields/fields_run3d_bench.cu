// fields_run3d_bench: NAME_run of `steps` steps (default 1000) of each
// stencil of fields_run3d.stencil at 512^3 and 256^3, fused as planned (or
// as --plan-option fuse asked when it was generated) against the same
// stencil one step a launch, in the same run, as fields_run_bench.cu does
// in 2D: CUDA events after a warm-up, the median of the repetitions, every
// point x every step counted, the copy bandwidth measured beside, each
// fused result compared bit for bit with the one-step-a-launch result.
//
// Build: BENCH=3d bench/fields/run-bench.sh gen and build.
// Usage: fields_run3d_bench [steps [reps [n]]].
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fields_bench_util.h"
#include "fields_run.h"
#include "fields_run_one.h"
#include "stencilc/runtime/runtime.h"

namespace {

int steps = 1000;
int reps = 3;

using stencilc::DeviceBuffer;
using stencilc::bench::fieldsRunMedianMs;
using stencilc::bench::randomValues;
using stencilc::bench::sameBits;

void report(const char *name, int n, float fusedMs, float oneMs, bool same) {
  char size[32];
  std::snprintf(size, sizeof size, "%4d^3", n);
  stencilc::bench::reportRun(name, size, double(n) * n * n, steps, fusedMs, oneMs, same);
}

/// The two time levels of a wave, fused and one step a launch, with a
/// coefficient field and scratch, all n^3: `restore` gives a pair of
/// levels the starting values.
struct WaveGrids {
  std::size_t points;
  std::vector<float> u0;
  DeviceBuffer<float> u, prev, uOne, prevOne, coefficient, scratch;
  WaveGrids(int n, double lo, double hi)
      : points(static_cast<std::size_t>(n) * n * n),
        u0(randomValues<float>(points, 1, -1e-3, 1e-3)), u(points), prev(points), uOne(points),
        prevOne(points), coefficient(points), scratch(points) {
    coefficient.upload(randomValues<float>(points, 3, lo, hi));
  }
  void restore(DeviceBuffer<float> &a, DeviceBuffer<float> &b) {
    a.upload(u0);
    b.upload(u0);
  }
};

/// A 3D wave with a velocity field: `run` and `one` its NAME_run fused and
/// one step a launch.
template <class Run> void wave3d(const char *name, int n, const Run &run, const Run &one) {
  WaveGrids g(n, 0.05, 0.2);
  DeviceBuffer<float> &u = g.u, &prev = g.prev, &uOne = g.uOne, &prevOne = g.prevOne;
  DeviceBuffer<float> &c2 = g.coefficient, &scratch = g.scratch;
  const auto restore = [&](DeviceBuffer<float> &a, DeviceBuffer<float> &b) { g.restore(a, b); };
  const float fused = fieldsRunMedianMs([&] { restore(u, prev); },
                                        [&] {
                                          return run(u.data(), prev.data(), c2.data(),
                                                     scratch.data(), n, n, n, 0.5, steps, nullptr);
                                        },
                                        reps);
  const float oneMs = fieldsRunMedianMs([&] { restore(uOne, prevOne); },
                                        [&] {
                                          return one(uOne.data(), prevOne.data(), c2.data(),
                                                     scratch.data(), n, n, n, 0.5, steps, nullptr);
                                        },
                                        reps);
  report(name, n, fused, oneMs, sameBits(u, uOne) && sameBits(prev, prevOne));
}

/// examples/c/acoustic3d.c's wave: a Ricker point source at the centre, 1024
/// receivers in plane n/8 (every 8th point of consecutive rows), recorded at
/// every step.
void acoustic3d(int n) {
  WaveGrids g(n, 0.02, 0.1);
  DeviceBuffer<float> &u = g.u, &prev = g.prev, &uOne = g.uOne, &prevOne = g.prevOne;
  DeviceBuffer<float> &vdt2 = g.coefficient, &scratch = g.scratch;
  const std::vector<double> amp = stencilc::bench::rickerAmplitudes(steps);
  DeviceBuffer<double> amplitudes(steps);
  amplitudes.upload(amp);
  DeviceBuffer<int> source(3);
  source.upload(std::vector<int>{n / 2, n / 2, n / 2});
  constexpr int kReceivers = 1024;
  std::vector<int> line;
  for (int k = 0; k < kReceivers; ++k) {
    const int perRow = (n - 8) / 8;
    line.insert(line.end(), {n / 8, 4 + k / perRow, 4 + 8 * (k % perRow)});
  }
  DeviceBuffer<int> receivers(line.size());
  receivers.upload(line);
  const std::size_t recordCount = static_cast<std::size_t>(steps) * kReceivers;
  DeviceBuffer<float> records(recordCount), recordsOne(recordCount);
  const auto restore = [&](DeviceBuffer<float> &a, DeviceBuffer<float> &b) { g.restore(a, b); };
  const float fused = fieldsRunMedianMs(
      [&] { restore(u, prev); },
      [&] {
        return acoustic3d_run(u.data(), prev.data(), vdt2.data(), scratch.data(), n, n, n,
                              source.data(), 1, amplitudes.data(), receivers.data(), kReceivers,
                              records.data(), steps, nullptr);
      },
      reps);
  const float one = fieldsRunMedianMs(
      [&] { restore(uOne, prevOne); },
      [&] {
        return acoustic3d_one_run(uOne.data(), prevOne.data(), vdt2.data(), scratch.data(), n, n, n,
                                  source.data(), 1, amplitudes.data(), receivers.data(), kReceivers,
                                  recordsOne.data(), steps, nullptr);
      },
      reps);
  report("acoustic3d fp32", n, fused, one,
         sameBits(u, uOne) && sameBits(prev, prevOne) && sameBits(records, recordsOne));
}

} // namespace

int main(int argc, char **argv) {
  stencilc::bench::runArguments(argc, argv, steps, reps);
  const int largest = argc > 3 ? std::atoi(argv[3]) : 512;
  cudaDeviceProp prop{};
  STENCILC_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s; copy bandwidth %.1f GB/s; fused T: wave3d r1 %d, wave3d r4 %d, "
              "acoustic3d %d; median of %d\n",
              prop.name, stencilc::bench::copyBandwidth(5) / 1e9, wave3d_r1_fp32_info.fused_steps,
              wave3d_r4_fp32_info.fused_steps, acoustic3d_info.fused_steps, reps);
  for (int n : {largest, largest / 2}) {
    wave3d("wave3d r1 fp32", n, &wave3d_r1_fp32_run, &wave3d_r1_fp32_one_run);
    wave3d("wave3d r4 fp32", n, &wave3d_r4_fp32_run, &wave3d_r4_fp32_one_run);
    acoustic3d(n);
  }
  return 0;
}
