// stencilc/device/mbarrier.cuh - a block's mbarriers (sm_90 on): the wait on
// a phase that the tensor memory accelerator's copies (tensor_map.cuh) and
// the fused 3D passes' split barrier (fused3d.cuh) share, and the plain
// init and arrival of the latter.
//
// C++17, no dependencies. Below sm_90 the functions compile to nothing: their
// callers use them only where the plan runs on sm_90 or later.
#pragma once

namespace stencilc {
namespace device {

/// Initialises the mbarrier at shared address `barrier` for Count
/// arrivals a phase; visible to the block once it has synchronised.
template <unsigned Count> __device__ __forceinline__ void initBarrier(unsigned barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(barrier), "n"(Count) : "memory");
#endif
}

/// This thread's arrival on the mbarrier at `barrier` (release: what it
/// wrote before is seen by a thread that waits on the phase).
__device__ __forceinline__ void arriveBarrier(unsigned barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(barrier) : "memory");
#endif
}

/// Waits until the phase of `barrier` of parity `parity` has completed
/// (acquire).
__device__ __forceinline__ void awaitBarrier(unsigned barrier, unsigned parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned done = 0;
  do {
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;"
                 " selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(barrier), "r"(parity)
                 : "memory");
  } while (done == 0);
#endif
}

} // namespace device
} // namespace stencilc
