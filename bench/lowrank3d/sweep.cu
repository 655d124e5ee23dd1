// sweep.cu - the geometry of the 3D low-rank form's fused passes (issue 35,
// item 3): the generated FusedParams of a suite stencil as `--backend=auto`
// plans it (SWEEP_NAME, default box3d27p; SWEEP_PRECISION its suffix, or
// SWEEP_FP64 for fp64, else fp32; the generated NAME.cu is -included for
// them), with other T, windows, rows a thread, threads, chunks and blocks
// a multiprocessor asked of the register allocator (MinBlocks), each
// timed at 512^3 for 100 steps (fused_nd_bench.h: CUDA events, 2 warm-ups,
// the median of 5 on fresh random inputs, or sustained with
// STENCILC_BENCH_RUNS) and compared bit for bit with T 1 through the same
// kernel (every geometry evaluates the form in one order). SWEEP_VARIANTS
// (in a header given with -include) names the geometries, else the list
// below. Built where nvcc is (README.md says how), run on the GPU machine.
#include <cstdio>

#include "fused_nd_bench.h" // test/GPU/device

namespace {

namespace fused3d = stencilc::device::fused3d;
using fused_nd_bench::Grids;

#ifndef SWEEP_NAME
#define SWEEP_NAME box3d27p
#endif
// The geometries beside T 1 and the plan (a header given with -include may
// name others: a -D value would split at their commas). A thread's
// columns: width x height / (rows x threads); fp64 1 or 2, fp32 2 or 4.
#ifndef SWEEP_VARIANTS
#ifdef SWEEP_FP64
#define SWEEP_VARIANTS                                                                             \
  Variant<2, 32, 32, 4, 256, 64>, Variant<2, 64, 32, 2, 512, 64>, Variant<2, 64, 32, 4, 256, 64>,  \
      Variant<2, 32, 64, 4, 512, 64>, Variant<2, 32, 64, 4, 512, 96>,                              \
      Variant<2, 32, 64, 4, 512, 128>, Variant<2, 32, 128, 8, 512, 64>,                            \
      Variant<2, 32, 128, 4, 1024, 64>, Variant<2, 32, 64, 2, 1024, 64>,                           \
      Variant<2, 32, 32, 2, 512, 128>, Variant<3, 32, 64, 4, 512, 64>,                             \
      Variant<3, 32, 32, 2, 512, 64>
#else
#define SWEEP_VARIANTS                                                                             \
  Variant<2, 64, 32, 4, 256, 64>, Variant<2, 128, 32, 2, 512, 64>, Variant<2, 64, 64, 4, 512, 64>, \
      Variant<2, 64, 32, 2, 512, 128>, Variant<3, 64, 32, 2, 512, 64>
#endif
#endif
#define SWEEP_CAT2(a, b) a##b
#define SWEEP_CAT(a, b) SWEEP_CAT2(a, b)
#define SWEEP_TEXT2(x) #x
#define SWEEP_TEXT(x) SWEEP_TEXT2(x)
#ifndef SWEEP_PRECISION // the generated name's suffix: fp16, bf16, fp32, fp64
#ifdef SWEEP_FP64
#define SWEEP_PRECISION fp64
#else
#define SWEEP_PRECISION fp32
#endif
#endif
namespace gen = SWEEP_CAT(SWEEP_CAT(SWEEP_CAT(stencilc_gen_, SWEEP_NAME), _), SWEEP_PRECISION);
using E = gen::FusedParams::Element;

constexpr int kN = 512;
constexpr int kSteps = 100;

/// One geometry of the generated FusedParams.
template <int T, int Width, int Height, int Rows, int Threads, int Chunk>
struct Variant : gen::FusedParams {
  static constexpr int kSteps = T, kWidth = Width, kHeight = Height, kRows = Rows,
                       kThreads = Threads, kChunkZ = Chunk;
};

/// V asking __launch_bounds__ for Blocks blocks a multiprocessor (the
/// registers a thread then capped to fit them), e.g.
/// MinBlocks<Variant<2, 64, 32, 4, 256, 64>, 2>.
template <class V, int Blocks> struct MinBlocks : V {
  static constexpr int kMinBlocks = Blocks;
};

template <class V> bool bench(double copy, Grids<E> &grids) {
  using S = fused3d::Geometry<V>;
  char geometry[96];
  const int n = std::snprintf(geometry, sizeof geometry, "%dx%d rows %d thr %d chunk %d", V::kWidth,
                              V::kHeight, V::kRows, V::kThreads, V::kChunkZ);
  if (S::kMinBlocks > 1) {
    std::snprintf(geometry + n, sizeof geometry - n, " min %d", S::kMinBlocks);
  }
  return fused_nd_bench::benchOne<E>(
      SWEEP_TEXT(SWEEP_NAME), V::kSteps, geometry, kSteps, copy, grids,
      [](E *a, E *b) { return fused3d::run<S>(a, b, kN, kN, kN, kSteps, nullptr); });
}

/// Each geometry in turn, in order (all of them, whatever one gives).
template <class... Vs> bool benchAll(double copy, Grids<E> &grids) {
  bool all = true;
  ((all &= bench<Vs>(copy, grids)), ...);
  return all;
}

} // namespace

int main() {
  const double copy = fused_nd_bench::copyGBs(1LL << 30);
  Grids<E> g(static_cast<long long>(kN) * kN * kN);
  bool same = bench<Variant<1, gen::FusedParams::kWidth, gen::FusedParams::kHeight,
                            gen::FusedParams::kRows, gen::FusedParams::kThreads, 64>>(copy, g);
  same &= bench<gen::FusedParams>(copy, g); // as planned
  same &= benchAll<SWEEP_VARIANTS>(copy, g);
  std::printf("%s\n", same ? "every geometry = T 1 bit for bit" : "FAIL: a geometry differs");
  return same ? 0 : 1;
}
