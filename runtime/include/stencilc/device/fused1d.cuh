// stencilc/device/fused1d.cuh - the CUDA-core kernel for 1D that fuses
// several time steps into one pass over memory, the 1D sibling of fused.cuh,
// less the stencil itself (issue 19). The compiler emits it for 1D CUDA-core
// plans that fuse steps (the generated FusedParams and FusedStencil).
//
// A block owns a segment of kTile output points of an nx-point grid. It
// loads the segment and a redundant halo of kHalo = T r points each side
// (rounded up to a 16-byte vector) into shared memory with 16-byte loads,
// computes every level t = 1 .. Levels in shared memory from level t - 1
// (two buffers, ping-pong, a barrier after each level but the last; level t
// is right on all but the outer t r points of each side), and stores level
// Levels on its segment.
//
// Per point and per level the value is what a stored single step gives (the
// terms' FMAs in the order of the stencil's term list, accumulated in the
// Compute type from 0, rounded to the Element type); a point a single step
// does not compute keeps its value of the level before, by
// fused::Computes<Boundary> (fused.cuh): the fixed ring of r points keeps
// the input's value, a constant boundary's outside is loaded as its value
// and keeps it, a periodic grid is loaded wrapped and every point is
// computed. The last level stores every point of the segment inside the
// grid, the fixed ring (its kept input value) included, so run needs no
// copy of the ring into the scratch buffer (step, NAME_step's pass of one
// level, leaves the ring as the step kernel does). The result of `steps`
// steps is bit-identical to `steps` single steps at every point, for any
// grid size.
//
// The stencil comes from the traits type Params::Stencil:
//
//   struct Stencil {
//     static constexpr int kRadius = 1, kTerms = 3;
//     template <class C> static __host__ __device__ constexpr Term<C> term(int i);
//   };
//
// term(i) is the i-th term (dx, coefficient) in the order of the FMAs. The
// rest of Params (listed at Geometry) are the kernel's numbers.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/fused.cuh"

namespace stencilc {
namespace device {
namespace fused1d {

using fused::Computes;
using fused::minExtent;

/// One term of a stencil: coefficient c times the input at x + dx.
template <class C> struct Term {
  int dx;
  C c;
};

/// The sizes of a fused 1D kernel, from Params:
///   Element, Compute   the grid's element type and the arithmetic type
///   Boundary           a boundary policy of boundary.cuh
///   Stencil            the terms (see above); Stencil::kRadius is r
///   kSteps             T, the steps fused per pass (1 .. 16)
///   kWidth             the segment's points in shared memory, halo
///                      included (a multiple of the 16-byte vector and of
///                      kThreads)
///   kThreads           threads per block (point c of the segment belongs
///                      to thread c % kThreads)
template <class Params> struct Geometry : Params {
  using Element = typename Params::Element;
  using Compute = typename Params::Compute;
  using Stencil = typename Params::Stencil;
  static constexpr int kRadius = Stencil::kRadius;
  static constexpr int kTerms = Stencil::kTerms;
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Element));
  /// The 16-byte vector fused::fetchGroup loads.
  using Vector = uint4;
  /// The redundant halo each side: kSteps * r, whole vectors.
  static constexpr int kHalo = (Params::kSteps * kRadius + kVec - 1) / kVec * kVec;
  static constexpr int kTile = Params::kWidth - 2 * kHalo;
  static constexpr int kPointsPerThread = Params::kWidth / Params::kThreads;
  static constexpr int kGroups = Params::kWidth / kVec;
  static constexpr int kGroupsPerThread = (kGroups + Params::kThreads - 1) / Params::kThreads;

  static_assert(Params::kSteps >= 1 && Params::kSteps <= 16, "1 to 16 fused steps");
  static_assert(kRadius >= 1, "a stencil of radius 0 needs no kernel");
  static_assert(Params::kWidth % kVec == 0 && Params::kWidth % Params::kThreads == 0,
                "the segment is whole vectors, and whole points per thread");
  static_assert(kTile >= kVec, "the halo leaves points to store");

