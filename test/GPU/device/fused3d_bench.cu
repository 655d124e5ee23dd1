// fused3d_bench.cu - the timing mode of gpu-test-device-fused3d (--bench):
// 100 steps of star3d7p and box3d27p at 512^3, fixed boundary, fp32, fp64
// and fp16, T 1 (single steps through the fused kernel) and several T and
// geometries (window kWidth x kHeight, threads, batch, chunk of planes).
// CUDA events, 2 warm-up runs, the median of 5, each on fresh random inputs
// in (0, 1); prints GStencil/s (512^3 x 100 / time) beside T x the copy
// roofline measured in the same run (copy GB/s / (2 x element bytes)). Each
// T and geometry then runs once more on one input and must equal T 1 bit for
// bit; the exit status is 1 where one does not.
#include <cstdio>

#include "fused_nd_bench.h"
#include "fused_nd_test.h"

namespace {

using namespace fused_nd_bench;
using fused_nd_test::Params3;
namespace fused3d = stencilc::device::fused3d;

constexpr int kN = 512;
constexpr int kSteps = 100;

template <class E, class St, int T, int W, int H, int Threads, int Batch, int Chunk, int Rows>
bool bench(double copy, Grids<E> &grids) {
  using S = fused3d::Geometry<
      Params3<E, stencilc::device::FixedBoundary, St, T, W, H, Threads, Batch, Chunk, Rows>>;
  char geometry[96];
  std::snprintf(geometry, sizeof geometry, "%dx%d thr %d batch %d chunk %d rows %d", W, H, Threads,
                Batch, Chunk, Rows);
  return benchOne<E>(St::kName, T, geometry, kSteps, copy, grids,
                     [](E *a, E *b) { return fused3d::run<S>(a, b, kN, kN, kN, kSteps, nullptr); });
}

template <class St> bool benchFp32(double copy) {
  Grids<float> g(static_cast<long long>(kN) * kN * kN);
  bool same = bench<float, St, 1, 64, 16, 256, 1, 64, 1>(copy, g);
  same &= bench<float, St, 1, 64, 32, 256, 1, 64, 8>(copy, g);
  same &= bench<float, St, 2, 64, 32, 256, 1, 64, 8>(copy, g);
  same &= bench<float, St, 3, 64, 32, 256, 1, 64, 8>(copy, g);
  same &= bench<float, St, 4, 64, 32, 256, 1, 64, 8>(copy, g);
  same &= bench<float, St, 4, 64, 32, 256, 1, 64, 4>(copy, g);
  same &= bench<float, St, 4, 64, 32, 256, 2, 64, 8>(copy, g);
  same &= bench<float, St, 4, 128, 32, 512, 1, 128, 8>(copy, g);
  same &= bench<float, St, 6, 64, 32, 256, 1, 128, 8>(copy, g);
  return same;
}

template <class St> bool benchFp64(double copy) {
  Grids<double> g(static_cast<long long>(kN) * kN * kN);
  bool same = bench<double, St, 1, 64, 16, 256, 1, 64, 1>(copy, g);
  same &= bench<double, St, 2, 64, 32, 256, 1, 64, 8>(copy, g);
  same &= bench<double, St, 2, 64, 32, 256, 1, 64, 4>(copy, g);
  same &= bench<double, St, 3, 64, 32, 256, 1, 64, 4>(copy, g);
  same &= bench<double, St, 4, 32, 32, 256, 1, 64, 4>(copy, g);
  same &= bench<double, St, 4, 48, 32, 256, 1, 128, 4>(copy, g);
  same &= bench<double, St, 4, 64, 32, 256, 1, 128, 8>(copy, g);
  same &= bench<double, St, 4, 64, 32, 256, 1, 128, 4>(copy, g);
  return same;
}

template <class St> bool benchFp16(double copy) {
  Grids<__half> g(static_cast<long long>(kN) * kN * kN);
  bool same = bench<__half, St, 1, 64, 16, 256, 1, 64, 1>(copy, g);
  same &= bench<__half, St, 4, 64, 32, 256, 1, 64, 8>(copy, g);
  return same;
}

} // namespace

int fused_nd_test::bench3d() {
  const double copy = copyGBs(static_cast<long long>(kN) * kN * kN * 8);
  bool same = benchFp64<Star7>(copy);
  same &= benchFp32<Star7>(copy);
  same &= benchFp64<Box27>(copy);
  same &= benchFp32<Box27>(copy);
  same &= benchFp16<Star7>(copy);
  same &= benchFp16<Box27>(copy);
  std::printf("bench3d: %s\n", same ? "every T and geometry equals T 1 bit for bit"
                                    : "FAIL: some T or geometry differs from T 1");
  return same ? 0 : 1;
}
