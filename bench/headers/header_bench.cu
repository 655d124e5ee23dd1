// header_bench.cu - one generated suite stencil timed against one tree of
// the runtime's headers (run.sh builds it once against the working tree's
// and once against another): NAME_step, one step at 2^27, 8192^2 (HB_N2D^2)
// or 512^3 points (CUDA events, median of 30 launches after a quarter of a
// second of steps back to back and 5 warm-ups,
// input and output rotated over four pairs so that the L2 never holds the
// input), and
// NAME_run of 100 steps (HB_STEPS; median of 5 after 2 warm-ups, fresh
// random inputs).
// With -DHB_PASS (where the header has NAME_pass), also NAME_pass of one
// step, timed as NAME_step: the fused kernel at one level beside the step
// kernel. (Its hash differs from the step's with a fixed boundary: the pass
// stores the input's ring into out, the step leaves out's ring as it was.)
// Prints GStencil/s (every point x every step) and an FNV-1a hash of each
// result from a fixed input, which run.sh compares between the trees.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fused_nd_bench.h" // test/GPU/device: fillRandom, medianMs, copyGBs

#include HEADER // the generated NAME.h: NAME_step and NAME_run

#define HB_CAT2(a, b) a##b
#define HB_CAT(a, b) HB_CAT2(a, b)
#define HB_TEXT2(x) #x
#define HB_TEXT(x) HB_TEXT2(x)

namespace {

using E = ELEMENT;
#if DIMS == 3
constexpr int kN = 512;
constexpr long long kCount = 1LL * kN * kN * kN;
cudaError_t step(const E *in, E *out) { return HB_CAT(NAME, _step)(in, out, kN, kN, kN, nullptr); }
[[maybe_unused]] cudaError_t pass1(const E *in, E *out) {
  return HB_CAT(NAME, _pass)(in, out, kN, kN, kN, 1, nullptr);
}
cudaError_t run(E *a, E *b, int steps) {
  return HB_CAT(NAME, _run)(a, b, kN, kN, kN, steps, nullptr);
}
#elif DIMS == 1
constexpr int kN = 1 << 27; // docs/performance.md's 1D grid
constexpr long long kCount = kN;
cudaError_t step(const E *in, E *out) { return HB_CAT(NAME, _step)(in, out, kN, nullptr); }
[[maybe_unused]] cudaError_t pass1(const E *in, E *out) {
  return HB_CAT(NAME, _pass)(in, out, kN, 1, nullptr);
}
cudaError_t run(E *a, E *b, int steps) { return HB_CAT(NAME, _run)(a, b, kN, steps, nullptr); }
#else
#ifndef HB_N2D
#define HB_N2D 8192 // the side of a 2D grid; bench/variants/run.sh sets it from HB_N2D
#endif
constexpr int kN = HB_N2D;
constexpr long long kCount = 1LL * kN * kN;
cudaError_t step(const E *in, E *out) { return HB_CAT(NAME, _step)(in, out, kN, kN, nullptr); }
[[maybe_unused]] cudaError_t pass1(const E *in, E *out) {
  return HB_CAT(NAME, _pass)(in, out, kN, kN, 1, nullptr);
}
cudaError_t run(E *a, E *b, int steps) { return HB_CAT(NAME, _run)(a, b, kN, kN, steps, nullptr); }
#endif
#ifndef HB_STEPS
#define HB_STEPS 100 // NAME_run's steps; -DHB_STEPS=96 times a run without a remainder at T 8, 4, 2
#endif
constexpr int kSteps = HB_STEPS;

/// FNV-1a over the bytes of a grid.
unsigned long long hashOf(const E *grid) {
  std::vector<unsigned char> bytes(kCount * sizeof(E));
  STENCILC_CHECK(cudaMemcpy(bytes.data(), grid, bytes.size(), cudaMemcpyDeviceToHost));
  unsigned long long h = 1469598103934665603ull;
  for (unsigned char b : bytes) {
    h = (h ^ b) * 1099511628211ull;
  }
  return h;
}

/// The median ms of one step (`launch`: step or pass1) over four rotated
/// input/output pairs, after a quarter of a second of steps back to back:
/// without it, the first program of a run.sh timed its step 8-17 % slower
/// than in its later rounds on an H100 (docs/performance.md, 2026-12-06
/// 05:45-06:40), its five discarded launches too few.
template <class Launch>
double stepMs(std::vector<stencilc::DeviceBuffer<E>> &grids, Launch launch) {
  const auto begin = std::chrono::steady_clock::now();
  for (int i = 0; std::chrono::steady_clock::now() - begin < std::chrono::milliseconds(250); ++i) {
    const int pair = i % 4;
    STENCILC_CHECK(launch(grids[2 * pair].data(), grids[2 * pair + 1].data()));
  }
  STENCILC_CHECK(cudaDeviceSynchronize());
  stencilc::EventTimer timer;
  std::vector<double> ms;
  for (int i = 0; i < 35; ++i) {
    const int pair = i % 4;
    timer.start(nullptr);
    STENCILC_CHECK(launch(grids[2 * pair].data(), grids[2 * pair + 1].data()));
    const double t = timer.stopMs(nullptr);
    if (i >= 5) {
      ms.push_back(t);
    }
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

} // namespace

int main() {
  if (const char *copy = std::getenv("HB_COPY"); copy != nullptr && copy[0] == '1') {
    fused_nd_bench::copyGBs(1LL << 30);
  }
  std::vector<stencilc::DeviceBuffer<E>> grids;
  for (int i = 0; i < 8; ++i) {
    grids.emplace_back(kCount);
    fused_nd_bench::fillRandom<E><<<1024, 256>>>(grids.back().data(), kCount, 7u + i);
  }
  STENCILC_CHECK_LAUNCH();
  const double step1 = stepMs(grids, step);
  fused_nd_bench::fillRandom<E><<<1024, 256>>>(grids[0].data(), kCount, 99u);
  STENCILC_CHECK(step(grids[0].data(), grids[1].data()));
  const unsigned long long stepHash = hashOf(grids[1].data());
  E *const a = grids[0].data();
  E *const b = grids[1].data();
  const double runMs =
      fused_nd_bench::medianMs(a, kCount, [&] { STENCILC_CHECK(run(a, b, kSteps)); });
  fused_nd_bench::fillRandom<E><<<1024, 256>>>(a, kCount, 99u);
  STENCILC_CHECK(run(a, b, kSteps));
  std::printf("%-18s %-6s step %8.4f ms %7.1f GStencil/s  run %8.3f ms %7.1f GStencil/s  "
              "hash %016llx %016llx\n",
              HB_TEXT(NAME), TREE, step1, kCount / (step1 * 1e6), runMs,
              static_cast<double>(kCount) * kSteps / (runMs * 1e6), stepHash, hashOf(a));
#ifdef HB_PASS
  const double pass = stepMs(grids, pass1);
  fused_nd_bench::fillRandom<E><<<1024, 256>>>(grids[0].data(), kCount, 99u);
  STENCILC_CHECK(pass1(grids[0].data(), grids[1].data()));
  std::printf("%-18s %-6s pass1 %7.4f ms %7.1f GStencil/s  hash %016llx\n", HB_TEXT(NAME), TREE,
              pass, kCount / (pass * 1e6), hashOf(grids[1].data()));
#endif
  return 0;
}
