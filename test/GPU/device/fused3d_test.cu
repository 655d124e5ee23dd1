// fused3d_test.cu - stencilc/device/fused3d.cuh on the GPU: the driver of
// the exactness checks of fused3d_check.h (every boundary, grid, T and step
// count; one generated translation unit per element type and stencil:
// fp32, fp64 and fp16, star 7-point and box 27-point), and run's argument
// checks. --max-points N skips the grids of more than N points, --max-steps
// N the runs of more than N steps (for compute-sanitizer).
//
// With --bench: the timing mode of fused3d_bench.cu.
#include <cstdlib>
#include <cstring>

#include "fused3d_check.h"
#include "stencilc/runtime/device_buffer.h"

namespace {

using namespace fused3d_check;
using stencilc::DeviceBuffer;

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
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--max-points") == 0) {
      maxPoints = std::atoll(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--max-steps") == 0) {
      maxSteps = std::atoi(argv[i + 1]);
    }
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
