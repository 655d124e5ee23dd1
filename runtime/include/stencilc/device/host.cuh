// stencilc/device/host.cuh - the host-side checks every generated entry
// point (NAME_step, NAME_run, NAME_pass, NAME_pass_range) makes before it
// launches anything, the occupancy query of the persistent launches, and
// what the fused passes' launches share (withLevels, allowDynamicShared).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

namespace stencilc {
namespace device {

/// Whether the byte ranges [a, a + bytes) and [b, b + bytes) share a byte:
/// an output that overlaps an input (`out = in + 1`, not only `out == in`)
/// would be read after it is written by the kernels' __restrict__ pointers.
inline bool overlaps(const void *a, const void *b, std::size_t bytes) {
  const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(a);
  const std::uintptr_t q = reinterpret_cast<std::uintptr_t>(b);
  return p < q + bytes && q < p + bytes;
}

/// Whether the outermost indices [first, first + count) of NAME_pass_range
/// are not empty and lie inside [0, n).
inline bool validRange(int first, int count, int n) {
  return first >= 0 && count >= 1 && first <= n - count;
}

/// Copies the `count` values at `src` (device or managed memory) into
/// `copy` on the host, after the work already on `stream`: the call waits
/// for that work (a synchronisation). For what NAME_run reads on the host
/// before it launches: per-step values, source points.
template <class T>
cudaError_t copyToHostAfter(const T *src, std::size_t count, cudaStream_t stream,
                            std::vector<T> &copy) {
  copy.resize(count);
  cudaError_t status =
      cudaMemcpyAsync(copy.data(), src, count * sizeof(T), cudaMemcpyDeviceToHost, stream);
  return status == cudaSuccess ? cudaStreamSynchronize(stream) : status;
}

/// How many blocks of `kernel` (`threads` threads and `dynamicShared` bytes
/// of dynamic shared memory each) fit on the current device at once, at
/// least one a multiprocessor: the grid of a persistent launch. A kernel
/// that asks for more than the default 48 KB of dynamic shared memory is
/// allowed it first, as its launch needs.
template <class Kernel>
cudaError_t residentBlocks(Kernel kernel, int threads, int dynamicShared, long long &resident) {
  int device = 0, multiprocessors = 0, perMultiprocessor = 0;
  cudaError_t status = cudaGetDevice(&device);
  if (status == cudaSuccess) {
    status = cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
  }
  if (status == cudaSuccess && dynamicShared > 0) {
    status =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dynamicShared);
  }
  if (status == cudaSuccess) {
    status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perMultiprocessor, kernel, threads,
                                                           dynamicShared);
  }
  if (status == cudaSuccess) {
    resident =
        static_cast<long long>(multiprocessors) * (perMultiprocessor > 0 ? perMultiprocessor : 1);
  }
  return status;
}

/// Calls `launch(std::integral_constant<int, L>{})` for the L of 1 .. Most
/// equal to `levels`: a pass of a step count known at run time launches
/// the kernel compiled for it. cudaErrorInvalidValue, and nothing called,
/// for levels out of that range.
template <int Most, class Launch> inline cudaError_t withLevels(int levels, Launch launch) {
  if constexpr (Most < 1) {
    return cudaErrorInvalidValue;
  } else {
    return levels == Most ? launch(std::integral_constant<int, Most>{})
                          : withLevels<Most - 1>(levels, launch);
  }
}

/// Lets `kernel` take `bytes` of dynamic shared memory where they pass the
/// 48 KB a block has without opting in (on the current device: call it
/// before every launch, since the stream may be another device's);
/// cudaSuccess where they do not.
template <class Kernel> inline cudaError_t allowDynamicShared(Kernel kernel, int bytes) {
  return bytes > 48 * 1024
             ? cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)
             : cudaSuccess;
}

/// The most shared memory a block may opt in to on the current device (0
/// where the device cannot be asked: then nothing that needs a choice
/// by it is taken).
inline int sharedOptIn() {
  int device = 0, bytes = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
          cudaSuccess) {
    return 0;
  }
  return bytes;
}

} // namespace device
} // namespace stencilc
