// stencilc/device/sources.cuh - the point sources of a stencil of fields
// that injects them (`source u;`): NAME_run adds each source's amplitude of
// a step to the stepped field's new level at the source's point, after the
// step's terms (docs/generated-code.md, "Stencils of fields"). One step a
// launch, a small kernel after each step's does it; a fused pass adds them
// where it computes each level (fields_fused.cuh), from a list of the
// sources near each warp's strip.
#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "stencilc/device/element.cuh"
#include "stencilc/device/host.cuh"
#include "stencilc/device/receivers.cuh"

namespace stencilc {
namespace device {

/// NAME_run's sources: `count` points (Dims ints each, in index order) and
/// the amplitudes, steps x count doubles, row s those of step s (from 0).
struct SourceList {
  const int *points = nullptr;
  int count = 0;
  const double *amplitudes = nullptr;
};

/// v, the value a step computed at a point (an element, in the arithmetic
/// type), after a source of amplitude `a` there: a rounded once to the
/// arithmetic type, added, the sum rounded to the element type. Every
/// kernel and the CPU emulator add a source so, one after another in the
/// list's order where sources share a point, which keeps a fused pass bit
/// for bit the loop of single steps.
template <class Element, class Compute>
__device__ __forceinline__ Compute withSource(Compute v, double a) {
  return toCompute(toElement<Element>(v + static_cast<Compute>(a)));
}

/// Adds the sources of one step (`row`: their amplitudes) to `field`, the
/// level the step wrote, a thread a source. The first of the sources at a
/// point adds them all, in the list's order, so that two sources at one
/// point neither race nor reorder; the search for earlier ones makes this
/// quadratic in the count, which stays small beside a grid (a shot's
/// source, a line of them). The points are valid: NAME_run checked them.
template <int Dims, class T>
__global__ void addSources(T *__restrict__ field, const int *__restrict__ points, int count,
                           const double *__restrict__ row, int nz, int ny, int nx) {
  const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k >= count) {
    return;
  }
  const int *p = points + static_cast<std::size_t>(Dims) * k;
  const auto same = [&](int j) {
    const int *q = points + static_cast<std::size_t>(Dims) * j;
    bool equal = true;
    for (int a = 0; a < Dims; ++a) {
      equal = equal && q[a] == p[a];
    }
    return equal;
  };
  for (int j = 0; j < k; ++j) {
    if (same(j)) {
      return; // an earlier source at this point adds this one
    }
  }
  std::size_t index = 0;
  receiverIndex<Dims>(p, nz, ny, nx, 0, 0, 0, index);
  auto v = toCompute(field[index]);
  for (int j = k; j < count; ++j) {
    if (same(j)) {
      v = withSource<T>(v, row[j]);
    }
  }
  field[index] = toElement<T>(v);
}

/// Launches addSources for step `step` (from 0) on `stream`, after the
/// step's launch; nothing without sources.
template <int Dims, class T>
cudaError_t injectSources(T *field, const SourceList &sources, int step, int nz, int ny, int nx,
                          cudaStream_t stream) {
  if (sources.count == 0) {
    return cudaSuccess;
  }
  constexpr int kThreads = 128;
  addSources<Dims, T><<<(sources.count + kThreads - 1) / kThreads, kThreads, 0, stream>>>(
      field, sources.points, sources.count,
      sources.amplitudes + static_cast<std::size_t>(step) * static_cast<std::size_t>(sources.count),
      nz, ny, nx);
  return cudaGetLastError();
}

/// Whether memory of this type is one a kernel may read: device, managed
/// or pinned host memory, not pageable host memory.
inline bool kernelReadable(const cudaPointerAttributes &attributes) {
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged ||
         attributes.type == cudaMemoryTypeHost;
}

/// NAME_run's check of its sources before anything is launched:
/// cudaErrorInvalidValue for a negative count, null pointers beside a
/// positive count, points or amplitudes in pageable host memory (the
/// kernels read both), or a point that is not one a step writes (outside
/// the grid, or on the ring of boundary fixed: ringZ, ringY, ringX points at
/// each edge). The host reads every point: in device or managed memory it
/// first copies them, after the work already on stream (a synchronisation,
/// once a call), so that a bad point is refused, never silently dropped.
template <int Dims>
cudaError_t checkSources(const SourceList &sources, int nz, int ny, int nx, int ringZ, int ringY,
                         int ringX, cudaStream_t stream) {
  const int count = sources.count;
  if (count < 0 || (count > 0 && (sources.points == nullptr || sources.amplitudes == nullptr))) {
    return cudaErrorInvalidValue;
  }
  if (count == 0) {
    return cudaSuccess;
  }
  cudaPointerAttributes points, amplitudes;
  cudaError_t status = cudaPointerGetAttributes(&points, sources.points);
  if (status == cudaSuccess) {
    status = cudaPointerGetAttributes(&amplitudes, sources.amplitudes);
  }
  if (status != cudaSuccess) {
    return status;
  }
  if (!kernelReadable(points) || !kernelReadable(amplitudes)) {
    return cudaErrorInvalidValue;
  }
  std::vector<int> copy;
  const int *host = sources.points;
  if (points.type != cudaMemoryTypeHost) {
    status = copyToHostAfter(sources.points,
                             static_cast<std::size_t>(Dims) * static_cast<std::size_t>(count),
                             stream, copy);
    if (status != cudaSuccess) {
      return status;
    }
    host = copy.data();
  }
  return everyPointWritten<Dims>(host, count, nz, ny, nx, ringZ, ringY, ringX)
             ? cudaSuccess
             : cudaErrorInvalidValue;
}

} // namespace device
} // namespace stencilc
