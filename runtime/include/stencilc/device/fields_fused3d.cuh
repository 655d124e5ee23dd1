// stencilc/device/fields_fused3d.cuh - the CUDA-core kernel for 3D that
// fuses several time steps of a stencil of fields into one pass over memory
// (issue 36; docs/design.md, "Fused passes for fields and at the arithmetic
// limit").
//
// It is fused3d.cuh's 3.5D blocking (a block a window of rows and columns,
// streamed along z, each thread's points of every level in a register
// queue of planes, the rows above and below from edge rings in shared
// memory), whose pieces it takes, with the fields' streams beside the
// stepped field, as fields_fused.cuh adds them to fused.cuh's strip:
//
//   - the window carries the stepped field alone; its reads (SteppedReads)
//     size the queues and rings as a single stencil's terms would;
//   - the previous time level (`time u_prev, u`), read at the point only:
//     at level 1 u_prev's plane, loaded two planes ahead with the stepped
//     field; at level t >= 2 the stepped field's level t - 2, still in that
//     level's queue (Geometry makes the queue long enough: level t - 2 runs
//     2 kLag planes ahead of level t);
//   - every other field (c2 of the wave, kappa of varheat), the same at
//     every level, from global memory at each level's plane: the T reads of
//     a point fall within T kLag planes of each other and hit L1 or L2;
//   - parameters: each level has its own coefficients, as in 2D;
//   - point sources (`source u;`): each block first lists the sources in
//     its window and planes in shared memory and adds each at every level.
//
// Each value is fields.cuh's sumTerms through a reader of these streams,
// rounded to the element type after each level; points a single step does
// not compute keep their value of the level before. So the result of
// `steps` fused steps is bit for bit that of `steps` launches of the step
// kernel at every point, for any grid size, as fused3d.cuh's is for a
// single field. With time levels a pass stores two levels: the last and
// the one before it.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/fields.cuh"
#include "stencilc/device/fields_fused.cuh"
#include "stencilc/device/fused3d.cuh"
#include "stencilc/device/sources.cuh"

