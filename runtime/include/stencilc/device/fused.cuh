// stencilc/device/fused.cuh - the CUDA-core kernel for 2D that fuses
// several time steps into one pass over memory (temporal blocking in the
// manner of EBISU and AN5D), less the stencil itself. Issue 19.
//
// Each warp owns a strip of kWidth columns (32 threads, each kWidth / 32
// adjacent columns) and kChunkY output rows of an ny x nx grid, and streams
// down the rows on its own: no shared memory, no barrier. The strip stores
// its middle kTileX = kWidth - 2 kHalo columns, kHalo being kSteps * r
// rounded up to a whole memory access: the redundant halo that the levels
// eat into, r columns per level, so that level kSteps is right on the
// kTileX columns it stores. Level 0 is the input, level t the result of t
// steps; each thread keeps, per level 0 .. Levels - 1, a window of
// kRing = kBatch + 2r rows of its columns and the r columns either side, in
// registers. Each iteration of the stream:
//
//   1. the kBatch input rows loaded in the iteration before become level
//      0's new window rows, and the loads of the next kBatch rows start
//      (the boundary rule element by element at the grid's edge);
//   2. kBatch rows of each level t = 1 .. Levels are computed from level
//      t - 1's window, level t lagging level t - 1 by r rows (level t's
//      rows are [q - t r, q - t r + kBatch) when level 0 has rows up to
//      q + kBatch); a row's side columns come from the threads beside by
//      warp shuffles, once a row (as it enters its window, or for a star
//      just before the point that reads them: SidesOf); level Levels goes
//      to global memory;
//   3. each window carries its last 2r rows on.
//
// Per point and per level the value is what a stored single step gives:
// the terms' FMAs in the order of the stencil's term list, accumulated in
// the Compute type from 0, rounded to the Element type. Where a point of a
// level is not computed by a single step it keeps its value of the level
// before, which makes it the boundary's value at every level:
//
//   FixedBoundary             the ring of width r (and the outside, read as
//                             0 and never used by a computed point) keeps
//                             the input's value;
//   ConstantBoundary<Value>   the outside is loaded as Value at level 0 and
//                             keeps it;
//   PeriodicBoundary          every point is computed: the input is loaded
//                             wrapped, so every level is the periodic
//                             extension of the grid, halo included;
//   clamp, mirror, reflect    a pass of one level reads the folds and is
//                             exact; a pass of more reads 0 outside
//                             (ReadsOutside) and is exact Levels r inside
//                             the grid, the band (fused_band.cuh)
//                             recomputing the points nearer an edge.
//
// The rows and columns of a level whose inputs are not yet (or no longer)
// in the warp's window are computed too, from stale window rows (zero at
// first) or, at the strip's two outer threads, from the thread's own
// values, but only ever feed points of later levels that are themselves
// outside the part the warp stores. The result of `steps` steps is therefore bit-identical
// to `steps` single steps at every point, for any grid size (a grid smaller
// than the strip or than the halo included).
//
// The stencil comes from the traits type Params::Stencil:
//
//   struct Stencil {
//     static constexpr int kRadius = 1, kTerms = 5;
//     template <class C> static __host__ __device__ constexpr Term<C> term(int i);
//   };
//
// term(i) is the i-th term (dy, dx, coefficient) in the order of the FMAs;
// the coefficient is given in the Compute type (the host reference can use
// the same function). The rest of Params (listed at Geometry) are the
// kernel's numbers.
//
// A stencil of low rank (docs/generated-code.md, "Low-rank form") also has
// its row passes and the multiply-adds that combine them:
//
//   static constexpr int kPasses = 1, kRowTaps = 7, kPassTerms = 7;
//   template <class C> static constexpr RowTap<C> rowTap(int i);   // by pass, then dx
//   template <class C> static constexpr PassTerm<C> passTerm(int i); // by dy
//
// and the kernel evaluates that instead of the terms: each row of a level,
// once it is in the window, gets its kPasses intermediates (per pass the
// first tap a product, then multiply-adds, over the row's columns); a point
// of the next level is, from 0, the passTerm multiply-adds of the
// intermediates (pass >= 0) or of the input (pass -1) of rows y + dy. The
// intermediates of each level's window are carried in registers like its
// rows, so each is computed once per row and point, as the operation count
// of the analysis has it. The step kernel (simt.cuh, with the generated
// addPlane) adds the same multiply-adds in the same order per output, so a
// fused pass still gives what as many single steps give, bit for bit.
//
// The queued form (Params::kQueued; streamQueued) turns each level inside
// out: instead of a window of the rows below, a level keeps the partial
// sums of its kRing rows still open, and each row of the level below, once
// computed (and its passes, in the low-rank form), is added into the 2r + 1
// rows it reaches and dropped, as the step kernel adds a plane into its
// queue. It holds no side columns of old rows: what lets the wide boxes
// fuse. Each output still gets its multiply-adds in the step kernel's
// order (the terms come by rows: TermsByRow), so it is bit for bit the
// window form.
//
// A stencil in packed 16-bit arithmetic (--plan-option arith=packed, fp16
// or bf16) also has
//
//   static constexpr bool kPacked = true;
//   static constexpr unsigned short packedBits(int i); // term i's coefficient
//
// and each level's point is then, per pair of adjacent columns, from 0,
// one __hfma2 a term in the order of term(), each rounded to the element
// type (applyPacked), as the step kernel's generated addPlane adds them.
//
// An fp64 stencil whose coefficients the planner scaled (integers k over
// one denominator D, docs/generated-code.md, "Scaled coefficients") also has
//
//   static constexpr double kScale; // 1/D rounded once
//
// and its terms' coefficients are the k; each finished sum is multiplied by
// kScale (scaledSum, element.cuh), as the step kernel multiplies each
// finished queue entry (fused1d.cuh and fused3d.cuh do the same). The
// direct form only (not low-rank, not packed).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/arch.cuh"
#include "stencilc/device/boundary.cuh"
#include "stencilc/device/dependent.cuh"
#include "stencilc/device/element.cuh"
#include "stencilc/device/host.cuh"
#include "stencilc/device/memory.cuh"
#include "stencilc/device/range.cuh"

