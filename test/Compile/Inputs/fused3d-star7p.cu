// A star 7-point stencil through stencilc/device/fused3d.cuh, 4 fused steps,
// fp32 and fp64, fixed boundary: what a generated .cu would hold
// (device-fused3d-header-alone.test compiles it).
#include <stencilc/device/fused3d.cuh>

namespace fused3d_star7p {

namespace fused3d = stencilc::device::fused3d;

struct Star7 {
  static constexpr int kRadius = 1, kTerms = 7;
  template <class C> static __host__ __device__ constexpr fused3d::Term<C> term(int i) {
    constexpr fused3d::Term<C> terms[] = {
        {0, 0, 0, C(0.4)}, {-1, 0, 0, C(0.1)}, {1, 0, 0, C(0.1)}, {0, -1, 0, C(0.1)},
        {0, 1, 0, C(0.1)}, {0, 0, -1, C(0.1)}, {0, 0, 1, C(0.1)}};
    return terms[i];
  }
};

template <class E, class C> struct Params {
  using Element = E;
  using Compute = C;
  using Boundary = stencilc::device::FixedBoundary;
  using Stencil = Star7;
  static constexpr int kSteps = 4, kWidth = 64, kHeight = 32, kThreads = 256, kBatch = 1, kRows = 4,
                       kChunkZ = 64;
};

using Fp32 = fused3d::Geometry<Params<float, float>>;
using Fp64 = fused3d::Geometry<Params<double, double>>;

} // namespace fused3d_star7p

cudaError_t star7p_fp32_run(float *a, float *b, int nz, int ny, int nx, int steps,
                            cudaStream_t stream) {
  return stencilc::device::fused3d::run<fused3d_star7p::Fp32>(a, b, nz, ny, nx, steps, stream);
}

cudaError_t star7p_fp64_run(double *a, double *b, int nz, int ny, int nx, int steps,
                            cudaStream_t stream) {
  return stencilc::device::fused3d::run<fused3d_star7p::Fp64>(a, b, nz, ny, nx, steps, stream);
}
