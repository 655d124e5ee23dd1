// stencilc/device/tensor_map.cuh - windows of a 2D grid copied by Hopper's
// tensor memory accelerator (TMA): the host's tensor map of the grid, and a
// block's copy of one box of it into shared memory, complete on an
// mbarrier.
//
// C++17. One thread of a block issues a window's copy (a single
// cp.async.bulk.tensor) where cp.async takes a 16-byte copy and its address
// arithmetic from every thread, and the box's points outside the grid arrive
// as zeros: a fixed grid's reads. A prototype of the stacked form's
// composed step ran 1.15 x faster so on an H200 (docs/performance.md,
// 2026-12-04 about 21:40).
// The device functions exist from sm_90 on; the encoder is the driver's
// (cuTensorMapEncodeTiled), found at run time so that nothing links
// against libcuda.
#pragma once

#include <cstdint>

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include "stencilc/device/mbarrier.cuh"

namespace stencilc {
namespace device {

/// The driver's cuTensorMapEncodeTiled, or null where it has none.
inline PFN_cuTensorMapEncodeTiled_v12000 tensorMapEncoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encoder = [] {
    void *function = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    const cudaError_t status = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function,
                                                                12000, cudaEnableDefault, &found);
#else
    const cudaError_t status =
        cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &function, cudaEnableDefault, &found);
#endif
    return status == cudaSuccess && found == cudaDriverEntryPointSuccess
               ? reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function)
               : nullptr;
  }();
  return encoder;
}

/// A tensor map of the ny x nx grid of 16-bit elements at `base` (rows nx
/// apart) whose boxes are boxRows x boxCols, points outside the grid read
/// as zeros, an L2 miss of its reads fetching `promotion` bytes around it
/// (0: only its 32-byte sectors; 128 or 256). False, `map` unusable, where
/// the accelerator cannot take the grid: a base not 16-byte aligned, rows
/// not a whole number of 16-byte vectors apart, a box side past 256, or a
/// driver without the encoder; or where `promotion` is none of those.
inline bool windowMap(CUtensorMap &map, const void *base, int ny, int nx, int boxRows, int boxCols,
                      int promotion) {
  const PFN_cuTensorMapEncodeTiled_v12000 encode = tensorMapEncoder();
  if (encode == nullptr || reinterpret_cast<std::uintptr_t>(base) % 16 != 0 || nx % 8 != 0 ||
      ny < 1 || nx < 1 || boxRows > 256 || boxCols > 256 ||
      (promotion != 0 && promotion != 128 && promotion != 256)) {
    return false;
  }
  const CUtensorMapL2promotion l2 = promotion == 256   ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                                    : promotion == 128 ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B
                                                       : CU_TENSOR_MAP_L2_PROMOTION_NONE;
  const cuuint64_t extents[2] = {static_cast<cuuint64_t>(nx), static_cast<cuuint64_t>(ny)};
  const cuuint64_t rowBytes[1] = {static_cast<cuuint64_t>(nx) * 2};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(boxCols), static_cast<cuuint32_t>(boxRows)};
  const cuuint32_t unit[2] = {1, 1};
  // (As 16-bit integers: the copy moves bits; fp16 and bf16 alike.)
  return encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, const_cast<void *>(base), extents,
                rowBytes, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, l2,
                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/// The mbarrier at shared address `barrier`, for one arrival a phase (the
/// thread that issues a copy); visible to the accelerator once the block
/// has synchronised.
__device__ __forceinline__ void initCopyBarrier(unsigned barrier) {
  initBarrier<1>(barrier);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

/// Copies the box of `map` whose first point is (row, col) (either may be
/// negative, or the box reach past the grid: zeros there; col a multiple of
/// 8, the box's rows starting on 16-byte boundaries: one 8 bytes off
/// stopped the kernel with an illegal instruction on an H100) to shared
/// address `to` (128-byte aligned), `bytes` in all, complete on `barrier`'s
/// current phase. One thread of the block calls it.
__device__ __forceinline__ void copyBox(const CUtensorMap *map, unsigned to, int row, int col,
                                        unsigned barrier, unsigned bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];" ::"r"(to),
               "l"(map), "r"(col), "r"(row), "r"(barrier)
               : "memory");
#endif
}

/// Waits until the phase of `barrier` of parity `parity` has completed.
__device__ __forceinline__ void awaitCopy(unsigned barrier, unsigned parity) {
  awaitBarrier(barrier, parity);
}

} // namespace device
} // namespace stencilc
