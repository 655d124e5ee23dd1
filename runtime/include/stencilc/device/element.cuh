// stencilc/device/element.cuh - the element types of a grid and the
// arithmetic on them: fp16 (__half), bf16 (__nv_bfloat16), fp32 and tf32
// (float in memory) and fp64 (double).
//
// A kernel widens each element it reads to its arithmetic type (float, or
// double for fp64), which is exact, accumulates with fused multiply-adds
// rounded once each (what stencilc's plan emulator models), and rounds the
// result to the element type once, to nearest even, when it stores it.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

namespace stencilc {
namespace device {

/// An element widened to the arithmetic type (exact).
__device__ __forceinline__ float toCompute(__half value) { return __half2float(value); }
__device__ __forceinline__ float toCompute(__nv_bfloat16 value) { return __bfloat162float(value); }
__device__ __forceinline__ float toCompute(float value) { return value; }
__device__ __forceinline__ double toCompute(double value) { return value; }

/// A result rounded to the element type, as stored: toElement<Element>(v),
/// v a float (fp16, bf16, fp32, tf32) or a double (fp64).
template <class Element, class Compute>
__device__ __forceinline__ Element toElement(Compute value) {
  if constexpr (std::is_same_v<Element, __half>) {
    static_assert(std::is_same_v<Compute, float>, "fp16 results are floats");
    return __float2half_rn(value);
  } else if constexpr (std::is_same_v<Element, __nv_bfloat16>) {
    static_assert(std::is_same_v<Compute, float>, "bf16 results are floats");
    return __float2bfloat16_rn(value);
  } else {
    static_assert(std::is_same_v<Element, Compute>, "fp32, tf32 and fp64 results are stored as is");
    return value;
  }
}

/// c * v + acc, rounded once.
__device__ __forceinline__ float madd(float c, float v, float acc) { return __fmaf_rn(c, v, acc); }
__device__ __forceinline__ double madd(double c, double v, double acc) {
  return __fma_rn(c, v, acc);
}

/// c * v, rounded once: a product the compiler may not fuse into a later
/// addition (the first tap of a low-rank row pass, as the emulator models it).
__device__ __forceinline__ float mul(float c, float v) { return __fmul_rn(c, v); }
__device__ __forceinline__ double mul(double c, double v) { return __dmul_rn(c, v); }

/// a + b, rounded once: a sum the compiler may not fuse with a product
/// (the paired sums of a low-rank form, fused.cuh).
__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }

/// Whether a plan's Params (simt.cuh's Stencil, fused.cuh's FusedParams)
/// ask for the paired order of a low-rank form (kPairedSums;
/// docs/generated-code.md, "Paired sums"): false where absent.
template <class P, class = void> struct PairedSumsOf : std::false_type {};
template <class P>
struct PairedSumsOf<P, std::void_t<decltype(P::kPairedSums)>> : std::bool_constant<P::kPairedSums> {
};

/// Scaled coefficients (the planner's choice for fp64 stencils whose
/// coefficients are small integer multiples of one factor 1/D,
/// docs/generated-code.md): Traits::kScale is that factor, rounded once,
/// the terms' coefficients are the integers, which an fp64 FMA takes as
/// immediates, and a point is its sum times the factor, rounded once.
/// Traits without kScale take their sums as they are.
template <class Traits, class = void> struct ScaleOf : std::false_type {};
template <class Traits>
struct ScaleOf<Traits, std::void_t<decltype(Traits::kScale)>> : std::true_type {};

/// A finished sum of Traits' terms as the point's value: times kScale
/// where Traits has it (ScaleOf).
template <class Traits, class C> __device__ __forceinline__ C scaledSum(C sum) {
  if constexpr (ScaleOf<Traits>::value) {
    return mul(C(Traits::kScale), sum);
  } else {
    return sum;
  }
}

/// Element i of `at` (4-byte aligned) widened to fp32, read through its
/// 32-bit word: a bf16 is the high half of an fp32, so the low element is the
/// word shifted up and the high one the word masked (exact, as
/// __bfloat162float). With i a constant the halves fold, and reads of
/// neighbouring words merge into wide shared-memory loads, as fp16's 2-byte
/// reads do; element by element they do not.
__device__ __forceinline__ float readPair(const __nv_bfloat16 *__restrict__ at, int i) {
  const unsigned word = reinterpret_cast<const unsigned *>(at)[i >> 1];
  return __uint_as_float((i & 1) != 0 ? word & 0xFFFF0000u : word << 16);
}

/// Packed 16-bit arithmetic (--plan-option arith=packed): two fp16 or bf16
/// values in one 32-bit register, multiply-added by one __hfma2 (fp16 from
/// sm_53, bf16 from sm_80), each half rounded once to the element type, to
/// nearest even. A pair travels through fp32 code as the float of the same
/// bits (asFloat, asPair: no instruction). PackedTypes wraps each type's
/// intrinsics; Packed adds what is the same for both (a constant pair from
/// its bits).
template <class Element> struct PackedTypes;
template <> struct PackedTypes<__half> {
  using Pair = __half2;
  using Raw = __half2_raw;
  /// Two values of the element type given as floats (exact).
  static __device__ __forceinline__ Pair of(float lo, float hi) {
    return __floats2half2_rn(lo, hi);
  }
  static __device__ __forceinline__ float2 widen(Pair p) { return __half22float2(p); }
  /// Elements i and i + 1 of `at`.
  static __device__ __forceinline__ Pair read(const __half *__restrict__ at, int i) {
    return __halves2half2(at[i], at[i + 1]);
  }
  static __device__ __forceinline__ __half low(Pair p) { return __low2half(p); }
  static __device__ __forceinline__ __half high(Pair p) { return __high2half(p); }
};
template <> struct PackedTypes<__nv_bfloat16> {
  using Pair = __nv_bfloat162;
  using Raw = __nv_bfloat162_raw;
  static __device__ __forceinline__ Pair of(float lo, float hi) {
    return __floats2bfloat162_rn(lo, hi);
  }
  static __device__ __forceinline__ float2 widen(Pair p) { return __bfloat1622float2(p); }
  static __device__ __forceinline__ Pair read(const __nv_bfloat16 *__restrict__ at, int i) {
    return __halves2bfloat162(at[i], at[i + 1]);
  }
  static __device__ __forceinline__ __nv_bfloat16 low(Pair p) { return __low2bfloat16(p); }
  static __device__ __forceinline__ __nv_bfloat16 high(Pair p) { return __high2bfloat16(p); }
};
template <class Element> struct Packed : PackedTypes<Element> {
  using Pair = typename PackedTypes<Element>::Pair;
  /// The pair (c, c) of the element of bit pattern `bits`, a constant.
  static __device__ __forceinline__ Pair both(unsigned short bits) {
    typename PackedTypes<Element>::Raw raw;
    raw.x = bits;
    raw.y = bits;
    return Pair(raw);
  }
};

/// A pair's bits as a float, and back.
template <class Pair> __device__ __forceinline__ float asFloat(Pair p) {
  return __uint_as_float(*reinterpret_cast<const unsigned *>(&p));
}
template <class Element>
__device__ __forceinline__ typename Packed<Element>::Pair asPair(float bits) {
  const unsigned word = __float_as_uint(bits);
  return *reinterpret_cast<const typename Packed<Element>::Pair *>(&word);
}

} // namespace device
} // namespace stencilc
