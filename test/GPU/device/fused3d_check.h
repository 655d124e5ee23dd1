// fused3d_check.h - the exactness checks of stencilc/device/fused3d.cuh,
// one stencil, element type and boundary per translation unit
// (fused3d_test.cu's driver calls each; CMake generates the units): `steps` steps through
// fused3d::run (under clamp and mirror fused_band.cuh's runBanded, the
// passes and their band, as NAME_run) against the CPU reference of
// fused_nd_test.h (single steps, the same arithmetic), bit for bit at
// every point:
//  - every boundary: fixed, constant 0.75, periodic, clamp and mirror;
//  - grids 1^3 (not fixed), 3^3, 17x19x21, 20x24x64 (rows of whole thread
//    accesses: the vector loads and stores), 24x40x64 (windows inside the
//    grid, and chunks along z whose planes are too: the passes without the
//    points' and the planes' tests), 33x50x131;
//  - T 2 (windows of 32 x 16, threads of 2 x 2 points: 16 lanes a row),
//    T 4 (32 x 16, 2 x 4 points) and T 3 (32 x 16, 1 x 2 points: 32 lanes
//    a row), chunks of 5, 5 and 7 planes: several windows and chunks from
//    17x19x21 on, windows larger than the grid below; fixed, also two of
//    the benchmark's geometries;
//  - steps 1, T - 1, T, T + 1, 3T + 2 and 100 (100 from 17x19x21 up);
//  - T 2 at 3 steps on the grids of whole rows with the buffers one element
//    off their alignment (no whole accesses: the copies of the pass that
//    need them must not run);
//  - the box at T 2 and T 3 under the split barrier with the loop unrolled
//    as little as the queue allows (RotatedParams: its ring rotates).
// The scratch buffer b is NaN before each run; the result must be in a.
// --max-points N (maxPoints) skips the grids of more than N points and
// --max-steps N (maxSteps) the runs of more than N steps (for
// compute-sanitizer).
#pragma once

#include <set>
#include <vector>

#include "fused_nd_test.h"
#include "stencilc/device/fused_band.cuh"

