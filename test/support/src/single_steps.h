// single_steps.h - what the conformance run and the benchmark both compare
// NAME_run with: as many NAME_step calls. Internal to test/support/src.
#pragma once

#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "stencilc/runtime/device_buffer.h"
#include "stencilc/testing/harness.h"

namespace stencilc {

/// `steps` single steps of `s` from `a` (NAME_step ping-ponging between two
/// buffers that both start as `a`, so a fixed ring stays as NAME_run keeps
/// it), downloaded; empty if a step failed.
template <class T>
inline std::vector<T> singleSteps(const StencilUnderTest &s, const Extents &e,
                                  const std::vector<T> &a, int steps, cudaStream_t stream) {
  DeviceBuffer<T> x(a.size()), y(a.size());
  x.upload(a);
  y.upload(a);
  T *from = x.data(), *to = y.data();
  for (int i = 0; i < steps; ++i) {
    if (s.step(from, to, e, stream) != cudaSuccess) {
      cudaGetLastError();
      return {};
    }
    std::swap(from, to);
  }
  if (cudaStreamSynchronize(stream) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  return from == x.data() ? x.download() : y.download();
}

/// Whether NAME_run must equal as many NAME_step calls bit for bit: every
/// plan but one whose passes compose the steps (run_composed: the tensor
/// cores' composed passes, the CUDA cores' composed rank-1 passes), which
/// round differently from single steps (docs/generated-code.md); its runs
/// are checked against the tolerance instead.
inline bool runMatchesStepsBitwise(const stencilc_stencil_info &info) {
  return info.run_composed == 0 || info.fused_steps <= 1;
}

} // namespace stencilc
