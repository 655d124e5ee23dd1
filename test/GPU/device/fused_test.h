// fused_test.h - what the exactness test (fused_test.cu) and the benchmark
// (fused_bench.cu) of stencilc/device/fused.cuh share: the stencils' terms
// and the kernels' parameters.
#pragma once

#include <type_traits>

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

/// The constant boundary's value (exact in every element type).
struct ThreeQuarters {
  static constexpr float value = 0.75f;
};

template <class E, class BoundaryRule, class St, int T, int Width = 64, int Threads = 32,
          int Batch = 3, int ChunkY = 16>
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

/// The timing mode (fused_bench.cu); returns the exit status.
int bench();

} // namespace fused_test
