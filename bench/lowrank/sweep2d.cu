// sweep2d.cu - the geometry of a 2D stencil's fused passes (fused.cuh) in
// the form `--backend=auto` plans (the low-rank form for the suite's
// boxes): the generated FusedParams of a suite stencil with other T, strip
// widths, rows a level, rows a block and register caps, each timed at
// 8192^2 for 100 steps and compared bit for bit with T 1 through the same
// kernel (fused_nd_bench.h's benchOne; every geometry evaluates the form
// in one order). A header given with -include defines SWEEP_NAME (the
// suite stencil) and SWEEP_VARIANTS (a
// comma-separated list of Variant<T, width, batch, chunk, minBlocks[,
// queued[, prefetchRows]]>; nvcc would split a -D value at its commas) and
// includes the generated NAME.cu. README.md says how to build it.
#include <cstdio>

#include "fused_nd_bench.h" // test/GPU/device

#define SWEEP_CAT2(a, b) a##b
#define SWEEP_CAT(a, b) SWEEP_CAT2(a, b)
#define SWEEP_TEXT2(x) #x
#define SWEEP_TEXT(x) SWEEP_TEXT2(x)

namespace {

namespace fused = stencilc::device::fused;
namespace gen = SWEEP_CAT(stencilc_gen_, SWEEP_NAME);
using E = gen::FusedParams::Element;
using fused_nd_bench::Grids;

constexpr int kN = 8192;
constexpr int kSteps = 100;

/// One geometry of the generated FusedParams; Queued: fused.cuh's queued
/// form (the direct or low-rank form; not a packed plan).
template <int T, int Width, int Batch, int Chunk, int MinBlocks, bool Queued = false,
          int PrefetchRows = 0>
struct Variant : gen::FusedParams {
  static constexpr int kSteps = T, kWidth = Width, kBatch = Batch, kChunkY = Chunk,
                       kMinBlocks = MinBlocks, kPrefetchRows = PrefetchRows;
  static constexpr bool kQueued = Queued;
};

template <class V> bool bench(double copy, Grids<E> &grids) {
  using S = fused::Geometry<V>;
  char geometry[128];
  std::snprintf(geometry, sizeof geometry, "width %d batch %d chunk %d minBlocks %d%s prefetch %d",
                V::kWidth, V::kBatch, V::kChunkY, V::kMinBlocks,
                fused::QueuedOf<V>::value ? " queued" : "", fused::PrefetchRowsOf<V>::value);
  return fused_nd_bench::benchOne<E>(
      SWEEP_TEXT(SWEEP_NAME), V::kSteps, geometry, kSteps, copy, grids,
      [](E *a, E *b) { return fused::run<S>(a, b, kN, kN, kSteps, nullptr); });
}

/// Each geometry in turn, in order (all of them, whatever one gives).
template <class... Vs> bool benchAll(double copy, Grids<E> &grids) {
  bool all = true;
  ((all &= bench<Vs>(copy, grids)), ...);
  return all;
}

using Planned = gen::FusedParams;

} // namespace

int main() {
  const double copy = fused_nd_bench::copyGBs(1LL << 30);
  Grids<E> g(static_cast<long long>(kN) * kN);
  // T 1 first: the reference every other geometry must equal.
  const bool same = benchAll<Variant<1, Planned::kWidth, Planned::kBatch, Planned::kChunkY,
                                     Planned::kMinBlocks, fused::QueuedOf<Planned>::value>,
                             Planned, SWEEP_VARIANTS>(copy, g);
  std::printf("%s\n", same ? "every geometry = T 1 bit for bit" : "FAIL: a geometry differs");
  return same ? 0 : 1;
}