  /// Shared memory of a pass: two buffers of the segment (one for a pass
  /// of a single step).
  static constexpr int sharedBytes(int levels) {
    return (levels > 1 ? 2 : 1) * Params::kWidth * static_cast<int>(sizeof(Element));
  }
};

/// The block's two segment buffers (dynamic shared memory).
template <class S> __device__ __forceinline__ typename S::Element *segments() {
  extern __shared__ __align__(16) unsigned char sharedSegments[];
  return reinterpret_cast<typename S::Element *>(sharedSegments);
}

/// Level t of the segment from level t - 1 (`from`): each thread its
/// points. Last: stored to `out` (the block's segment inside the grid; with
/// Ring false, only the points a step computes: a fixed ring is left as it
/// was), else written to `to`.
template <class S, bool Last, bool Ring = true>
__device__ __forceinline__ void
computeLevel(const typename S::Element *from, typename S::Element *to,
             typename S::Element *__restrict__ out, long long x0, int nx) {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  constexpr int r = S::kRadius;
#pragma unroll
  for (int k = 0; k < S::kPointsPerThread; ++k) {
    const int c = threadIdx.x + k * S::kThreads;
    if (c < r || c >= S::kWidth - r) {
      continue; // the segment's outermost points: nothing to read beside them
    }
    const long long x = x0 - S::kHalo + c;
    Element window[2 * r + 1];
#pragma unroll
    for (int dx = -r; dx <= r; ++dx) {
      window[dx + r] = from[c + dx];
    }
    Compute acc = Compute(0);
#pragma unroll
    for (int t = 0; t < S::kTerms; ++t) {
      const Term<Compute> term = S::Stencil::template term<Compute>(t);
      acc = madd(term.c, toCompute(window[r + term.dx]), acc);
    }
    const bool computed = Computes<typename S::Boundary>::axis(x, nx, r);
    const Element value =
        computed ? toElement<Element>(scaledSum<typename S::Stencil>(acc)) : window[r];
    if constexpr (Last) {
      if (c >= S::kHalo && c < S::kHalo + S::kTile && x < nx && (Ring || computed)) {
        out[x] = value;
      }
    } else {
      to[c] = value;
    }
  }
}

/// One pass of Levels fused steps (1 <= Levels <= kSteps) by the block
/// (the whole body of a kernel): in -> out, an nx-point grid, kTile points
/// per block along blockIdx.x; Ring false: a fixed ring not stored
/// (computeLevel). Needs S::sharedBytes(Levels) bytes of dynamic shared
/// memory.
template <class S, int Levels, bool Ring = true>
__device__ __forceinline__ void pass(const typename S::Element *__restrict__ in,
                                     typename S::Element *__restrict__ out, int nx) {
  static_assert(Levels >= 1 && Levels <= S::kSteps, "a pass fuses 1 .. kSteps steps");
  using Element = typename S::Element;
  Element *const buffers = segments<S>();
  const long long x0 = static_cast<long long>(blockIdx.x) * S::kTile;
  const bool vectors = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
#pragma unroll
  for (int k = 0; k < S::kGroupsPerThread; ++k) {
    const int g = threadIdx.x + k * S::kThreads;
    if (S::kGroups % S::kThreads == 0 || g < S::kGroups) {
      *reinterpret_cast<uint4 *>(&buffers[g * S::kVec]) =
          fused::fetchGroup<S, Levels>(in, 0, x0 - S::kHalo + g * S::kVec, 1, nx, vectors);
    }
  }
  __syncthreads();
#pragma unroll
  for (int t = 1; t <= Levels; ++t) {
    const Element *from = buffers + ((t - 1) & 1) * S::kWidth;
    if (t == Levels) {
      computeLevel<S, true, Ring>(from, nullptr, out, x0, nx);
    } else {
      computeLevel<S, false>(from, buffers + (t & 1) * S::kWidth, out, x0, nx);
      __syncthreads(); // level t + 1 reads what level t wrote
    }
  }
}

/// The kernel of a pass of Levels fused steps (Ring: as pass's).
template <class S, int Levels, bool Ring = true>
__global__ void __launch_bounds__(S::kThreads)
    passKernel(const typename S::Element *__restrict__ in, typename S::Element *__restrict__ out,
               int nx) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    letDependentsLaunch(); // a band (fused_band.cuh) may start beside the last blocks
    pass<S, Levels, Ring>(in, out, nx);
  }
}

