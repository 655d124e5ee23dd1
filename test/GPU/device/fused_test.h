// fused_test.h - what the exactness test (fused_test.cu) and the benchmark
// (fused_bench.cu) of stencilc/device/fused.cuh share: the stencils' terms
// and the kernels' parameters.
#pragma once

#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "stencilc/device/fused.cuh"

// Outside any anonymous namespace: nvcc warns of unused members there.
namespace fused_test {

using stencilc::device::fused::Term;

/// Star 5-point, radius 1 (coefficients summing to about 1).
struct Star5 {
  static constexpr int kRadius = 1, kTerms = 5;
  static constexpr const char *kName = "star5p";
  template <class C> static __host__ __device__ constexpr Term<C> term(int i) {
    constexpr Term<C> terms[] = {
        {0, 0, C(0.5)}, {-1, 0, C(0.125)}, {1, 0, C(0.13)}, {0, -1, C(0.12)}, {0, 1, C(0.125)}};
    return terms[i];
  }
};

/// Box 9-point, radius 1.
struct Box9 {
  static constexpr int kRadius = 1, kTerms = 9;
  static constexpr const char *kName = "box9p";
  template <class C> static __host__ __device__ constexpr Term<C> term(int i) {
    constexpr Term<C> terms[] = {{-1, -1, C(0.1)}, {-1, 0, C(0.11)}, {-1, 1, C(0.09)},
                                 {0, -1, C(0.1)},  {0, 0, C(0.2)},   {0, 1, C(0.1)},
                                 {1, -1, C(0.1)},  {1, 0, C(0.1)},   {1, 1, C(0.1)}};
    return terms[i];
  }
};

/// Star 9-point, radius 2.
struct Star9 {
  static constexpr int kRadius = 2, kTerms = 9;
  static constexpr const char *kName = "star9p";
  template <class C> static __host__ __device__ constexpr Term<C> term(int i) {
    constexpr Term<C> terms[] = {{0, 0, C(0.4)},  {-2, 0, C(0.05)}, {-1, 0, C(0.1)},
                                 {1, 0, C(0.1)},  {2, 0, C(0.05)},  {0, -2, C(0.05)},
                                 {0, -1, C(0.1)}, {0, 1, C(0.1)},   {0, 2, C(0.05)}};
    return terms[i];
  }
};

/// Star 13-point, radius 3 (the suite's star2d13p shape).
struct Star13 {
  static constexpr int kRadius = 3, kTerms = 13;
  static constexpr const char *kName = "star13p";
  template <class C> static __host__ __device__ constexpr Term<C> term(int i) {
    constexpr Term<C> terms[] = {
        {0, 0, C(0.28)}, {-3, 0, C(0.03)}, {-2, 0, C(0.05)}, {-1, 0, C(0.07)}, {1, 0, C(0.07)},
        {2, 0, C(0.05)}, {3, 0, C(0.03)},  {0, -3, C(0.03)}, {0, -2, C(0.05)}, {0, -1, C(0.07)},
        {0, 1, C(0.07)}, {0, 2, C(0.05)},  {0, 3, C(0.04)}};
    return terms[i];
  }
};

/// Radius 1, its sideways terms at dy 1 only: the side columns are shared
/// at a row other than the centre (fused.cuh's SidesOf, kDy 1).
struct SkewSides {
  static constexpr int kRadius = 1, kTerms = 5;
  static constexpr const char *kName = "skew5p";
  template <class C> static __host__ __device__ constexpr Term<C> term(int i) {
    constexpr Term<C> terms[] = {
        {0, 0, C(0.4)}, {-1, 0, C(0.15)}, {1, -1, C(0.16)}, {1, 0, C(0.14)}, {1, 1, C(0.15)}};
    return terms[i];
  }
};

/// Radius 2 along y only: no term reaches sideways, nothing is shared.
struct Column5 {
  static constexpr int kRadius = 2, kTerms = 5;
  static constexpr const char *kName = "column5p";
  template <class C> static __host__ __device__ constexpr Term<C> term(int i) {
    constexpr Term<C> terms[] = {
        {-2, 0, C(0.1)}, {-1, 0, C(0.2)}, {0, 0, C(0.4)}, {1, 0, C(0.2)}, {2, 0, C(0.1)}};
    return terms[i];
  }
};

/// Box 25-point, radius 2: the terms row by row, coefficients (i % 7 + 1)
/// / 100.
struct Box25 {
  static constexpr int kRadius = 2, kTerms = 25;
  static constexpr const char *kName = "box25p";
  template <class C> static __host__ __device__ constexpr Term<C> term(int i) {
    return {i / 5 - 2, i % 5 - 2, C((i % 7 + 1) / 100.0)};
  }
};

/// Box 49-point, radius 3: the terms row by row, coefficients (i % 7 + 1)
/// / 200.
struct Box49 {
  static constexpr int kRadius = 3, kTerms = 49;
  static constexpr const char *kName = "box49p";
  template <class C> static __host__ __device__ constexpr Term<C> term(int i) {
    return {i / 7 - 3, i % 7 - 3, C((i % 7 + 1) / 200.0)};
  }
};

/// The constant boundary's value (exact in every element type).
struct ThreeQuarters {
  static constexpr float value = 0.75f;
};

/// The narrowest strip of a warp for element E and stencil St: 32 threads
/// of at least r columns each, 4 or 8 bytes or whole 16-byte vectors.
template <class E, class St> constexpr int narrowestWidth() {
  constexpr int size = static_cast<int>(sizeof(E));
  int cols = St::kRadius;
  while (cols * size < 4 || (cols * size > 8 && cols * size % 16 != 0) ||
         (cols * size < 16 && 16 % (cols * size) != 0)) {
    ++cols;
  }
  return 32 * cols;
}

template <class E, class BoundaryRule, class St, int T, int Width = narrowestWidth<E, St>(),
          int Threads = 32, int Batch = 3, int ChunkY = 16>
struct Params {
  using Element = E;
  using Compute = std::conditional_t<std::is_same_v<E, double>, double, float>;
  using Boundary = BoundaryRule;
  using Stencil = St;
  static constexpr int kSteps = T;
  static constexpr int kWidth = Width;
  static constexpr int kThreads = Threads;
  static constexpr int kBatch = Batch;
  static constexpr int kChunkY = ChunkY;
};

/// P with kMinBlocks = M (Params has none: the kernel's default, 1).
template <class P, int M> struct WithMinBlocks : P {
  static constexpr int kMinBlocks = M;
};

/// P in fused.cuh's queued form (kQueued): stencils whose terms come by
/// rows, ascending (fused::TermsByRow).
template <class P> struct Queued : P {
  static constexpr bool kQueued = true;
};

/// The timing mode (fused_bench.cu); returns the exit status.
int bench();

/// The element types and stencils the checks (fused_check.h) cover, and
/// those the timing mode (fused_bench.h) covers: X(element, stencil). Each
/// has its translation unit, generated by test/GPU/CMakeLists.txt from the
/// same lists there.
#define FUSED_CHECK_CASES(X)                                                                       \
  X(float, Star5)                                                                                  \
  X(float, Box9)                                                                                   \
  X(float, Star9)                                                                                  \
  X(float, Box25)                                                                                  \
  X(float, Box49)                                                                                  \
  X(double, Star5)                                                                                 \
  X(double, Box9)                                                                                  \
  X(double, Star9)                                                                                 \
  X(double, Box49)                                                                                 \
  X(float, Star13)                                                                                 \
  X(double, Star13)                                                                                \
  X(__half, Star13)                                                                                \
  X(float, SkewSides)                                                                              \
  X(float, Column5)                                                                                \
  X(__half, Star5)                                                                                 \
  X(__half, Box9)                                                                                  \
  X(__half, Star9)                                                                                 \
  X(__nv_bfloat16, Star5)                                                                          \
  X(__nv_bfloat16, Box9)
#define FUSED_BENCH_CASES(X)                                                                       \
  X(double, Star5)                                                                                 \
  X(float, Star5)                                                                                  \
  X(__half, Star5)                                                                                 \
  X(__nv_bfloat16, Star5)                                                                          \
  X(double, Box9)                                                                                  \
  X(float, Box9)                                                                                   \
  X(__half, Box9)                                                                                  \
  X(__nv_bfloat16, Box9)                                                                           \
  X(double, Star9)                                                                                 \
  X(float, Star9)                                                                                  \
  X(__half, Star9)                                                                                 \
  X(__nv_bfloat16, Star9)                                                                          \
  X(double, Star13)                                                                                \
  X(float, Star13)                                                                                 \
  X(__half, Star13)                                                                                \
  X(__nv_bfloat16, Star13)                                                                         \
  X(double, Box25)                                                                                 \
  X(float, Box25)                                                                                  \
  X(__half, Box25)                                                                                 \
  X(__nv_bfloat16, Box25)                                                                          \
  X(double, Box49)                                                                                 \
  X(float, Box49)                                                                                  \
  X(__half, Box49)                                                                                 \
  X(__nv_bfloat16, Box49)

} // namespace fused_test
