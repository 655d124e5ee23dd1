// stencilc/device/mma.cuh - the warp-wide matrix multiply-accumulates
// (mma.sync) that the tensor-core kernels are built from, one type per
// shape and operand precision, with their fragment loads and stores.
//
// C++17 device code with no dependence on a stencil. Each shape type has
//   kM, kN, kK                 the MMA's shape: C (kM x kN) += A (kM x kK) B (kK x kN)
//   Element, Accumulator       operand type in memory, accumulator type
//   FragmentA, FragmentB,      what one lane holds of each matrix (FragmentC
//   FragmentC                  starts at zero)
//   loadA(p, ld, lane)         A from the row-major matrix at p, rows ld apart
//   loadB(p, ld, lane)         B from the row-major (k, n) matrix at p
//   mma(c, a, b)               c += a * b
// Lane 4g + t of the warp holds the elements the PTX ISA assigns it
// ("matrix fragments for mma.m16n8k16" and its siblings); each type's
// comment repeats the assignment.
//
//   MmaM16N8K16<__half>, MmaM16N8K16<__nv_bfloat16>   fp32 accumulators, sm_80
//   MmaM16N8K8<__half>, MmaM16N8K8<__nv_bfloat16>     fp32 accumulators, sm_80 (no loads)
//   MmaM16N8K8Tf32                                     tf32 in float, fp32 accumulators, sm_80
//   MmaM16N8K4F64                                      fp64, sm_90
//   MmaM8N8K4F64                                       fp64, sm_80
//
// MmaM16N8K16 also packs two accumulators into an element pair (packPair)
// and stores a 16 x 16 tile as 16-byte row vectors (storeRows16);
// roundToTf32 rounds a float as the tf32 MMA reads it, and storeTwo stores
// two accumulators as one access.
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <stencilc/device/element.cuh>

namespace stencilc {
namespace device {

/// Two consecutive elements of a row (p is 4-byte aligned) as one word.
template <class Element> __device__ __forceinline__ std::uint32_t pairAt(const Element *p) {
  return *reinterpret_cast<const std::uint32_t *>(p);
}

/// x rounded to tf32, to nearest with ties away from zero, as the MMA reads it.
__device__ __forceinline__ float roundToTf32(float x) {
  std::uint32_t bits;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
  return __uint_as_float(bits);
}

/// The fragments of the m16n8 shapes with 32-bit operand registers (a pair
/// of 16-bit elements, or one tf32) and fp32 accumulators.
struct M16N8Fragments32 {
  struct FragmentA {
    std::uint32_t x[4];
  };
  struct FragmentB {
    std::uint32_t x[2];
  };
  struct FragmentC {
    float x[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  };
};

/// mma.sync m16n8k16 with 16-bit operands (Element __half or __nv_bfloat16)
/// and fp32 accumulators. Lane 4g + t holds:
///   A (16 x 16): pairs (g, 2t..2t+1), (g+8, 2t..2t+1), (g, 2t+8..2t+9), (g+8, 2t+8..2t+9)
///   B (16 x 8):  pairs (k 2t..2t+1, n g), (k 2t+8..2t+9, n g)
///   C (16 x 8):  (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)
template <class ElementType> struct MmaM16N8K16 : M16N8Fragments32 {
  static_assert(std::is_same_v<ElementType, __half> || std::is_same_v<ElementType, __nv_bfloat16>,
                "m16n8k16 takes fp16 or bf16 operands");
  using Element = ElementType;
  using Accumulator = float;
  static constexpr int kM = 16, kN = 8, kK = 16;

  /// A: rows [0, 16) x columns [0, 16) of the matrix at p, rows ld apart.
  static __device__ __forceinline__ FragmentA loadA(const Element *p, int ld, int lane) {
    const int g = lane / 4, t = lane % 4;
    return {{pairAt(p + g * ld + 2 * t), pairAt(p + (g + 8) * ld + 2 * t),
             pairAt(p + g * ld + 2 * t + 8), pairAt(p + (g + 8) * ld + 2 * t + 8)}};
  }

  /// B: rows (k) [0, 16) x columns (n) [0, 8) of the shared-memory matrix at
  /// p, rows ld apart, 16-byte aligned: two transposing 8x8 matrix loads.
  static __device__ __forceinline__ FragmentB loadB(const Element *p, int ld, int lane) {
    const auto address = static_cast<unsigned>(__cvta_generic_to_shared(p + lane % 16 * ld));
    FragmentB b;
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b.x[0]), "=r"(b.x[1])
                 : "r"(address));
    return b;
  }