namespace stencilc {
namespace device {
namespace fused {

/// One term of a stencil: coefficient c times the input at (y + dy, x + dx).
template <class C> struct Term {
  int dy, dx;
  C c;
};

/// One tap of a low-rank row pass: intermediate `pass` gains c times the
/// row's value at column offset dx.
template <class C> struct RowTap {
  int pass, dx;
  C c;
};

/// One multiply-add of a low-rank point: c times, at row offset dy,
/// intermediate `pass` (pass >= 0) or the value at column offset dx (-1).
template <class C> struct PassTerm {
  int dy, pass, dx;
  C c;
};

/// Whether Stencil has a low-rank form (kPasses), and its sizes; kSlots is
/// kPasses, at least 1 (an array's extent).
template <class Stencil, class = void> struct LowRankOf {
  static constexpr bool value = false;
  static constexpr int kPasses = 0, kRowTaps = 0, kPassTerms = 0, kSlots = 1;
};
template <class Stencil> struct LowRankOf<Stencil, std::void_t<decltype(Stencil::kPasses)>> {
  static constexpr bool value = true;
  static constexpr int kPasses = Stencil::kPasses, kRowTaps = Stencil::kRowTaps,
                       kPassTerms = Stencil::kPassTerms;
  static constexpr int kSlots = kPasses > 0 ? kPasses : 1;
};

/// Whether Stencil is evaluated in packed 16-bit arithmetic (kPacked,
/// --plan-option arith=packed), its coefficients' bits from packedBits(i).
template <class Stencil, class = void> struct PackedOf : std::false_type {};
template <class Stencil>
struct PackedOf<Stencil, std::void_t<decltype(Stencil::kPacked)>> : std::true_type {};

/// Which points a single step computes, by the boundary rule; the others
/// keep their value (the fixed ring, the outside of a constant boundary).
/// kEveryPoint: the rule computes every point (periodic).
template <class Boundary> struct Computes {
  static constexpr bool kEveryPoint = false;
  /// Whether the point at y, of a grid of n along that axis, is computed.
  static __device__ __forceinline__ bool axis(long long y, int n, int) { return y >= 0 && y < n; }
};
template <> struct Computes<FixedBoundary> {
  static constexpr bool kEveryPoint = false;
  static __device__ __forceinline__ bool axis(long long y, int n, int r) {
    return y >= r && y < n - r;
  }
};
template <> struct Computes<PeriodicBoundary> {
  static constexpr bool kEveryPoint = true;
  static __device__ __forceinline__ bool axis(long long, int, int) { return true; }
};

/// The rule a fused pass of Levels levels reads the grid's outside by: the
/// boundary's own, but in a pass of two or more under clamp, mirror or
/// reflect, which reads 0 there as a fixed boundary does. Such a pass is
/// exact only Levels r inside the grid whatever it reads outside, and the
/// band after it (fused_band.cuh) recomputes every point nearer an edge,
/// so the folds were work for nothing. In 3D their loads point by point at
/// the x edges made ptxas spill 360-400 bytes in each edge copy of the pass
/// (star3d7p fp32 at T 4: 724 bytes in all against 108 at fixed).
/// A pass of one level (NAME_step's) is exact alone and reads the folds.
template <class Boundary, int Levels>
using ReadsOutside =
    std::conditional_t<FoldsReads<Boundary>::value && Levels >= 2, FixedBoundary, Boundary>;

/// Whether fused geometry S's passes are exact without the band: under a
/// folding rule a pass of two or more levels reads 0 outside the grid
/// (ReadsOutside), so each run of such an S is fused_band.cuh's runBanded,
/// never run alone.
template <class S>
inline constexpr bool kPassesExactAlone =
    !FoldsReads<typename S::Boundary>::value || S::kSteps == 1;

/// The smallest extent per axis a boundary rule allows (fixed: 2r + 1).
template <class Boundary> constexpr int minExtent(int radius) {
  return std::is_same_v<Boundary, FixedBoundary> ? 2 * radius + 1 : 1;
}

/// The Ring argument of NAME_step's pass of one level (each fused header's
/// `step`): false where a fixed ring must be left as it was; elsewhere a
/// step computes every point, and the pass NAME_run launches serves.
template <class Boundary>
constexpr bool kStepStoresEveryPoint = !std::is_same_v<Boundary, FixedBoundary>;

/// The type of a memory access of 4, 8 or 16 bytes.
template <int Bytes> struct VectorOf {
  using type = uint4;
};
template <> struct VectorOf<8> {
  using type = uint2;
};
template <> struct VectorOf<4> {
  using type = unsigned;
};

/// Params::kMinBlocks, or 1 where Params has none.
template <class Params, class = void> struct MinBlocksOf {
  static constexpr int value = 1;
};
template <class Params> struct MinBlocksOf<Params, std::void_t<decltype(Params::kMinBlocks)>> {
  static constexpr int value = Params::kMinBlocks;
};

/// The sizes of a fused kernel, from Params:
///   Element, Compute   the grid's element type and the arithmetic type
///   Boundary           a boundary policy of boundary.cuh
///   Stencil            the terms (see above); Stencil::kRadius is r
///   kSteps             T, the steps fused per pass (1 .. 8)
///   kWidth             the columns of one warp's strip, halo included:
///                      32 x the columns per thread, each thread owning
///                      kWidth / 32 adjacent columns (at least r of them,
///                      4 bytes or more, the widest of 16-, 8- and 4-byte
///                      accesses that divides them), loaded and stored
///                      kVec at a time
///   kThreads           threads per block, a multiple of 32: the block's
///                      warps take kThreads / 32 strips side by side
///   kBatch             rows per level per iteration of the stream
///   kChunkY            output rows per block (per warp)
///   kMinBlocks         optional (1 where absent): blocks per multiprocessor
///                      the compiler must fit in registers (the second
///                      argument of __launch_bounds__)
///   kSidesAtEntry      optional (false where absent): share every row's
///                      side columns as it enters its window (SidesOf)
///   kQueued            optional (false where absent): the queued form
///                      (streamQueued) instead of the windows
///   kPrefetchRows      optional (0 where absent): an L2 prefetch that many
///                      rows ahead inside the grid (PrefetchRowsOf)
///   kPairedSums        optional (false where absent): the queued low-rank
///                      form in the paired order (Paired, PairedSumsOf)
/// Each level of a warp lives in registers; nothing is in shared memory.
template <class Params> struct Geometry : Params {
  using Element = typename Params::Element;
  using Compute = typename Params::Compute;
  using Stencil = typename Params::Stencil;
  static constexpr int kRadius = Stencil::kRadius;
  static constexpr int kTerms = Stencil::kTerms;
  static constexpr int kColsPerThread = Params::kWidth / 32;
  /// Elements per memory access: the widest of 16, 8 and 4 bytes that
  /// divides a thread's columns (3 floats a thread: 4-byte accesses), or
  /// all of them where they are fewer bytes.
  static constexpr int kThreadBytes = kColsPerThread * static_cast<int>(sizeof(Element));
  static constexpr int kAccessBytes = kThreadBytes % 16 == 0  ? 16
                                      : kThreadBytes % 8 == 0 ? 8
                                      : kThreadBytes % 4 == 0 ? 4
                                                              : kThreadBytes;
  static constexpr int kVec = kAccessBytes / static_cast<int>(sizeof(Element));
  using Vector = typename VectorOf<kAccessBytes>::type;
  /// The redundant halo each side: kSteps * r, whole accesses.
  static constexpr int kHalo = (Params::kSteps * kRadius + kVec - 1) / kVec * kVec;
  /// The columns a warp stores.
  static constexpr int kTileX = Params::kWidth - 2 * kHalo;
  static constexpr int kWarps = Params::kThreads / 32;
  static constexpr int kMinBlocks = MinBlocksOf<Params>::value;
  /// A thread's columns as accesses.
  static constexpr int kGroupsPerThread = kColsPerThread / kVec;
  /// Rows of a level's window in registers: a batch and the 2r rows
  /// before it.
  static constexpr int kRing = Params::kBatch + 2 * kRadius;

  static_assert(Params::kSteps >= 1 && Params::kSteps <= 8, "1 to 8 fused steps");
  static_assert(kRadius >= 1, "a stencil of radius 0 needs no kernel");
  static_assert(Params::kThreads % 32 == 0, "whole warps");
  static_assert(Params::kWidth % 32 == 0 && kColsPerThread % kVec == 0 &&
                    (kAccessBytes == 4 || kAccessBytes == 8 || kAccessBytes == 16),
                "a thread's columns are whole 4-, 8- or 16-byte accesses");
  static_assert(kColsPerThread >= kRadius, "the neighbours come from the next thread only");
  static_assert(kTileX >= kVec, "the halo leaves columns to store");
  static_assert(Params::kChunkY >= 1 && Params::kBatch >= 1, "rows per block and per batch");

  /// Shared memory of a pass of `levels` fused steps: none (the levels are
  /// in registers).
  static constexpr int sharedBytes(int) { return 0; }
};

/// The kVec elements of row y, columns [x, x + kVec): one load where the
/// whole access is in the grid (and `vectorRows`), the boundary rule
/// (ReadsOutside's for a pass of Levels levels) element by element
/// elsewhere.
template <class S, int Levels = 1>
__device__ __forceinline__ typename S::Vector fetchGroup(const typename S::Element *__restrict__ in,
                                                         long long y, long long x, int ny, int nx,
                                                         bool vectorRows) {
  if (vectorRows && y >= 0 && y < ny && x >= 0 && x + S::kVec <= nx) {
    return __ldg(reinterpret_cast<const typename S::Vector *>(in + y * nx + x));
  }
  return readRun<ReadsOutside<typename S::Boundary, Levels>, typename S::Vector, RunRead::kEach>(
      in, y, x, ny, nx);
}

/// One row of a level in a thread's registers: its kColsPerThread columns
/// at [r, r + kColsPerThread), the r columns either side (the neighbouring
/// threads' own) at [0, r) and past the thread's.
template <class S> struct Row {
  typename S::Compute v[S::kColsPerThread + 2 * S::kRadius];
};

/// The low-rank intermediates of a window's rows: per row, pass and
/// column of the thread.
template <class S> struct PassRows {
  typename S::Compute v[S::kRing][LowRankOf<typename S::Stencil>::kSlots][S::kColsPerThread];
};

/// Fills the side columns of `row` from the threads beside (a warp's
/// outermost threads get their own values: the strip's edges, never
/// stored).
template <class S> __device__ __forceinline__ void shareSides(Row<S> &row) {
  constexpr int r = S::kRadius, W = S::kColsPerThread;
#pragma unroll
  for (int k = 0; k < r; ++k) {
    row.v[k] = __shfl_up_sync(0xFFFFFFFFu, row.v[W + k], 1);
    row.v[r + W + k] = __shfl_down_sync(0xFFFFFFFFu, row.v[r + k], 1);
  }
}

/// When a window row's side columns are shared. A stencil whose terms
/// reach sideways (dx != 0) at one row offset kDy only (every star: dy 0),
/// in the direct or packed form, shares them just before the one point
/// that reads them (AtUse), so that between a row's entry and that use its
/// sides hold no registers (2r sides a row for r rows of each level: what
/// kept the stars' windows from fitting); the shuffles are as many and
/// move the same values. Other stencils (boxes, the low-rank form's row
/// passes) read them at several rows and share them once a row enters its
/// window; so do those whose Params set kSidesAtEntry (the planner's
/// measured choice: at radius 1 the at-use shuffles' latency showed where
/// the registers did not bind). kNoRow: no term reaches sideways, nothing
/// is shared.
template <class S, class = void> struct SidesAtEntryOf : std::false_type {};
template <class S>
struct SidesAtEntryOf<S, std::void_t<decltype(S::kSidesAtEntry)>>
    : std::bool_constant<S::kSidesAtEntry> {};
template <class S> struct SidesOf {
  static constexpr int kNoRow = -(1 << 20), kSeveral = 1 << 20;
  static constexpr int sidewaysRow() {
    int row = kNoRow;
    for (int k = 0; k < S::kTerms; ++k) {
      const Term<typename S::Compute> term = S::Stencil::template term<typename S::Compute>(k);
      if (term.dx != 0 && term.dy != row) {
        if (row != kNoRow) {
          return kSeveral;
        }
        row = term.dy;
      }
    }
    return row;
  }
  static constexpr int kDy = sidewaysRow();
  static constexpr bool kAtUse =
      !LowRankOf<typename S::Stencil>::value && kDy != kSeveral && !SidesAtEntryOf<S>::value;
};

/// Rounds a row's own values to Element and back (exact both ways): pairs
/// of fp16 or bf16 at once.
template <class S>
__device__ __forceinline__ void roundRow(typename S::Compute (&v)[S::kColsPerThread]) {
  using Element = typename S::Element;
  if constexpr (std::is_same_v<Element, __half>) {
#pragma unroll
    for (int w = 0; w < S::kColsPerThread; w += 2) {
      const float2 f = __half22float2(__floats2half2_rn(v[w], v[w + 1]));
      v[w] = f.x, v[w + 1] = f.y;
    }
  } else if constexpr (std::is_same_v<Element, __nv_bfloat16>) {
#pragma unroll
    for (int w = 0; w < S::kColsPerThread; w += 2) {
      const __nv_bfloat162 p = __floats2bfloat162_rn(v[w], v[w + 1]);
      const unsigned word = *reinterpret_cast<const unsigned *>(&p);
      v[w] = __uint_as_float(word << 16), v[w + 1] = __uint_as_float(word & 0xFFFF0000u);
    }
  }
}

/// The access g of a thread's row values (already rounded).
template <class S>
__device__ __forceinline__ typename S::Vector
packGroup(const typename S::Compute (&v)[S::kColsPerThread], int g) {
  using Element = typename S::Element;
  alignas(16) Element values[S::kVec];
#pragma unroll
  for (int e = 0; e < S::kVec; ++e) {
    values[e] = toElement<Element>(v[g * S::kVec + e]);
  }
  return *reinterpret_cast<const typename S::Vector *>(values);
}

/// Zeroes the 2r carried rows of every level's window before the first
/// iteration: stale rows only feed rows not stored, but must be defined.
template <class S, int Levels>
__device__ __forceinline__ void clearCarriedRows(Row<S> (&win)[Levels][S::kRing]) {
  constexpr int r = S::kRadius;
#pragma unroll
  for (int t = 0; t < Levels; ++t) {
#pragma unroll
    for (int i = 0; i < 2 * r; ++i) {
#pragma unroll
      for (int c = 0; c < S::kColsPerThread + 2 * r; ++c) {
        win[t][i].v[c] = typename S::Compute(0); // stale rows only feed rows not stored
      }
    }
  }
}

/// Calls f(v) on each carried intermediate of every level, v the row i's
/// (i < 2r) and next(v) the one kBatch rows below it.
template <class S, int Levels, class F>
__device__ __forceinline__ void forEachCarriedPass(PassRows<S> (&passes)[Levels], F f) {
#pragma unroll
  for (int t = 0; t < Levels; ++t) {
#pragma unroll
    for (int i = 0; i < 2 * S::kRadius; ++i) {
#pragma unroll
      for (int p = 0; p < LowRankOf<typename S::Stencil>::kSlots; ++p) {
#pragma unroll
        for (int w = 0; w < S::kColsPerThread; ++w) {
          f(passes[t].v[i][p][w], passes[t].v[i + S::kBatch][p][w]);
        }
      }
    }
  }
}

/// Zeroes the intermediates of those carried rows (the passes of zero rows).
template <class S, int Levels>
__device__ __forceinline__ void clearCarriedPasses(PassRows<S> (&passes)[Levels]) {
  using Compute = typename S::Compute;
  forEachCarriedPass<S, Levels>(passes, [](Compute &v, const Compute &) { v = Compute(0); });
}

/// Params::kPrefetchRows, or 0 where Params has none: how many rows past
/// a batch's the interior stream asks the L2 to fetch from memory.
template <class S, class = void> struct PrefetchRowsOf {
  static constexpr int value = 0;
};
template <class S> struct PrefetchRowsOf<S, std::void_t<decltype(S::kPrefetchRows)>> {
  static constexpr int value = S::kPrefetchRows;
};

/// Starts the loads of kBatch input rows from row p, the thread's groups of
/// each (the boundary rule only where a point may be outside the grid);
/// inside the grid, with PrefetchRowsOf, an L2 prefetch of the row that
/// many rows further (the last row past the grid's end). Levels: the
/// pass's, by which ReadsOutside gives the rule outside the grid.
template <class S, bool Interior, int Levels = 1>
__device__ __forceinline__ void
fetchBatch(typename S::Vector (&groups)[S::kBatch][S::kGroupsPerThread],
           const typename S::Element *__restrict__ in, int p, int xFirst, int ny, int nx,
           bool vectorRows) {
#pragma unroll
  for (int i = 0; i < S::kBatch; ++i) {
#pragma unroll
    for (int g = 0; g < S::kGroupsPerThread; ++g) {
      if constexpr (Interior) {
        groups[i][g] = __ldg(reinterpret_cast<const typename S::Vector *>(
            in + static_cast<long long>(p + i) * nx + xFirst + g * S::kVec));
        if constexpr (PrefetchRowsOf<S>::value > 0) {
          if (g == 0) {
            const int ahead = min(p + i + PrefetchRowsOf<S>::value, ny - 1);
            prefetchL2(in + static_cast<long long>(ahead) * nx + xFirst);
          }
        }
      } else {
        groups[i][g] = fetchGroup<S, Levels>(in, p + i, xFirst + g * S::kVec, ny, nx, vectorRows);
      }
    }
  }
}

/// Places the loaded batch in level 0's window, rows [2r, 2r + kBatch) (or,
/// Rows being kBatch, in a batch of rows alone: the queued form), as
/// Compute values, with the side columns from the threads beside (unless
/// Sides is false: SidesOf's AtUse).
template <class S, bool Sides = true, int Rows = S::kRing>
__device__ __forceinline__ void
unpackBatch(Row<S> (&win0)[Rows],
            const typename S::Vector (&groups)[S::kBatch][S::kGroupsPerThread]) {
  constexpr int r = S::kRadius;
  constexpr int kFirst = Rows - S::kBatch; // 2r in a window, 0 in a batch alone
#pragma unroll
  for (int i = 0; i < S::kBatch; ++i) {
#pragma unroll
    for (int g = 0; g < S::kGroupsPerThread; ++g) {
      alignas(16) typename S::Element values[S::kVec];
      *reinterpret_cast<typename S::Vector *>(values) = groups[i][g];
#pragma unroll
      for (int e = 0; e < S::kVec; ++e) {
        win0[kFirst + i].v[r + g * S::kVec + e] = toCompute(values[e]);
      }
    }
    if constexpr (Sides) {
      shareSides<S>(win0[kFirst + i]);
    }
  }
}

/// One step at row j of a level's batch: the stencil over the window
/// `from`, each term a multiply-add, for the thread's columns.
template <class S>
__device__ __forceinline__ void applyStencil(const Row<S> (&from)[S::kRing], int j,
                                             typename S::Compute (&value)[S::kColsPerThread]) {
  using Compute = typename S::Compute;
  constexpr int r = S::kRadius;
#pragma unroll
  for (int w = 0; w < S::kColsPerThread; ++w) {
    Compute acc = Compute(0);
#pragma unroll
    for (int k = 0; k < S::kTerms; ++k) {
      const Term<Compute> term = S::Stencil::template term<Compute>(k);
      acc = madd(term.c, from[j + r + term.dy].v[r + w + term.dx], acc);
    }
    value[w] = scaledSum<typename S::Stencil>(acc);
  }
}

/// One step at row j of a level's batch in packed 16-bit arithmetic: per
/// pair of the thread's columns, from (+0, +0), each term one __hfma2 on
/// the pair, in the order of the terms (the step kernel's per output),
/// each rounded to the element type. The window's values are fp16 or bf16
/// numbers held as floats, so packing them is exact.
template <class S>
__device__ __forceinline__ void applyPacked(const Row<S> (&from)[S::kRing], int j,
                                            typename S::Compute (&value)[S::kColsPerThread]) {
  using P = Packed<typename S::Element>;
  constexpr int r = S::kRadius;
  static_assert(S::kColsPerThread % 2 == 0, "a thread's columns are whole pairs");
#pragma unroll
  for (int w = 0; w < S::kColsPerThread; w += 2) {
    typename P::Pair acc = P::both(0);
#pragma unroll
    for (int k = 0; k < S::kTerms; ++k) {
      const Term<typename S::Compute> term = S::Stencil::template term<typename S::Compute>(k);
      const typename S::Compute *row = from[j + r + term.dy].v;
      acc = __hfma2(P::both(S::Stencil::packedBits(k)),
                    P::of(row[r + w + term.dx], row[r + w + term.dx + 1]), acc);
    }
    const float2 both = P::widen(acc);
    value[w] = both.x, value[w + 1] = both.y;
  }
}

/// One tap c * x of a low-rank intermediate h, as the generated code adds
/// it: the first a product (none for a weight of 1), the others
/// multiply-adds.
template <class C> __device__ __forceinline__ C addTap(bool first, C c, C x, C h) {
  return first ? (c == C(1) ? x : mul(c, x)) : madd(c, x, h);
}

/// Row pass `pass` of a low-rank Stencil (2D, or 3D's fused3d.cuh) at one
/// point, as the generated rowPasses compute it: from its taps in rowTap's
/// order, the first a product (none for a weight of 1), then
/// multiply-adds; x(dx) is the row's value at column offset dx.
template <class Stencil, class C, class Value>
__device__ __forceinline__ C rowPass(int pass, Value x) {
  C h = C(0);
  bool first = true;
#pragma unroll
  for (int k = 0; k < Stencil::kRowTaps; ++k) {
    const RowTap<C> tap = Stencil::template rowTap<C>(k);
    if (tap.pass == pass) {
      h = addTap(first, tap.c, x(tap.dx), h);
      first = false;
    }
  }
  return h;
}

/// The row passes of `row` (its side columns shared) into `h`, for the
/// thread's columns.
template <class S>
__device__ __forceinline__ void
rowPasses(const Row<S> &row,
          typename S::Compute (&h)[LowRankOf<typename S::Stencil>::kSlots][S::kColsPerThread]) {
  constexpr int r = S::kRadius;
#pragma unroll
  for (int w = 0; w < S::kColsPerThread; ++w) {
#pragma unroll
    for (int p = 0; p < LowRankOf<typename S::Stencil>::kPasses; ++p) {
      h[p][w] = rowPass<typename S::Stencil, typename S::Compute>(
          p, [&](int dx) { return row.v[r + w + dx]; });
    }
  }
}

/// The index of the first (or, `last`, the last) passTerm of pass 0 of a
/// low-rank Stencil (its run along y in the paired order), or -1.
template <class Stencil, class C> constexpr int runTermOf(bool last) {
  int found = -1;
  for (int k = 0; k < Stencil::kPassTerms; ++k) {
    if (Stencil::template passTerm<C>(k).pass == 0 && (last || found < 0)) {
      found = k;
    }
  }
  return found;
}

/// The paired order of a low-rank stencil (PairedSumsOf): one row pass
/// whose taps are the columns [kLoX, kHiX], each of weight 1, one
/// coefficient kC times that pass on the rows [kLoY, kHiY], and maybe terms
/// at the point (pass -1, a centre) on those rows. A point's row pass adds
/// its columns in blocks, a pair (x, x + 1) of an even x where both are
/// its, else one column, blocks left to right; a point's sum adds kC times
/// its rows' passes in blocks the same way, a pair of rows as their
/// passes' sum, each block after the terms at the point of its rows.
/// Adjacent points share their pairs (runs of 7 taps: 3.5 additions a
/// point instead of 6 along x, 4 multiply-adds and half an addition
/// instead of 7 along y), and the order is one of the point's place only,
/// so the step kernel (simt.cuh) keeps it too. Even is of the grid's
/// unwrapped index, so the planner takes it for no periodic grid, whose
/// halos would pair otherwise.
template <class S> struct Paired {
  using C = typename S::Compute;
  using Stencil = typename S::Stencil;
  static constexpr int kFirst = runTermOf<Stencil, C>(false), kLast = runTermOf<Stencil, C>(true);
  static constexpr int kLoX = Stencil::template rowTap<C>(0).dx;
  static constexpr int kHiX = Stencil::template rowTap<C>(Stencil::kRowTaps - 1).dx;
  static constexpr int kLoY = Stencil::template passTerm<C>(kFirst < 0 ? 0 : kFirst).dy;
  static constexpr int kHiY = Stencil::template passTerm<C>(kLast < 0 ? 0 : kLast).dy;
  static constexpr C kC = Stencil::template passTerm<C>(kFirst < 0 ? 0 : kFirst).c;
  static constexpr bool shaped() {
    if (Stencil::kPasses != 1 || kFirst < 0 || kHiX - kLoX + 1 != Stencil::kRowTaps) {
      return false;
    }
    for (int k = 0; k < Stencil::kRowTaps; ++k) {
      const RowTap<C> tap = Stencil::template rowTap<C>(k);
      if (tap.pass != 0 || tap.dx != kLoX + k || tap.c != C(1)) {
        return false;
      }
    }
    int dy = kLoY; // the run's next row
    for (int k = 0; k < Stencil::kPassTerms; ++k) {
      const PassTerm<C> term = Stencil::template passTerm<C>(k);
      if (term.pass == 0) {
        if (term.dy != dy++ || term.c != kC) {
          return false;
        }
      } else if (term.pass > 0 || term.dy < kLoY || term.dy > kHiY) {
        return false; // a term at the point outside the run's rows
      }
    }
    return dy == kHiY + 1;
  }
  static constexpr bool value = shaped();
};

/// The row pass of the paired order (Paired) at the thread's column w:
/// row.v[i] is the column xFirst - r + i, xFirst even, so i pairs with
/// i + 1 where i + r is even.
template <class S>
__device__ __forceinline__ typename S::Compute pairedRowPass(const Row<S> &row, int w) {
  using C = typename S::Compute;
  constexpr int r = S::kRadius;
  static_assert(Paired<S>::value, "the paired order: one run of equal taps each way");
  static_assert(S::kColsPerThread % 2 == 0 && S::kTileX % 2 == 0 && S::kHalo % 2 == 0,
                "the paired order: each thread's first column even");
  C h = C(0);
  bool skip = false;
#pragma unroll
  for (int dx = Paired<S>::kLoX; dx <= Paired<S>::kHiX; ++dx) {
    const int i = r + w + dx;
    if (skip) {
      skip = false;
      continue;
    }
    skip = (i + r) % 2 == 0 && dx < Paired<S>::kHiX;
    const C block = skip ? add(row.v[i], row.v[i + 1]) : row.v[i];
    h = dx == Paired<S>::kLoX ? block : add(h, block);
  }
  return h;
}

/// What a low-rank passTerm multiplies at the thread's column w of one
/// row: intermediate `pass` of its passes `h` (pass >= 0), or (pass -1) the
/// row's value at column offset dx.
template <class S>
__device__ __forceinline__ typename S::Compute passTermInput(
    const PassTerm<typename S::Compute> &term,
    const typename S::Compute (&h)[LowRankOf<typename S::Stencil>::kSlots][S::kColsPerThread],
    const Row<S> &row, int w) {
  return term.pass >= 0 ? h[term.pass >= 0 ? term.pass : 0][w] : row.v[S::kRadius + w + term.dx];
}

/// One step at row j of a level's batch in the low-rank form: from 0, the
/// passTerm multiply-adds of the intermediates `h` or the rows of `from`.
template <class S>
__device__ __forceinline__ void applyLowRank(const Row<S> (&from)[S::kRing], const PassRows<S> &h,
                                             int j,
                                             typename S::Compute (&value)[S::kColsPerThread]) {
  using Compute = typename S::Compute;
  using Stencil = typename S::Stencil;
  constexpr int r = S::kRadius;
#pragma unroll
  for (int w = 0; w < S::kColsPerThread; ++w) {
    Compute acc = Compute(0);
#pragma unroll
    for (int k = 0; k < LowRankOf<Stencil>::kPassTerms; ++k) {
      const PassTerm<Compute> term = Stencil::template passTerm<Compute>(k);
      acc =
          madd(term.c, passTermInput<S>(term, h.v[j + r + term.dy], from[j + r + term.dy], w), acc);
    }
    value[w] = acc;
  }
}

/// Moves each level's last 2r rows of intermediates to its first.
template <class S, int Levels>
__device__ __forceinline__ void carryPassRows(PassRows<S> (&passes)[Levels]) {
  using Compute = typename S::Compute;
  forEachCarriedPass<S, Levels>(passes, [](Compute &v, const Compute &next) { v = next; });
}

/// Where a level's point at row y, column x is one a single step does not
/// compute, the value it keeps at every level: its input's, read as level 0
/// read it (the fixed ring, 0 outside; V outside a constant boundary).
template <class S> struct KeptPoints {
  const typename S::Element *__restrict__ in;
  int ny, nx, xFirst;
};

/// Sets each point of row y in `value` that a single step does not compute
/// to the value it keeps at every level (KeptPoints).
template <class S>
__device__ __forceinline__ void
keepPoints(typename S::Compute (&value)[S::kColsPerThread], int y, bool rowComputed,
           const bool (&colComputed)[S::kColsPerThread], const KeptPoints<S> &kept) {
#pragma unroll
  for (int w = 0; w < S::kColsPerThread; ++w) {
    if (!(rowComputed && colComputed[w])) {
      value[w] = toCompute(S::Boundary::read(kept.in, y, kept.xFirst + w, kept.ny, kept.nx));
    }
  }
}

/// Level t's row j of the batch (row y), in `value`: the stencil (direct or
/// low rank) from level t - 1's window, rounded as a stored step; where a
/// single step does not compute the point, the point of the level below
/// (direct), or the input's value it kept at every level (low rank: read
/// from `kept`, so that the windows need not carry their rows for it).
template <class S, bool Interior>
__device__ __forceinline__ void
levelRow(const Row<S> (&from)[S::kRing], const PassRows<S> &h, int j, int y, bool rowComputed,
         const bool (&colComputed)[S::kColsPerThread], const KeptPoints<S> &kept,
         typename S::Compute (&value)[S::kColsPerThread]) {
  constexpr int r = S::kRadius;
  constexpr bool kLowRank = LowRankOf<typename S::Stencil>::value;
  if constexpr (PackedOf<typename S::Stencil>::value) {
    applyPacked<S>(from, j, value); // already of the element type
  } else if constexpr (kLowRank) {
    applyLowRank<S>(from, h, j, value);
    roundRow<S>(value);
  } else {
    applyStencil<S>(from, j, value);
    roundRow<S>(value);
  }
  if constexpr (!Interior) {
    if constexpr (kLowRank) {
      keepPoints<S>(value, y, rowComputed, colComputed, kept);
    } else {
#pragma unroll
      for (int w = 0; w < S::kColsPerThread; ++w) {
        value[w] = rowComputed && colComputed[w] ? value[w] : from[j + r].v[r + w];
      }
    }
  }
}

/// Whether every column of the thread's group g is computed.
template <class S>
__device__ __forceinline__ bool groupComputed(const bool (&colComputed)[S::kColsPerThread], int g) {
  bool all = true;
#pragma unroll
  for (int e = 0; e < S::kVec; ++e) {
    all = all && colComputed[g * S::kVec + e];
  }
  return all;
}

/// Stores the thread's stored columns of a finished row y (rounded) to
/// out: 16-, 8- or 4-byte accesses where whole in the grid, element by
/// element at its right edge. A point not computed holds its input's
/// value: storing it is right, but with Ring false (NAME_step, which
/// leaves a fixed ring as it was) only the computed columns are stored.
template <class S, bool Interior, bool Ring = true>
__device__ __forceinline__ void storeRow(typename S::Element *__restrict__ out,
                                         const typename S::Compute (&value)[S::kColsPerThread],
                                         int y, int nx, int xFirst, int lane, bool vectorRows,
                                         const bool (&colComputed)[S::kColsPerThread]) {
  constexpr int W = S::kColsPerThread;
#pragma unroll
  for (int g = 0; g < S::kGroupsPerThread; ++g) {
    const int c = lane * W + g * S::kVec; // in the strip
    const int x = xFirst + g * S::kVec;
    if (c < S::kHalo || c >= S::kHalo + S::kTileX) {
      continue;
    }
    typename S::Element *const at = out + static_cast<long long>(y) * nx + x;
    if (Interior ||
        (vectorRows && x + S::kVec <= nx && (Ring || groupComputed<S>(colComputed, g)))) {
      if constexpr (S::kAccessBytes == 16) {
        storeVector(at, packGroup<S>(value, g));
      } else {
        *reinterpret_cast<typename S::Vector *>(at) = packGroup<S>(value, g);
      }
    } else {
#pragma unroll
      for (int e = 0; e < S::kVec; ++e) {
        if (x + e < nx && (Ring || colComputed[g * S::kVec + e])) {
          at[e] = toElement<typename S::Element>(value[g * S::kVec + e]);
        }
      }
    }
  }
}

/// storeRow of every stored column, a fixed ring's kept values included
/// (the passes of NAME_run, NAME_pass and a stencil of fields).
template <class S, bool Interior>
__device__ __forceinline__ void storeRow(typename S::Element *__restrict__ out,
                                         const typename S::Compute (&value)[S::kColsPerThread],
                                         int y, int nx, int xFirst, int lane, bool vectorRows) {
  const bool unread[S::kColsPerThread] = {}; // (with Ring true no column's flag is read)
  storeRow<S, Interior, true>(out, value, y, nx, xFirst, lane, vectorRows, unread);
}

/// Moves each window's last 2r rows to its first, for the next iteration.
template <class S, int Levels>
__device__ __forceinline__ void carryRows(Row<S> (&win)[Levels][S::kRing]) {
#pragma unroll
  for (int t = 0; t < Levels; ++t) {
#pragma unroll
    for (int i = 0; i < 2 * S::kRadius; ++i) {
      win[t][i] = win[t][i + S::kBatch];
    }
  }
}

/// A warp's stream down its strip (see pass below); Interior: no point it
/// reads is within r of the grid's edge; Ring false: a fixed ring not
/// stored (storeRow).
template <class S, int Levels, bool Interior, bool Ring = true>
__device__ __forceinline__ void stream(const typename S::Element *__restrict__ in,
                                       typename S::Element *__restrict__ out, int ny, int nx,
                                       int x0, int yBegin, int yEnd, bool vectorRows) {
  using Compute = typename S::Compute;
  using Computes = fused::Computes<typename S::Boundary>;
  constexpr int r = S::kRadius;
  constexpr int W = S::kColsPerThread;
  constexpr int B = S::kBatch;
  constexpr int G = S::kGroupsPerThread;
  constexpr int kLag = Levels * r; // level Levels lags the input by this
  constexpr bool kLowRank = LowRankOf<typename S::Stencil>::value;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int xFirst = x0 - S::kHalo + lane * W; // the thread's first column
  bool colComputed[W];
#pragma unroll
  for (int w = 0; w < W; ++w) {
    colComputed[w] = Interior || Computes::axis(xFirst + w, nx, r);
  }
  // The window of each level 0 .. Levels - 1: rows [0, 2r) carried from the
  // iteration before, [2r, 2r + kBatch) this iteration's; a low-rank
  // stencil keeps its rows' intermediates beside them (passes).
  Row<S> win[Levels][S::kRing];
  PassRows<S> passes[Levels];
  const KeptPoints<S> kept{in, ny, nx, xFirst};
  clearCarriedRows<S, Levels>(win);
  if constexpr (kLowRank) {
    clearCarriedPasses<S, Levels>(passes);
  }
  const int pFirst = yBegin - kLag; // the first input row
  typename S::Vector groups[B][G];
  fetchBatch<S, Interior, Levels>(groups, in, pFirst, xFirst, ny, nx, vectorRows);
  // q: the first input row of the iteration.
  for (int q = pFirst; q - kLag < yEnd; q += B) {
    unpackBatch<S, !SidesOf<S>::kAtUse>(win[0], groups);
    if constexpr (kLowRank) {
#pragma unroll
      for (int i = 0; i < B; ++i) {
        rowPasses<S>(win[0][2 * r + i], passes[0].v[2 * r + i]);
      }
    }
    if (q + B - kLag < yEnd) {
      fetchBatch<S, Interior, Levels>(groups, in, q + B, xFirst, ny, nx, vectorRows);
    }
#pragma unroll
    for (int t = 1; t <= Levels; ++t) {
      const int y0 = q - t * r;
#pragma unroll
      for (int j = 0; j < B; ++j) {
        const bool rowComputed = Interior || Computes::axis(y0 + j, ny, r);
        if constexpr (SidesOf<S>::kAtUse && SidesOf<S>::kDy != SidesOf<S>::kNoRow) {
          shareSides<S>(win[t - 1][j + r + SidesOf<S>::kDy]);
        }
        Compute value[W];
        levelRow<S, Interior>(win[t - 1], passes[t - 1], j, y0 + j, rowComputed, colComputed, kept,
                              value);
        if (t < Levels) {
          Row<S> &row = win[t < Levels ? t : 0][2 * r + j];
#pragma unroll
          for (int w = 0; w < W; ++w) {
            row.v[r + w] = value[w];
          }
          if constexpr (!SidesOf<S>::kAtUse) {
            shareSides<S>(row);
          }
          if constexpr (kLowRank) {
            rowPasses<S>(row, passes[t < Levels ? t : 0].v[2 * r + j]);
          }
        } else {
          const int y = y0 + j;
          if (y >= yBegin && y < yEnd && (Ring || rowComputed)) {
            storeRow<S, Interior, Ring>(out, value, y, nx, xFirst, lane, vectorRows, colComputed);
          }
        }
      }
    }
    carryRows<S, Levels>(win);
    if constexpr (kLowRank) {
      carryPassRows<S, Levels>(passes);
    }
  }
}

/// Whether Params asks for the queued form (kQueued; false where absent).
template <class S, class = void> struct QueuedOf : std::false_type {};
template <class S>
struct QueuedOf<S, std::void_t<decltype(S::kQueued)>> : std::bool_constant<S::kQueued> {};

/// Whether the stencil's terms (the low-rank form's: its passTerms) come
/// by row offset, ascending: the order in which the queued form adds them
/// (a row at a time, rows in order).
template <class S> struct TermsByRow {
  using Compute = typename S::Compute;
  static constexpr int dyOf(int k) {
    if constexpr (LowRankOf<typename S::Stencil>::value) {
      return S::Stencil::template passTerm<Compute>(k).dy;
    } else {
      return S::Stencil::template term<Compute>(k).dy;
    }
  }
  static constexpr bool ascending() {
    constexpr int n = LowRankOf<typename S::Stencil>::value
                          ? LowRankOf<typename S::Stencil>::kPassTerms
                          : S::kTerms;
    for (int k = 1; k < n; ++k) {
      if (dyOf(k) < dyOf(k - 1)) {
        return false;
      }
    }
    return true;
  }
  static constexpr bool value = ascending();
};

/// A level's partial sums in the queued form: entry i is the level's row
/// first + i of the iteration (first: the batch's first row less r), the
/// thread's columns; entries [0, 2r) are carried from the iteration before,
/// [2r, kRing) start from 0.
template <class S> struct Queue {
  typename S::Compute v[S::kRing][S::kColsPerThread];
  typename S::Compute pending[S::kColsPerThread]; // the paired order's (addRowPaired)
};

/// Adds row j of a batch of the level below (side columns shared) into a
/// queue: each term of row offset dy into the entry of the output row j -
/// dy, i.e. entry j + r - dy. An output gets its terms by rows in order and
/// each row's in the term order: the term order, as applyStencil (or, in
/// the low-rank form, applyLowRank) adds them.
template <class S>
__device__ __forceinline__ void addRow(Queue<S> &queue, const Row<S> &row, int j) {
  using Compute = typename S::Compute;
  using Stencil = typename S::Stencil;
  constexpr int r = S::kRadius;
  if constexpr (LowRankOf<Stencil>::value) {
    // The row's passes once, then the passTerms of its row offsets: from a
    // pass, or (pass -1) from the row at column offset dx.
    Compute h[LowRankOf<Stencil>::kSlots][S::kColsPerThread];
    rowPasses<S>(row, h);
#pragma unroll
    for (int k = 0; k < LowRankOf<Stencil>::kPassTerms; ++k) {
      const PassTerm<Compute> term = Stencil::template passTerm<Compute>(k);
#pragma unroll
      for (int w = 0; w < S::kColsPerThread; ++w) {
        Compute &acc = queue.v[j + r - term.dy][w];
        acc = madd(term.c, passTermInput<S>(term, h, row, w), acc);
      }
    }
  } else {
#pragma unroll
    for (int k = 0; k < S::kTerms; ++k) {
      const Term<Compute> term = Stencil::template term<Compute>(k);
#pragma unroll
      for (int w = 0; w < S::kColsPerThread; ++w) {
        Compute &acc = queue.v[j + r - term.dy][w];
        acc = madd(term.c, row.v[r + w + term.dx], acc);
      }
    }
  }
}

/// addRow in the paired order (Paired): row j of the batch, the
/// level below's row R (pairStart: R even), into its queue: first its
/// terms at the point, if any, then its pass in blocks. An even R's
/// pass goes as one block into the point whose rows end at R and waits in
/// `pending`; an odd R's pass goes as one block into the point whose rows
/// start at R, and with the pending one, as their pair's block, into the
/// points holding both. Each point gets its blocks in row order.
template <class S>
__device__ __forceinline__ void addRowPaired(Queue<S> &queue, const Row<S> &row, int j,
                                             bool pairStart) {
  using Compute = typename S::Compute;
  constexpr int r = S::kRadius, lo = Paired<S>::kLoY, hi = Paired<S>::kHiY;
  constexpr Compute c = Paired<S>::kC;
  // The terms at the point first, each into the point it reaches.
#pragma unroll
  for (int k = 0; k < S::Stencil::kPassTerms; ++k) {
    const PassTerm<Compute> term = S::Stencil::template passTerm<Compute>(k);
#pragma unroll
    for (int w = 0; w < S::kColsPerThread; ++w) {
      if (term.pass < 0) {
        Compute &acc = queue.v[j + r - term.dy][w];
        acc = madd(term.c, row.v[r + w + term.dx], acc);
      }
    }
  }
#pragma unroll
  for (int w = 0; w < S::kColsPerThread; ++w) {
    const Compute h = pairedRowPass<S>(row, w);
    if (pairStart) {
      Compute &acc = queue.v[j + r - hi][w];
      acc = madd(c, h, acc);
      queue.pending[w] = h;
    } else {
      const Compute pair = add(queue.pending[w], h);
#pragma unroll
      for (int dy = hi; dy > lo; --dy) {
        Compute &acc = queue.v[j + r - dy][w];
        acc = madd(c, pair, acc);
      }
      Compute &acc = queue.v[j + r - lo][w];
      acc = madd(c, h, acc);
    }
  }
}

/// Moves each queue's last 2r entries to its first and zeroes the others,
/// for the next iteration.
template <class S, int Levels>
__device__ __forceinline__ void carryQueues(Queue<S> (&queues)[Levels], bool clear) {
  constexpr int r = S::kRadius;
#pragma unroll
  for (int t = 0; t < Levels; ++t) {
#pragma unroll
    for (int i = 0; i < 2 * r; ++i) {
#pragma unroll
      for (int w = 0; w < S::kColsPerThread; ++w) {
        queues[t].v[i][w] = clear ? typename S::Compute(0) : queues[t].v[i + S::kBatch][w];
      }
    }
#pragma unroll
    for (int i = 2 * r; i < S::kRing; ++i) {
#pragma unroll
      for (int w = 0; w < S::kColsPerThread; ++w) {
        queues[t].v[i][w] = typename S::Compute(0);
      }
    }
    if (clear) {
#pragma unroll
      for (int w = 0; w < S::kColsPerThread; ++w) {
        queues[t].pending[w] = typename S::Compute(0);
      }
    }
  }
}

/// What one iteration of the queued stream reads and writes beside the
/// queues: the grid, the thread's columns and the rows of its chunk.
template <class S> struct QueuedStrip {
  const typename S::Element *__restrict__ in;
  typename S::Element *__restrict__ out;
  int ny, nx, xFirst, lane, yBegin, yEnd;
  bool vectorRows;
  bool colComputed[S::kColsPerThread];
  KeptPoints<S> kept;
};

/// The first iteration of the queued stream in which level t (1-based)
/// adds a row that a kept row of a later level reads. In the iteration at
/// input row q, level t adds level t - 1's row q - (t - 1) r + j (j <
/// kBatch), and a kept row reads it once q + j >= pFirst + 2 (t - 1) r
/// (pFirst: the stream's first input row): the first iteration whose last
/// row reaches that.
template <class S> __host__ __device__ constexpr int firstIterationOf(int t) {
  return 2 * (t - 1) * S::kRadius / S::kBatch;
}

/// One iteration of the queued stream at input row q: the batch's rows
/// through levels 1 .. Active (the levels above have no row yet that a
/// kept row reads, firstIterationOf), each level's completed row on to the
/// next level or, at level Levels, to memory; then the queues move on.
template <class S, int Levels, int Active, bool Interior>
__device__ __forceinline__ void
queuedIteration(const QueuedStrip<S> &strip, Queue<S> (&queues)[Levels],
                typename S::Vector (&groups)[S::kBatch][S::kGroupsPerThread], int q) {
  using Compute = typename S::Compute;
  using Computes = fused::Computes<typename S::Boundary>;
  constexpr int r = S::kRadius, W = S::kColsPerThread, B = S::kBatch;
  constexpr int kLag = Levels * r;
  Row<S> rows[B];
  unpackBatch<S, true, B>(rows, groups);
  if (q + B - kLag < strip.yEnd) {
    fetchBatch<S, Interior, Levels>(groups, strip.in, q + B, strip.xFirst, strip.ny, strip.nx,
                                    strip.vectorRows);
  }
#pragma unroll
  for (int j = 0; j < B; ++j) {
    Row<S> row = rows[j]; // level 0's row q + j, then each level's
#pragma unroll
    for (int t = 1; t <= Active; ++t) {
      // completes entry j: level t's row y
      if constexpr (PairedSumsOf<S>::value) {
        addRowPaired<S>(queues[t - 1], row, j, ((t - 1) * r + j) % 2 == 0); // q even
      } else {
        addRow<S>(queues[t - 1], row, j);
      }
      const int y = q - t * r + j;
      Compute value[W];
#pragma unroll
      for (int w = 0; w < W; ++w) {
        value[w] = scaledSum<typename S::Stencil>(queues[t - 1].v[j][w]);
      }
      roundRow<S>(value);
      if constexpr (!Interior) {
        keepPoints<S>(value, y, Computes::axis(y, strip.ny, r), strip.colComputed, strip.kept);
      }
      if (t < Active) {
#pragma unroll
        for (int w = 0; w < W; ++w) {
          row.v[r + w] = value[w];
        }
        shareSides<S>(row);
      } else if (t == Levels && y >= strip.yBegin && y < strip.yEnd) {
        storeRow<S, Interior>(strip.out, value, y, strip.nx, strip.xFirst, strip.lane,
                              strip.vectorRows);
      }
    }
  }
  carryQueues<S, Levels>(queues, false);
}

/// The iterations of the queued stream from `q` on in which levels 1 ..
/// Active run (Active < Levels: the stream's first ones), then those with
/// one more level; returns the next iteration's input row.
template <class S, int Levels, int Active, bool Interior>
__device__ __forceinline__ int
queuedPrologue(const QueuedStrip<S> &strip, Queue<S> (&queues)[Levels],
               typename S::Vector (&groups)[S::kBatch][S::kGroupsPerThread], int q) {
  if constexpr (Active < Levels) {
    constexpr int n = firstIterationOf<S>(Active + 1) - firstIterationOf<S>(Active);
#pragma unroll 1
    for (int i = 0; i < n; ++i, q += S::kBatch) {
      queuedIteration<S, Levels, Active, Interior>(strip, queues, groups, q);
    }
    return queuedPrologue<S, Levels, Active + 1, Interior>(strip, queues, groups, q);
  } else {
    return q;
  }
}

/// The queued form of stream (Params::kQueued, a stencil in the direct or
/// the low-rank form): instead of a window of rows, each level keeps its
/// partial sums (Queue), and each row of the level below, once computed,
/// is added into the 2r + 1 output rows it reaches (through its row passes
/// in the low-rank form) and then dropped, as the step kernel adds a plane
/// into its queue. A level holds kRing rows of the thread's columns instead
/// of kRing rows of them and their 2r side columns (and their passes): what
/// lets wide boxes fuse. The same multiply-adds in the same order per
/// output, so the same results bit for bit; a point a step does not compute
/// takes the value it keeps (keepPoints). Level t joins the stream only in
/// the iteration where it first has a row that a kept row reads
/// (queuedPrologue): the rows before feed only rows no one keeps, so its
/// queue holds zeros until then, as every kept row's entry did.
template <class S, int Levels, bool Interior>
__device__ __forceinline__ void streamQueued(const typename S::Element *__restrict__ in,
                                             typename S::Element *__restrict__ out, int ny, int nx,
                                             int x0, int yBegin, int yEnd, bool vectorRows) {
  using Computes = fused::Computes<typename S::Boundary>;
  static_assert(!PackedOf<typename S::Stencil>::value,
                "the queued form evaluates the direct or the low-rank form");
  static_assert(TermsByRow<S>::value,
                "the queued form adds the terms a row at a time, rows in order");
  static_assert(!PairedSumsOf<S>::value || S::kBatch % 2 == 0,
                "the paired order: batches of whole pairs of rows");
  constexpr int W = S::kColsPerThread, B = S::kBatch;
  constexpr int kLag = Levels * S::kRadius; // level Levels lags the input by this
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int xFirst = x0 - S::kHalo + lane * W; // the thread's first column
  QueuedStrip<S> strip{
      in, out, ny, nx, xFirst, lane, yBegin, yEnd, vectorRows, {}, {in, ny, nx, xFirst}};
#pragma unroll
  for (int w = 0; w < W; ++w) {
    strip.colComputed[w] = Interior || Computes::axis(xFirst + w, nx, S::kRadius);
  }
  Queue<S> queues[Levels]; // level t's at t - 1
  carryQueues<S, Levels>(queues, true);
  // The first input row; the paired order starts a row early where
  // that is odd, so that every iteration's q is even.
  const int pFirst = PairedSumsOf<S>::value ? (yBegin - kLag) & ~1 : yBegin - kLag;
  typename S::Vector groups[B][S::kGroupsPerThread];
  fetchBatch<S, Interior, Levels>(groups, in, pFirst, xFirst, ny, nx, vectorRows);
  // The prologue's iterations all run: even a chunk of one row streams
  // 2 kLag + 1 input rows, more than the at most 2 (Levels - 1) r the
  // prologue takes.
  for (int q = queuedPrologue<S, Levels, 1, Interior>(strip, queues, groups, pFirst);
       q - kLag < yEnd; q += B) {
    queuedIteration<S, Levels, Levels, Interior>(strip, queues, groups, q);
  }
}

/// One pass of Levels fused steps (1 <= Levels <= kSteps) by the block
/// (the whole body of a kernel): in -> out, an ny x nx grid, kChunkY of the
/// stored rows `rows` per block along blockIdx.y, kWarps strips of kTileX
/// stored columns along blockIdx.x. Each warp streams down its strip on its own (stream above):
/// per iteration it loads the next kBatch input rows (16-byte vectors,
/// started before the computing of the current ones), and computes kBatch
/// rows of each level t from the window of level t - 1 (level t lagging
/// level t - 1 by r rows), in registers: each thread its columns, the r
/// columns either side coming from the threads beside by warp shuffles,
/// once per row. Level t is right on the strip's columns [t r, kWidth - t r)
/// and from the chunk's row yBegin - (Levels - t) r on. A warp whose every
/// row and column read is at least r inside the grid (rows of whole aligned
/// vectors) takes the interior version: no boundary rule, every point
/// computed, plain vector loads and stores. Ring false (the window form
/// only): a fixed ring not stored (NAME_step's pass, step below).
template <class S, int Levels, bool Ring = true>
__device__ __forceinline__ void pass(const typename S::Element *__restrict__ in,
                                     typename S::Element *__restrict__ out, int ny, int nx,
                                     OuterRange rows) {
  static_assert(Levels >= 1 && Levels <= S::kSteps, "a pass fuses 1 .. kSteps steps");
  static_assert(!PairedSumsOf<S>::value || QueuedOf<S>::value,
                "the paired order is the queued form's");
  static_assert(!ScaleOf<typename S::Stencil>::value || (!LowRankOf<typename S::Stencil>::value &&
                                                         !PackedOf<typename S::Stencil>::value),
                "scaled coefficients (kScale) are planned for the direct form only");
  constexpr int r = S::kRadius;
  constexpr int kLag = Levels * r;
  const long long x0 =
      (static_cast<long long>(blockIdx.x) * S::kWarps + threadIdx.x / 32) * S::kTileX;
  // The warp's decisions are votes, though every lane computes the same
  // value: the compiler then knows the warp stays whole and wraps none of
  // its shuffles in code for a partial warp (WARPSYNC, ENDCOLLECTIVE and
  // branches). With the votes the machine code is 32-54 % shorter and
  // 1-11 % faster (docs/performance.md, 2026-11-30 02:37-02:45).
  if (__all_sync(0xFFFFFFFFu, x0 >= nx)) {
    return; // the whole warp: no barrier follows
  }
  const int yBegin = rows.begin + static_cast<int>(blockIdx.y) * S::kChunkY;
  const int yEnd = yBegin + S::kChunkY < rows.end ? yBegin + S::kChunkY : rows.end;
  const bool vectorRows = nx % S::kVec == 0 &&
                          reinterpret_cast<std::uintptr_t>(in) % S::kAccessBytes == 0 &&
                          reinterpret_cast<std::uintptr_t>(out) % S::kAccessBytes == 0;
  // The rows read: [yBegin - kLag, yEnd + kLag + kBatch); the columns: the
  // strip.
  constexpr int kEarly = PairedSumsOf<S>::value ? 1 : 0; // streamQueued's row before
  const bool interior =
      __all_sync(0xFFFFFFFFu, vectorRows && yBegin - kLag - kEarly >= r &&
                                  static_cast<long long>(yEnd) + kLag + S::kBatch <= ny - r &&
                                  x0 - S::kHalo >= r && x0 - S::kHalo + S::kWidth <= nx - r);
  const int x = static_cast<int>(x0);
  if constexpr (QueuedOf<S>::value) {
    static_assert(Ring, "the queued form stores a fixed ring");
    if (interior) {
      streamQueued<S, Levels, true>(in, out, ny, nx, x, yBegin, yEnd, true);
    } else {
      streamQueued<S, Levels, false>(in, out, ny, nx, x, yBegin, yEnd, vectorRows);
    }
  } else if (interior) {
    stream<S, Levels, true, Ring>(in, out, ny, nx, x, yBegin, yEnd, true);
  } else {
    stream<S, Levels, false, Ring>(in, out, ny, nx, x, yBegin, yEnd, vectorRows);
  }
}

/// The kernel of a pass of Levels fused steps, every row stored (Ring
/// false: but a fixed ring, as pass's).
template <class S, int Levels, bool Ring = true>
__global__ void __launch_bounds__(S::kThreads, S::kMinBlocks)
    passKernel(const typename S::Element *__restrict__ in, typename S::Element *__restrict__ out,
               int ny, int nx) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    letDependentsLaunch(); // a band (fused_band.cuh) may start beside the last blocks
    pass<S, Levels, Ring>(in, out, ny, nx, OuterRange{0, ny});
  }
}

/// The kernel of a pass of Levels fused steps that stores `rows` only
/// (NAME_pass_range).
template <class S, int Levels>
__global__ void __launch_bounds__(S::kThreads, S::kMinBlocks)
    passRangeKernel(const typename S::Element *__restrict__ in,
                    typename S::Element *__restrict__ out, int ny, int nx, OuterRange rows) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    pass<S, Levels>(in, out, ny, nx, rows);
  }
}

