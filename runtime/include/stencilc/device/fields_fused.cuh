// stencilc/device/fields_fused.cuh - the CUDA-core kernel for 2D that fuses
// several time steps of a stencil of fields into one pass over memory
// (issue 36; docs/design.md, "Fused passes for fields and at the arithmetic
// limit").
//
// It is fused.cuh's skeleton with another level: a warp streams down a strip
// of columns, level t lagging level t - 1 by r rows, every level's window in
// registers and the neighbours across the strip by warp shuffles (fused.cuh
// says how, and this file takes its pieces). Only the stepped field moves
// from level to level. Its window holds what the terms read of it, r being
// the farthest of those reads. The other inputs are streams of their own:
//
//   - the previous time level (`time u_prev, u`), read at the point only:
//     at level 1 it is u_prev, loaded a batch ahead with the stepped field;
//     at level t >= 2 it is the stepped field's level t - 2, already in that
//     level's window (row j of level t is row j of level t - 2's window:
//     the two lag each other by 2r rows, the window's carried rows);
//   - coefficient fields and other fields that do not step, the same at
//     every level: those read only at the point (c2 of the wave) carried
//     in registers from level to level, each row loaded once a pass
//     (Carried); those read beside it (varheat's kappa) from global memory
//     (through the read-only cache) at each level's rows, where the T reads
//     of a point fall within a few iterations of each other and hit L1 or
//     L2;
//   - parameters: each level has its own coefficients (Args of fields.cuh),
//     folded on the host from that step's values, so a parameter with a
//     value a step is a row of coefficients a level.
//
// Point sources (`source u;`, F::kSources): each warp first lists the
// sources near its strip in shared memory (NearSources), and adds each to
// the value of its point at every level, as the step's own kernel would
// after the step (sources.cuh's withSource), so that every level a later
// one reads, the redundant halo included, has them.
//
// Each value is computed as fields.cuh's sumTerms computes it for a single
// step, through a reader of these streams: the same operations in the same
// order, rounded to the element type after each level. Points a single step
// does not compute (the fixed ring; the outside of a constant boundary)
// keep their value of the level before, so the result of `steps` fused
// steps is bit for bit that of `steps` launches of the step kernel, at every
// point, for any grid size. With time levels a pass stores two levels: the
// last (the new stepped field) and the one before it (the new previous
// field).
//
// The fields traits type F (fields.cuh's S, with kSteppedField and
// kPreviousField, -1 without time levels) is Params::Fields; the rest of
// Params are fused.cuh's (Element, Compute, Boundary, Stencil with kRadius
// the stepped field's reach, kSteps, kWidth, kThreads, kBatch, kChunkY,
// kMinBlocks).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/fields.cuh"
#include "stencilc/device/fused.cuh"
#include "stencilc/device/receivers.cuh"
#include "stencilc/device/sources.cuh"