  /// c += a * b.
  static __device__ __forceinline__ void mma(FragmentC &c, const FragmentA &a, const FragmentB &b) {
    if constexpr (std::is_same_v<Element, __half>) {
      asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
          "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
          : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
          : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]));
    } else {
      asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
          "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
          : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
          : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]));
    }
  }

  /// Two accumulators rounded to the element type, the first in the low half.
  static __device__ __forceinline__ std::uint32_t packPair(float first, float second) {
    if constexpr (std::is_same_v<Element, __half>) {
      const __half2 both = __floats2half2_rn(first, second);
      return *reinterpret_cast<const std::uint32_t *>(&both);
    } else {
      const __nv_bfloat162 both = __floats2bfloat162_rn(first, second);
      return *reinterpret_cast<const std::uint32_t *>(&both);
    }
  }

  /// Stores a 16 x 16 tile held as two accumulators (columns 0-7 and 8-15)
  /// to dst (16-byte aligned, rows ld apart), every row as two 16-byte
  /// vectors. The lanes 4g..4g+3 of a quad hold the pairs of rows g and
  /// g + 8 of both halves; a 4 x 4 transpose within the quad (two exchanges)
  /// gives lane 4g + t the 8 outputs of row g + 8 (t / 2), columns 8 (t % 2)
  /// on.
  static __device__ __forceinline__ void storeRows16(Element *dst, int ld, const FragmentC &left,
                                                     const FragmentC &right, int lane) {
    const std::uint32_t a = packPair(left.x[0], left.x[1]);   // row g,     columns 2t, 2t + 1
    const std::uint32_t b = packPair(right.x[0], right.x[1]); // row g,     columns 8 + 2t, ..
    const std::uint32_t c = packPair(left.x[2], left.x[3]);   // row g + 8, columns 2t, ..
    const std::uint32_t d = packPair(right.x[2], right.x[3]); // row g + 8, columns 8 + 2t, ..
    const int t = lane % 4;
    const bool hi = t & 2, lo = t & 1;
    // With lane t ^ 2: keep the two vectors of this lane's row (hi), trade the others.
    const std::uint32_t x0 = hi ? c : a, x1 = hi ? d : b;
    const std::uint32_t y0 = __shfl_xor_sync(0xffffffffu, hi ? a : c, 2);
    const std::uint32_t y1 = __shfl_xor_sync(0xffffffffu, hi ? b : d, 2);
    // With lane t ^ 1: keep this lane's half of the row (lo), trade the other.
    const std::uint32_t keep0 = lo ? x1 : x0, keep1 = lo ? y1 : y0;
    const std::uint32_t from0 = __shfl_xor_sync(0xffffffffu, lo ? x0 : x1, 1);
    const std::uint32_t from1 = __shfl_xor_sync(0xffffffffu, lo ? y0 : y1, 1);
    // keep0, from0, keep1, from1 came from lanes t, t ^ 1, t ^ 2, t ^ 3 of
    // the quad, that is, they are the pairs at columns 2 (t ^ k): put them
    // in order.
    const std::uint32_t u0 = lo ? from0 : keep0, u1 = lo ? keep0 : from0;
    const std::uint32_t u2 = lo ? from1 : keep1, u3 = lo ? keep1 : from1;
    *reinterpret_cast<uint4 *>(dst + (lane / 4 + 8 * (t / 2)) * ld + 8 * (t % 2)) =
        hi ? make_uint4(u2, u3, u0, u1) : make_uint4(u0, u1, u2, u3);
  }
};

/// mma.sync m16n8k8 with 16-bit operands (Element __half or __nv_bfloat16)
/// and fp32 accumulators, sm_80 and newer: half the K of MmaM16N8K16 (the
/// stacked form's last stencil row, stacked.cuh). Lane 4g + t holds:
///   A (16 x 8): pairs (g, 2t..2t+1), (g+8, 2t..2t+1)
///   B (8 x 8):  pair (k 2t..2t+1, n g)
///   C (16 x 8): as MmaM16N8K16
template <class ElementType> struct MmaM16N8K8 {
  static_assert(std::is_same_v<ElementType, __half> || std::is_same_v<ElementType, __nv_bfloat16>,
                "m16n8k8 takes fp16 or bf16 operands here");
  using Element = ElementType;
  using Accumulator = float;
  static constexpr int kM = 16, kN = 8, kK = 8;
  struct FragmentA {
    std::uint32_t x[2];
  };
  struct FragmentB {
    std::uint32_t x[1];
  };
  using FragmentC = M16N8Fragments32::FragmentC;

  /// c += a * b.
  static __device__ __forceinline__ void mma(FragmentC &c, const FragmentA &a, const FragmentB &b) {
    if constexpr (std::is_same_v<Element, __half>) {
      asm("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
          "{%0, %1, %2, %3};"
          : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
          : "r"(a.x[0]), "r"(a.x[1]), "r"(b.x[0]));
    } else {
      asm("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
          "{%0, %1, %2, %3};"
          : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
          : "r"(a.x[0]), "r"(a.x[1]), "r"(b.x[0]));
    }
  }
};

