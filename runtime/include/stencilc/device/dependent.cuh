// stencilc/device/dependent.cuh - a band that runs beside the kernel of its
// pass instead of after it, in one of two ways:
// - a second stream (Beside): a composed pass's band (composed.cuh), whose
//   composed step stores none of its points, forked before that step and
//   joined back before the next pass;
// - a programmatic dependent launch (Hopper's): the band of a CUDA-core
//   fused pass (fused_band.cuh) starts while the pass kernel's last blocks
//   still run, makes its loads and levels from the pass's input, and waits
//   for the pass kernel to finish only before it stores, since it
//   overwrites points the pass kernel stored.
// (docs/design.md, "The band beside the composed step" and "The band starts
// beside the pass kernel's last blocks".) Before sm_90 a dependent launch
// is an ordinary one (the attribute left off) and the two device calls
// compile to nothing.
#pragma once

#include <cuda_runtime.h>

namespace stencilc {
namespace device {

/// In a kernel others may depend on: lets them launch once every block of
/// this one has called it (or exited). Called as a block starts, so that
/// the dependents' blocks take the multiprocessors the last wave leaves.
__device__ __forceinline__ void letDependentsLaunch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}

/// In a dependent kernel: waits until the kernel it depends on has
/// finished and its stores are visible; at once where it was launched
/// without the dependency.
__device__ __forceinline__ void waitForPrimary() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Whether the current device takes programmatic dependent launches
/// (compute capability 9.0 on): elsewhere the attribute is left off rather
/// than trusted to be ignored.
inline bool dependentLaunches() {
  int device = 0, major = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
         major >= 9;
}

/// Launches `kernel` on `stream` with `args`, as a programmatic dependent
/// of the kernel before it where `dependent` and the device takes it, else
/// as any launch.
template <class... Params, class... Args>
cudaError_t launchDependent(void (*kernel)(Params...), dim3 grid, dim3 block, int sharedBytes,
                            cudaStream_t stream, bool dependent, Args... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = static_cast<size_t>(sharedBytes);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = dependent && dependentLaunches() ? 1 : 0;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}

/// A second stream beside the caller's `stream` for the length of one call
/// (NAME_run of a composed plan), made on first use: `fork` enqueues work on it
/// that waits for everything already on `stream`, `join` makes `stream`
/// wait for that work. Work forked first runs beside what follows on
/// `stream` (a composed pass's band beside its composed step: both read
/// the same input and write disjoint points). Made per call, not cached,
/// so that no handle outlives a cudaDeviceReset; destroying the stream and
/// events with work still queued is legal (released when it completes).
class Beside {
public:
  explicit Beside(cudaStream_t stream) : stream_(stream) {}
  Beside(const Beside &) = delete;
  Beside &operator=(const Beside &) = delete;
  ~Beside() { release(); }

  /// Enqueues `launch(side)` on the side stream after the work on `stream`.
  template <class Launch> cudaError_t fork(Launch launch) {
    cudaError_t status = side_ != nullptr ? cudaSuccess : make();
    if (status == cudaSuccess) {
      status = cudaEventRecord(fork_, stream_);
    }
    if (status == cudaSuccess) {
      status = cudaStreamWaitEvent(side_, fork_, 0);
    }
    return status == cudaSuccess ? launch(side_) : status;
  }

  /// Makes `stream` wait for the work forked so far.
  cudaError_t join() {
    cudaError_t status = cudaEventRecord(join_, side_);
    return status == cudaSuccess ? cudaStreamWaitEvent(stream_, join_, 0) : status;
  }

private:
  /// The side stream, at the device's greatest priority so that the
  /// forked work's blocks are placed before those launched after it, and
  /// its events; on failure none.
  cudaError_t make() {
    int least = 0, greatest = 0;
    cudaError_t status = cudaDeviceGetStreamPriorityRange(&least, &greatest);
    if (status == cudaSuccess) {
      status = cudaEventCreateWithFlags(&fork_, cudaEventDisableTiming);
    }
    if (status == cudaSuccess) {
      status = cudaEventCreateWithFlags(&join_, cudaEventDisableTiming);
    }
    if (status == cudaSuccess) {
      status = cudaStreamCreateWithPriority(&side_, cudaStreamNonBlocking, greatest);
    }
    if (status != cudaSuccess) {
      release();
    }
    return status;
  }

  void release() {
    if (side_ != nullptr) {
      cudaStreamDestroy(side_);
    }
    if (fork_ != nullptr) {
      cudaEventDestroy(fork_);
    }
    if (join_ != nullptr) {
      cudaEventDestroy(join_);
    }
    side_ = nullptr;
    fork_ = join_ = nullptr;
  }

  cudaStream_t stream_;
  cudaStream_t side_ = nullptr;
  cudaEvent_t fork_ = nullptr, join_ = nullptr;
};

} // namespace device
} // namespace stencilc
