// stencilc/device/composed.cuh - fused time steps on tensor cores by the
// composed stencil (issue 19, item 4; docs/design.md, "Fused steps on tensor
// cores"): a pass of T steps is one launch of the tensor kernel of the
// stencil composed T times (radius W = T·r), exact wherever its reads of the
// input stay T·r inside the grid, and beside it one launch of the band
// kernel (band.cuh), which computes every point within W of an edge step
// by step with the true boundary rule. `periodic` needs no band: the
// composed stencil wraps as every step would. The CUDA cores' composed
// rank-1 passes (rank_one.cuh, which is not periodic) run through it too.
#pragma once

#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/band.cuh"
#include "stencilc/device/dependent.cuh"

namespace stencilc {
namespace device {
namespace composed {

/// One composed pass of Band::kSteps steps, in -> out: the composed step
/// over the interior and the band kernel (a grid within 2 W of its size on
/// an axis is all band; a periodic grid has no band). The composed step
/// stores no point within W of an edge (the compiler plans it under
/// `fixed` with a ring of W) and the band only those, so the two write
/// disjoint points: given `beside`, the band, latency-bound on 0.4 % of
/// the points at 8192^2, runs on its stream alongside the composed step
/// (NAME_run's passes 2-3 % faster on an H200, docs/performance.md,
/// 2026-12-04 19:01-19:11); without, after it on `stream`.
template <class Band, int kTile, class Element>
cudaError_t composedPass(const Element *in, Element *out, int ny, int nx,
                         cudaError_t (*composedStep)(const Element *, Element *, int, int,
                                                     cudaStream_t),
                         Beside *beside, cudaStream_t stream) {
  constexpr int kW = Band::kRadius * Band::kSteps;
  if constexpr (Band::kBoundaryKind == STENCILC_BOUNDARY_PERIODIC) {
    return composedStep(in, out, ny, nx, stream);
  } else {
    const auto bandOn = [&](cudaStream_t on) {
      return band::launchBand<Band, kTile>(in, out, ny, nx, on);
    };
    if (ny <= 2 * kW || nx <= 2 * kW) {
      return bandOn(stream);
    }
    if (beside == nullptr) {
      const cudaError_t status = composedStep(in, out, ny, nx, stream);
      return status == cudaSuccess ? bandOn(stream) : status;
    }
    cudaError_t status = beside->fork(bandOn);
    if (status == cudaSuccess) {
      status = composedStep(in, out, ny, nx, stream);
    }
    return status == cudaSuccess ? beside->join() : status;
  }
}

/// NAME_pass of a composed plan: one composed pass (steps = Band::kSteps)
/// or one single step, in -> out, in never written; `fixed` first copies in
/// to out, so the ring stays. The caller has checked the pointers and sizes.
template <class Band, int kTile, class Element>
cudaError_t onePass(const Element *in, Element *out, int ny, int nx, int steps,
                    cudaError_t (*composedStep)(const Element *, Element *, int, int, cudaStream_t),
                    cudaError_t (*singleStep)(const Element *, Element *, int, int, cudaStream_t),
                    cudaStream_t stream) {
  if (steps != 1 && steps != Band::kSteps) {
    return cudaErrorInvalidValue;
  }
  cudaError_t status = cudaSuccess;
  if (Band::kRing > 0) {
    status = cudaMemcpyAsync(out, in,
                             static_cast<size_t>(ny) * static_cast<size_t>(nx) * sizeof(Element),
                             cudaMemcpyDeviceToDevice, stream);
  }
  if (status != cudaSuccess) {
    return status;
  }
  // One pass a call (the distributed runtime's, between synchronisations):
  // the band after the composed step, no stream made for it.
  return steps == 1 ? singleStep(in, out, ny, nx, stream)
                    : composedPass<Band, kTile>(in, out, ny, nx, composedStep, nullptr, stream);
}

/// NAME_run of a composed plan: `steps` steps as passes of Band::kSteps (the
/// composed step with the band beside it; a grid within 2 W of its size on an axis is
/// all band), one pass of Remainder::kSteps where that many or more remain
/// (Remainder void: none), and single steps for the rest, ping-ponging
/// between a and b; the result is left in a. `fixed` first copies a to b, so
/// the ring stays in both. The caller has checked the arguments.
template <class Band, class Remainder, int kTile, class Element>
cudaError_t run(Element *a, Element *b, int ny, int nx, int steps,
                cudaError_t (*composedStep)(const Element *, Element *, int, int, cudaStream_t),
                cudaError_t (*remainderStep)(const Element *, Element *, int, int, cudaStream_t),
                cudaError_t (*singleStep)(const Element *, Element *, int, int, cudaStream_t),
                cudaStream_t stream) {
  const size_t bytes = static_cast<size_t>(ny) * static_cast<size_t>(nx) * sizeof(Element);
  cudaError_t status = cudaSuccess;
  if (Band::kRing > 0) {
    status = cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
  }
  Beside beside(stream);
  Element *from = a, *to = b;
  for (int pass = 0; status == cudaSuccess && pass < steps / Band::kSteps; ++pass) {
    status = composedPass<Band, kTile>(from, to, ny, nx, composedStep, &beside, stream);
    std::swap(from, to);
  }
  int rest = steps % Band::kSteps;
  if constexpr (!std::is_void_v<Remainder>) {
    static_assert(Remainder::kSteps < Band::kSteps, "one remainder pass at most");
    if (status == cudaSuccess && rest >= Remainder::kSteps) {
      status = composedPass<Remainder, kTile>(from, to, ny, nx, remainderStep, &beside, stream);
      std::swap(from, to);
      rest -= Remainder::kSteps;
    }
  }
  for (int step = 0; status == cudaSuccess && step < rest; ++step) {
    status = singleStep(from, to, ny, nx, stream);
    std::swap(from, to);
  }
  if (status == cudaSuccess && from != a) { // the result is left in a
    status = cudaMemcpyAsync(a, from, bytes, cudaMemcpyDeviceToDevice, stream);
  }
  return status;
}

/// NAME_run of a composed plan without a remainder pass.
template <class Band, int kTile, class Element>
cudaError_t run(Element *a, Element *b, int ny, int nx, int steps,
                cudaError_t (*composedStep)(const Element *, Element *, int, int, cudaStream_t),
                cudaError_t (*singleStep)(const Element *, Element *, int, int, cudaStream_t),
                cudaStream_t stream) {
  return run<Band, void, kTile, Element>(a, b, ny, nx, steps, composedStep, nullptr, singleStep,
                                         stream);
}

} // namespace composed
} // namespace device
} // namespace stencilc
