// fused1d_bench.cu - the timing mode of gpu-test-device-fused1d (--bench):
// 100 steps of heat1d and the 5-point 1D stencil at 2^27 points, fixed
// boundary, fp64, fp32 and fp16, T 1 (single steps through the fused
// kernel) and several T and segments (points in shared memory, threads).
// CUDA events, 2 warm-up runs, the median of 5, each on fresh random inputs
// in (0, 1); prints GStencil/s (2^27 x 100 / time) beside T x the copy
// roofline measured in the same run. Each T and geometry then runs once
// more on one input and must equal T 1 bit for bit; the exit status is 1
// where one does not.
#include <cstdio>

#include "fused_nd_bench.h"
#include "fused_nd_test.h"

namespace {

using namespace fused_nd_bench;
using fused_nd_test::Params1;
namespace fused1d = stencilc::device::fused1d;

constexpr int kN = 1 << 27;
constexpr int kSteps = 100;

template <class E, class St, int T, int W, int Threads> bool bench(double copy, Grids<E> &grids) {
  using S = fused1d::Geometry<Params1<E, stencilc::device::FixedBoundary, St, T, W, Threads>>;
  char geometry[96];
  std::snprintf(geometry, sizeof geometry, "segment %d thr %d", W, Threads);
  return benchOne<E>(St::kName, T, geometry, kSteps, copy, grids,
                     [](E *a, E *b) { return fused1d::run<S>(a, b, kN, kSteps, nullptr); });
}

template <class E, class St> bool benchAll(double copy) {
  Grids<E> g(kN);
  bool same = bench<E, St, 1, 4096, 512>(copy, g);
  same &= bench<E, St, 4, 4096, 512>(copy, g);
  same &= bench<E, St, 8, 4096, 512>(copy, g);
  same &= bench<E, St, 8, 8192, 1024>(copy, g);
  same &= bench<E, St, 12, 8192, 1024>(copy, g);
  same &= bench<E, St, 16, 8192, 1024>(copy, g);
  same &= bench<E, St, 16, 8192, 512>(copy, g);
  return same;
}

} // namespace

int fused_nd_test::bench1d() {
  const double copy = copyGBs(static_cast<long long>(kN) * 8);
  bool same = benchAll<double, Heat1>(copy);
  same &= benchAll<float, Heat1>(copy);
  same &= benchAll<__half, Heat1>(copy);
  same &= benchAll<double, Wide1>(copy);
  same &= benchAll<float, Wide1>(copy);
  std::printf("bench1d: %s\n", same ? "every T and geometry equals T 1 bit for bit"
                                    : "FAIL: some T or geometry differs from T 1");
  return same ? 0 : 1;
}
