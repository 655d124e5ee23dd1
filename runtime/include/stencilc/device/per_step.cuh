// stencilc/device/per_step.cuh - the values of a per-step parameter
// (`param amp per step;`) as NAME_run of a stencil of fields reads them:
// on the host, one a step, since the host folds each step's coefficients
// (docs/generated-code.md, "Stencils of fields").
#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "stencilc/device/host.cuh"

namespace stencilc {
namespace device {

/// The `steps` values a caller passed for one per-step parameter, wherever
/// they live: host memory (pageable or pinned) is read in place; device or
/// managed memory is copied to the host once, after the work already on the
/// stream, so the copy waits for that stream (a synchronisation).
class PerStepValues {
public:
  /// Makes `values[0 .. steps)` readable; cudaErrorInvalidValue for a null
  /// pointer, else what CUDA reports, before anything is launched.
  cudaError_t take(const double *values, int steps, cudaStream_t stream) {
    if (values == nullptr || steps < 0) {
      return cudaErrorInvalidValue;
    }
    cudaPointerAttributes attributes;
    cudaError_t status = cudaPointerGetAttributes(&attributes, values);
    if (status != cudaSuccess) {
      return status;
    }
    if (attributes.type != cudaMemoryTypeDevice && attributes.type != cudaMemoryTypeManaged) {
      host_ = values;
      return cudaSuccess;
    }
    status = copyToHostAfter(values, static_cast<std::size_t>(steps), stream, copy_);
    host_ = copy_.data();
    return status;
  }

  /// The value during step `step` (from 0).
  double operator[](int step) const { return host_[step]; }

private:
  const double *host_ = nullptr;
  std::vector<double> copy_;
};

} // namespace device
} // namespace stencilc
