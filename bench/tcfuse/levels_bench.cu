// levels_bench.cu - way B of issue 19, item 4 (tiled_levels.cuh: T repeated
// steps inside a tile on the tensor cores), its check and its speed. Built
// by bench/tcfuse/gen-levels.sh with the generated files levels.h lists.
//
//   --check [PART]     every (stencil, T) of LEVELS_CHECKS whose name holds
//                      PART: way B's NAME_run against the generated tensor
//                      NAME_run (single steps), bit for bit (+0 and -0 equal),
//                      at 3x4, 6x5 (under the fused halo), 17x19 and
//                      1000x1337, steps 1, T-1, T, T+1, 3T+2, fresh random
//                      inputs, b poisoned; fixed at 1000x1337 also against
//                      the float64 reference (relative L2, ring, writes)
//   --sanitize [PART]  the same at 17x19 and 6x5, steps T+1 (for
//                      compute-sanitizer)
//   --speed            8192^2, NAME_run of 100 steps (median of 5 after a
//                      warm-up, fresh random inputs), GStencil/s = every point
//                      x 100 / time: the tensor single step, the CUDA-core
//                      fused run, way A's composed run and way B for each T,
//                      way B checked bit for bit against the single steps
//                      first; the copy bandwidth in the same run
//   --profile PART     for ncu: once each, on 8192^2, way B's pass (T steps)
//                      of the timed variants KIND_VT (box2d9p_fp16_o8: variant
//                      o, T = 8) holding PART, and the CUDA-core fused run and
//                      the tensor single step of their kind (T steps each)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "levels.h"
#include "median_ms.h"
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/testing/compare.h"
#include "stencilc/testing/fill.h"
#include "stencilc/testing/harness.h"
#include "stencilc/testing/reference.h"

using namespace stencilc;

template <class E> using RunFn = cudaError_t (*)(E *, E *, int, int, int, cudaStream_t);

namespace {

/// Points whose values differ (as doubles: +0 == -0; a NaN never equals).
template <class E> std::size_t mismatches(const std::vector<E> &x, const std::vector<E> &y) {
  const std::vector<double> a = toDoubles(x), b = toDoubles(y);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    bad += !(a[i] == b[i]);
  return bad;
}

/// NAME_run(steps) on a copy of `input` with b poisoned; the result (a).
template <class E>
std::vector<E> runOn(RunFn<E> run, const std::vector<E> &input, int ny, int nx, int steps) {
  DeviceBuffer<E> a(input.size()), b(input.size());
  a.upload(input);
  b.upload(poisoned<E>(input.size()));
  STENCILC_CHECK(run(a.data(), b.data(), ny, nx, steps, nullptr));
  STENCILC_CHECK(cudaDeviceSynchronize());
  return a.download();
}

template <class E>
int check(const char *name, const stencilc_stencil_info &info, RunFn<E> levels, RunFn<E> single,
          int T, bool small) {
  std::vector<std::pair<int, int>> sizes = {{17, 19}, {6, 5}};
  if (!small) {
    sizes.insert(sizes.begin(), {3, 4});
    sizes.push_back({1000, 1337});
  }
  std::vector<int> steps =
      small ? std::vector<int>{T + 1} : std::vector<int>{1, T - 1, T, T + 1, 3 * T + 2};
  steps.erase(std::remove(steps.begin(), steps.end(), 0), steps.end());
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  int failures = 0, cases = 0;
  for (auto [ny, nx] : sizes)
    for (int s : steps) {
      const std::vector<E> input = randomUniform<E>(std::size_t(ny) * nx, freshSeed());
      const std::vector<E> got = runOn(levels, input, ny, nx, s);
      const std::vector<E> want = runOn(single, input, ny, nx, s);
      const std::size_t bad = mismatches(got, want);
      ++cases;
      if (bad) {
        ++failures;
        std::printf(
            "[FAIL] %s T %d %dx%d steps %d: %zu of %zu points differ from %d single steps\n", name,
            T, ny, nx, s, bad, got.size(), s);
      }
      if (!small && ny == 1000 && s == 3 * T + 2 && std::strstr(name, "fixed")) {
        const Extents e = Extents::of2D(ny, nx);
        std::vector<double> reference = toDoubles(input);
        referenceRun(info, e, reference, s);
        const Comparison c = compareWithReference<E>(info, e, got, reference, &input, nullptr);
        const bool ok = c.unwritten == 0 && c.nonFinite == 0 && c.ringChanged == 0;
        failures += !ok;
        std::printf("%s %s T %d 1000x1337 steps %d against float64: %s\n", ok ? "[REF]" : "[FAIL]",
                    name, T, s, c.summary().c_str());
      }
    }
  std::printf("%s %s T %d: %d cases, %d failed\n", failures ? "[FAIL]" : "[PASS]", name, T, cases,
              failures);
  return failures;
}

/// T of a variant token: "_o4" (gen-levels.sh names the variants) is 4.
int levelsOf(const char *t) { return std::atoi(t + 2); }

constexpr int kGrid = 8192;

template <class E> double runSpeed(RunFn<E> run, DeviceBuffer<E> &a, DeviceBuffer<E> &b) {
  const double ms = medianMs(
      [&](int) { STENCILC_CHECK(run(a.data(), b.data(), kGrid, kGrid, 100, nullptr)); }, 1, 5);
  return double(kGrid) * kGrid * 100 / (ms * 1e6);
}

/// GStencil/s of run on fresh random 8192^2 data; with `single`, the result
/// of 100 steps is first checked against it bit for bit (-1 if it differs).
template <class E> double speed(RunFn<E> run, RunFn<E> single) {
  const std::size_t n = std::size_t(kGrid) * kGrid;
  DeviceBuffer<E> a(n), b(n);
  const std::vector<E> input = randomUniform<E>(n, freshSeed());
  if (single) {
    const std::vector<E> got = runOn(run, input, kGrid, kGrid, 100);
    const std::vector<E> want = runOn(single, input, kGrid, kGrid, 100);
    const std::size_t bad = mismatches(got, want);
    if (bad) {
      std::printf("[FAIL] 8192^2 100 steps: %zu points differ from the single steps\n", bad);
      return -1;
    }
  }
  a.upload(input);
  return runSpeed(run, a, b);
}

/// One call each of way B (one pass), the CUDA-core fused run and the
/// tensor single steps, T steps on 8192^2 fresh random data (for ncu).
template <class E> void profile(RunFn<E> levels, RunFn<E> simt, RunFn<E> single, int T) {
  const std::size_t n = std::size_t(kGrid) * kGrid;
  DeviceBuffer<E> a(n), b(n);
  a.upload(randomUniform<E>(n, freshSeed()));
  for (RunFn<E> run : {levels, simt, single}) {
    STENCILC_CHECK(run(a.data(), b.data(), kGrid, kGrid, T, nullptr));
    STENCILC_CHECK(cudaDeviceSynchronize());
  }
}

} // namespace

