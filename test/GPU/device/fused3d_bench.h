// fused3d_bench.h - the timing cases of fused3d_bench.cu, one element type
// and stencil per translation unit (CMake generates the units): 100 steps
// at 512^3, fixed boundary, T 1 (single steps through the fused kernel)
// and several T and geometries (window kWidth x kHeight, a thread's
// kCols x kRows points, chunk of planes). Each case is timed (fused_nd_bench.h:
// CUDA events, 2 warm-up runs, the median of 5 on fresh random inputs),
// then run once more on one input and compared with T 1 bit for bit.
// STENCILC_BENCH_ONLY=TEXT runs only the cases whose printed label contains
// TEXT (for a profiler).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "fused_nd_bench.h"
#include "fused_nd_test.h"

namespace fused3d_bench {

using namespace fused_nd_bench;
using fused_nd_test::Box27;
using fused_nd_test::Params3;
using fused_nd_test::Star7;
namespace fused3d = stencilc::device::fused3d;

constexpr int kN = 512;
constexpr int kSteps = 100;

template <class E, class St, int T, int W, int H, int Cols, int Rows, int Chunk, int MinBlocks = 1>
bool bench(double copy, Grids<E> &grids) {
  using S = fused3d::Geometry<
      Params3<E, stencilc::device::FixedBoundary, St, T, W, H, Cols, Rows, Chunk, MinBlocks>>;
  char geometry[96], label[160];
  std::snprintf(geometry, sizeof geometry, "%dx%d pts %dx%d thr %d chunk %d", W, H, Cols, Rows,
                S::kThreads, Chunk);
  std::snprintf(label, sizeof label, "%s %s T=%d %s", St::kName, typeName<E>(), T, geometry);
  // STENCILC_BENCH_ONLY=TEXT: only the cases whose label contains TEXT (to
  // profile one; nothing is compared then).
  const char *only = std::getenv("STENCILC_BENCH_ONLY");
  if (only != nullptr && std::strstr(label, only) == nullptr) {
    return true;
  }
  return benchOne<E>(St::kName, T, geometry, kSteps, copy, grids,
                     [](E *a, E *b) { return fused3d::run<S>(a, b, kN, kN, kN, kSteps, nullptr); });
}

/// The cases of one element type and stencil; whether each equals T 1.
template <class E, class St> bool benchCases(double copy) {
  Grids<E> g(static_cast<long long>(kN) * kN * kN);
  constexpr bool kStar = std::is_same_v<St, Star7>;
  bool same = bench<E, St, 1, 64, 32, 2, 2, 128>(copy, g);
  if constexpr (std::is_same_v<E, double> && kStar) {
    same &= bench<E, St, 2, 64, 32, 2, 2, 128>(copy, g);
    same &= bench<E, St, 3, 64, 32, 2, 2, 64>(copy, g);
    same &= bench<E, St, 3, 32, 64, 1, 4, 64>(copy, g);
    same &= bench<E, St, 3, 32, 64, 1, 4, 128>(copy, g);
    same &= bench<E, St, 4, 32, 32, 1, 4, 64>(copy, g);
  } else if constexpr (std::is_same_v<E, double>) {
    same &= bench<E, St, 2, 64, 32, 2, 2, 128>(copy, g);
    same &= bench<E, St, 2, 32, 64, 1, 4, 128>(copy, g);
    same &= bench<E, St, 3, 32, 32, 1, 4, 128>(copy, g);
  } else if constexpr (std::is_same_v<E, float> && kStar) {
    same &= bench<E, St, 3, 64, 32, 2, 2, 128>(copy, g);
    same &= bench<E, St, 4, 64, 32, 2, 2, 64>(copy, g);
    same &= bench<E, St, 4, 64, 32, 2, 2, 128>(copy, g);
    same &= bench<E, St, 5, 64, 32, 2, 2, 64>(copy, g);
    same &= bench<E, St, 5, 64, 32, 2, 2, 128>(copy, g);
    same &= bench<E, St, 6, 64, 32, 2, 2, 128>(copy, g);
  } else if constexpr (std::is_same_v<E, float>) {
    same &= bench<E, St, 2, 64, 32, 2, 2, 128>(copy, g);
    same &= bench<E, St, 2, 32, 64, 1, 4, 128>(copy, g);
    same &= bench<E, St, 3, 64, 32, 2, 2, 128>(copy, g);
  } else if constexpr (kStar) {
    same &= bench<E, St, 4, 64, 32, 2, 2, 128>(copy, g);
    same &= bench<E, St, 5, 64, 32, 2, 2, 128>(copy, g);
  } else {
    same &= bench<E, St, 2, 64, 32, 2, 2, 128>(copy, g);
  }
  return same;
}

extern template bool benchCases<double, Star7>(double);
extern template bool benchCases<float, Star7>(double);
extern template bool benchCases<double, Box27>(double);
extern template bool benchCases<float, Box27>(double);
extern template bool benchCases<__half, Star7>(double);
extern template bool benchCases<__half, Box27>(double);

} // namespace fused3d_bench
