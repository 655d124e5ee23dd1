// stencilc/device/receivers.cuh - the receivers of a stencil of fields that
// records them (`record u;`): NAME_run gathers the stepped field's value at
// each receiver point into that step's row of the records after each step's
// launch, one small kernel on the same stream (docs/generated-code.md,
// "Stencils of fields").
#pragma once

#include <cstddef>

#include <cuda_runtime.h>

namespace stencilc {
namespace device {

/// A quiet NaN of the element type: the record of an invalid receiver
/// (receiverIndex), whose points the host could not read to refuse it.
template <class T> __device__ inline T receiverInvalidValue() {
  return static_cast<T>(__int_as_float(0x7fc00000));
}

/// Whether coordinate v of an axis of n points is one a step writes: off
/// the ring of `ring` points at each edge that boundary fixed keeps (0 for
/// other boundaries), and so on the grid.
__host__ __device__ inline bool receiverAxisWritten(int v, int n, int ring) {
  return v >= ring && v < n - ring;
}

/// Whether point `p` (Dims ints, in index order: (z,) (y,) x) is a valid
/// receiver of the nz x ny x nx grid, and its linear index if it is. Valid
/// means a point a step writes: one outside the grid is not, nor one on the
/// ring of boundary fixed (ringZ, ringY, ringX points at each edge of each
/// axis), whose records would only repeat the kept value; such a point is
/// most likely off by the ring (issue 36).
template <int Dims>
__host__ __device__ inline bool receiverIndex(const int *p, int nz, int ny, int nx, int ringZ,
                                              int ringY, int ringX, std::size_t &index) {
  const int z = Dims == 3 ? p[0] : 0;
  const int y = Dims >= 2 ? p[Dims - 2] : 0;
  const int x = p[Dims - 1];
  if (!receiverAxisWritten(z, nz, ringZ) || !receiverAxisWritten(y, ny, ringY) ||
      !receiverAxisWritten(x, nx, ringX)) {
    return false;
  }
  index =
      (static_cast<std::size_t>(z) * static_cast<std::size_t>(ny) + static_cast<std::size_t>(y)) *
          static_cast<std::size_t>(nx) +
      static_cast<std::size_t>(x);
  return true;
}

/// Whether each of the `count` points at `points` (host-readable, Dims ints
/// each) is one a step writes (receiverIndex): what the host checks of a
/// list of points it can read before anything is launched.
template <int Dims>
inline bool everyPointWritten(const int *points, int count, int nz, int ny, int nx, int ringZ,
                              int ringY, int ringX) {
  for (int k = 0; k < count; ++k) {
    std::size_t index = 0;
    if (!receiverIndex<Dims>(points + static_cast<std::size_t>(Dims) * k, nz, ny, nx, ringZ, ringY,
                             ringX, index)) {
      return false;
    }
  }
  return true;
}

/// row[k] = field at receiver k, a thread a receiver. An invalid point
/// (outside the grid, or on the fixed ring) reads nothing and records NaN,
/// so device-memory points the host never saw cannot make it read out of
/// bounds, and a point on the ring shows in the records as one outside.
template <int Dims, class T>
__global__ void gatherReceivers(const T *__restrict__ field, const int *__restrict__ points,
                                int count, T *__restrict__ row, int nz, int ny, int nx, int ringZ,
                                int ringY, int ringX) {
  const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (k >= count) {
    return;
  }
  std::size_t index = 0;
  row[k] = receiverIndex<Dims>(points + static_cast<std::size_t>(Dims) * k, nz, ny, nx, ringZ,
                               ringY, ringX, index)
               ? field[index]
               : receiverInvalidValue<T>();
}

/// Launches gatherReceivers on `stream` after the work already there (the
/// step that wrote `field`); nothing for no receivers. ringZ, ringY, ringX:
/// the ring of boundary fixed per axis (0 for other boundaries).
template <int Dims, class T>
cudaError_t recordReceivers(const T *field, const int *points, int count, T *row, int nz, int ny,
                            int nx, int ringZ, int ringY, int ringX, cudaStream_t stream) {
  if (count == 0) {
    return cudaSuccess;
  }
  constexpr int kThreads = 128;
  gatherReceivers<Dims, T><<<(count + kThreads - 1) / kThreads, kThreads, 0, stream>>>(
      field, points, count, row, nz, ny, nx, ringZ, ringY, ringX);
  return cudaGetLastError();
}

/// NAME_run's check of its receivers before anything is launched.
/// cudaErrorInvalidValue for a negative count, null pointers beside a
/// positive count, or points in pageable host memory (the gather kernel
/// could not read them); where the host can read the points (managed or
/// pinned host memory) also for an invalid point (receiverIndex: outside
/// the grid, or on the ring of boundary fixed, ringZ, ringY, ringX points
/// at each edge). Points in device memory are checked by the gather kernel
/// instead (a NaN record), so the call stays free of synchronisation.
template <int Dims>
cudaError_t checkReceivers(const int *points, int count, const void *records, int nz, int ny,
                           int nx, int ringZ, int ringY, int ringX) {
  if (count < 0 || (count > 0 && (points == nullptr || records == nullptr))) {
    return cudaErrorInvalidValue;
  }
  if (count == 0) {
    return cudaSuccess;
  }
  cudaPointerAttributes attributes;
  cudaError_t status = cudaPointerGetAttributes(&attributes, points);
  if (status != cudaSuccess) {
    return status;
  }
  if (attributes.type == cudaMemoryTypeDevice) {
    return cudaSuccess;
  }
  if (attributes.type != cudaMemoryTypeManaged && attributes.type != cudaMemoryTypeHost) {
    return cudaErrorInvalidValue;
  }
  return everyPointWritten<Dims>(points, count, nz, ny, nx, ringZ, ringY, ringX)
             ? cudaSuccess
             : cudaErrorInvalidValue;
}

} // namespace device
} // namespace stencilc