/// mma.sp m16n8k32 with a 2:4 sparse A of 16-bit elements (Element __half
/// or __nv_bfloat16) and fp32 accumulators, sm_80 and newer. A (16 x 32)
/// keeps 2 of every 4 consecutive elements of a row: lane 4g + t holds the
/// kept pairs of (row g, group t), (row g + 8, group t), (row g, group t +
/// 4), (row g + 8, group t + 4) (group q: columns 4q .. 4q + 3), and lanes
/// with t = 0 and 1 the metadata (sparsity selector 0): bits 4i of lane t
/// the kept columns' indices in group 4t + i of row g (2 bits each, the
/// lower first), bits 16 + 4i those of row g + 8. B (32 x 8): pair s of
/// lane 4g + t is (k 8s + 2t .. + 1, n g). C as in MmaM16N8K16. (Checked
/// on an H200 against a product on the host, bench/tensor15/README.md.)
template <class ElementType> struct MmaSpM16N8K32 {
  using Element = ElementType;
  static constexpr int kM = 16, kN = 8, kK = 32;
  struct FragmentA {
    std::uint32_t x[4];
    std::uint32_t meta;
  };
  struct FragmentB {
    std::uint32_t x[4];
  };
  using FragmentC = M16N8Fragments32::FragmentC;

  /// c += a * b.
  static __device__ __forceinline__ void mma(FragmentC &c, const FragmentA &a, const FragmentB &b) {
    if constexpr (std::is_same_v<Element, __half>) {
      asm("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
          "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0x0;"
          : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
          : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]),
            "r"(b.x[2]), "r"(b.x[3]), "r"(a.meta));
    } else {
      asm("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 "
          "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%0, %1, %2, %3}, %12, 0x0;"
          : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
          : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]),
            "r"(b.x[2]), "r"(b.x[3]), "r"(a.meta));
    }
  }
};

/// The 8 x 8 matrix of 16-bit pairs a warp holds (lane 4g + t: row g,
/// columns 2t, 2t + 1), transposed: lane 4g + t gets row g of the
/// transpose. sm_75 and newer.
__device__ __forceinline__ std::uint32_t transpose8x8(std::uint32_t pair) {
  std::uint32_t out;
  asm("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(out) : "r"(pair));
  return out;
}

/// mma.sync m16n8k8 with tf32 operands (held as float, rounded by the
/// caller: roundToTf32) and fp32 accumulators. Lane 4g + t holds:
///   A (16 x 8): (g, t), (g+8, t), (g, t+4), (g+8, t+4)
///   B (8 x 8):  (k t, n g), (k t+4, n g)
///   C (16 x 8): (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)
struct MmaM16N8K8Tf32 : M16N8Fragments32 {
  using Element = float;
  using Accumulator = float;
  static constexpr int kM = 16, kN = 8, kK = 8;

  /// A: rows [0, 16) x columns [0, 8) of the matrix at p, rows ld apart.
  static __device__ __forceinline__ FragmentA loadA(const Element *p, int ld, int lane) {
    const int g = lane / 4, t = lane % 4;
    return {{__float_as_uint(p[g * ld + t]), __float_as_uint(p[(g + 8) * ld + t]),
             __float_as_uint(p[g * ld + t + 4]), __float_as_uint(p[(g + 8) * ld + t + 4])}};
  }

  /// B: rows (k) [0, 8) x columns (n) [0, 8) of the matrix at p, rows ld apart.
  static __device__ __forceinline__ FragmentB loadB(const Element *p, int ld, int lane) {
    const int g = lane / 4, t = lane % 4;
    return {{__float_as_uint(p[t * ld + g]), __float_as_uint(p[(t + 4) * ld + g])}};
  }

  /// c += a * b.
  static __device__ __forceinline__ void mma(FragmentC &c, const FragmentA &a, const FragmentB &b) {
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
        : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
        : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]));
  }
};

/// A false that waits for its template argument, for a static_assert in a
/// member that must fail only where it is used.
template <class T> inline constexpr bool kNever = false;

/// What the fp64 shapes share: the types, and the B operand (4 x 8), one
/// element a lane, (k t, n g) for lane 4g + t.
struct F64OperandB {
  using Element = double;
  using Accumulator = double;

  struct FragmentB {
    double x[1];
  };

  /// B: rows (k) [0, 4) x columns (n) [0, 8) of the matrix at p, rows ld apart.
  static __device__ __forceinline__ FragmentB loadB(const double *p, int ld, int lane) {
    return {{p[lane % 4 * ld + lane / 4]}};
  }
};