namespace stencilc {
namespace device {
namespace fields {

/// What a fused pass takes by value: the arguments of each of its steps,
/// the fields the same in each (the stepped and previous fields as the
/// pass's inputs), the coefficients of that step; and its sources, their
/// amplitudes from the pass's first step on (row t - 1 for level t).
template <class F, int Steps> struct FusedArgs {
  Args<F> level[Steps];
  SourceList sources;
};

/// The sources near a warp's points (`source u;`): at most kWarpSources of
/// them, in the list's order, in shared memory. Where more fall near, n
/// says so and the warp reads the whole list instead, slower but the same.
/// (In 2D z is 0.)
constexpr int kWarpSources = 32;
struct NearSource {
  int z, y, x, k;
};
struct NearSources {
  const NearSource *list;
  int n;
};

/// Where a position of a pass lies on the grid, along one axis of n points,
/// for a source there: under a periodic boundary a position outside the
/// grid is the wrapped point, computed like it (the redundant halo of a
/// small grid wraps, even more than once), so a source there adds to it
/// too; under the others a position outside is no point a source may be
/// (the host refused those), so it stays where it is.
template <class Boundary> struct SourceAxis {
  static constexpr bool kWraps = std::is_same_v<Boundary, PeriodicBoundary>;
  static __device__ __forceinline__ long long place(long long v, int n) {
    return kWraps ? stencilc_fold_index(STENCILC_BOUNDARY_PERIODIC, v, n) : v;
  }
  /// Whether some position in [lo, hi) is point v (0 <= v < n).
  static __device__ __forceinline__ bool covers(long long v, long long lo, long long hi, int n) {
    return kWraps ? hi - lo >= n || place(v - lo, n) < hi - lo : v >= lo && v < hi;
  }
};

/// Point k of a list of Dims-dimensional points, as (z, y, x): z is 0 in
/// 2D.
template <int Dims> __device__ __forceinline__ NearSource sourcePoint(const int *points, int k) {
  const int *p = points + static_cast<std::size_t>(Dims) * k;
  return {Dims == 3 ? __ldg(p) : 0, __ldg(p + Dims - 2), __ldg(p + Dims - 1), k};
}

/// A box of positions of a pass, [lo, hi) along z, y and x, on a grid of
/// n points along each (2D: z is [0, 1) of 1).
struct PositionBox {
  long long lo[3], hi[3];
  int n[3];
};

/// Lists into `list` (a warp's kWarpSources entries) the sources of the
/// Dims-dimensional list `s` at the positions of `box` (SourceAxis), in
/// order: each round of 32 a ballot, each lane's place its predecessors'
/// count. The whole warp calls it.
template <int Dims, class Boundary>
__device__ inline NearSources nearSources(const SourceList &s, const PositionBox &box,
                                          NearSource *list) {
  using Axis = SourceAxis<Boundary>;
  const int lane = static_cast<int>(threadIdx.x % 32);
  int n = 0;
  for (int base = 0; base < s.count; base += 32) {
    const int k = base + lane;
    NearSource p{0, 0, 0, k};
    bool near = false;
    if (k < s.count) {
      p = sourcePoint<Dims>(s.points, k);
      near = Axis::covers(p.z, box.lo[0], box.hi[0], box.n[0]) &&
             Axis::covers(p.y, box.lo[1], box.hi[1], box.n[1]) &&
             Axis::covers(p.x, box.lo[2], box.hi[2], box.n[2]);
    }
    const unsigned found = __ballot_sync(0xffffffffu, near);
    const int at = n + __popc(found & ((1u << lane) - 1u));
    if (near && at < kWarpSources) {
      list[at] = p;
    }
    n += __popc(found);
  }
  __syncwarp();
  return {list, n};
}

/// Adds to `value` (the positions xFirst .. xFirst + W - 1 of row y of
/// plane z (0 in 2D) of level `level` + 1 of a pass over an nz x ny x nx
/// grid) the sources there (SourceAxis), in the list's order.
template <int Dims, class Element, class Boundary, class Compute, int W>
__device__ __forceinline__ void
addNearSources(const SourceList &s, const NearSources &near, int level, long long z, long long y,
               long long xFirst, int nz, int ny, int nx, Compute (&value)[W]) {
  using Axis = SourceAxis<Boundary>;
  const double *row = s.amplitudes + static_cast<std::size_t>(level) * s.count;
  const long long pz = Axis::place(z, nz), py = Axis::place(y, ny);
  const auto add = [&](const NearSource &p) {
    if (p.z == pz && p.y == py) {
#pragma unroll
      for (int w = 0; w < W; ++w) {
        if (p.x == Axis::place(xFirst + w, nx)) {
          value[w] = withSource<Element>(value[w], __ldg(row + p.k));
        }
      }
    }
  };
  if (near.n <= kWarpSources) {
    for (int i = 0; i < near.n; ++i) {
      add(near.list[i]);
    }
  } else {
    for (int k = 0; k < s.count; ++k) {
      add(sourcePoint<Dims>(s.points, k));
    }
  }
}

/// Calls f(std::integral_constant<int, L>{}) for L = levels, 1 <= levels
/// <= Max, and returns what it returns: a launch of a kernel templated on
/// the levels of a pass; cudaErrorInvalidValue for levels out of range.
template <int Max, class F> inline cudaError_t withLevels(int levels, const F &f) {
  if constexpr (Max < 1) {
    (void)levels, (void)f;
    return cudaErrorInvalidValue;
  } else {
    return levels == Max ? f(std::integral_constant<int, Max>{}) : withLevels<Max - 1>(levels, f);
  }
}

/// Element e of a loaded access, in the arithmetic type.
template <class S>
__device__ __forceinline__ typename S::Compute elementOf(const typename S::Vector &group, int e) {
  alignas(16) typename S::Element values[S::kVec];
  *reinterpret_cast<typename S::Vector *>(values) = group;
  return toCompute(values[e]);
}

/// Params::kCarryPointFields, or true where Params has none: whether a
/// pass keeps the fields read only at the point in registers (Carried).
template <class Params, class = void> struct CarryPointFieldsOf {
  static constexpr bool value = true;
};
template <class Params>
struct CarryPointFieldsOf<Params, std::void_t<decltype(Params::kCarryPointFields)>> {
  static constexpr bool value = Params::kCarryPointFields;
};

/// The fields a pass carries from level to level in registers: up to kMax
/// of those, other than the stepped and previous ones, that every term
/// reads at the output point only (a coefficient field such as c2 of
/// `c2[i, j] * (...)`, a source field). Each level reads such a field at
/// its rows, which lag the level before by r: the rows of all levels of an
/// iteration are a window of (Levels - 1) r + kBatch rows that moves kBatch
/// rows an iteration, so a pass loads each row once, a batch ahead, instead
/// of once a level through the cache (ncu, 2026-11-29: a third of the
/// fused wave's stalls waited on those loads).
template <class S> struct Carried {
  using F = typename S::Fields;
  static constexpr int kMax = 2;
  __host__ __device__ static constexpr bool atPointOnly(int f) {
    bool read = false;
    for (int i = 0; i < F::kTermCount; ++i) {
      const FieldTerm &t = F::kTerms[i];
      if (t.field == f) {
        read = true;
        if (t.dz != 0 || t.dy != 0 || t.dx != 0) {
          return false;
        }
      }
      if (t.coefField == f) {
        read = true;
        if (t.cz != 0 || t.cy != 0 || t.cx != 0) {
          return false;
        }
      }
    }
    return read && f != F::kSteppedField && f != F::kPreviousField;
  }
  /// Field f's place among the carried, or -1.
  __host__ __device__ static constexpr int slot(int f) {
    if (!CarryPointFieldsOf<S>::value || !atPointOnly(f)) {
      return -1;
    }
    int before = 0;
    for (int g = 0; g < f; ++g) {
      before += atPointOnly(g) ? 1 : 0;
    }
    return before < kMax ? before : -1;
  }
  __host__ __device__ static constexpr int count() {
    int n = 0;
    for (int f = 0; f < F::kFields; ++f) {
      n += slot(f) >= 0 ? 1 : 0;
    }
    return n;
  }
  /// The field in slot c.
  __host__ __device__ static constexpr int field(int c) {
    for (int f = 0; f < F::kFields; ++f) {
      if (slot(f) == c) {
        return f;
      }
    }
    return -1;
  }
};

/// The reads of one output of a level: column w of row j of the batch,
/// at grid point (y, x).
///   stepped field      the window of the level before (`from`)
///   previous field     level 1: `prev`, the loaded row of u_prev; level t
///                      >= 2: row j of level t - 2's window (`before`)
///   a carried field    its row in registers (`carried`: slot c at
///                      carried[c * carriedStride + w])
///   any other field    global memory: directly where Interior, else
///                      through the boundary rule
template <class S, bool Interior> struct LevelReader {
  using F = typename S::Fields;
  const Args<F> &args;
  const fused::Row<S> (&from)[S::kRing];
  const fused::Row<S> &before; // level t - 2's row j (t >= 2)
  typename S::Compute prev;    // u_prev at the point (t = 1)
  bool firstLevel;
  int j, w;
  long long y, x;
  int ny, nx;
  const typename S::Compute *carried;
  int carriedStride;

  template <int Field, int DZ, int DY, int DX>
  __device__ __forceinline__ typename S::Compute at() const {
    constexpr int r = S::kRadius;
    static_assert(DZ == 0, "a 2D stencil");
    if constexpr (Field == F::kSteppedField) {
      return from[j + r + DY].v[r + w + DX];
    } else if constexpr (Field == F::kPreviousField) {
      static_assert(DY == 0 && DX == 0, "the previous level is read at the point");
      return firstLevel ? prev : before.v[r + w];
    } else if constexpr (constexpr int kSlot = Carried<S>::slot(Field); kSlot >= 0) {
      static_assert(DY == 0 && DX == 0, "a carried field is read at the point");
      return carried[kSlot * carriedStride + w];
    } else {
      const typename S::Element *__restrict__ f = args.field[Field];
      if constexpr (Interior) {
        // The access of the thread's holding the point, as the stepped
        // field is loaded, where the point is one of the thread's own
        // columns: the outputs of one access load the same address, which
        // the compiler loads once for all of them. A point beside them (DX
        // past the thread's columns) is one load of its own.
        const int e = w % S::kVec;
        if (e + DX >= 0 && e + DX < S::kVec) {
          return elementOf<S>(
              __ldg(reinterpret_cast<const typename S::Vector *>(f + (y + DY) * nx + x - e)),
              e + DX);
        }
        return toCompute(__ldg(f + (y + DY) * nx + x + DX));
      } else {
        return toCompute(S::Boundary::read(f, y + DY, x + DX, ny, nx));
      }
    }
  }
};

/// The thread's own columns of a row of a window.
template <class S>
__device__ __forceinline__ void ownColumns(const fused::Row<S> &row,
                                           typename S::Compute (&v)[S::kColsPerThread]) {
#pragma unroll
  for (int w = 0; w < S::kColsPerThread; ++w) {
    v[w] = row.v[S::kRadius + w];
  }
}

/// Whether the fields traits have time levels.
template <class S> __host__ __device__ constexpr bool hasTimeLevels() {
  return S::Fields::kPreviousField >= 0;
}

/// Row j of level t (its grid row y) from the window of level t - 1, into
/// `value`: every column by the terms, rounded, and where a single step
/// does not compute a point, the level before's value.
template <class S, bool Interior>
__device__ __forceinline__ void
computeRow(const Args<typename S::Fields> &args, const fused::Row<S> (&from)[S::kRing],
           const fused::Row<S> &before, const typename S::Vector (&prevGroups)[S::kGroupsPerThread],
           bool firstLevel, int j, long long y, int xFirst,
           const bool (&colComputed)[S::kColsPerThread], int ny, int nx, const SourceList &sources,
           const NearSources &near, int level, const typename S::Compute *carried,
           int carriedStride, typename S::Compute (&value)[S::kColsPerThread]) {
  using F = typename S::Fields;
#pragma unroll
  for (int w = 0; w < S::kColsPerThread; ++w) {
    typename S::Compute prev = 0;
    if constexpr (hasTimeLevels<S>()) {
      prev = elementOf<S>(prevGroups[w / S::kVec], w % S::kVec);
    }
    const LevelReader<S, Interior> read{
        args, from, before,  prev,         firstLevel, j, w, y, static_cast<long long>(xFirst) + w,
        ny,   nx,   carried, carriedStride};
    value[w] = sumTerms<F>(args, read);
  }
  fused::roundRow<S>(value);
  if constexpr (!Interior) {
    const bool rowComputed = fused::Computes<typename S::Boundary>::axis(y, ny, F::kRingY);
#pragma unroll
    for (int w = 0; w < S::kColsPerThread; ++w) {
      value[w] = rowComputed && colComputed[w] ? value[w] : from[j + S::kRadius].v[S::kRadius + w];
    }
  }
  if constexpr (F::kSources) {
    addNearSources<2, typename S::Element, typename S::Boundary>(sources, near, level, 0, y, xFirst,
                                                                 1, ny, nx, value);
  }
}

/// The carried fields' rows of an iteration (Carried): at iteration q the
/// rows [q - Levels r, q - r + kBatch) of each, row q - t r + j of level t
/// at index (Levels - t) r + j, the thread's columns in the arithmetic
/// type; the next iteration's new rows loaded a batch ahead, as the stepped
/// field's are. The rows before the first iteration's are zero: like the
/// stepped field's carried rows, they only feed rows no pass stores.
template <class S, int Levels, bool Interior> struct CarriedRows {
  using F = typename S::Fields;
  static constexpr int kCount = Carried<S>::count();
  static constexpr int C = kCount > 0 ? kCount : 1;
  static constexpr int K = (Levels - 1) * S::kRadius + S::kBatch;
  static constexpr int W = S::kColsPerThread;
  static constexpr int kStride = K * W; // from one carried field to the next
  typename S::Compute v[C][K][W];
  typename S::Vector next[C][S::kBatch][S::kGroupsPerThread];

  /// Loads the kBatch rows from row p of every carried field (its field
  /// index a constant: the traits' table is the compiler's, not the
  /// device's).
  template <int... Cs>
  __device__ __forceinline__ void fetchEach(std::integer_sequence<int, Cs...>, const Args<F> &args,
                                            int p, int xFirst, int ny, int nx, bool vectorRows) {
    (fused::fetchBatch<S, Interior>(next[Cs], args.field[Carried<S>::field(Cs)], p, xFirst, ny, nx,
                                    vectorRows),
     ...);
  }
  __device__ __forceinline__ void fetch(const Args<F> &args, int p, int xFirst, int ny, int nx,
                                        bool vectorRows) {
    fetchEach(std::make_integer_sequence<int, kCount>(), args, p, xFirst, ny, nx, vectorRows);
  }
  __device__ __forceinline__ void start(const Args<F> &args, int p, int xFirst, int ny, int nx,
                                        bool vectorRows) {
#pragma unroll
    for (int c = 0; c < kCount; ++c) {
#pragma unroll
      for (int i = 0; i < K; ++i) {
#pragma unroll
        for (int w = 0; w < W; ++w) {
          v[c][i][w] = typename S::Compute(0);
        }
      }
    }
    fetch(args, p, xFirst, ny, nx, vectorRows);
  }
  /// Moves the rows kBatch up, places the loaded ones last, and where
  /// `more`, loads the next iteration's from row p.
  __device__ __forceinline__ void advance(const Args<F> &args, bool more, int p, int xFirst, int ny,
                                          int nx, bool vectorRows) {
    constexpr int B = S::kBatch;
#pragma unroll
    for (int c = 0; c < kCount; ++c) {
#pragma unroll
      for (int i = 0; i + B < K; ++i) {
#pragma unroll
        for (int w = 0; w < W; ++w) {
          v[c][i][w] = v[c][i + B][w];
        }
      }
#pragma unroll
      for (int i = 0; i < B; ++i) {
#pragma unroll
        for (int w = 0; w < W; ++w) {
          v[c][K - B + i][w] = elementOf<S>(next[c][i][w / S::kVec], w % S::kVec);
        }
      }
    }
    if (more) {
      fetch(args, p, xFirst, ny, nx, vectorRows);
    }
  }
  /// The first carried value of row j of level t.
  __device__ __forceinline__ const typename S::Compute *at(int t, int j) const {
    if constexpr (kCount == 0) {
      (void)t, (void)j;
      return nullptr; // nothing carried: the rows' address would put them in local memory
    } else {
      return &v[0][(Levels - t) * S::kRadius + j][0];
    }
  }
};

/// A warp's stream down its strip (fused::stream's, with the streams of
/// the fields): in is the stepped field, prevIn the previous one (time
/// levels); the last level goes to out, the one before it to outPrev (time
/// levels). Interior: no point it reads is within the reach of any term
/// of the grid's edge.
template <class S, int Levels, bool Interior>
__device__ __forceinline__ void streamFields(const FusedArgs<typename S::Fields, S::kSteps> &args,
                                             typename S::Element *__restrict__ out,
                                             typename S::Element *__restrict__ outPrev, int ny,
                                             int nx, int x0, int yBegin, int yEnd, bool vectorRows,
                                             const NearSources &near) {
  using F = typename S::Fields;
  using Compute = typename S::Compute;
  constexpr int r = S::kRadius;
  constexpr int W = S::kColsPerThread;
  constexpr int B = S::kBatch;
  constexpr int G = S::kGroupsPerThread;
  constexpr int kLag = Levels * r;
  constexpr bool kTime = hasTimeLevels<S>();
  const typename S::Element *__restrict__ in = args.level[0].field[F::kSteppedField];
  const typename S::Element *__restrict__ prevIn =
      kTime ? args.level[0].field[kTime ? F::kPreviousField : 0] : nullptr;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int xFirst = x0 - S::kHalo + lane * W;
  bool colComputed[W];
#pragma unroll
  for (int w = 0; w < W; ++w) {
    colComputed[w] =
        Interior || fused::Computes<typename S::Boundary>::axis(xFirst + w, nx, F::kRingX);
  }
  fused::Row<S> win[Levels][S::kRing];
  fused::clearCarriedRows<S, Levels>(win);
  const int pFirst = yBegin - kLag;
  // The stepped field's next batch, and u_prev's rows for level 1 (r rows
  // behind), loaded an iteration ahead.
  typename S::Vector groups[B][G];
  typename S::Vector prevGroups[B][G];
  fused::fetchBatch<S, Interior>(groups, in, pFirst, xFirst, ny, nx, vectorRows);
  if constexpr (kTime) {
    fused::fetchBatch<S, Interior>(prevGroups, prevIn, pFirst - r, xFirst, ny, nx, vectorRows);
  }
  CarriedRows<S, Levels, Interior> carried; // new rows r behind level 0's
  carried.start(args.level[0], pFirst - r, xFirst, ny, nx, vectorRows);
  for (int q = pFirst; q - kLag < yEnd; q += B) {
    fused::unpackBatch<S>(win[0], groups);
    carried.advance(args.level[0], q + B - kLag < yEnd, q + B - r, xFirst, ny, nx, vectorRows);
    typename S::Vector prevNow[B][G];
#pragma unroll
    for (int i = 0; i < B; ++i) {
#pragma unroll
      for (int g = 0; g < G; ++g) {
        prevNow[i][g] = prevGroups[i][g];
      }
    }
    if (q + B - kLag < yEnd) {
      fused::fetchBatch<S, Interior>(groups, in, q + B, xFirst, ny, nx, vectorRows);
      if constexpr (kTime) {
        fused::fetchBatch<S, Interior>(prevGroups, prevIn, q + B - r, xFirst, ny, nx, vectorRows);
      }
    }
#pragma unroll
    for (int t = 1; t <= Levels; ++t) {
      const int y0 = q - t * r;
      const fused::Row<S>(&from)[S::kRing] = win[t - 1];
#pragma unroll
      for (int j = 0; j < B; ++j) {
        Compute value[W];
        computeRow<S, Interior>(args.level[t - 1], from, win[t >= 2 ? t - 2 : 0][j], prevNow[j],
                                t == 1, j, y0 + j, xFirst, colComputed, ny, nx, args.sources, near,
                                t - 1, carried.at(t, j), carried.kStride, value);
        if (t < Levels) {
#pragma unroll
          for (int w = 0; w < W; ++w) {
            win[t < Levels ? t : 0][2 * r + j].v[r + w] = value[w];
          }
          fused::shareSides<S>(win[t < Levels ? t : 0][2 * r + j]);
        } else if (y0 + j >= yBegin && y0 + j < yEnd) {
          fused::storeRow<S, Interior>(out, value, y0 + j, nx, xFirst, lane, vectorRows);
          if constexpr (kTime) {
            Compute before[W];
            ownColumns<S>(from[j + r], before);
            fused::storeRow<S, Interior>(outPrev, before, y0 + j, nx, xFirst, lane, vectorRows);
          }
        }
      }
    }
    fused::carryRows<S, Levels>(win);
  }
}

/// The farthest read of any term along y (axis 1) or x (axis 2), the fields
/// that do not step included: what the interior test must keep inside.
template <class S> __host__ __device__ constexpr int fieldsReach() {
  constexpr int ry = reach<typename S::Fields>(1), rx = reach<typename S::Fields>(2);
  constexpr int rf = ry > rx ? ry : rx;
  return rf > S::kRadius ? rf : S::kRadius;
}

/// One pass of Levels fused steps (fused::pass's layout: kWarps strips of
/// kTileX stored columns a block along x, chunkY rows along y).
template <class S, int Levels>
__device__ __forceinline__ void passFields(const FusedArgs<typename S::Fields, S::kSteps> &args,
                                           typename S::Element *__restrict__ out,
                                           typename S::Element *__restrict__ outPrev, int ny,
                                           int nx, int chunkY) {
  static_assert(Levels >= 1 && Levels <= S::kSteps, "a pass fuses 1 .. kSteps steps");
  constexpr int R = fieldsReach<S>();
  constexpr int kLag = Levels * S::kRadius;
  const long long x0 =
      (static_cast<long long>(blockIdx.x) * S::kWarps + threadIdx.x / 32) * S::kTileX;
  if (x0 >= nx) {
    return; // the whole warp: no barrier follows
  }
  const int yBegin = static_cast<int>(blockIdx.y) * chunkY;
  const int yEnd = yBegin + chunkY < ny ? yBegin + chunkY : ny;
  // Every field must be aligned for the interior's direct accesses; the
  // stepped field's and u_prev's rows for vector ones.
  bool aligned =
      nx % S::kVec == 0 && reinterpret_cast<std::uintptr_t>(out) % S::kAccessBytes == 0 &&
      (outPrev == nullptr || reinterpret_cast<std::uintptr_t>(outPrev) % S::kAccessBytes == 0);
#pragma unroll
  for (int f = 0; f < S::Fields::kFields; ++f) {
    aligned =
        aligned && reinterpret_cast<std::uintptr_t>(args.level[0].field[f]) % S::kAccessBytes == 0;
  }
  // Rows read: [yBegin - kLag - r, yEnd + kLag + kBatch) and R more for the
  // fields that do not step; columns: the strip and R either side.
  const bool interior = aligned && yBegin - kLag - R >= 0 &&
                        static_cast<long long>(yEnd) + kLag + S::kBatch + R <= ny &&
                        x0 - S::kHalo >= R && x0 - S::kHalo + S::kWidth + R <= nx;
  // The sources of the rows any level of the warp computes (from 2 kLag
  // above its first stored row to kLag and a batch below its last) and of
  // its strip's columns.
  NearSources near{nullptr, 0};
  if constexpr (S::Fields::kSources) {
    __shared__ NearSource list[S::kWarps][kWarpSources];
    const PositionBox box{
        {0, yBegin - 2LL * kLag, x0 - S::kHalo},
        {1, static_cast<long long>(yEnd) + kLag + S::kBatch, x0 - S::kHalo + S::kWidth},
        {1, ny, nx}};
    near = nearSources<2, typename S::Boundary>(args.sources, box, list[threadIdx.x / 32]);
  }
  if (interior) {
    streamFields<S, Levels, true>(args, out, outPrev, ny, nx, static_cast<int>(x0), yBegin, yEnd,
                                  true, near);
  } else {
    streamFields<S, Levels, false>(args, out, outPrev, ny, nx, static_cast<int>(x0), yBegin, yEnd,
                                   aligned, near);
  }
}

/// The kernel of a pass of Levels fused steps.
template <class S, int Levels>
__global__ void __launch_bounds__(S::kThreads, S::kMinBlocks)
    fieldsPassKernel(const FusedArgs<typename S::Fields, S::kSteps> args,
                     typename S::Element *__restrict__ out,
                     typename S::Element *__restrict__ outPrev, int ny, int nx, int chunkY) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    passFields<S, Levels>(args, out, outPrev, ny, nx, chunkY);
  }
}

/// The rows a block of a pass stores: kChunkY, halved (not below 8) while
/// the grid would have fewer than two waves of the blocks the plan fits on
/// the device's multiprocessors (kMinBlocks each). A warp streams its rows
/// one after another, so a small grid needs short chunks to fill the GPU;
/// each chunk recomputes the rows its levels lag by, which costs less than
/// idle multiprocessors (an H200 at 1024^2: 8 chunks of 128 rows a strip).
template <class S> inline int chunkRowsFor(int ny, int nx) {
  int device = 0, multiprocessors = 1;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device) !=
          cudaSuccess) {
    multiprocessors = 1;
  }
  const long long columnsOfBlocks = fused::gridFor<S>(1, nx).x;
  const long long wanted = 2LL * S::kMinBlocks * multiprocessors;
  int chunk = S::kChunkY;
  while (chunk > 8 && columnsOfBlocks * ((ny + chunk - 1) / chunk) < wanted) {
    chunk /= 2;
  }
  return chunk;
}

/// Launches one pass of `levels` fused steps (1 .. kSteps) on `stream`:
/// cudaErrorInvalidValue, launching nothing, for levels out of range or a
/// grid past the launch limits.
template <class S>
inline cudaError_t launchFieldsPass(int levels,
                                    const FusedArgs<typename S::Fields, S::kSteps> &args,
                                    typename S::Element *out, typename S::Element *outPrev, int ny,
                                    int nx, int chunkY, cudaStream_t stream) {
  dim3 grid = fused::gridFor<S>(ny, nx);
  grid.y = static_cast<unsigned>((ny + chunkY - 1) / chunkY);
  if (grid.y > 65535u) {
    return cudaErrorInvalidValue;
  }
  return withLevels<S::kSteps>(levels, [&](auto kLevels) {
    fieldsPassKernel<S, decltype(kLevels)::value>
        <<<grid, S::kThreads, 0, stream>>>(args, out, outPrev, ny, nx, chunkY);
    return cudaGetLastError();
  });
}

} // namespace fields
} // namespace device
} // namespace stencilc
