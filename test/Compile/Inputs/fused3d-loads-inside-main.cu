// Which 3D fused passes load their planes without the planes' test
// (fused3d::kLoadsInside): a pass over every plane (AllPlanes) of a grid
// that is not periodic, in elements of 4 bytes or fewer (measured faster
// there, slower in fp64). Checked at compile time; prints a line when built.
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stencilc/device/fused3d.cuh>

using stencilc::device::FixedBoundary;
using stencilc::device::PeriodicBoundary;
using stencilc::device::fused3d::kLoadsInside;

template <class E, class B> struct Plan {
  using Element = E;
  using Boundary = B;
};

static_assert(kLoadsInside<Plan<float, FixedBoundary>, true>);
static_assert(kLoadsInside<Plan<__half, FixedBoundary>, true>);
static_assert(kLoadsInside<Plan<__nv_bfloat16, FixedBoundary>, true>);
static_assert(!kLoadsInside<Plan<double, FixedBoundary>, true>);
static_assert(!kLoadsInside<Plan<float, PeriodicBoundary>, true>);
static_assert(!kLoadsInside<Plan<__half, FixedBoundary>, false>);

int main() {
  std::printf("ok: fp32, fp16 and bf16 load inside without the test, fp64 and periodic grids "
              "with it\n");
  return 0;
}
