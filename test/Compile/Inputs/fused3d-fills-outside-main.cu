// Which 3D fused passes fill a row of a thread's points that lies outside
// the grid with the boundary's one value instead of reading it point by
// point (fused3d::kFillsOutside): fixed and constant boundaries, in
// elements of 4 bytes or fewer (measured faster there, slower in fp64).
// Checked at compile time; prints a line when built.
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stencilc/device/fused3d.cuh>

namespace device = stencilc::device;
using device::fused3d::kFillsOutside;
using device::fused3d::OneOutside;

struct Quarter {
  static constexpr float value = 0.25f;
};
using Constant = device::ConstantBoundary<Quarter>;

template <class E, class B> struct Plan {
  using Element = E;
  using Boundary = B;
};

static_assert(OneOutside<device::FixedBoundary>::value && OneOutside<Constant>::value);
static_assert(!OneOutside<device::PeriodicBoundary>::value &&
              !OneOutside<device::ClampBoundary>::value &&
              !OneOutside<device::MirrorBoundary>::value &&
              !OneOutside<device::ReflectBoundary>::value);
static_assert(kFillsOutside<Plan<float, device::FixedBoundary>>);
static_assert(kFillsOutside<Plan<__half, Constant>>);
static_assert(kFillsOutside<Plan<__nv_bfloat16, device::FixedBoundary>>);
static_assert(!kFillsOutside<Plan<double, device::FixedBoundary>>);
static_assert(!kFillsOutside<Plan<float, device::PeriodicBoundary>>);
static_assert(!kFillsOutside<Plan<float, device::ClampBoundary>>);

int main() {
  std::printf("ok: fixed and constant rows outside filled in fp32, fp16 and bf16; fp64 and "
              "the other boundaries read point by point\n");
  return 0;
}
