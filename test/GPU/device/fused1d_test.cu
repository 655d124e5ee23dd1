// fused1d_test.cu - stencilc/device/fused1d.cuh on the GPU: `steps` steps
// of a 1D stencil as passes of T fused steps (fused1d::run) against the CPU
// reference of fused_nd_test.h (single steps, the same arithmetic), bit for
// bit at every point:
//  - heat 3-point (r 1) and a 5-point stencil (r 2);
//  - fp32, fp64 and fp16; fixed, constant 0.75 and periodic boundaries;
//  - grids of 1 (not fixed), 3 (not fixed at r 2), 17, 1000, 4096 (whole
//    16-byte vectors) and 100003 points;
//  - T 2, 4 and 9 (segments of 64 points, 32 threads: several segments
//    from 17 points on at T 2, segments wider than the grid below), and,
//    fixed, the benchmark's geometries at T 8 and 16;
//  - steps 1, T - 1, T, T + 1, 3T + 2 and 100 (100 from 17 points up).
// The scratch buffer b is NaN before each run; the result must be in a.
// Also run's argument checks. --max-points N skips the grids of more than N
// points (for compute-sanitizer).
//
// With --bench: the timing mode of fused1d_bench.cu.
#include <cstdlib>
#include <cstring>

#include "fused_nd_test.h"
#include "stencilc/runtime/device_buffer.h"

namespace {

using namespace fused_nd_test;
using stencilc::DeviceBuffer;
using stencilc::device_test::Tally;
namespace fused1d = stencilc::device::fused1d;

long long maxPoints = 1LL << 40;

template <class S>
void checkOne(Tally &tally, const std::vector<typename S::Element> &input,
              const std::vector<typename S::Element> &want, Shape g, int steps, Kind kind,
              const char *what) {
  checkRun(tally, input, want, g, steps, S::kSteps, kind, what,
           [&](typename S::Element *a, typename S::Element *b) {
             return fused1d::run<S>(a, b, g.nx, steps, nullptr);
           });
}

template <class S, class E>
void checkAllCounts(Tally &tally, const std::vector<E> &input,
                    const std::map<int, std::vector<E>> &ref, Shape g, bool large, Kind kind,
                    const char *what) {
  for (int steps : stepCounts(S::kSteps, large)) {
    checkOne<S>(tally, input, ref.at(steps), g, steps, kind, what);
  }
}

template <class E, class St, Kind K> void checkStencil(Tally &tally) {
  using B = typename BoundaryOf<K>::type;
  using T2 = fused1d::Geometry<Params1<E, B, St, 2>>;
  using T4 = fused1d::Geometry<Params1<E, B, St, 4>>;
  using T9 = fused1d::Geometry<Params1<E, B, St, 9, 128>>;
  using Bench8 = fused1d::Geometry<Params1<E, B, St, 8, 4096, 512>>;
  using Bench16 = fused1d::Geometry<Params1<E, B, St, 16, 8192, 1024>>;
  const int least = fused1d::minExtent<B>(St::kRadius);
  for (int nx : {1, 3, 17, 1000, 4096, 100003}) {
    if (nx < least || nx > maxPoints) {
      continue;
    }
    const Shape g = {1, 1, nx, 1};
    const bool large = nx >= 17;
    std::vector<int> wanted = {1, 2, 3, 4, 5, 8, 9, 10, 14, 29};
    if (large) {
      wanted.push_back(100);
    }
    const std::vector<E> input = randomGrid<E>(nx, nx + 11);
    const auto ref = referenceRuns<E, St>(input, g, K, wanted);
    checkAllCounts<T2>(tally, input, ref, g, large, K, St::kName);
    checkAllCounts<T4>(tally, input, ref, g, large, K, St::kName);
    checkAllCounts<T9>(tally, input, ref, g, large, K, St::kName);
    if constexpr (!std::is_same_v<E, __half>) {
      if (K == Kind::Fixed && large) {
        for (int steps : {5, 100}) { // the benchmark's geometries
          checkOne<Bench8>(tally, input, ref.at(steps), g, steps, K, St::kName);
          checkOne<Bench16>(tally, input, ref.at(steps), g, steps, K, St::kName);
        }
      }
    }
  }
}

template <class E, class St> void checkAllBoundaries(Tally &tally) {
  checkStencil<E, St, Kind::Fixed>(tally);
  checkStencil<E, St, Kind::Constant>(tally);
  checkStencil<E, St, Kind::Periodic>(tally);
}

void checkArguments(Tally &tally) {
  using S = fused1d::Geometry<Params1<float, stencilc::device::FixedBoundary, Wide1, 2>>;
  DeviceBuffer<float> a(100), b(100);
  tally.check(fused1d::run<S>(a.data(), a.data(), 100, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a == b");
  tally.check(fused1d::run<S>(nullptr, b.data(), 100, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a null pointer");
  tally.check(fused1d::run<S>(a.data(), b.data(), 100, -1, nullptr) == cudaErrorInvalidValue,
              "run refuses steps < 0");
  tally.check(fused1d::run<S>(a.data(), b.data(), 4, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a fixed grid below 2r + 1");
  tally.check(fused1d::run<S>(a.data(), b.data(), 100, 0, nullptr) == cudaSuccess,
              "run does nothing for 0 steps");
}

} // namespace

int main(int argc, char **argv) {
  stencilc::device_test::skipWithoutDevice();
  if (argc > 1 && std::strcmp(argv[1], "--bench") == 0) {
    return fused_nd_test::bench1d();
  }
  if (argc > 2 && std::strcmp(argv[1], "--max-points") == 0) {
    maxPoints = std::atoll(argv[2]);
  }
  Tally tally;
  checkArguments(tally);
  checkAllBoundaries<float, Heat1>(tally);
  checkAllBoundaries<float, Wide1>(tally);
  checkAllBoundaries<double, Heat1>(tally);
  checkAllBoundaries<double, Wide1>(tally);
  checkAllBoundaries<__half, Heat1>(tally);
  checkAllBoundaries<__half, Wide1>(tally);
  return tally.finish("fused1d");
}
