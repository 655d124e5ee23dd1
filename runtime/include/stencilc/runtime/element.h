// element.h - the element types of each precision and conversions to and
// from double, usable in host and device code.
//
// Storage types: fp16 -> __half, bf16 -> __nv_bfloat16, tf32 and fp32 ->
// float, fp64 -> double. Conversions from double round once, to nearest
// (no double rounding through float for the 16-bit types).
#pragma once

#include <cstddef>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "stencilc/runtime/stencil_info.h"

#if defined(__CUDACC__)
#define STENCILC_HD __host__ __device__ __forceinline__
#else
#define STENCILC_HD inline
#endif

namespace stencilc {

/// Rounds a double to element type T.
template <class T> STENCILC_HD T fromDouble(double v);
template <> STENCILC_HD double fromDouble<double>(double v) { return v; }
template <> STENCILC_HD float fromDouble<float>(double v) { return static_cast<float>(v); }
template <> STENCILC_HD __half fromDouble<__half>(double v) { return __double2half(v); }
template <> STENCILC_HD __nv_bfloat16 fromDouble<__nv_bfloat16>(double v) {
  return __double2bfloat16(v);
}

/// The exact value of an element as a double.
STENCILC_HD double toDouble(double v) { return v; }
STENCILC_HD double toDouble(float v) { return v; }
STENCILC_HD double toDouble(__half v) { return __half2float(v); }
STENCILC_HD double toDouble(__nv_bfloat16 v) { return __bfloat162float(v); }

/// The type in which a CUDA-core kernel accumulates T: float for the
/// 16-bit types and float, double for double.
template <class T>
using AccumulatorOf = std::conditional_t<std::is_same_v<T, double>, double, float>;

/// An element as its accumulator type.
STENCILC_HD float toAccumulator(__half v) { return __half2float(v); }
STENCILC_HD float toAccumulator(__nv_bfloat16 v) { return __bfloat162float(v); }
STENCILC_HD float toAccumulator(float v) { return v; }
STENCILC_HD double toAccumulator(double v) { return v; }

/// Rounds an accumulator value to the storage type.
template <class T> STENCILC_HD T fromAccumulator(AccumulatorOf<T> v);
template <> STENCILC_HD double fromAccumulator<double>(double v) { return v; }
template <> STENCILC_HD float fromAccumulator<float>(float v) { return v; }
template <> STENCILC_HD __half fromAccumulator<__half>(float v) { return __float2half_rn(v); }
template <> STENCILC_HD __nv_bfloat16 fromAccumulator<__nv_bfloat16>(float v) {
  return __float2bfloat16_rn(v);
}

/// True when T is the storage type of precision p.
template <class T> constexpr bool storesPrecision(stencilc_precision p) {
  switch (p) {
  case STENCILC_FP16:
    return std::is_same_v<T, __half>;
  case STENCILC_BF16:
    return std::is_same_v<T, __nv_bfloat16>;
  case STENCILC_TF32:
  case STENCILC_FP32:
    return std::is_same_v<T, float>;
  case STENCILC_FP64:
    return std::is_same_v<T, double>;
  }
  return false;
}

/// Bytes of one element of precision p in memory.
std::size_t elementBytes(stencilc_precision p);
/// "fp16", "bf16", "tf32", "fp32" or "fp64".
const char *precisionName(stencilc_precision p);
/// "fixed", "constant" or "periodic".
const char *boundaryName(stencilc_boundary b);
/// "star" or "box".
const char *shapeName(stencilc_shape s);
/// "tensor" or "simt".
const char *backendName(stencilc_backend b);

/// The relative L2 error one step may have (docs/generated-code.md): fp64 1e-12,
/// fp32 2e-6, tf32 5e-3, fp16 5e-3, bf16 3e-2.
double tolerance(stencilc_precision p);

/// The relative L2 error one step of `info` may have: tolerance(precision),
/// or, where larger, the worst case of its sum of num_points products
/// accumulated in float (double for fp64), (num_points + 1) * 2^-24 (2^-53).
/// That worst case is reached where every point reads the same value, as on
/// a 1x1x1 periodic or clamp grid: fp32 box3d125p, 7.5e-6 against 2e-6
/// (docs/generated-code.md, "Tolerance").
double tolerance(const stencilc_stencil_info &info);

} // namespace stencilc