/// Launches passKernel<S, Levels, Ring> over an nx-point grid on `stream`
/// and returns the launch's status.
template <class S, int Levels, bool Ring = true>
inline cudaError_t launchLevels(const typename S::Element *in, typename S::Element *out, int nx,
                                cudaStream_t stream) {
  constexpr int bytes = S::sharedBytes(Levels);
  if (const cudaError_t optIn = allowDynamicShared(passKernel<S, Levels, Ring>, bytes);
      optIn != cudaSuccess) {
    return optIn;
  }
  const unsigned blocks = static_cast<unsigned>((nx - 1) / S::kTile + 1);
  passKernel<S, Levels, Ring><<<blocks, S::kThreads, bytes, stream>>>(in, out, nx);
  return cudaGetLastError();
}

/// Launches one pass of `levels` fused steps (1 .. kSteps) on `stream`,
/// in -> out, and returns the launch's status (cudaErrorInvalidValue for
/// levels out of range).
template <class S>
inline cudaError_t launchPass(int levels, const typename S::Element *in, typename S::Element *out,
                              int nx, cudaStream_t stream) {
  return withLevels<S::kSteps>(
      levels, [&](auto at) { return launchLevels<S, decltype(at)::value>(in, out, nx, stream); });
}

/// NAME_step where the plan takes the fused kernel for it (measured faster
/// than the step kernel for its kind): a pass of one step, in -> out,
/// storing the points a step computes only, so that a fixed ring of out is
/// left as it was, as the step kernel leaves it (elsewhere the pass of one
/// step NAME_run launches, the same kernel). The caller has checked the
/// pointers and sizes.
template <class S>
inline cudaError_t step(const typename S::Element *in, typename S::Element *out, int nx,
                        cudaStream_t stream) {
  return launchLevels<S, 1, fused::kStepStoresEveryPoint<typename S::Boundary>>(in, out, nx,
                                                                                stream);
}

/// NAME_pass: one pass of `steps` fused steps (1 .. kSteps), in -> out, in
/// never written (the pass stores every point of the grid, a fixed ring
/// included). The caller has checked the pointers and sizes.
template <class S>
inline cudaError_t onePass(const typename S::Element *in, typename S::Element *out, int nx,
                           int steps, cudaStream_t stream) {
  if (steps < 1 || steps > S::kSteps) {
    return cudaErrorInvalidValue;
  }
  return launchPass<S>(steps, in, out, nx, stream);
}

/// `steps` steps on an nx-point grid: passes of kSteps fused steps and one
/// pass of the remainder, each `pass(levels, from, to)`, ping-ponging
/// between a and b; the result is left in a (b is scratch of the same size,
/// its contents never read). cudaErrorInvalidValue, and nothing enqueued,
/// for a null pointer, a == b, a size below the boundary's minimum (fixed:
/// 2r + 1) or steps < 0.
template <class S, class Pass>
inline cudaError_t runPasses(typename S::Element *a, typename S::Element *b, int nx, int steps,
                             cudaStream_t stream, Pass pass) {
  if (a == nullptr || b == nullptr || a == b || nx < minExtent<typename S::Boundary>(S::kRadius) ||
      steps < 0) {
    return cudaErrorInvalidValue;
  }
  return fused::alternatePasses<S>(a, b, static_cast<size_t>(nx), steps, stream, pass);
}

/// NAME_run's passes (runPasses), each one launch of the fused kernel.
template <class S>
inline cudaError_t run(typename S::Element *a, typename S::Element *b, int nx, int steps,
                       cudaStream_t stream) {
  static_assert(fused::kPassesExactAlone<S>, "a folding rule's passes need the band: runBanded");
  return runPasses<S>(a, b, nx, steps, stream,
                      [=](int levels, const typename S::Element *from, typename S::Element *to) {
                        return launchPass<S>(levels, from, to, nx, stream);
                      });
}

} // namespace fused1d
} // namespace device
} // namespace stencilc
