// broken.cu - the broken stand-ins of broken.h, each built on the naive
// kernel with one deliberate fault.
#include "broken.h"

#include "stencilc/testing/naive.h"

using stencilc::Extents;

namespace {

/// The correct run, shared by the variants whose fault is in NAME_step.
cudaError_t correctRun(const stencilc_stencil_info &info, float *a, float *b, int ny, int nx,
                       int steps, cudaStream_t stream) {
  return stencilc::naiveRun<float>(info, a, b, Extents::of2D(ny, nx), steps, stream);
}

} // namespace

extern "C" {

cudaError_t writes_ring_step(const float *in, float *out, int ny, int nx, cudaStream_t stream) {
  cudaError_t status =
      stencilc::naiveStep<float>(writes_ring_info, in, out, Extents::of2D(ny, nx), stream);
  if (status != cudaSuccess)
    return status;
  return cudaMemsetAsync(out, 0, sizeof(float), stream); // point (0, 0) is in the ring
}
cudaError_t writes_ring_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream) {
  return correctRun(writes_ring_info, a, b, ny, nx, steps, stream);
}

cudaError_t skips_point_step(const float *in, float *out, int ny, int nx, cudaStream_t stream) {
  if (!in || !out || in == out || ny < 3 || nx < 3) // rejected by naiveStep
    return stencilc::naiveStep<float>(skips_point_info, in, out, Extents::of2D(ny, nx), stream);
  // Keep what out held at the last interior point, as if no thread wrote it.
  const std::size_t last = static_cast<std::size_t>(ny - 2) * nx + (nx - 2);
  float *saved = nullptr;
  cudaError_t status = cudaMallocAsync(&saved, sizeof(float), stream);
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(saved, out + last, sizeof(float), cudaMemcpyDeviceToDevice, stream);
  if (status == cudaSuccess)
    status = stencilc::naiveStep<float>(skips_point_info, in, out, Extents::of2D(ny, nx), stream);
  if (status == cudaSuccess)
    status = cudaMemcpyAsync(out + last, saved, sizeof(float), cudaMemcpyDeviceToDevice, stream);
  if (saved)
    cudaFreeAsync(saved, stream);
  return status;
}
cudaError_t skips_point_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream) {
  return correctRun(skips_point_info, a, b, ny, nx, steps, stream);
}

static const stencilc_point wrong_points[5] = {
    {{-1, 0, 0}, 0.125}, {{0, -1, 0}, 0.125}, {{0, 0, 0}, 0.5},
    {{0, 1, 0}, 0.126},  {{1, 0, 0}, 0.125},
};
// clang-format off
static const stencilc_stencil_info wrong_kernel_info = {
    "wrong_weight", 2, 1, STENCILC_STAR, STENCILC_FP32, STENCILC_BOUNDARY_FIXED, 0.0,
    5, wrong_points, STENCILC_BACKEND_SIMT, {4, 64, 0}, 1, 0};
// clang-format on
cudaError_t wrong_weight_step(const float *in, float *out, int ny, int nx, cudaStream_t stream) {
  return stencilc::naiveStep<float>(wrong_kernel_info, in, out, Extents::of2D(ny, nx), stream);
}
cudaError_t wrong_weight_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream) {
  return correctRun(wrong_kernel_info, a, b, ny, nx, steps, stream);
}

cudaError_t accepts_alias_step(const float *in, float *out, int ny, int nx, cudaStream_t stream) {
  if (in == out && in != nullptr)
    return cudaSuccess; // the fault: should be cudaErrorInvalidValue
  return stencilc::naiveStep<float>(accepts_alias_info, in, out, Extents::of2D(ny, nx), stream);
}
cudaError_t accepts_alias_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream) {
  return correctRun(accepts_alias_info, a, b, ny, nx, steps, stream);
}

cudaError_t odd_steps_in_b_step(const float *in, float *out, int ny, int nx, cudaStream_t stream) {
  return stencilc::naiveStep<float>(odd_steps_in_b_info, in, out, Extents::of2D(ny, nx), stream);
}
cudaError_t odd_steps_in_b_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream) {
  if (cudaError_t status = stencilc::validateArguments(odd_steps_in_b_info, a, b,
                                                       Extents::of2D(ny, nx), steps, sizeof(float));
      status != cudaSuccess)
    return status;
  const std::size_t bytes = static_cast<std::size_t>(ny) * nx * sizeof(float);
  cudaError_t status = cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
  float *src = a, *dst = b;
  for (int s = 0; s < steps && status == cudaSuccess; ++s) {
    status =
        stencilc::naiveStep<float>(odd_steps_in_b_info, src, dst, Extents::of2D(ny, nx), stream);
    float *t = src;
    src = dst;
    dst = t;
  }
  return status; // the fault: no copy back to a after an odd step count
}

} // extern "C"