namespace stencilc {
namespace device {
namespace fields {

/// The stepped field's reads of a fields traits type F as fused3d.cuh's
/// Stencil: kRadius their reach, term(i) the offsets of the i-th term that
/// reads it (the coefficient is unused: fused3d's ReadTable wants the
/// offsets only).
template <class F> struct SteppedReads {
  static __host__ __device__ constexpr bool reads(const FieldTerm &t) {
    return t.field == F::kSteppedField;
  }
  static __host__ __device__ constexpr int count() {
    int n = 0;
    for (int i = 0; i < F::kTermCount; ++i) {
      n += reads(F::kTerms[i]) ? 1 : 0;
    }
    return n;
  }
  static __host__ __device__ constexpr int reachOf() {
    int r = 0;
    for (int i = 0; i < F::kTermCount; ++i) {
      const FieldTerm &t = F::kTerms[i];
      if (reads(t)) {
        for (int d : {t.dz, t.dy, t.dx}) {
          r = d > r ? d : -d > r ? -d : r;
        }
      }
    }
    return r;
  }
  static constexpr int kRadius = reachOf();
  static constexpr int kTerms = count();
  template <class C> static __host__ __device__ constexpr fused3d::Term<C> term(int i) {
    for (int k = 0; k < F::kTermCount; ++k) {
      const FieldTerm &t = F::kTerms[k];
      if (reads(t) && i-- == 0) {
        return {t.dz, t.dy, t.dx, C(1)};
      }
    }
    return {0, 0, 0, C(0)};
  }
};

/// fused3d.cuh's Geometry of Params (whose Stencil is SteppedReads<Fields>)
/// with a longer queue where there are time levels, or where that unrolls
/// the stream's loop less:
///   - level t reads level t - 2's plane c at the point after level t - 2
///     has computed plane c + 2 kLag, so with time levels a queue holds at
///     least 2 kLag + 1 planes;
///   - the loop is unrolled lcm(2, kQueue, kSlots) times so that the slots
///     are constants; past radius 1 that is 30 (radius 2) or 90 (radius 4)
///     iterations, which the compiler does not unroll for two or more
///     levels, leaving the queues in local memory (448 bytes of stack and
///     a seventh of the single step's speed, H200, 2026-11-29). A queue of
///     the next multiple of lcm(2, kSlots) planes unrolls that many
///     iterations (6 at radius 2, 10 at radius 4) for one plane more.
template <class Params> struct Geometry3 : fused3d::Geometry<Params> {
  using Base = fused3d::Geometry<Params>;
  static constexpr int kDims = 3;
  static constexpr bool kTimeLevels = Params::Fields::kPreviousField >= 0;
  static constexpr int kLeast =
      kTimeLevels && 2 * Base::kLag + 1 > Base::kQueue ? 2 * Base::kLag + 1 : Base::kQueue;
  static constexpr int kStep = fused3d::lcm(2, Base::kSlots);
  static constexpr int kLeastUnroll = fused3d::lcm(kStep, kLeast);
  static constexpr int kQueue = kLeastUnroll <= 8 ? kLeast : (kLeast + kStep - 1) / kStep * kStep;
  static constexpr int kUnroll = fused3d::lcm(kStep, kQueue);
  static constexpr int kRingParts = 1; // (kUnroll is whole rings)
};

/// A plane of a thread's points.
template <class S> using Plane3 = typename S::Element[S::kRows][S::kCols];

/// The reads of point (e, q) of a thread's points of plane c of a level:
///   stepped field    ext, the level before's values around the points
///   previous field   `before` (u_prev's plane at level 1, level t - 2's
///                    plane c after)
///   any other field  global memory: directly where Interior and the planes
///                    it reads are in the grid (the point's access where
///                    the read is among the thread's columns, as the
///                    stepped field is loaded), else the boundary rule
template <class S, bool Interior> struct FusedPlaneReader {
  using F = typename S::Fields;
  using Element = typename S::Element;
  static constexpr int r = S::kRadius;
  const Args<F> &args;
  const Element (&ext)[2 * r + 1][S::kRows + 2 * r][S::kCols + 2 * r];
  const Plane3<S> &before;
  int e, q;
  long long z, y, x;
  bool zInside; // every plane a term reads of a field that does not step is in the grid
  int nz, ny, nx;

  template <int Field, int DZ, int DY, int DX>
  __device__ __forceinline__ typename S::Compute at() const {
    if constexpr (Field == F::kSteppedField) {
      return toCompute(ext[DZ + r][e + DY + r][q + DX + r]);
    } else if constexpr (Field == F::kPreviousField) {
      static_assert(DZ == 0 && DY == 0 && DX == 0, "the previous level is read at the point");
      return toCompute(before[e][q]);
    } else {
      const Element *__restrict__ f = args.field[Field];
      if (Interior && zInside) {
        const long long at = ((z + DZ) * ny + y + DY) * nx + x + DX;
        if (q + DX >= 0 && q + DX < S::kCols) {
          const typename S::Access bits =
              __ldg(reinterpret_cast<const typename S::Access *>(f + at - DX - q));
          Element values[S::kCols];
          std::memcpy(values, &bits, sizeof bits);
          return toCompute(values[q + DX]);
        }
        return toCompute(__ldg(f + at));
      }
      return toCompute(S::Boundary::read(f, z + DZ, y + DY, x + DX, nz, ny, nx));
    }
  }
};

/// Plane c of level `level` + 1 from level `level`: `from` is that level's
/// queue (plane c + dz in slot (center + dz) mod kQueue), `edge` the
/// thread's first point in its ring (plane c + dz in slot (ringSlot + dz)
/// mod kSlots), `before` what the previous field reads (FusedPlaneReader). Every
/// point by the terms, rounded, the level before's value where a single
/// step does not compute it, then the sources there. Into `to`.
template <class S, bool Interior>
__device__ __forceinline__ void
computeFieldsPlane(Plane3<S> &to, const typename S::Element (&from)[S::kQueue][S::kRows][S::kCols],
                   const Plane3<S> &before, const typename S::Element *edge, int ringSlot, int c,
                   int center, const fused3d::Part<S> &p, const Args<typename S::Fields> &args,
                   const NearSources &near, const SourceList &sources, int level, int nz, int ny,
                   int nx) {
  using F = typename S::Fields;
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  using Rule = fused3d::Computes<typename S::Boundary>;
  constexpr int r = S::kRadius, kRows = S::kRows, kCols = S::kCols;
  Element ext[2 * r + 1][kRows + 2 * r][kCols + 2 * r];
  fused3d::fillAll<S>(
      std::make_integer_sequence<int, (2 * r + 1) * (kRows + 2 * r) * (kCols + 2 * r)>(), ext, from,
      fused3d::LevelRing<S>{edge, {}, ringSlot}, center);
  constexpr int rz = reach<F>(0);
  const bool zInside = c - rz >= 0 && c + rz < nz;
  const bool planeComputed = Rule::axis(c, nz, F::kRingZ);
#pragma unroll
  for (int e = 0; e < kRows; ++e) {
    Compute value[kCols];
#pragma unroll
    for (int q = 0; q < kCols; ++q) {
      const FusedPlaneReader<S, Interior> read{args,         ext,          before,  e,  q,  c,
                                               p.yFirst + e, p.xFirst + q, zInside, nz, ny, nx};
      value[q] = toCompute(toElement<Element>(sumTerms<F>(args, read)));
      const bool computed = planeComputed && (Interior || (p.yComputed[e] && p.xComputed[q]));
      value[q] = computed ? value[q] : toCompute(from[center][e][q]);
    }
    if constexpr (F::kSources) {
      addNearSources<3, Element, typename S::Boundary>(sources, near, level, c, p.yFirst + e,
                                                       p.xFirst, nz, ny, nx, value);
    }
#pragma unroll
    for (int q = 0; q < kCols; ++q) {
      to[e][q] = toElement<Element>(value[q]);
    }
  }
}

/// Stores plane c of a thread's points to `out`: the rows and columns the
/// block stores, whole accesses where `whole`.
template <class S>
__device__ __forceinline__ void storeFieldsPlane(typename S::Element *out, const Plane3<S> &values,
                                                 int c, const fused3d::Part<S> &p, bool whole,
                                                 int ny, int nx) {
  typename S::Element *row = out + static_cast<long long>(c) * ny * nx + p.rowOffset;
#pragma unroll
  for (int e = 0; e < S::kRows; ++e, row += nx) {
    if (!p.yStored[e]) {
      continue;
    }
    if (whole) {
      typename S::Access bits;
      std::memcpy(&bits, &values[e][0], sizeof bits);
      *reinterpret_cast<typename S::Access *>(row) = bits;
    } else {
      fused3d::storePoints<S>(row, values[e], p);
    }
  }
}

/// The flags of a thread's rows (which a step computes, which the block
/// stores, which load as whole accesses), as fused3d's pass sets them, with
/// the fields' fixed ring (placePart sets the columns').
template <class S>
__device__ __forceinline__ void markPart(fused3d::Part<S> &p, bool vectorIn, int ny, int nx) {
  using F = typename S::Fields;
  using Rule = fused3d::Computes<typename S::Boundary>;
  p.vectorIn = vectorIn; // every field's buffers, not only `in` as placePart has it
#pragma unroll
  for (int e = 0; e < S::kRows; ++e) {
    const int cy = p.band * S::kRows + e;
    const int y = p.yFirst + e;
    p.yComputed[e] = Rule::axis(y, ny, F::kRingY);
    p.yStored[e] = cy >= S::kHaloY && cy < S::kHaloY + S::kTileY && y < ny;
    p.rowVector[e] = vectorIn && p.xFirst >= 0 && p.xFirst + S::kCols <= nx && y >= 0 && y < ny;
  }
}

/// One pass of Levels fused steps by the block (fused3d::pass with the
/// fields' streams): the stepped field (and u_prev) from args.level[0],
/// the last level to out, the one before it to outPrev (time levels).
/// Iteration i takes input plane i as level 0 and computes plane i - t kLag
/// of level t; plane c of every level sits in queue slot (c - iFirst) mod
/// kQueue and ring slot (c - iFirst) mod kSlots, constants once unrolled.
template <class S, int Levels, bool Interior>
__device__ __forceinline__ void passFields3(const FusedArgs<typename S::Fields, S::kSteps> &args,
                                            typename S::Element *out, typename S::Element *outPrev,
                                            int nz, int ny, int nx, bool aligned,
                                            const NearSources &near) {
  using F = typename S::Fields;
  using Element = typename S::Element;
  constexpr int r = S::kRadius, kLag = S::kLag, kQueue = S::kQueue;
  constexpr bool kTime = hasTimeLevels<S>();
  const Element *in = args.level[0].field[F::kSteppedField];
  const Element *prevIn = args.level[0].field[kTime ? F::kPreviousField : F::kSteppedField];
  Element *const ring = fused3d::rings<Element>();
  fused3d::Part<S> p;
  fused3d::placePart<S>(p, in, out, nx, fused3d::chunkOf<S>(OuterRange{0, nz}), F::kRingX);
  markPart<S>(p, aligned, ny, nx);
  const bool whole = aligned && p.xStored[0] && p.xStored[S::kCols - 1];
  Element queue[Levels][kQueue][S::kRows][S::kCols];
  fused3d::clearRingsAndQueues<S, Levels>(ring, queue);
  __syncthreads();
  const int iFirst = p.zBegin - Levels * r;
  const int iLast = p.zEnd - 1 + Levels * kLag;
  // The input planes, and u_prev's for level 1 (kLag planes behind), two
  // iterations ahead.
  Element next[2][S::kRows][S::kCols], prevNext[2][S::kRows][S::kCols];
  fused3d::loadPlane<S, Interior>(next[0], in, iFirst, p, nz, ny, nx);
  fused3d::loadPlane<S, Interior>(next[1], in, iFirst + 1, p, nz, ny, nx);
  if constexpr (kTime) {
    fused3d::loadPlane<S, Interior>(prevNext[0], prevIn, iFirst - kLag, p, nz, ny, nx);
    fused3d::loadPlane<S, Interior>(prevNext[1], prevIn, iFirst + 1 - kLag, p, nz, ny, nx);
  }
  Element *const edges = ring + p.edgeBase;
  for (int i0 = iFirst;; i0 += S::kUnroll) {
#pragma unroll
    for (int u = 0; u < S::kUnroll; ++u) {
      const int i = i0 + u;
      Element prevNow[S::kRows][S::kCols];
      fused3d::copyPlane<S>(queue[0][u % kQueue], next[u % 2]);
      if constexpr (kTime) {
        fused3d::copyPlane<S>(prevNow, prevNext[u % 2]);
      }
      if (i + 2 <= iLast) {
        fused3d::loadPlane<S, Interior>(next[u % 2], in, i + 2, p, nz, ny, nx);
        if constexpr (kTime) {
          fused3d::loadPlane<S, Interior>(prevNext[u % 2], prevIn, i + 2 - kLag, p, nz, ny, nx);
        }
      }
      fused3d::writeEdges<S>(edges + (u % S::kSlots) * S::kEdgePlane, queue[0][u % kQueue]);
#pragma unroll
      for (int t = 1; t <= Levels; ++t) {
        const int c = i - t * kLag;
        const int slot = fused3d::wrapSlot(u - t * kLag, kQueue);
        const int ringSlot = fused3d::wrapSlot(u - t * kLag, S::kSlots);
        Element result[S::kRows][S::kCols];
        computeFieldsPlane<S, Interior>(
            result, queue[t - 1], t >= 2 ? queue[t >= 2 ? t - 2 : 0][slot] : prevNow,
            edges + (t - 1) * S::kSlots * S::kEdgePlane, ringSlot, c, slot, p, args.level[t - 1],
            near, args.sources, t - 1, nz, ny, nx);
        if (t < Levels) {
          fused3d::copyPlane<S>(queue[t < Levels ? t : 0][slot], result);
          fused3d::writeEdges<S>(edges + (t * S::kSlots + ringSlot) * S::kEdgePlane, result);
        } else if (c >= p.zBegin && c < p.zEnd) {
          storeFieldsPlane<S>(out, result, c, p, whole, ny, nx);
          if constexpr (kTime) {
            storeFieldsPlane<S>(outPrev, queue[t - 1][slot], c, p, whole, ny, nx);
          }
        }
      }
      if (i == iLast) {
        return;
      }
      __syncthreads();
    }
  }
}

/// Whether every field and output of a pass is aligned to a thread's
/// access, and rows are whole accesses.
template <class S>
__device__ __forceinline__ bool
accessesAligned(const FusedArgs<typename S::Fields, S::kSteps> &args, const void *out,
                const void *outPrev, int nx) {
  constexpr auto kBytes = sizeof(typename S::Access);
  bool aligned = nx % S::kCols == 0 && reinterpret_cast<std::uintptr_t>(out) % kBytes == 0 &&
                 reinterpret_cast<std::uintptr_t>(outPrev) % kBytes == 0;
#pragma unroll
  for (int f = 0; f < S::Fields::kFields; ++f) {
    aligned = aligned && reinterpret_cast<std::uintptr_t>(args.level[0].field[f]) % kBytes == 0;
  }
  return aligned;
}

/// A pass of Levels fused steps by the block: the sources of its window
/// and planes listed first (`source u;`), then the interior version where
/// the window and every field's reads from it lie inside the grid's
/// computed points.
template <class S, int Levels>
__device__ __forceinline__ void
passFieldsBlock(const FusedArgs<typename S::Fields, S::kSteps> &args, typename S::Element *out,
                typename S::Element *outPrev, int nz, int ny, int nx) {
  using F = typename S::Fields;
  const int x0 = static_cast<int>(blockIdx.x) * S::kTileX - S::kHaloX;
  const int y0 = static_cast<int>(blockIdx.y) * S::kTileY - S::kHaloY;
  constexpr int kReach = fieldsReach<S>();
  constexpr int kRing = F::kRingX > F::kRingY ? F::kRingX : F::kRingY;
  constexpr int R = kReach > kRing ? kReach : kRing;
  const bool aligned = accessesAligned<S>(args, out, outPrev != nullptr ? outPrev : out, nx);
  const bool interior =
      aligned && x0 >= R && x0 + S::kWidth <= nx - R && y0 >= R && y0 + S::kHeight <= ny - R;
  NearSources near{nullptr, 0};
  if constexpr (F::kSources) {
    // The planes any level of the block computes, the window's rows and
    // columns.
    __shared__ NearSource list[kWarpSources];
    __shared__ int listed;
    const int zBegin = static_cast<int>(blockIdx.z) * S::kChunkZ;
    const PositionBox box{{zBegin - 2LL * Levels * S::kLag, y0, x0},
                          {static_cast<long long>(zBegin) + S::kChunkZ + Levels * S::kLag,
                           y0 + S::kHeight, x0 + S::kWidth},
                          {nz, ny, nx}};
    if (threadIdx.x < 32) {
      const NearSources found = nearSources<3, typename S::Boundary>(args.sources, box, list);
      if (threadIdx.x == 0) {
        listed = found.n;
      }
    }
    __syncthreads();
    near = NearSources{list, listed};
  }
  if (interior) {
    passFields3<S, Levels, true>(args, out, outPrev, nz, ny, nx, true, near);
  } else {
    passFields3<S, Levels, false>(args, out, outPrev, nz, ny, nx, aligned, near);
  }
}

/// The kernel of a 3D pass of Levels fused steps.
template <class S, int Levels>
__global__ void __launch_bounds__(S::kThreads, S::kMinBlocks)
    fieldsPass3Kernel(const FusedArgs<typename S::Fields, S::kSteps> args,
                      typename S::Element *__restrict__ out,
                      typename S::Element *__restrict__ outPrev, int nz, int ny, int nx) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    passFieldsBlock<S, Levels>(args, out, outPrev, nz, ny, nx);
  }
}

/// Launches one 3D pass of `levels` fused steps (1 .. kSteps) on `stream`:
/// cudaErrorInvalidValue, launching nothing, for levels out of range or a
/// grid past the launch limits.
template <class S>
inline cudaError_t launchFieldsPass3(int levels,
                                     const FusedArgs<typename S::Fields, S::kSteps> &args,
                                     typename S::Element *out, typename S::Element *outPrev, int nz,
                                     int ny, int nx, cudaStream_t stream) {
  return withLevels<S::kSteps>(levels, [&](auto kLevels) {
    constexpr int kLevelsNow = decltype(kLevels)::value;
    return fused3d::launchKernel<S, kLevelsNow>(fieldsPass3Kernel<S, kLevelsNow>,
                                                fused3d::gridFor<S>(nz, ny, nx), stream, args, out,
                                                outPrev, nz, ny, nx);
  });
}

} // namespace fields
} // namespace device
} // namespace stencilc
