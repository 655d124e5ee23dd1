// sweep2d.cu - the geometry of a 2D stencil's fused passes (fused.cuh) in
// the form `--backend=auto` plans (the low-rank form for the suite's
// boxes): the generated FusedParams of a suite stencil with other T, strip
// widths, rows a level, rows a block and register caps, each timed at
// 8192^2 for 100 steps (fused_nd_bench.h: CUDA events, 2 warm-ups, the
// median of 5 on fresh random inputs) and compared bit for bit with the
// generated NAME_run (every geometry evaluates the form in one order).
// A header given with -include defines SWEEP_NAME (the suite stencil),
// SWEEP_ELEMENT (its element type) and SWEEP_VARIANTS (a comma-separated
// list of Variant<T, width, batch, chunk, minBlocks>; nvcc would split a
// -D value at its commas) and includes the generated NAME.cu.
// README.md says how to build it.
#include <cstdio>
#include <cstring>
#include <vector>

#include "fused_nd_bench.h" // test/GPU/device

#define SWEEP_CAT2(a, b) a##b
#define SWEEP_CAT(a, b) SWEEP_CAT2(a, b)
#define SWEEP_TEXT2(x) #x
#define SWEEP_TEXT(x) SWEEP_TEXT2(x)

namespace {

namespace fused = stencilc::device::fused;
namespace gen = SWEEP_CAT(stencilc_gen_, SWEEP_NAME);
using E = SWEEP_ELEMENT;

constexpr int kN = 8192;
constexpr int kSteps = 100;
constexpr long long kCount = static_cast<long long>(kN) * kN;

/// One geometry of the generated FusedParams.
template <int T, int Width, int Batch, int Chunk, int MinBlocks> struct Variant : gen::FusedParams {
  static constexpr int kSteps = T, kWidth = Width, kBatch = Batch, kChunkY = Chunk,
                       kMinBlocks = MinBlocks;
};

/// 100 steps of `run` from the input of seed 99, downloaded.
template <class Run> std::vector<E> resultOf(E *a, E *b, Run run) {
  fused_nd_bench::fillRandom<E><<<1024, 256>>>(a, kCount, 99u);
  STENCILC_CHECK_LAUNCH();
  STENCILC_CHECK(run(a, b));
  std::vector<E> host(kCount);
  STENCILC_CHECK(cudaMemcpy(host.data(), a, kCount * sizeof(E), cudaMemcpyDeviceToHost));
  return host;
}

/// Times geometry V and compares its result with `reference`.
template <class V> bool bench(const std::vector<E> &reference, E *a, E *b) {
  using S = fused::Geometry<V>;
  const auto run = [](E *x, E *y) { return fused::run<S>(x, y, kN, kN, kSteps, nullptr); };
  const double ms = fused_nd_bench::medianMs(a, kCount, [&] { STENCILC_CHECK(run(a, b)); });
  const bool same =
      std::memcmp(resultOf(a, b, run).data(), reference.data(), kCount * sizeof(E)) == 0;
  std::printf("sweep %-14s T %d width %3d batch %d chunk %3d minBlocks %d: %7.1f GStencil/s %s\n",
              SWEEP_TEXT(SWEEP_NAME), V::kSteps, V::kWidth, V::kBatch, V::kChunkY, V::kMinBlocks,
              double(kCount) * kSteps / (ms * 1e6), same ? "=run" : "DIFFERS");
  return same;
}

template <class... Vs> bool benchAll(const std::vector<E> &reference, E *a, E *b) {
  bool all = true;
  ((all &= bench<Vs>(reference, a, b)), ...);
  return all;
}

} // namespace

int main() {
  fused_nd_bench::copyGBs(1LL << 30);
  stencilc::DeviceBuffer<E> a(kCount), b(kCount);
  const std::vector<E> reference = resultOf(a.data(), b.data(), [](E *x, E *y) {
    return SWEEP_CAT(SWEEP_NAME, _run)(x, y, kN, kN, kSteps, nullptr);
  });
  const bool same = benchAll<gen::FusedParams, SWEEP_VARIANTS>(reference, a.data(), b.data());
  std::printf("%s\n", same ? "every geometry = NAME_run bit for bit" : "FAIL: a geometry differs");
  return same ? 0 : 1;
}