/// The blocks of a pass storing rowsY rows of nx columns.
template <class S> inline dim3 gridFor(int rowsY, int nx) {
  const int strips = (nx - 1) / S::kTileX + 1;
  return dim3(static_cast<unsigned>((strips - 1) / S::kWarps + 1),
              static_cast<unsigned>((rowsY - 1) / S::kChunkY + 1), 1u);
}

/// Launches `kernel` (a pass) on `stream` with `args` over `grid`; the
/// launch's status (cudaErrorInvalidValue, nothing enqueued, for a grid
/// past the launch limits).
template <class S, class Kernel, class... Args>
inline cudaError_t launchKernel(Kernel kernel, dim3 grid, cudaStream_t stream, Args... args) {
  if (grid.y > 65535u) {
    return cudaErrorInvalidValue;
  }
  kernel<<<grid, S::kThreads, 0, stream>>>(args...);
  return cudaGetLastError();
}

/// Launches one pass of `levels` fused steps (1 .. kSteps) on `stream`,
/// in -> out, storing `rows` (every row where it is the whole grid), and
/// returns the launch's status (cudaErrorInvalidValue for a grid past the
/// launch limits or levels out of range).
template <class S>
inline cudaError_t launchPass(int levels, const typename S::Element *in, typename S::Element *out,
                              int ny, int nx, OuterRange rows, cudaStream_t stream) {
  return withLevels<S::kSteps>(levels, [&](auto at) {
    constexpr int kLevels = decltype(at)::value;
    const dim3 grid = gridFor<S>(rows.count(), nx);
    if (rows.whole(ny)) {
      return launchKernel<S>(passKernel<S, kLevels>, grid, stream, in, out, ny, nx);
    }
    return launchKernel<S>(passRangeKernel<S, kLevels>, grid, stream, in, out, ny, nx, rows);
  });
}

