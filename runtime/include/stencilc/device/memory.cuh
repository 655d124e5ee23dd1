// stencilc/device/memory.cuh - 16-byte moves between global and shared
// memory, as the generated kernels of every backend issue them.
//
// C++17 device code with no dependence on a stencil. The L2 prefetch size
// (--plan-option l2-prefetch) is a template argument: 0 gives the plain
// read-only load or copy; 64, 128 or 256 add the PTX hint that asks the L2
// to fetch that many bytes around the access from memory. The hints and
// cp.async exist from sm_80 on; older architectures compile to an ordinary
// load (and store) instead.
#pragma once

#include <cuda_runtime.h>

namespace stencilc {
namespace device {

/// Whether `bytes` is an L2 prefetch size the PTX hints take (0: none).
__host__ __device__ constexpr bool isPrefetchSize(int bytes) {
  return bytes == 0 || bytes == 64 || bytes == 128 || bytes == 256;
}

/// The 16 bytes at `src` (16-byte aligned, in global memory) through the
/// read-only data path, with an L2 prefetch of PrefetchBytes (0: none).
template <int PrefetchBytes> __device__ __forceinline__ uint4 loadVector(const void *src) {
  static_assert(isPrefetchSize(PrefetchBytes), "the L2 prefetches 64, 128 or 256 bytes");
#if __CUDA_ARCH__ >= 800
  if constexpr (PrefetchBytes != 0) {
    uint4 v;
    if constexpr (PrefetchBytes == 64) {
      asm("ld.global.nc.L2::64B.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
          : "l"(src));
    } else if constexpr (PrefetchBytes == 128) {
      asm("ld.global.nc.L2::128B.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
          : "l"(src));
    } else {
      asm("ld.global.nc.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
          : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
          : "l"(src));
    }
    return v;
  }
#endif
  return __ldg(reinterpret_cast<const uint4 *>(src));
}

/// Asks the L2 to fetch the line holding `src` (global memory) from memory,
/// without waiting for it or reading it (prefetch.global.L2).
__device__ __forceinline__ void prefetchL2(const void *src) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"(src));
}

/// Stores `bits` at `dst` (16-byte aligned, in global memory) as one
/// st.global.v4. Written in PTX on purpose: a plain store of a packed vector
/// beside an element-wise path to the same place may be split by the
/// compiler into element stores.
__device__ __forceinline__ void storeVector(void *dst, uint4 bits) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(dst), "r"(bits.x), "r"(bits.y),
               "r"(bits.z), "r"(bits.w)
               : "memory");
}

/// Starts copying the 16 bytes at `src` (global) to `dst` (shared), both
/// 16-byte aligned, without waiting for them (cp.async.cg, with an L2
/// prefetch of PrefetchBytes). Before sm_80: an ordinary load and store.
template <int PrefetchBytes> __device__ __forceinline__ void copyAsync(void *dst, const void *src) {
  static_assert(isPrefetchSize(PrefetchBytes), "the L2 prefetches 64, 128 or 256 bytes");
#if __CUDA_ARCH__ >= 800
  const unsigned shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (PrefetchBytes == 0) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared), "l"(src) : "memory");
  } else if constexpr (PrefetchBytes == 64) {
    asm volatile("cp.async.cg.shared.global.L2::64B [%0], [%1], 16;" ::"r"(shared), "l"(src)
                 : "memory");
  } else if constexpr (PrefetchBytes == 128) {
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(shared), "l"(src)
                 : "memory");
  } else {
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;" ::"r"(shared), "l"(src)
                 : "memory");
  }
#else
  *reinterpret_cast<uint4 *>(dst) = __ldg(reinterpret_cast<const uint4 *>(src));
#endif
}

/// Closes this thread's group of the copies started so far (cp.async).
__device__ __forceinline__ void commitCopies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

/// Waits until at most `Pending` of this thread's committed groups are still
/// in flight; the copies of the others have landed in shared memory (for
/// this thread: other threads' copies need a barrier besides).
template <int Pending> __device__ __forceinline__ void waitCopies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
#endif
}

} // namespace device
} // namespace stencilc