int main(int argc, char **argv) {
  const std::string mode = argc > 1 ? argv[1] : "--check";
  const char *part = argc > 2 ? argv[2] : "";
  STENCILC_CHECK(cudaFree(nullptr));
  std::printf("device: %s\n", deviceDescription().c_str());
  if (mode == "--check" || mode == "--sanitize") {
    int failures = 0, ran = 0;
#define LEVELS_CHECK(name, T)                                                                      \
  if (std::strstr(#name, part)) {                                                                  \
    failures += check(#name #T, name##_info, name##_levels##T, name##_run, levelsOf(#T),           \
                      mode == "--sanitize");                                                       \
    ++ran;                                                                                         \
  }
    LEVELS_CHECKS(LEVELS_CHECK)
    std::printf("RESULT: %s (%d stencil-T pairs, %d failed cases)\n", failures ? "FAIL" : "PASS",
                ran, failures);
    return failures ? 1 : 0;
  }
  if (mode == "--profile") {
#define LEVELS_PROFILE(kind, V)                                                                    \
  if (std::strstr(#kind #V, part))                                                                 \
    profile(kind##_fixed_levels##V, kind##_simt_run, kind##_fixed_run, levelsOf(#V));
    LEVELS_SPEEDS(LEVELS_PROFILE)
    return 0;
  }
  std::printf("copy: %.1f GB/s\n", measureCopyBandwidth(std::size_t(1) << 30, 20));
  std::map<std::string, std::map<std::string, double>> table;
  std::vector<std::string> labels; // way B's variants and T: o4, p8, ...
#define LEVELS_KIND(kind)                                                                          \
  table[#kind]["tc1"] = speed(kind##_fixed_run, decltype (&kind##_fixed_run)(nullptr));            \
  table[#kind]["simt"] = speed(kind##_simt_run, decltype (&kind##_simt_run)(nullptr));             \
  table[#kind]["wayA"] = speed(kind##_cf_run, decltype (&kind##_cf_run)(nullptr));                 \
  std::printf("SPEED %-16s tc single %8.1f  simt fused %8.1f  way A (T %d) %8.1f\n", #kind,        \
              table[#kind]["tc1"], table[#kind]["simt"], kind##_cf_info.fused_steps,               \
              table[#kind]["wayA"]);
  LEVELS_KINDS(LEVELS_KIND)
#define LEVELS_SPEED(kind, V)                                                                      \
  labels.push_back(std::string(#V).substr(1));                                                     \
  table[#kind][labels.back()] = speed(kind##_fixed_levels##V, kind##_fixed_run);                   \
  std::printf("SPEED %-16s way B %s %8.1f\n", #kind, labels.back().c_str(),                        \
              table[#kind][labels.back()]);
  LEVELS_SPEEDS(LEVELS_SPEED)
  std::sort(labels.begin(), labels.end(), [](const std::string &x, const std::string &y) {
    return x[0] != y[0] ? x[0] < y[0] : std::atoi(&x[1]) < std::atoi(&y[1]);
  });
  labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
  std::printf("\n%-14s %7s %7s %7s", "GStencil/s", "tc1", "simt", "wayA");
  for (const std::string &l : labels)
    std::printf(" %7s", l.c_str());
  std::printf(" %10s\n", "bestB/simt");
  for (auto &[kind, row] : table) {
    double best = 0;
    std::printf("%-14s %7.1f %7.1f %7.1f", kind.c_str(), row["tc1"], row["simt"], row["wayA"]);
    for (const std::string &l : labels) {
      if (row.count(l)) {
        std::printf(" %7.1f", row[l]);
        best = std::max(best, row[l]);
      } else {
        std::printf(" %7s", "-");
      }
    }
    std::printf(" %10.2f\n", best / row["simt"]);
  }
  return 0;
}