/// NAME_pass_range: one pass of `steps` fused steps (1 .. kSteps), in ->
/// out, in never written, storing rows [first, first + count) of out only
/// (every other point of out is left as it was; in is read wherever the
/// steps reach; a fixed ring on those rows is stored with its kept value,
/// in's). The caller has checked the pointers, the sizes and the range
/// (validRange).
template <class S>
inline cudaError_t onePassRange(const typename S::Element *in, typename S::Element *out, int ny,
                                int nx, int first, int count, int steps, cudaStream_t stream) {
  if (steps < 1 || steps > S::kSteps) {
    return cudaErrorInvalidValue;
  }
  return launchPass<S>(steps, in, out, ny, nx, OuterRange{first, first + count}, stream);
}

/// NAME_pass: one pass of `steps` fused steps (1 .. kSteps), in -> out, in
/// never written (a fixed ring stored with in's values). The caller has
/// checked the pointers and sizes.
template <class S>
inline cudaError_t onePass(const typename S::Element *in, typename S::Element *out, int ny, int nx,
                           int steps, cudaStream_t stream) {
  return onePassRange<S>(in, out, ny, nx, 0, ny, steps, stream);
}

/// NAME_step where the plan takes the fused kernel for it (measured faster
/// than the step kernel for its kind; the window form, not the queued): a
/// pass of one step, in -> out, storing the points a step computes only,
/// so that a fixed ring of out is left as it was, as the step kernel
/// leaves it. cudaErrorInvalidValue, and nothing enqueued, for a grid past
/// the launch limits (the caller then launches the step kernel). The
/// caller has checked the pointers and sizes.
template <class S>
inline cudaError_t step(const typename S::Element *in, typename S::Element *out, int ny, int nx,
                        cudaStream_t stream) {
  return launchKernel<S>(passKernel<S, 1, kStepStoresEveryPoint<typename S::Boundary>>,
                         gridFor<S>(ny, nx), stream, in, out, ny, nx);
}