namespace fused3d_check {

using namespace fused_nd_test;
using stencilc::device_test::Tally;
namespace fused3d = stencilc::device::fused3d;

inline long long maxPoints = 1LL << 40;
inline int maxSteps = 1 << 30;

template <class S>
void checkOne(Tally &tally, const std::vector<typename S::Element> &input,
              const std::vector<typename S::Element> &want, Shape g, int steps, Kind kind,
              const char *what, int offset = 0) {
  if (steps > maxSteps) {
    return;
  }
  checkRun(
      tally, input, want, g, steps, S::kSteps, kind, what,
      [&](typename S::Element *a, typename S::Element *b) {
        if constexpr (stencilc::device::fused::kPassesExactAlone<S>) {
          return fused3d::run<S>(a, b, g.nz, g.ny, g.nx, steps, nullptr);
        } else {
          return fused3d::runBanded<S>(a, b, g.nz, g.ny, g.nx, steps, nullptr);
        }
      },
      offset);
}

/// P under the split barrier (kSplitBarrier: a ring a plane deeper, an
/// mbarrier a plane on sm_90).
template <class P> struct SplitParams : P {
  static constexpr bool kSplitBarrier = true;
};
/// SplitParams<P> with the stream's loop unrolled as few planes as the
/// queue allows (kUnrollPlanes): a box's ring, then of 5 slots, rotates
/// five parts of one over a loop of 4 (fused3d::RingParts); a star's
/// ring of 3 is whole in its loop of 6, as before.
template <class P> struct RotatedParams : SplitParams<P> {
  static constexpr int kUnrollPlanes = fused3d::lcm(2, fused3d::Geometry<SplitParams<P>>::kQueue);
};

/// Every step count of stepCounts(T) for T 2, 3 and 4.
inline std::vector<int> allStepCounts(bool large) {
  std::set<int> counts;
  for (int T : {2, 3, 4}) {
    for (int steps : stepCounts(T, large)) {
      counts.insert(steps);
    }
  }
  return {counts.begin(), counts.end()};
}

template <class E, class St, Kind K> void checkStencil(Tally &tally) {
  using B = typename BoundaryOf<K>::type;
  using T2 = fused3d::Geometry<Params3<E, B, St, 2>>;
  using T4 = fused3d::Geometry<Params3<E, B, St, 4, 32, 16, 2, 4, 5>>;
  using T3 = fused3d::Geometry<Params3<E, B, St, 3, 32, 16, 1, 2, 7>>;
  using Bench3 = fused3d::Geometry<Params3<E, B, St, 3, 32, 64, 1, 4, 64>>;
  using Bench4 = fused3d::Geometry<Params3<E, B, St, 4, 32, 32, 1, 4, 64>>;
  using Rotated2 = fused3d::Geometry<RotatedParams<Params3<E, B, St, 2>>>;
  using Rotated3 = fused3d::Geometry<RotatedParams<Params3<E, B, St, 3, 32, 16, 1, 2, 7>>>;
  const int least = fused3d::minExtent<B>(St::kRadius);
  const Shape shapes[] = {{1, 1, 1, 3},    {3, 3, 3, 3},    {17, 19, 21, 3},
                          {20, 24, 64, 3}, {24, 40, 64, 3}, {33, 50, 131, 3}};
  for (const Shape &g : shapes) {
    if (g.nz < least || g.ny < least || g.nx < least || g.points() > maxPoints) {
      continue;
    }
    const bool large = g.nz >= 17;
    const std::vector<E> input = randomGrid<E>(g.points(), g.nz * 131 + g.ny * 7 + g.nx);
    const auto ref = referenceRuns<E, St>(input, g, K, allStepCounts(large));
    for (int steps : stepCounts(2, large)) {
      checkOne<T2>(tally, input, ref.at(steps), g, steps, K, St::kName);
    }
    if (g.nx % 4 == 0 && large) { // whole rows, but misaligned: point by point
      checkOne<T2>(tally, input, ref.at(3), g, 3, K, St::kName, 1);
    }
    for (int steps : stepCounts(3, large)) {
      checkOne<T3>(tally, input, ref.at(steps), g, steps, K, St::kName);
    }
    if constexpr (Rotated2::kRingParts > 1) { // (a star's ring does not rotate)
      for (int steps : stepCounts(3, large)) {
        checkOne<Rotated3>(tally, input, ref.at(steps), g, steps, K, St::kName);
      }
      for (int steps : stepCounts(2, large)) {
        checkOne<Rotated2>(tally, input, ref.at(steps), g, steps, K, St::kName);
      }
    }
    for (int steps : stepCounts(4, large)) {
      checkOne<T4>(tally, input, ref.at(steps), g, steps, K, St::kName);
    }
    if constexpr (K == Kind::Fixed && !std::is_same_v<E, __half>) {
      if (large) {
        for (int steps : {5, 100}) { // the benchmark's geometries
          checkOne<Bench3>(tally, input, ref.at(steps), g, steps, K, St::kName);
          checkOne<Bench4>(tally, input, ref.at(steps), g, steps, K, St::kName);
        }
      }
    }
  }
}

// Each checkStencil is defined in a generated translation unit of its own
// (test/GPU/CMakeLists.txt), so that they compile in parallel.
#define STENCILC_FUSED3D_CHECKS(E, St)                                                             \
  extern template void checkStencil<E, St, Kind::Fixed>(Tally &);                                  \
  extern template void checkStencil<E, St, Kind::Constant>(Tally &);                               \
  extern template void checkStencil<E, St, Kind::Periodic>(Tally &);                               \
  extern template void checkStencil<E, St, Kind::Clamp>(Tally &);                                  \
  extern template void checkStencil<E, St, Kind::Mirror>(Tally &);
STENCILC_FUSED3D_CHECKS(float, Star7)
STENCILC_FUSED3D_CHECKS(float, Box27)
STENCILC_FUSED3D_CHECKS(double, Star7)
STENCILC_FUSED3D_CHECKS(double, Box27)
STENCILC_FUSED3D_CHECKS(__half, Star7)
STENCILC_FUSED3D_CHECKS(__half, Box27)
#undef STENCILC_FUSED3D_CHECKS

/// The checks of one element type and stencil at every boundary.
template <class E, class St> void checkAllBoundaries(Tally &tally) {
  checkStencil<E, St, Kind::Fixed>(tally);
  checkStencil<E, St, Kind::Constant>(tally);
  checkStencil<E, St, Kind::Periodic>(tally);
  checkStencil<E, St, Kind::Clamp>(tally);
  checkStencil<E, St, Kind::Mirror>(tally);
}

} // namespace fused3d_check
