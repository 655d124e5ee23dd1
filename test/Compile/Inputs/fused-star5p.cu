// A star 5-point stencil through stencilc/device/fused.cuh, 4 fused steps,
// fp32 and fp64, fixed boundary: what a generated .cu would hold
// (device-fused-header-alone.test compiles it).
#include <stencilc/device/fused.cuh>

namespace fused_star5p {

namespace fused = stencilc::device::fused;

struct Star5 {
  static constexpr int kRadius = 1, kTerms = 5;
  template <class C> static __host__ __device__ constexpr fused::Term<C> term(int i) {
    constexpr fused::Term<C> terms[] = {
        {0, 0, C(0.5)}, {-1, 0, C(0.125)}, {1, 0, C(0.125)}, {0, -1, C(0.125)}, {0, 1, C(0.125)}};
    return terms[i];
  }
};

template <class E, class C> struct Params {
  using Element = E;
  using Compute = C;
  using Boundary = stencilc::device::FixedBoundary;
  using Stencil = Star5;
  static constexpr int kSteps = 4, kWidth = 256, kThreads = 256, kBatch = 4, kChunkY = 256;
};

using Fp32 = fused::Geometry<Params<float, float>>;
using Fp64 = fused::Geometry<Params<double, double>>;

} // namespace fused_star5p

cudaError_t star5p_fp32_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream) {
  return stencilc::device::fused::run<fused_star5p::Fp32>(a, b, ny, nx, steps, stream);
}

cudaError_t star5p_fp64_run(double *a, double *b, int ny, int nx, int steps, cudaStream_t stream) {
  return stencilc::device::fused::run<fused_star5p::Fp64>(a, b, ny, nx, steps, stream);
}