/// `steps` steps of a grid of `points` elements as passes of at most
/// kSteps levels, each `pass(levels, from, to)`, ping-ponging between a and
/// b, the result left in a (copied there where the last pass wrote b); the
/// first failure's status, and nothing after it enqueued. The caller has
/// checked the arguments (runPasses of 1D, 2D and 3D).
template <class S, class Pass>
inline cudaError_t alternatePasses(typename S::Element *a, typename S::Element *b, size_t points,
                                   int steps, cudaStream_t stream, Pass pass) {
  typename S::Element *src = a, *dst = b;
  for (int done = 0; done < steps; done += S::kSteps) {
    const int levels = steps - done < S::kSteps ? steps - done : S::kSteps;
    if (const cudaError_t status = pass(levels, src, dst); status != cudaSuccess) {
      return status;
    }
    std::swap(src, dst);
  }
  return src == a ? cudaSuccess
                  : cudaMemcpyAsync(a, src, points * sizeof(*a), cudaMemcpyDeviceToDevice, stream);
}

/// `steps` steps on an ny x nx grid, as NAME_run does them: passes of
/// kSteps fused steps and one pass of the remainder, each
/// `pass(levels, from, to)`, ping-ponging between a and b; the result is
/// left in a (b is scratch of the same size, its contents never read: every
/// pass stores every point, a fixed ring with its kept value; copying the
/// ring of a into b first, as this did before, measured 0.3-1.0 % slower,
/// docs/performance.md, 2026-12-02 02:24). cudaErrorInvalidValue, and
/// nothing enqueued, for a null pointer, a == b, a size below the
/// boundary's minimum (fixed: 2r + 1) or steps < 0.
template <class S, class Pass>
inline cudaError_t runPasses(typename S::Element *a, typename S::Element *b, int ny, int nx,
                             int steps, cudaStream_t stream, Pass pass) {
  const int least = minExtent<typename S::Boundary>(S::kRadius);
  if (a == nullptr || b == nullptr || a == b || ny < least || nx < least || steps < 0) {
    return cudaErrorInvalidValue;
  }
  return alternatePasses<S>(a, b, static_cast<size_t>(ny) * static_cast<size_t>(nx), steps, stream,
                            pass);
}

/// NAME_run's passes (runPasses), each one launch of the fused kernel.
template <class S>
inline cudaError_t run(typename S::Element *a, typename S::Element *b, int ny, int nx, int steps,
                       cudaStream_t stream) {
  static_assert(kPassesExactAlone<S>, "a folding rule's passes need the band: runBanded");
  return runPasses<S>(a, b, ny, nx, steps, stream,
                      [=](int levels, const typename S::Element *from, typename S::Element *to) {
                        return launchPass<S>(levels, from, to, ny, nx, OuterRange{0, ny}, stream);
                      });
}

} // namespace fused
} // namespace device
} // namespace stencilc
