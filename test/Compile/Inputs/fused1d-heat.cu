// A heat 3-point stencil through stencilc/device/fused1d.cuh, 8 fused steps,
// fp32 and fp64, fixed boundary: what a generated .cu would hold
// (device-fused1d-header-alone.test compiles it).
#include <stencilc/device/fused1d.cuh>

namespace fused1d_heat {

namespace fused1d = stencilc::device::fused1d;

struct Heat {
  static constexpr int kRadius = 1, kTerms = 3;
  template <class C> static __host__ __device__ constexpr fused1d::Term<C> term(int i) {
    constexpr fused1d::Term<C> terms[] = {{-1, C(0.25)}, {0, C(0.5)}, {1, C(0.25)}};
    return terms[i];
  }
};

template <class E, class C> struct Params {
  using Element = E;
  using Compute = C;
  using Boundary = stencilc::device::FixedBoundary;
  using Stencil = Heat;
  static constexpr int kSteps = 8, kWidth = 4096, kThreads = 512;
};

using Fp32 = fused1d::Geometry<Params<float, float>>;
using Fp64 = fused1d::Geometry<Params<double, double>>;

} // namespace fused1d_heat

cudaError_t heat_fp32_run(float *a, float *b, int nx, int steps, cudaStream_t stream) {
  return stencilc::device::fused1d::run<fused1d_heat::Fp32>(a, b, nx, steps, stream);
}

cudaError_t heat_fp64_run(double *a, double *b, int nx, int steps, cudaStream_t stream) {
  return stencilc::device::fused1d::run<fused1d_heat::Fp64>(a, b, nx, steps, stream);
}