/// mma.sync m16n8k4 with fp64 operands and accumulators: sm_90 and newer
/// (used on an older architecture, mma() does not compile). Lane 4g + t
/// holds:
///   A (16 x 4): (g, t), (g+8, t)   B (4 x 8): (k t, n g)
///   C (16 x 8): (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)
struct MmaM16N8K4F64 : F64OperandB {
  static constexpr int kM = 16, kN = 8, kK = 4;

  struct FragmentA {
    double x[2];
  };
  struct FragmentC {
    double x[4] = {0.0, 0.0, 0.0, 0.0};
  };

  /// A: rows [0, 16) x columns [0, 4) of the matrix at p, rows ld apart.
  static __device__ __forceinline__ FragmentA loadA(const Element *p, int ld, int lane) {
    return {{p[lane / 4 * ld + lane % 4], p[(lane / 4 + 8) * ld + lane % 4]}};
  }

  /// c += a * b. A template only so that the architecture check fires where
  /// it is called, not where this header is included.
  template <class C = FragmentC>
  static __device__ __forceinline__ void mma(C &c, const FragmentA &a, const FragmentB &b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    static_assert(kNever<C>, "the fp64 m16n8k4 MMA needs sm_90 or newer: plan fp64 for the "
                             "architecture it runs on (--arch)");
#else
    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
        "{%0, %1, %2, %3};"
        : "+d"(c.x[0]), "+d"(c.x[1]), "+d"(c.x[2]), "+d"(c.x[3])
        : "d"(a.x[0]), "d"(a.x[1]), "d"(b.x[0]));
#endif
  }
};

/// mma.sync m8n8k4 with fp64 operands and accumulators (sm_80). Lane 4g + t
/// holds:
///   A (8 x 4): (g, t)    B (4 x 8): (k t, n g)    C (8 x 8): (g, 2t), (g, 2t+1)
struct MmaM8N8K4F64 : F64OperandB {
  static constexpr int kM = 8, kN = 8, kK = 4;

  struct FragmentA {
    double x[1];
  };
  struct FragmentC {
    double x[2] = {0.0, 0.0};
  };

  /// A: rows [0, 8) x columns [0, 4) of the matrix at p, rows ld apart.
  static __device__ __forceinline__ FragmentA loadA(const Element *p, int ld, int lane) {
    return {{p[lane / 4 * ld + lane % 4]}};
  }

  /// c += a * b.
  static __device__ __forceinline__ void mma(FragmentC &c, const FragmentA &a, const FragmentB &b) {
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
        : "+d"(c.x[0]), "+d"(c.x[1])
        : "d"(a.x[0]), "d"(b.x[0]));
  }
};

/// Stores two neighbouring results of a row, rounded to the element type,
/// as one access at dst (global memory, aligned to both): a packed pair for
/// the 16-bit types, a two-element vector store for float and double.
/// (Written in PTX for the latter: the compiler splits a float2 or double2
/// store beside element-wise stores to the same place into two.)
__device__ __forceinline__ void storeTwo(__half *dst, float first, float second) {
  *reinterpret_cast<std::uint32_t *>(dst) = MmaM16N8K16<__half>::packPair(first, second);
}
__device__ __forceinline__ void storeTwo(__nv_bfloat16 *dst, float first, float second) {
  *reinterpret_cast<std::uint32_t *>(dst) = MmaM16N8K16<__nv_bfloat16>::packPair(first, second);
}
__device__ __forceinline__ void storeTwo(float *dst, float first, float second) {
  asm volatile("st.global.v2.f32 [%0], {%1, %2};" : : "l"(dst), "f"(first), "f"(second));
}
__device__ __forceinline__ void storeTwo(double *dst, double first, double second) {
  asm volatile("st.global.v2.f64 [%0], {%1, %2};" : : "l"(dst), "d"(first), "d"(second));
}

/// Outputs x and x + 1 of a row (dst points at x) where a step writes them,
/// columns [Ring, nx - Ring): as one access when `pairs` (x even, the row's
/// pairs aligned) and both are written, else one by one. (Index: int where
/// the caller's columns are, so that the tests stay 32-bit.)
template <int Ring, class Element, class Accumulator, class Index>
__device__ __forceinline__ void storeWrittenPair(Element *dst, Index x, Accumulator first,
                                                 Accumulator second, int nx, bool pairs) {
  if (pairs && x >= Ring && x + 2 <= nx - Ring) {
    storeTwo(dst, first, second);
    return;
  }
  if (x >= Ring && x < nx - Ring) {
    dst[0] = toElement<Element>(first);
  }
  if (x + 1 >= Ring && x + 1 < nx - Ring) {
    dst[1] = toElement<Element>(second);
  }
}

} // namespace device
} // namespace stencilc
