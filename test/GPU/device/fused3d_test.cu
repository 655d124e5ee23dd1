// fused3d_test.cu - stencilc/device/fused3d.cuh on the GPU: `steps` steps
// of a 3D stencil as passes of T fused steps (fused3d::run) against the CPU
// reference of fused_nd_test.h (single steps, the same arithmetic), bit for
// bit at every point:
//  - star 7-point and box 27-point (r 1);
//  - fp32, fp64 and fp16; fixed, constant 0.75 and periodic boundaries;
//  - grids 1^3 (not fixed), 3^3, 17x19x21, 20x24x64 (rows of whole 16-byte
//    vectors: the vector loads), 33x50x131;
//  - T 2 and 4 (windows of 32 x 16 points, 128 threads, batches of 2
//    planes, chunks of 5 planes, pieces of 1 row at T 2 and of 4 rows at
//    T 4: several tiles and chunks from 17x19x21 on, windows larger than the
//    grid below), and, fixed, two of the benchmark's geometries at T 4;
//  - steps 1, T - 1, T, T + 1, 3T + 2 and 100 (100 from 17x19x21 up).
// The scratch buffer b is NaN before each run; the result must be in a.
// Also run's argument checks. --max-points N skips the grids of more than N
// points (for compute-sanitizer).
//
// With --bench: the timing mode of fused3d_bench.cu.
#include <cstdlib>
#include <cstring>

#include "fused_nd_test.h"
#include "stencilc/runtime/device_buffer.h"

namespace {

using namespace fused_nd_test;
using stencilc::DeviceBuffer;
using stencilc::device_test::Tally;
namespace fused3d = stencilc::device::fused3d;

long long maxPoints = 1LL << 40;

template <class S>
void checkOne(Tally &tally, const std::vector<typename S::Element> &input,
              const std::vector<typename S::Element> &want, Shape g, int steps, Kind kind,
              const char *what) {
  checkRun(tally, input, want, g, steps, S::kSteps, kind, what,
           [&](typename S::Element *a, typename S::Element *b) {
             return fused3d::run<S>(a, b, g.nz, g.ny, g.nx, steps, nullptr);
           });
}

template <class E, class St, Kind K> void checkStencil(Tally &tally) {
  using B = typename BoundaryOf<K>::type;
  using T2 = fused3d::Geometry<Params3<E, B, St, 2>>;
  using T4 = fused3d::Geometry<Params3<E, B, St, 4, 32, 16, 128, 2, 5, 4>>;
  using Bench4 = fused3d::Geometry<Params3<E, B, St, 4, 64, 32, 256, 1, 64, 8>>;
  using Bench4b = fused3d::Geometry<Params3<E, B, St, 4, 48, 32, 256, 1, 128, 4>>;
  const int least = fused3d::minExtent<B>(St::kRadius);
  const Shape shapes[] = {
      {1, 1, 1, 3}, {3, 3, 3, 3}, {17, 19, 21, 3}, {20, 24, 64, 3}, {33, 50, 131, 3}};
  for (const Shape &g : shapes) {
    if (g.nz < least || g.ny < least || g.nx < least || g.points() > maxPoints) {
      continue;
    }
    const bool large = g.nz >= 17;
    std::vector<int> wanted = {1, 2, 3, 4, 5, 8, 9, 14};
    if (large) {
      wanted.push_back(100);
    }
    const std::vector<E> input = randomGrid<E>(g.points(), g.nz * 131 + g.ny * 7 + g.nx);
    const auto ref = referenceRuns<E, St>(input, g, K, wanted);
    for (int steps : stepCounts(2, large)) {
      checkOne<T2>(tally, input, ref.at(steps), g, steps, K, St::kName);
    }
    for (int steps : stepCounts(4, large)) {
      checkOne<T4>(tally, input, ref.at(steps), g, steps, K, St::kName);
    }
    if constexpr (!std::is_same_v<E, __half>) {
      if (K == Kind::Fixed && large) {
        for (int steps : {5, 100}) { // the benchmark's geometries
          checkOne<Bench4>(tally, input, ref.at(steps), g, steps, K, St::kName);
          checkOne<Bench4b>(tally, input, ref.at(steps), g, steps, K, St::kName);
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
  using S = fused3d::Geometry<Params3<float, stencilc::device::FixedBoundary, Star7, 2>>;
  DeviceBuffer<float> a(1000), b(1000);
  tally.check(fused3d::run<S>(a.data(), a.data(), 10, 10, 10, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a == b");
  tally.check(fused3d::run<S>(nullptr, b.data(), 10, 10, 10, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a null pointer");
  tally.check(fused3d::run<S>(a.data(), b.data(), 10, 10, 10, -1, nullptr) == cudaErrorInvalidValue,
              "run refuses steps < 0");
  tally.check(fused3d::run<S>(a.data(), b.data(), 10, 2, 10, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a fixed grid below 2r + 1");
  tally.check(fused3d::run<S>(a.data(), b.data(), 10, 10, 10, 0, nullptr) == cudaSuccess,
              "run does nothing for 0 steps");
}

} // namespace

int main(int argc, char **argv) {
  stencilc::device_test::skipWithoutDevice();
  if (argc > 1 && std::strcmp(argv[1], "--bench") == 0) {
    return fused_nd_test::bench3d();
  }
  if (argc > 2 && std::strcmp(argv[1], "--max-points") == 0) {
    maxPoints = std::atoll(argv[2]);
  }
  Tally tally;
  checkArguments(tally);
  checkAllBoundaries<float, Star7>(tally);
  checkAllBoundaries<float, Box27>(tally);
  checkAllBoundaries<double, Star7>(tally);
  checkAllBoundaries<double, Box27>(tally);
  checkAllBoundaries<__half, Star7>(tally);
  checkAllBoundaries<__half, Box27>(tally);
  return tally.finish("fused3d");
}
