// stencilc/device/dependent.cuh - a kernel launched as a programmatic
// dependent of the kernel before it on the stream (Hopper's programmatic
// dependent launch): the band of a CUDA-core fused pass (fused_band.cuh)
// starts while the pass kernel's last blocks still run, makes its loads and
// levels from the pass's input, and waits for the pass kernel to finish
// only before it stores, since it overwrites points the pass kernel stored
// (docs/design.md, "The band").
//
// Before sm_90 the launch is an ordinary one (the attribute left off) and
// the two device calls compile to nothing.
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

} // namespace device
} // namespace stencilc
