// stencilc/device/fused3d.cuh - the CUDA-core kernel for 3D that fuses
// several time steps into one pass over memory: 3.5D blocking (2.5D
// streaming along z, T steps per plane, as EBISU and AN5D do it), the 3D
// sibling of fused.cuh, less the stencil itself. Issue 19.
//
// A block owns a window of kWidth x kHeight points of each plane of an
// nz x ny x nx grid: the tile of kTileX x kTileY points it stores and a
// redundant halo of kHaloX = T r columns (rounded up to a thread's columns)
// and kHaloY = T r rows each side, which the levels eat into, r per level.
// It streams along z over its kChunkZ output planes. Each thread owns the
// same kCols x kRows points (kCols adjacent columns: one memory access) of
// every plane at every level (level 0 the input, level t the result of t
// steps) and keeps, per level, a queue of the last kQueue planes of its
// points in registers. A point's neighbours come:
//
//   - along z, from the thread's own queue;
//   - along x, from the lanes beside it by warp shuffles (kWidth / kCols
//     lanes hold a window row; a lane at the window's edge gets its own
//     value back, which only feeds points outside the tile);
//   - along y past its kRows rows, from shared memory: each thread writes
//     the r top and r bottom rows of its points of each plane and level
//     (its "edge rows") to a ring of kSlots planes per level and reads
//     those of the threads above and below it.
//
// One __syncthreads per plane orders it all (or, where the plan sets
// kSplitBarrier, an mbarrier a plane that a thread arrives at after its last
// edge rows and waits on before its next reads: PlaneOrder, sm_90 on, with
// a ring slot more a level). In iteration i a thread starts
// the loads of input plane i + 2 (whole-access loads where it can, the
// boundary rule element by element at the grid's edge; where the plan sets
// kStagedPlanes, a pass of several levels inside the grid copies plane i +
// kStagedPlanes into shared memory instead), takes plane i as
// level 0 and computes plane i - t kLag of each level t = 1 .. Levels from
// level t - 1, so that what it reads is in its queue and the edge rows were
// written before the last barrier: kLag is r where only terms with dz = 0
// reach along x or y (stars), else kPlaneSpan + 1, kPlaneSpan the largest
// |dz| of such a term (boxes). Level Levels goes to global memory. Blocks
// whose window lies inside the grid's computed points run a copy of the
// pass without the per-point boundary tests, and those whose levels'
// planes and loads do too (the middle run of ZChunks' chunks along z) one
// without the planes' tests either; in elements of 4 bytes or fewer, so do
// the blocks at the x and y edges whose accesses are whole and aligned,
// keeping the points' tests (passBlock).
//
// Per point and level the value is what a stored single step gives (the
// terms' FMAs in term-list order, accumulated in the Compute type from 0,
// rounded to the Element type); a point a single step does not compute
// keeps its value of the level before, by fused::Computes<Boundary>
// (fused.cuh): the fixed ring of width r keeps the input's value, a
// constant boundary's outside is loaded as its value and keeps it, a
// periodic grid is loaded wrapped and every point is computed. The last
// level stores every point of the tile inside the grid, the fixed ring
// included (but in step, NAME_step's pass of one level, which leaves it as
// the step kernel does). Under clamp, mirror and reflect a pass of one
// level reads the input's folds outside the grid and is exact; a pass of
// more reads 0 there (ReadsOutside) and is exact only T r inside the grid:
// fused_band.cuh's runBanded recomputes the band within T r of a face after
// each pass. Points whose inputs are not (or not yet) in the window are
// computed from stale values (zero at first) but only ever feed points
// outside the stored tile, so `steps` steps are bit-identical to `steps`
// single steps at every point (under the folding rules, with the band), for
// any grid size (smaller than the tile or than the halo included).
//
// The stencil comes from the traits type Params::Stencil:
//
//   struct Stencil {
//     static constexpr int kRadius = 1, kTerms = 7;
//     template <class C> static __host__ __device__ constexpr Term<C> term(int i);
//   };
//
// term(i) is the i-th term (dz, dy, dx, coefficient) in the order of the
// FMAs, |dz|, |dy|, |dx| <= kRadius. The rest of Params (listed at Geometry)
// are the kernel's numbers.
//
// A stencil in the 3D low-rank form (docs/generated-code.md, "Low-rank
// form") also has its row passes, plane values and terms:
//
//   static constexpr int kPasses = 1, kRowTaps = 3, kPlaneValues = 1,
//                        kPlaneTaps = 3, kFormTerms = 4;
//   template <class C> static constexpr fused::RowTap<C> rowTap(int i);  // by pass, then dx
//   template <class C> static constexpr PlaneTap<C> planeTap(int i);     // by plane value
//   template <class C> static constexpr FormTerm<C> formTerm(int i);     // by dz
//
// and the kernel evaluates that instead of the terms, with the step
// kernel's operations in its order (simt.cuh with the generated rowPasses
// and addPlane): when level t - 1's plane c + r is complete (its edge rows
// in the ring), each thread computes the row passes of that plane at its
// rows and the r rows either side (those from the edge rows), then its
// points' plane values (kept in a register queue per level beside the
// level's planes, so that each is computed once per point and plane, as in
// the step kernel), then point c of level t: from 0, each term's
// multiply-add of the plane value of plane c + dz, or of a row pass or the
// value at (row, dx) of that plane. A thread recomputes the passes of 2r
// rows beside its own (the step kernel's block recomputes those of its
// window's halo rows): the values are the same, only the work is not.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/fused.cuh"
#include "stencilc/device/mbarrier.cuh"
#include "stencilc/device/range.cuh"

namespace stencilc {
namespace device {
namespace fused3d {

using fused::Computes;
using fused::minExtent;
using fused::ReadsOutside;

/// One term of a stencil: coefficient c times the input at (z + dz, y + dy,
/// x + dx).
template <class C> struct Term {
  int dz, dy, dx;
  C c;
};

/// One multiply-add of a plane value of the 3D low-rank form: value `plane`
/// gains c times, at row offset dy, row pass `pass` (pass >= 0) or the
/// value at column offset dx (pass -1). A value's first tap is a product.
template <class C> struct PlaneTap {
  int plane, dy, pass, dx;
  C c;
};

/// One multiply-add of a point of the 3D low-rank form: c times, at plane
/// offset dz, plane value `plane` (plane >= 0), else at row offset `row`
/// row pass `pass` (pass >= 0) or the value at column offset dx.
template <class C> struct FormTerm {
  int dz, plane, pass, row, dx;
  C c;
};

/// Whether Stencil has the 3D low-rank form (kFormTerms), and its sizes;
/// kPassSlots and kValueSlots are at least 1 (an array's extent).
template <class Stencil, class = void> struct FormOf {
  static constexpr bool value = false;
  static constexpr int kPasses = 0, kRowTaps = 0, kPlaneValues = 0, kPlaneTaps = 0, kFormTerms = 0;
  static constexpr int kPassSlots = 1, kValueSlots = 1;
};
template <class Stencil> struct FormOf<Stencil, std::void_t<decltype(Stencil::kFormTerms)>> {
  static constexpr bool value = true;
  static constexpr int kPasses = Stencil::kPasses, kRowTaps = Stencil::kRowTaps,
                       kPlaneValues = Stencil::kPlaneValues, kPlaneTaps = Stencil::kPlaneTaps,
                       kFormTerms = Stencil::kFormTerms;
  static constexpr int kPassSlots = kPasses > 0 ? kPasses : 1;
  static constexpr int kValueSlots = kPlaneValues > 0 ? kPlaneValues : 1;
};

/// The shared memory of a pass: the edge-row rings of its levels.
template <class E> __device__ __forceinline__ E *rings() {
  extern __shared__ __align__(16) unsigned char sharedRings[];
  return reinterpret_cast<E *>(sharedRings);
}

/// The staged input planes' slots (kStagedPlanes), after the rings.
template <class S, int Levels>
__device__ __forceinline__ typename S::Access *stagedSlots(typename S::Element *ring) {
  return reinterpret_cast<typename S::Access *>(reinterpret_cast<unsigned char *>(ring) +
                                                S::ringBytes(Levels));
}

/// How a pass orders its planes: one __syncthreads a plane, or where it
/// splits (kSplitBarrier, several levels, sm_90 on) an mbarrier of a phase
/// a plane, which a thread arrives at after its last edge rows of plane i
/// and waits on before it reads any of plane i + 1 (their parity alternates
/// from iFirst on, and kUnroll is even, so the unrolled step u's is u & 1).
/// Between, a thread takes its next input plane and writes its edge rows
/// while slower ones finish plane i: the rings hold a plane more.
template <class S, int Levels> struct PlaneOrder {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  static constexpr bool kSplits = false;
#else
  static constexpr bool kSplits = S::kSplitBarrier && Levels > 1;
#endif
  unsigned barrier = 0; // its shared address, after the rings and staged planes

  /// Initialises the barrier, synchronises the block (the rings cleared
  /// before), and arrives for the phase before the first plane's.
  __device__ __forceinline__ explicit PlaneOrder(const void *ring) {
    if constexpr (kSplits) {
      barrier = static_cast<unsigned>(__cvta_generic_to_shared(ring)) +
                static_cast<unsigned>(S::barrierOffset(Levels));
      if (threadIdx.x == 0) {
        initBarrier<S::kThreads>(barrier);
      }
    }
    __syncthreads();
    if constexpr (kSplits) {
      arriveBarrier(barrier);
    }
  }
  __device__ __forceinline__ void await(int u) const {
    if constexpr (kSplits) {
      awaitBarrier(barrier, static_cast<unsigned>(u & 1));
    }
  }
  /// Before level t of a plane: arrives before the last.
  __device__ __forceinline__ void arrive(int t) const {
    if (kSplits && t == Levels) {
      arriveBarrier(barrier);
    }
  }
  /// After a plane.
  __device__ __forceinline__ void next() const {
    if constexpr (!kSplits) {
      __syncthreads();
    }
  }
};

/// Params::kBatch, or 1 where Params has none.
template <class Params, class = void> struct BatchOf {
  static constexpr int value = 1;
};
template <class Params> struct BatchOf<Params, std::void_t<decltype(Params::kBatch)>> {
  static constexpr int value = Params::kBatch;
};

/// Params::kStagedPlanes, or 0 where Params has none.
template <class Params, class = void> struct StagedPlanesOf {
  static constexpr int value = 0;
};
template <class Params>
struct StagedPlanesOf<Params, std::void_t<decltype(Params::kStagedPlanes)>> {
  static constexpr int value = Params::kStagedPlanes;
};

/// Params::kSplitBarrier, or false where Params has none.
template <class Params, class = void> struct SplitBarrierOf {
  static constexpr bool value = false;
};
template <class Params>
struct SplitBarrierOf<Params, std::void_t<decltype(Params::kSplitBarrier)>> {
  static constexpr bool value = Params::kSplitBarrier;
};

/// Params::kUnrollPlanes, or 0 where Params has none.
template <class Params, class = void> struct UnrollPlanesOf {
  static constexpr int value = 0;
};
template <class Params>
struct UnrollPlanesOf<Params, std::void_t<decltype(Params::kUnrollPlanes)>> {
  static constexpr int value = Params::kUnrollPlanes;
};

/// An unsigned type of Bytes bytes (2, 4, 8 or 16): one memory access.
template <int Bytes>
using AccessOf = std::conditional_t<
    Bytes == 16, uint4,
    std::conditional_t<Bytes == 8, uint2,
                       std::conditional_t<Bytes == 4, unsigned, unsigned short>>>;

/// The greatest common divisor of a and b (positive).
constexpr int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
constexpr int lcm(int a, int b) { return a / gcd(a, b) * b; }

/// Which values of the planes c - r .. c + r, rows -r .. kRows + r - 1 and
/// columns -r .. kCols + r - 1 of a thread's points some term reads; and
/// planeSpan, the largest |dz| of a term with dy or dx != 0 (0 where none).
/// The 3D low-rank form reads what its row passes and plane values of
/// plane c + r read, and what its terms read beyond plane values; its
/// planeSpan is r (the new plane's rows beside the thread's), and
/// passRow says at which rows of plane c + r it needs each row pass.
template <class Stencil, int kRows, int kCols> struct ReadTable {
  using Form = FormOf<Stencil>;
  static constexpr int r = Stencil::kRadius;
  static constexpr int kH = kRows + 2 * r, kW = kCols + 2 * r;
  bool read[2 * r + 1][kH][kW] = {};
  bool passRows[Form::kPassSlots][kH] = {};
  int planeSpan = 0;
  __host__ __device__ constexpr ReadTable() {
    if constexpr (Form::value) {
      readForm();
    } else {
      for (int i = 0; i < Stencil::kTerms; ++i) {
        const Term<double> t = Stencil::template term<double>(i);
        const int span = t.dz < 0 ? -t.dz : t.dz;
        planeSpan = (t.dy != 0 || t.dx != 0) && span > planeSpan ? span : planeSpan;
        mark(t.dz, t.dy, t.dx);
      }
    }
  }
  /// Plane dz, row w, column m, relative to the thread's first point.
  __host__ __device__ constexpr bool at(int dz, int w, int m) const {
    return read[dz + r][w + r][m + r];
  }
  /// Whether the form needs row pass k at row w (relative to the thread's
  /// first row) of plane c + r.
  __host__ __device__ constexpr bool passRow(int k, int w) const { return passRows[k][w + r]; }

private:
  /// Every point's read at offset (dz, dy, dx).
  __host__ __device__ constexpr void mark(int dz, int dy, int dx) {
    for (int e = 0; e < kRows; ++e) {
      for (int q = 0; q < kCols; ++q) {
        read[dz + r][e + dy + r][q + dx + r] = true;
      }
    }
  }
  /// Every point's read of row pass `pass` (or, pass -1, of the value at
  /// dx) at row offset dy of plane dz.
  __host__ __device__ constexpr void markSource(int dz, int pass, int dy, int dx) {
    if (pass < 0) {
      mark(dz, dy, dx);
      return;
    }
    for (int k = 0; k < Form::kRowTaps; ++k) {
      const fused::RowTap<double> tap = Stencil::template rowTap<double>(k);
      if (tap.pass == pass) {
        mark(dz, dy, tap.dx);
      }
    }
  }
  __host__ __device__ constexpr void readForm() {
    planeSpan = r;
    for (int i = 0; i < Form::kPlaneTaps; ++i) {
      const PlaneTap<double> t = Stencil::template planeTap<double>(i);
      markSource(r, t.pass, t.dy, t.dx);
      for (int e = 0; e < kRows && t.pass >= 0; ++e) {
        passRows[t.pass][e + t.dy + r] = true;
      }
    }
    for (int i = 0; i < Form::kFormTerms; ++i) {
      const FormTerm<double> t = Stencil::template formTerm<double>(i);
      if (t.plane < 0) {
        markSource(t.dz, t.pass, t.row, t.dx);
      }
    }
  }
};

/// The sizes of a fused 3D kernel, from Params:
///   Element, Compute   the grid's element type and the arithmetic type
///   Boundary           a boundary policy of boundary.cuh
///   Stencil            the terms (see above); Stencil::kRadius is r
///   kSteps             T, the steps fused per pass (1 .. 8)
///   kWidth             the window's columns (x), halo included
///   kHeight            the window's rows (y), halo included
///   kRows              rows of a thread's points (at least r; divides
///                      kHeight)
///   kThreads           threads per block: (kWidth / kCols) x (kHeight /
///                      kRows), which sets kCols, a thread's columns:
///                      kCols x the element's bytes is 2, 4, 8 or 16 (one
///                      memory access), and kWidth / kCols (the lanes of a
///                      window row) divides 32
///   kChunkZ            output planes per block
///   kBatch             optional; 1 where present (planes per iteration)
///   kMinBlocks         optional (1 where absent): blocks per
///                      multiprocessor, for __launch_bounds__
///   kStagedPlanes      optional (0 where absent): in a pass of several
///                      levels by a block whose window and loads lie inside
///                      the grid (not periodic), the input planes copied
///                      this many ahead into shared memory by cp.async
///                      (stagePlane), not two ahead into registers
///   kSplitBarrier      optional (false where absent): on sm_90, a pass of
///                      several levels orders its planes by an mbarrier
///                      that a thread arrives at after its last edge rows
///                      of a plane and waits on before it next reads any,
///                      not by one __syncthreads a plane (splitBarrier)
///   kUnrollPlanes      optional (where absent, the least that keeps every
///                      queue and ring slot a constant): the planes the
///                      stream's loop unrolls, a multiple of lcm(2,
///                      kQueue); where not whole rings, the ring's parts
///                      rotate (kUnroll, RingParts) and the split
///                      barrier's ring is not rounded up; where
///                      --plan-option ring=rotate asks
template <class Params> struct Geometry : Params {
  using Element = typename Params::Element;
  using Compute = typename Params::Compute;
  using Stencil = typename Params::Stencil;
  static_assert(!ScaleOf<Stencil>::value || !FormOf<Stencil>::value,
                "scaled coefficients (kScale) are planned for the direct form only");
  static constexpr int kRadius = Stencil::kRadius;
  static constexpr int kTerms = Stencil::kTerms;
  static constexpr int kElementBytes = static_cast<int>(sizeof(Element));
  static constexpr int kCols =
      Params::kWidth * Params::kHeight / (Params::kRows * Params::kThreads);
  static constexpr int kLanesX = Params::kWidth / kCols;
  static constexpr int kBands = Params::kHeight / Params::kRows;
  static constexpr int kMinBlocks = fused::MinBlocksOf<Params>::value;
  using Access = AccessOf<kCols * kElementBytes>;
  static constexpr ReadTable<Stencil, Params::kRows, kCols> kReads{};
  /// Along z: see the file's comment.
  static constexpr int kPlaneSpan = kReads.planeSpan;
  static constexpr int kLag =
      kPlaneSpan == 0 ? kRadius : (kRadius > kPlaneSpan + 1 ? kRadius : kPlaneSpan + 1);
  /// Planes of a level's register queue: [c - r, c + kLag] when the next
  /// level computes plane c.
  static constexpr int kQueue = kRadius + kLag + 1;
  static constexpr bool kSplitBarrier = SplitBarrierOf<Params>::value;
  /// Planes of a level's edge-row ring: [c - kPlaneSpan, c + kLag]; under
  /// the split barrier one more (a thread may write a plane's edge rows one
  /// iteration ahead of the slowest's reads), rounded up to a multiple of
  /// kQueue so that kUnroll grows no more than it must (a star of radius 1:
  /// 6 as before; a box: 8, not 20), but where the Params set the unroll
  /// (kUnrollPlanes), which the ring's rotating parts leave as it is.
  static constexpr int kSlots = !kSplitBarrier ? kLag + kPlaneSpan + 1
                                : UnrollPlanesOf<Params>::value > 0
                                    ? kLag + kPlaneSpan + 2
                                    : (kLag + kPlaneSpan + 2 + kQueue - 1) / kQueue *kQueue;
  /// The redundant halo each side: kSteps * r, in x whole thread columns.
  static constexpr int kHaloX = (Params::kSteps * kRadius + kCols - 1) / kCols * kCols;
  static constexpr int kHaloY = Params::kSteps * kRadius;
  static constexpr int kTileX = Params::kWidth - 2 * kHaloX;
  static constexpr int kTileY = Params::kHeight - 2 * kHaloY;
  /// An edge row in shared memory: the window's row and r (rounded up to a
  /// thread's columns) columns of padding each side.
  static constexpr int kPadX = (kRadius + kCols - 1) / kCols * kCols;
  static constexpr int kPitch = Params::kWidth + 2 * kPadX;
  /// A plane's edge rows: 2r rows per band of threads (top r, bottom r),
  /// and a band of padding above and below the window.
  static constexpr int kEdgePlane = (kBands + 2) * 2 * kRadius * kPitch;
  /// The stream's loop is unrolled so that queue and ring slots are
  /// constants: the least common multiple of kQueue, kSlots and 2 (the
  /// input planes loaded ahead), or Params::kUnrollPlanes, a multiple of
  /// lcm(2, kQueue), where the plan sets it. The ring's slots are then
  /// kRingParts parts of gcd(kUnroll, kSlots) slots whose places rotate a
  /// round (RingParts): a box under the split barrier unrolls 4 planes as
  /// its queue does, not 8 (its ring then of 5 slots, not 8), and a star
  /// of radius 2 (queues of 5, a ring of 3) 10, not 30.
  static constexpr int kUnroll = UnrollPlanesOf<Params>::value > 0
                                     ? UnrollPlanesOf<Params>::value
                                     : lcm(2, kQueue *kSlots / gcd(kQueue, kSlots));
  static_assert(kUnroll % lcm(2, kQueue) == 0,
                "kUnrollPlanes: whole queues, and an even count (the input planes loaded ahead)");
  static constexpr int kRingParts = kSlots / gcd(kUnroll, kSlots);

  static_assert(Params::kSteps >= 1 && Params::kSteps <= 8, "1 to 8 fused steps");
  static_assert(kRadius >= 1, "a stencil of radius 0 needs no kernel");
  static_assert(BatchOf<Params>::value == 1, "one plane per iteration");
  static_assert(kCols >= 1 &&
                    kCols * Params::kRows * Params::kThreads == Params::kWidth * Params::kHeight,
                "the threads own the window's points, kCols x kRows each");
  static_assert(kCols * kElementBytes == 2 || kCols * kElementBytes == 4 ||
                    kCols * kElementBytes == 8 || kCols * kElementBytes == 16,
                "a thread's columns are one memory access");
  static_assert(kLanesX * kCols == Params::kWidth && 32 % kLanesX == 0,
                "a window row is whole lanes of one warp");
  static_assert(Params::kRows >= kRadius && Params::kHeight % Params::kRows == 0,
                "the window's rows are whole bands of at least r rows");
  static_assert(kTileX >= 1 && kTileY >= 1, "the halo leaves points to store");
  static_assert(kTileX % kCols == 0, "a thread's first column is a multiple of kCols (loadPlane)");
  static_assert(Params::kChunkZ >= 1, "planes per block");
  static_assert(Params::kThreads % 32 == 0, "whole warps");
  /// The input planes a block inside the grid copies ahead into shared
  /// memory, and the slots they take: two more than that, so that a slot
  /// refilled was read two iterations before, its values used since.
  static constexpr int kStagedPlanes = StagedPlanesOf<Params>::value;
  static constexpr int kStageSlots = kStagedPlanes > 0 ? kStagedPlanes + 2 : 0;
  static constexpr int kStageBytes =
      kStageSlots * Params::kRows * Params::kThreads * static_cast<int>(sizeof(Access));
  static_assert(kStagedPlanes >= 0 && kStagedPlanes <= 6, "0 to 6 planes staged ahead");
  static_assert((Params::kSteps * kSlots * kEdgePlane * kElementBytes + 15) / 16 * 16 +
                        kStageBytes <=
                    227 * 1024,
                "the rings of kSteps levels and the staged planes fit an H100's shared memory");

  /// Shared memory of a pass of `levels` fused steps: the rings of levels
  /// 0 .. levels - 1 (whole 16-byte vectors), then the staged planes where
  /// it stages them (more than one level).
  static __host__ __device__ constexpr int ringBytes(int levels) {
    return (levels * kSlots * kEdgePlane * kElementBytes + 15) / 16 * 16;
  }
  /// The split barrier's mbarrier, after the staged planes.
  static __host__ __device__ constexpr int barrierOffset(int levels) {
    return ringBytes(levels) + (levels > 1 ? kStageBytes : 0);
  }
  static __host__ __device__ constexpr int sharedBytes(int levels) {
    return barrierOffset(levels) + (kSplitBarrier && levels > 1 ? 16 : 0);
  }
};

/// A thread's part of a pass: where its points lie and which of them a
/// step computes and the block stores.
template <class S> struct Part {
  int xFirst, yFirst;       // the first own column and row
  int zBegin, zEnd;         // the stored planes
  int lane, band;           // the lane in the window row, the band of rows
  int edgeBase;             // the thread's first point in a ring plane
  long long rowOffset;      // the thread's first point in a grid plane
  bool vectorIn, vectorOut; // whole, aligned loads and stores possible
  bool rowVector[S::kRows]; // loads of whole, aligned rows possible
  bool xComputed[S::kCols], yComputed[S::kRows];
  bool xStored[S::kCols], yStored[S::kRows];
};

/// Whether every read outside the grid gives one value, Boundary::outside
/// (fixed and constant boundaries).
template <class Boundary, class = void> struct OneOutside : std::false_type {};
template <class Boundary>
struct OneOutside<Boundary, std::void_t<decltype(Boundary::template outside<float>())>>
    : std::true_type {};

/// Boundary::outside where it has one (else never called).
template <class Boundary, class Element> __device__ __forceinline__ Element outsideValue() {
  if constexpr (OneOutside<Boundary>::value) {
    return Boundary::template outside<Element>();
  } else {
    return Element(0.0f);
  }
}

/// Whether loadPlane fills a row outside the grid with the boundary's one
/// value where the accesses are whole and aligned: in elements of 4 bytes
/// or fewer (with the edge blocks' copy without the planes' tests, fp32
/// 5-7 %, fp16 and bf16 14-16 % faster on the H200); in fp64 18-19 %
/// slower, ptxas copying the loaded registers after the loads as for
/// kLoadsInside below (docs/performance.md, 2026-11-30 20:26).
template <class S, class Reads = typename S::Boundary>
constexpr bool kFillsOutside = OneOutside<Reads>::value && sizeof(typename S::Element) < 8;

/// loadPlane under clamp, mirror and reflect in a pass of one level (one of
/// more reads 0 outside: fused::ReadsOutside): a plane or row outside the
/// grid is the one the rule folds it onto, read as whole accesses where the
/// thread's columns lie inside, and only a column outside point by point.
/// Read point by point, each folded three ways, the edge blocks of mirror's
/// and reflect's passes were slower: with this and the band's loads
/// unrolled, star3d7p fp32 mirror's NAME_run went 372 -> 443 GStencil/s and
/// reflect's 319 -> 427, clamp's (a compare a fold) 493 -> 471
/// (docs/performance.md, 2026-12-04 10:32-11:21).
template <class S, bool Interior, bool ZInside>
__device__ __forceinline__ void loadFolded(typename S::Element (&values)[S::kRows][S::kCols],
                                           const typename S::Element *__restrict__ in, int z,
                                           const Part<S> &p, int nz, int ny, int nx) {
  using Boundary = typename S::Boundary;
  const long long zf = ZInside ? z : Boundary::fold(z, nz);
  const typename S::Element *plane = in + zf * ny * nx;
  const bool whole = Interior || (p.vectorIn && p.xFirst >= 0 && p.xFirst + S::kCols <= nx);
#pragma unroll
  for (int e = 0; e < S::kRows; ++e) {
    const long long y = p.yFirst + e;
    const typename S::Element *row = plane + (Interior ? y : Boundary::fold(y, ny)) * nx;
    if (whole) {
      const typename S::Access bits =
          __ldg(reinterpret_cast<const typename S::Access *>(row + p.xFirst));
      std::memcpy(&values[e][0], &bits, sizeof bits);
    } else {
#pragma unroll
      for (int q = 0; q < S::kCols; ++q) {
        values[e][q] = row[Boundary::fold(p.xFirst + q, nx)];
      }
    }
  }
}

/// Loads this thread's points of input plane z into `values` (Interior:
/// the block's window lies inside the grid, its rows whole, aligned
/// accesses; ZInside: so does plane z, untested; Whole: p.vectorIn, known
/// here). Where the accesses are whole and aligned (p.vectorIn), each lies
/// wholly inside the grid or wholly outside (the thread's first column is a
/// multiple of kCols, and so is nx), so a row outside may be filled with
/// the boundary's one value (kFillsOutside) instead of read point by point,
/// a branch that a lane at the window's edge makes every lane of its warp
/// take. Levels: the pass's, by which fused::ReadsOutside gives the rule
/// outside the grid.
template <class S, bool Interior, bool ZInside = false, bool Whole = Interior, int Levels = 1>
__device__ __forceinline__ void loadPlane(typename S::Element (&values)[S::kRows][S::kCols],
                                          const typename S::Element *__restrict__ in, int z,
                                          const Part<S> &p, int nz, int ny, int nx) {
  using Access = typename S::Access;
  using Boundary = ReadsOutside<typename S::Boundary, Levels>;
  if constexpr (FoldsReads<Boundary>::value) {
    loadFolded<S, Interior, ZInside>(values, in, z, p, nz, ny, nx);
    return;
  }
  const bool zInside = ZInside || (z >= 0 && z < nz);
  const typename S::Element *row =
      in + static_cast<long long>(zInside ? z : 0) * ny * nx + p.rowOffset;
#pragma unroll
  for (int e = 0; e < S::kRows; ++e, row += nx) {
    if (zInside && (Interior || p.rowVector[e])) {
      const Access bits = __ldg(reinterpret_cast<const Access *>(row));
      std::memcpy(&values[e][0], &bits, sizeof bits);
    } else if (kFillsOutside<S, Boundary> && (Whole || p.vectorIn)) {
#pragma unroll
      for (int q = 0; q < S::kCols; ++q) {
        values[e][q] = outsideValue<Boundary, typename S::Element>();
      }
    } else {
#pragma unroll
      for (int q = 0; q < S::kCols; ++q) {
        values[e][q] = Boundary::read(in, z, p.yFirst + e, p.xFirst + q, nz, ny, nx);
      }
    }
  }
}

/// Starts the copy of this thread's points of input plane z into stage
/// slot `slot` (cp.async, one group; the caller commits): a block whose
/// window and loads lie inside the grid (kStagesInput), so every
/// row is one whole access. Slot s holds row e of thread k at
/// stage[(s kRows + e) kThreads + k]: a warp's accesses are adjacent.
template <class S>
__device__ __forceinline__ void stagePlane(typename S::Access *stage, int slot,
                                           const typename S::Element *__restrict__ in, int z,
                                           const Part<S> &p, int ny, int nx) {
  constexpr int kBytes = static_cast<int>(sizeof(typename S::Access));
  static_assert(kBytes == 4 || kBytes == 8 || kBytes == 16, "cp.async copies 4, 8 or 16 bytes");
  const typename S::Element *row = in + static_cast<long long>(z) * ny * nx + p.rowOffset;
  const auto base = static_cast<unsigned>(__cvta_generic_to_shared(stage)) +
                    static_cast<unsigned>((slot * S::kRows * S::kThreads + threadIdx.x) * kBytes);
#pragma unroll
  for (int e = 0; e < S::kRows; ++e, row += nx) {
    const unsigned to = base + static_cast<unsigned>(e * S::kThreads * kBytes);
    if constexpr (kBytes == 16) {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(row));
    } else {
      asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(row), "n"(kBytes));
    }
  }
}

/// This thread's points of the plane in stage slot `slot`, once its copy
/// is complete: every group but the Ahead - 1 committed after it.
template <class S, int Ahead>
__device__ __forceinline__ void takeStaged(typename S::Element (&values)[S::kRows][S::kCols],
                                           const typename S::Access *stage, int slot) {
  asm volatile("cp.async.wait_group %0;" ::"n"(Ahead - 1) : "memory");
#pragma unroll
  for (int e = 0; e < S::kRows; ++e) {
    const typename S::Access bits = stage[(slot * S::kRows + e) * S::kThreads + threadIdx.x];
    std::memcpy(&values[e][0], &bits, sizeof bits);
  }
}

/// Writes the thread's r top and r bottom rows of a plane to `edge` (the
/// thread's first point in a plane of a ring).
template <class S>
__device__ __forceinline__ void
writeEdges(typename S::Element *edge, const typename S::Element (&values)[S::kRows][S::kCols]) {
  using Access = typename S::Access;
  constexpr int r = S::kRadius;
#pragma unroll
  for (int w = 0; w < 2 * r; ++w) {
    const int e = w < r ? w : S::kRows - 2 * r + w;
    Access bits;
    std::memcpy(&bits, &values[e][0], sizeof bits);
    *reinterpret_cast<Access *>(edge + w * S::kPitch) = bits;
  }
}

/// i mod n in [0, n) (constants once unrolled).
__device__ __forceinline__ constexpr int wrapSlot(int i, int n) { return (i % n + n) % n; }

/// Where a level's ring slots lie in a round of the unrolled loop, in
/// elements from the level's first slot. Slot s (wrapSlot's, a constant
/// once unrolled) of a round that starts at plane iFirst + k kUnroll holds
/// plane c with c - iFirst = k kUnroll + s (mod kSlots), at slot (k kUnroll
/// + s) mod kSlots of the ring. Where kUnroll is whole rings that is s;
/// else the ring is kParts parts of g = gcd(kUnroll, kSlots) slots, s in
/// part s / g, which round k finds at part (k kUnroll / g + s / g) mod
/// kParts: a register a part, the parts rotating kUnroll / g places a
/// round.
template <class S> struct RingParts {
  static constexpr int kParts = S::kRingParts;
  static constexpr int kPart = S::kSlots / kParts; // g
  static constexpr int kTurn = S::kUnroll / kPart % kParts;
  int first[kParts] = {}; // each part's first element this round

  /// (constexpr: a test plays the rounds at compile time.)
  __host__ __device__ __forceinline__ constexpr RingParts() {
#ifdef __CUDA_ARCH__ // (the host compiler warns of the pragma)
#pragma unroll
#endif
    for (int j = 0; j < kParts; ++j) {
      first[j] = j * kPart * S::kEdgePlane;
    }
  }
  __host__ __device__ __forceinline__ constexpr int at(int s) const {
    if constexpr (kParts == 1) {
      return s * S::kEdgePlane;
    } else {
      return first[s / kPart] + s % kPart * S::kEdgePlane;
    }
  }
  /// After a round.
  __host__ __device__ __forceinline__ constexpr void rotate() {
    if constexpr (kParts > 1) {
      int was[kParts] = {};
#ifdef __CUDA_ARCH__ // (the host compiler warns of the pragma)
#pragma unroll
#endif
      for (int j = 0; j < kParts; ++j) {
        was[j] = first[j];
      }
#ifdef __CUDA_ARCH__ // (the host compiler warns of the pragma)
#pragma unroll
#endif
      for (int j = 0; j < kParts; ++j) {
        first[j] = was[(j + kTurn) % kParts];
      }
    }
  }
};

/// A level's ring as a plane of the next level reads it: the thread's
/// first point in the level's ring, where its parts lie this round, and the
/// slot of the plane computed (a constant once unrolled).
template <class S> struct LevelRing {
  const typename S::Element *edge;
  RingParts<S> parts;
  int slot;

  /// The thread's first point of plane c + dz, c the plane computed.
  __device__ __forceinline__ const typename S::Element *plane(int dz) const {
    return edge + parts.at(wrapSlot(slot + dz, S::kSlots));
  }
};

/// Value I of computePlane's ext (plane, row and column, row-major), if
/// some term reads it: from the queue, from a lane beside by a shuffle, or
/// from the edge rows of the band above or below.
template <class S, int I>
__device__ __forceinline__ void
fillOne(typename S::Element (
            &ext)[2 * S::kRadius + 1][S::kRows + 2 * S::kRadius][S::kCols + 2 * S::kRadius],
        const typename S::Element (&from)[S::kQueue][S::kRows][S::kCols], const LevelRing<S> &ring,
        int center) {
  constexpr int r = S::kRadius, kRows = S::kRows, kCols = S::kCols;
  constexpr int kH = kRows + 2 * r, kW = kCols + 2 * r;
  constexpr int dz = I / (kH * kW) - r, w = I / kW % kH - r, m = I % kW - r;
  if constexpr (S::kReads.at(dz, w, m)) {
    typename S::Element &v = ext[dz + r][w + r][m + r];
    if constexpr (w < 0 || w >= kRows) {
      const typename S::Element *plane = ring.plane(dz);
      // The bottom edge rows of the band above, or the top ones of the band
      // below.
      v = plane[(w < 0 ? w : 2 * r + w - kRows) * S::kPitch + m];
    } else {
      const int slot = wrapSlot(center + dz, S::kQueue);
      if constexpr (m < 0) {
        constexpr int lanes = (-m + kCols - 1) / kCols;
        v = __shfl_up_sync(0xffffffffu, from[slot][w][m + lanes * kCols], lanes, S::kLanesX);
      } else if constexpr (m >= kCols) {
        constexpr int lanes = m / kCols;
        v = __shfl_down_sync(0xffffffffu, from[slot][w][m - lanes * kCols], lanes, S::kLanesX);
      } else {
        v = from[slot][w][m];
      }
    }
  }
}

template <class S, int... I>
__device__ __forceinline__ void
fillAll(std::integer_sequence<int, I...>,
        typename S::Element (
            &ext)[2 * S::kRadius + 1][S::kRows + 2 * S::kRadius][S::kCols + 2 * S::kRadius],
        const typename S::Element (&from)[S::kQueue][S::kRows][S::kCols], const LevelRing<S> &ring,
        int center) {
  (fillOne<S, I>(ext, from, ring, center), ...);
}

/// Plane c of level t from level t - 1: `from` is level t - 1's register
/// queue (plane c + dz in slot (center + dz) mod kQueue), `ring` its edge
/// rows (LevelRing); center and ring.slot are constants once unrolled. The
/// results go to `to`. Interior: every point of the window is computed
/// where the plane is; AllPlanes: plane c is one the steps compute.
template <class S, bool Interior, bool AllPlanes>
__device__ __forceinline__ void
computePlane(typename S::Element (&to)[S::kRows][S::kCols],
             const typename S::Element (&from)[S::kQueue][S::kRows][S::kCols],
             const LevelRing<S> &ring, int c, const Part<S> &p, int nz, int center) {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  using Rule = Computes<typename S::Boundary>;
  constexpr int r = S::kRadius;
  constexpr int kRows = S::kRows, kCols = S::kCols;
  // The values of plane c + dz, rows -r .. kRows + r - 1, columns -r ..
  // kCols + r - 1 of the thread's points, where some term reads them.
  Element ext[2 * r + 1][kRows + 2 * r][kCols + 2 * r];
  fillAll<S>(std::make_integer_sequence<int, (2 * r + 1) * (kRows + 2 * r) * (kCols + 2 * r)>(),
             ext, from, ring, center);
  const bool planeComputed = AllPlanes || Rule::axis(c, nz, r);
  Compute acc[kRows][kCols];
#pragma unroll
  for (int e = 0; e < kRows; ++e) {
#pragma unroll
    for (int q = 0; q < kCols; ++q) {
      acc[e][q] = Compute(0);
    }
  }
#pragma unroll
  for (int t = 0; t < S::kTerms; ++t) {
    const Term<Compute> term = S::Stencil::template term<Compute>(t);
#pragma unroll
    for (int e = 0; e < kRows; ++e) {
#pragma unroll
      for (int q = 0; q < kCols; ++q) {
        acc[e][q] =
            madd(term.c, toCompute(ext[term.dz + r][e + term.dy + r][q + term.dx + r]), acc[e][q]);
      }
    }
  }
#pragma unroll
  for (int e = 0; e < kRows; ++e) {
#pragma unroll
    for (int q = 0; q < kCols; ++q) {
      const bool computed = planeComputed && (Interior || (p.yComputed[e] && p.xComputed[q]));
      to[e][q] = computed ? toElement<Element>(scaledSum<typename S::Stencil>(acc[e][q]))
                          : from[center][e][q];
    }
  }
}

/// A level's plane values of the 3D low-rank form, per plane of its
/// register queue (slot as the level's planes), for the thread's points;
/// nothing for a stencil without the form. Value-initialised (zeros):
/// stale ones only feed points the block does not store, as the queues'.
template <class S, int Levels, bool = FormOf<typename S::Stencil>::value> struct PlaneValues {
  typename S::Compute v[Levels][S::kQueue][FormOf<typename S::Stencil>::kValueSlots][S::kRows]
                       [S::kCols];
};
template <class S, int Levels> struct PlaneValues<S, Levels, false> {};

/// Row pass `pass` of plane dz of ext at row w (relative to the thread's
/// first row) and column q (fused::rowPass).
template <class S, class Ext>
__device__ __forceinline__ typename S::Compute rowPassAt(const Ext &ext, int dz, int pass, int w,
                                                         int q) {
  constexpr int r = S::kRadius;
  return fused::rowPass<typename S::Stencil, typename S::Compute>(
      pass, [&](int dx) { return toCompute(ext[dz + r][w + r][q + dx + r]); });
}

/// Row pass k at row w = I % kH - r of plane c + r, for the thread's
/// columns, where some plane value reads it.
template <class S, int I, class Ext, class Passes>
__device__ __forceinline__ void passRowOf(const Ext &ext, Passes &passes) {
  constexpr int r = S::kRadius, kH = S::kRows + 2 * r;
  constexpr int k = I / kH, w = I % kH - r;
  if constexpr (S::kReads.passRow(k, w)) {
#pragma unroll
    for (int q = 0; q < S::kCols; ++q) {
      passes[k][w + r][q] = rowPassAt<S>(ext, r, k, w, q);
    }
  }
}
template <class S, int... I, class Ext, class Passes>
__device__ __forceinline__ void passRowsOf(std::integer_sequence<int, I...>, const Ext &ext,
                                           Passes &passes) {
  (passRowOf<S, I>(ext, passes), ...);
}

/// The plane values of plane c + r (ext's plane r) at the thread's points,
/// from its row passes `passes` and ext: each from 0, its first tap a
/// product (none for a coefficient of 1), then multiply-adds in the order
/// of planeTap.
template <class S, class Ext, class Passes>
__device__ __forceinline__ void planeValuesOf(
    typename S::Compute (&values)[FormOf<typename S::Stencil>::kValueSlots][S::kRows][S::kCols],
    const Ext &ext, const Passes &passes) {
  using Compute = typename S::Compute;
  using Stencil = typename S::Stencil;
  constexpr int r = S::kRadius;
#pragma unroll
  for (int e = 0; e < S::kRows; ++e) {
#pragma unroll
    for (int q = 0; q < S::kCols; ++q) {
#pragma unroll
      for (int i = 0; i < FormOf<Stencil>::kPlaneTaps; ++i) {
        const PlaneTap<Compute> tap = Stencil::template planeTap<Compute>(i);
        const bool first = i == 0 || Stencil::template planeTap<Compute>(i - 1).plane != tap.plane;
        const Compute x = tap.pass >= 0 ? passes[tap.pass >= 0 ? tap.pass : 0][e + tap.dy + r][q]
                                        : toCompute(ext[2 * r][e + tap.dy + r][q + tap.dx + r]);
        values[tap.plane][e][q] = fused::addTap(first, tap.c, x, values[tap.plane][e][q]);
      }
    }
  }
}

/// Plane c of level t in the 3D low-rank form, from level t - 1 as
/// computePlane has it and from `values`, level t - 1's plane values (plane
/// c + dz in slot (center + dz) mod kQueue): first the plane values of
/// plane c + r, then per point, from 0, the terms' multiply-adds in the
/// order of formTerm (the generated addPlane's order along z).
template <class S, bool Interior, bool AllPlanes>
__device__ __forceinline__ void
computeFormPlane(typename S::Element (&to)[S::kRows][S::kCols],
                 const typename S::Element (&from)[S::kQueue][S::kRows][S::kCols],
                 typename S::Compute (&values)[S::kQueue][FormOf<typename S::Stencil>::kValueSlots]
                                              [S::kRows][S::kCols],
                 const LevelRing<S> &ring, int c, const Part<S> &p, int nz, int center) {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  using Stencil = typename S::Stencil;
  using Form = FormOf<Stencil>;
  using Rule = Computes<typename S::Boundary>;
  constexpr int r = S::kRadius;
  constexpr int kRows = S::kRows, kCols = S::kCols, kH = kRows + 2 * r;
  Element ext[2 * r + 1][kH][kCols + 2 * r];
  fillAll<S>(std::make_integer_sequence<int, (2 * r + 1) * kH *(kCols + 2 * r)>(), ext, from, ring,
             center);
  Compute passes[Form::kPassSlots][kH][kCols];
  passRowsOf<S>(std::make_integer_sequence<int, Form::kPasses * kH>(), ext, passes);
  planeValuesOf<S>(values[wrapSlot(center + r, S::kQueue)], ext, passes);
  const bool planeComputed = AllPlanes || Rule::axis(c, nz, r);
#pragma unroll
  for (int e = 0; e < kRows; ++e) {
#pragma unroll
    for (int q = 0; q < kCols; ++q) {
      Compute acc = Compute(0);
#pragma unroll
      for (int i = 0; i < Form::kFormTerms; ++i) {
        const FormTerm<Compute> term = Stencil::template formTerm<Compute>(i);
        const Compute x = term.plane >= 0 ? values[wrapSlot(center + term.dz, S::kQueue)]
                                                  [term.plane >= 0 ? term.plane : 0][e][q]
                          : term.pass >= 0
                              ? rowPassAt<S>(ext, term.dz, term.pass, e + term.row, q)
                              : toCompute(ext[term.dz + r][e + term.row + r][q + term.dx + r]);
        acc = madd(term.c, x, acc);
      }
      const bool computed = planeComputed && (Interior || (p.yComputed[e] && p.xComputed[q]));
      to[e][q] = computed ? toElement<Element>(acc) : from[center][e][q];
    }
  }
}

/// Plane c of level t (1 .. Levels) from level t - 1 (queue[t - 1], its
/// ring the level's of `edges`, in ring slot ringSlot): the terms
/// (computePlane), or the 3D low-rank form with level t - 1's plane values
/// (computeFormPlane).
template <class S, bool Interior, bool AllPlanes, int Levels>
__device__ __forceinline__ void
computeLevelPlane(typename S::Element (&to)[S::kRows][S::kCols],
                  const typename S::Element (&queue)[Levels][S::kQueue][S::kRows][S::kCols],
                  PlaneValues<S, Levels> &values, int t, const typename S::Element *edges,
                  const RingParts<S> &parts, int ringSlot, int c, const Part<S> &p, int nz,
                  int center) {
  const LevelRing<S> ring{edges + (t - 1) * S::kSlots * S::kEdgePlane, parts, ringSlot};
  if constexpr (FormOf<typename S::Stencil>::value) {
    computeFormPlane<S, Interior, AllPlanes>(to, queue[t - 1], values.v[t - 1], ring, c, p, nz,
                                             center);
  } else {
    computePlane<S, Interior, AllPlanes>(to, queue[t - 1], ring, c, p, nz, center);
  }
}

/// Zeroes the rings (the block's threads together) and this thread's
/// queues: stale values only ever feed points the block does not store, but
/// keep them finite and initialised all the same.
template <class S, int Levels>
__device__ __forceinline__ void
clearRingsAndQueues(typename S::Element *ring,
                    typename S::Element (&queue)[Levels][S::kQueue][S::kRows][S::kCols]) {
  using Element = typename S::Element;
  for (int i = threadIdx.x; i < Levels * S::kSlots * S::kEdgePlane; i += S::kThreads) {
    ring[i] = Element(0.0f);
  }
#pragma unroll
  for (int t = 0; t < Levels; ++t) {
#pragma unroll
    for (int u = 0; u < S::kQueue; ++u) {
#pragma unroll
      for (int e = 0; e < S::kRows; ++e) {
#pragma unroll
        for (int q = 0; q < S::kCols; ++q) {
          queue[t][u][e][q] = Element(0.0f);
        }
      }
    }
  }
}

/// Copies a plane of this thread's points (a queue slot from the loads, or
/// a level's result into the next level's queue).
template <class S>
__device__ __forceinline__ void copyPlane(typename S::Element (&to)[S::kRows][S::kCols],
                                          const typename S::Element (&from)[S::kRows][S::kCols]) {
#pragma unroll
  for (int e = 0; e < S::kRows; ++e) {
#pragma unroll
    for (int q = 0; q < S::kCols; ++q) {
      to[e][q] = from[e][q];
    }
  }
}

/// The planes of `planes` the block stores: kChunkZ from blockIdx.z's.
template <class S> __device__ __forceinline__ OuterRange chunkOf(OuterRange planes) {
  const int begin = planes.begin + static_cast<int>(blockIdx.z) * S::kChunkZ;
  return {begin, begin + S::kChunkZ < planes.end ? begin + S::kChunkZ : planes.end};
}

/// The most blocks a launch may have along y and along z (CUDA's limit).
constexpr unsigned kMostBlocksYZ = 65535;

/// The blocks' chunks along z of the stored planes `planes` of a pass of
/// Levels steps over nz planes: up to kChunkZ planes each, in three runs
/// (head, middle, tail) cut where a chunk's levels first and last may
/// compute, and its loads read, only planes inside the grid, so that every
/// middle chunk takes pass's copy without the planes' tests (passBlock).
/// Even chunks would leave that to all but the first and last chunk, a
/// third of the blocks at three chunks. A periodic grid computes every
/// plane: one run; so do planes the runs would cut into more chunks than a
/// launch may have along z (kMostBlocksYZ) where even chunks would not,
/// so that the extents a launch takes stay those of even chunks.
template <class S, int Levels> struct ZChunks {
  static constexpr int kMostChunks = static_cast<int>(kMostBlocksYZ);
  int begin, lo, hi, end; // the runs [begin, lo), [lo, hi), [hi, end)

  __host__ __device__ ZChunks(OuterRange planes, int nz) : begin(planes.begin), end(planes.end) {
    constexpr bool kEvery = Computes<typename S::Boundary>::kEveryPoint;
    // The first plane a chunk's levels compute is Levels (r + kLag) before
    // its first, which a fixed ring wants r inside; its last load is
    // Levels kLag past its last plane (kLag >= r covers the ring there).
    constexpr int kHead = kEvery ? 0 : Levels * (S::kRadius + S::kLag) + S::kRadius;
    constexpr int kTail = kEvery ? 0 : Levels * S::kLag;
    lo = clamp(kHead, begin, end);
    hi = clamp(nz - kTail, lo, end);
    if (count() > kMostChunks && chunks(end - begin) <= kMostChunks) {
      lo = begin;
      hi = end;
    }
  }
  __host__ __device__ static constexpr int clamp(int v, int low, int high) {
    return v < low ? low : v > high ? high : v;
  }
  __host__ __device__ static constexpr int chunks(int planes) {
    return planes <= 0 ? 0 : (planes - 1) / S::kChunkZ + 1; // no overflow near INT_MAX
  }
  /// The blocks along z.
  __host__ __device__ int count() const {
    return chunks(lo - begin) + chunks(hi - lo) + chunks(end - hi);
  }
  /// Chunk k (0 .. count() - 1).
  __host__ __device__ OuterRange chunk(int k) const {
    const int head = chunks(lo - begin), middle = chunks(hi - lo);
    const int from = k < head ? begin : k < head + middle ? lo : hi;
    const int to = k < head ? lo : k < head + middle ? hi : end;
    const int first = from + (k < head            ? k
                              : k < head + middle ? k - head
                                                  : k - head - middle) *
                                 S::kChunkZ;
    return {first, to - first > S::kChunkZ ? first + S::kChunkZ : to};
  }
};

/// Whether a grid's rows of nx points at `grid` split into whole, aligned
/// accesses of kCols elements.
template <class S>
__device__ __forceinline__ bool wholeAccesses(const typename S::Element *grid, int nx) {
  return nx % S::kCols == 0 &&
         reinterpret_cast<std::uintptr_t>(grid) % sizeof(typename S::Access) == 0;
}

/// Where this thread's part of the block's window lies: its lane and band,
/// its first column and row, the planes it stores, whether its loads and
/// stores may be whole, aligned accesses, and its first points in a ring plane and a
/// grid plane, and which of its columns a step computes (by the boundary
/// rule with a ring of ringX columns: r, or a stencil of fields' own) and
/// the block stores; `chunk` is the block's planes.
template <class S>
__device__ __forceinline__ void placePart(Part<S> &p, const typename S::Element *in,
                                          const typename S::Element *out, int nx, OuterRange chunk,
                                          int ringX) {
  p.lane = static_cast<int>(threadIdx.x) % S::kLanesX;
  p.band = static_cast<int>(threadIdx.x) / S::kLanesX;
  const int x0 = static_cast<int>(blockIdx.x) * S::kTileX - S::kHaloX;
  const int y0 = static_cast<int>(blockIdx.y) * S::kTileY - S::kHaloY;
  p.xFirst = x0 + p.lane * S::kCols;
  p.yFirst = y0 + p.band * S::kRows;
  p.zBegin = chunk.begin;
  p.zEnd = chunk.end;
  p.vectorIn = wholeAccesses<S>(in, nx);
  p.vectorOut = wholeAccesses<S>(out, nx);
  p.edgeBase = (p.band + 1) * 2 * S::kRadius * S::kPitch + S::kPadX + p.lane * S::kCols;
  p.rowOffset = static_cast<long long>(p.yFirst) * nx + p.xFirst;
#pragma unroll
  for (int q = 0; q < S::kCols; ++q) {
    const int cx = p.lane * S::kCols + q;
    p.xComputed[q] = Computes<typename S::Boundary>::axis(p.xFirst + q, nx, ringX);
    p.xStored[q] = cx >= S::kHaloX && cx < S::kHaloX + S::kTileX && p.xFirst + q < nx;
  }
}

/// Rows of the window one warp's points cover: whole bands.
template <class S> constexpr int kWarpRows = 32 / S::kLanesX * S::kRows;

/// Whether a warp may lie wholly outside the rows some level must compute:
/// the last level needs only the tile's rows, so warps of rows within the
/// halo (kHaloY) of the window's top or bottom skip it.
template <class S> constexpr bool kWarpsSkipLevels = kWarpRows<S> <= S::kHaloY;

/// Bit t (1 .. Levels) set where this thread's warp has a row that level t
/// computes for a point the block stores: the tile's rows and (Levels - t)
/// r beyond each side. A warp without one skips level t: its queue and
/// ring keep older planes, which feed only rows that level t + 1 does not
/// need either (their reach shrinks by r a level). The decision is the
/// warp's, so its shuffles stay whole.
template <class S, int Levels> __device__ __forceinline__ unsigned levelsNeeded() {
  const int first = static_cast<int>(threadIdx.x) / 32 * kWarpRows<S>;
  unsigned bits = 0;
#pragma unroll
  for (int t = 1; t <= Levels; ++t) {
    const int reach = (Levels - t) * S::kRadius;
    if (__any_sync(0xFFFFFFFFu, first + kWarpRows<S> > S::kHaloY - reach &&
                                    first < S::kHaloY + S::kTileY + reach)) {
      bits |= 1u << t;
    }
  }
  return bits;
}

/// Whether a pass loads its planes without the planes' test: where it
/// computes every plane (AllPlanes; passBlock then knows its loads inside
/// the grid too) of a grid that is not periodic, in elements of 4 bytes or
/// fewer: measured 5-8 % faster in fp32 and 3-4 % in fp16 and bf16, but
/// 4-11 % slower in fp64, where ptxas copies the loaded registers right
/// after the loads (for the iterations that load nothing), a copy that
/// waits for the load.
template <class S, bool AllPlanes>
constexpr bool kLoadsInside =
    AllPlanes && !Computes<typename S::Boundary>::kEveryPoint && sizeof(typename S::Element) < 8;

/// Stores the points of row `values` that the block stores, one by one
/// (where the row is not one whole access).
template <class S>
__device__ __forceinline__ void storePoints(typename S::Element *row,
                                            const typename S::Element (&values)[S::kCols],
                                            const Part<S> &p) {
#pragma unroll
  for (int q = 0; q < S::kCols; ++q) {
    if (p.xStored[q]) {
      row[q] = values[q];
    }
  }
}

/// With Ring false (NAME_step's pass), keeps of the rows and columns the
/// thread stores those a step computes only: a fixed ring is left as it
/// was.
template <class S, bool Ring> __device__ __forceinline__ void storeComputedOnly(Part<S> &p) {
  if constexpr (!Ring) {
#pragma unroll
    for (int q = 0; q < S::kCols; ++q) {
      p.xStored[q] = p.xStored[q] && p.xComputed[q];
    }
#pragma unroll
    for (int e = 0; e < S::kRows; ++e) {
      p.yStored[e] = p.yStored[e] && p.yComputed[e];
    }
  }
}

/// Whether a pass (pass's template arguments) stages its input planes: one
/// of several levels whose window and every plane loaded lie inside the
/// grid, where the plan sets kStagedPlanes. Plane i comes to the queue in
/// iteration i (takeInput), its load started two iterations ahead into
/// registers (`next`), or, staged, kStagedPlanes ahead into shared memory
/// (stagePlane): NAME_run of the fp32 stars and of the fp32 box's low-rank
/// form 1.02-1.07 x so on an H100, fp64 and 16 bits 0.85-0.98 x, and one
/// level (NAME_step's pass of box3d27p fp32) 0.95 x at 3 planes
/// (docs/performance.md, 2026-12-07 about 00:45); the planner sets
/// kStagedPlanes where it measured faster. (Free functions over pass's own
/// `next`: held in a struct, the loads into registers ran box3d27p fp64
/// 0.96-0.97 x, ptxas placing its register moves otherwise.)
template <class S, int Levels, bool Interior, bool AllPlanes>
constexpr bool kStagesInput = S::kStagedPlanes > 0 && Levels > 1 && (Interior && AllPlanes) &&
                              !Computes<typename S::Boundary>::kEveryPoint;

/// Starts the loads of the first planes a pass takes (iFirst on, those up
/// to iLast): two into `next`, or kStagedPlanes into `stage`.
template <class S, int Levels, bool Interior, bool AllPlanes>
__device__ __forceinline__ void startInput(typename S::Element (&next)[2][S::kRows][S::kCols],
                                           typename S::Access *stage,
                                           const typename S::Element *__restrict__ in, int iFirst,
                                           int iLast, const Part<S> &p, int nz, int ny, int nx) {
  constexpr bool kZInside = kLoadsInside<S, AllPlanes>, kWhole = Interior || AllPlanes;
  if constexpr (kStagesInput<S, Levels, Interior, AllPlanes>) {
#pragma unroll
    for (int k = 0; k < S::kStagedPlanes; ++k) {
      if (iFirst + k <= iLast) {
        stagePlane<S>(stage, k, in, iFirst + k, p, ny, nx);
      }
      asm volatile("cp.async.commit_group;" ::: "memory"); // a group a plane
    }
  } else {
    loadPlane<S, Interior, kZInside, kWhole, Levels>(next[0], in, iFirst, p, nz, ny, nx);
    loadPlane<S, Interior, kZInside, kWhole, Levels>(next[1], in, iFirst + 1, p, nz, ny, nx);
  }
}

/// Plane i (the u-th of an unrolled round) into `to`, and the load of the
/// plane as far ahead started where it is at most iLast; `taken` is the
/// stage slot of plane i where the pass stages.
template <class S, int Levels, bool Interior, bool AllPlanes>
__device__ __forceinline__ void takeInput(typename S::Element (&to)[S::kRows][S::kCols],
                                          typename S::Element (&next)[2][S::kRows][S::kCols],
                                          typename S::Access *stage, int &taken, int u, int i,
                                          int iLast, const typename S::Element *__restrict__ in,
                                          const Part<S> &p, int nz, int ny, int nx) {
  constexpr bool kZInside = kLoadsInside<S, AllPlanes>, kWhole = Interior || AllPlanes;
  if constexpr (kStagesInput<S, Levels, Interior, AllPlanes>) {
    constexpr int kAhead = S::kStagedPlanes;
    takeStaged<S, kAhead>(to, stage, taken);
    if (i + kAhead <= iLast) {
      const int fill = taken + kAhead - (taken + kAhead >= S::kStageSlots ? S::kStageSlots : 0);
      stagePlane<S>(stage, fill, in, i + kAhead, p, ny, nx);
    }
    asm volatile("cp.async.commit_group;" ::: "memory"); // one group an iteration
    taken = taken + 1 == S::kStageSlots ? 0 : taken + 1;
  } else {
    copyPlane<S>(to, next[u % 2]);
    if (i + 2 <= iLast) {
      loadPlane<S, Interior, kZInside, kWhole, Levels>(next[u % 2], in, i + 2, p, nz, ny, nx);
    }
  }
}

/// One pass of Levels fused steps (1 <= Levels <= kSteps) by the block
/// (the whole body of a kernel): in -> out, an nz x ny x nx grid, windows
/// along blockIdx.x (x) and blockIdx.y (y), the stored planes `chunk`
/// (ZChunks' of blockIdx.z). Needs S::sharedBytes(Levels) bytes
/// of dynamic shared memory.
/// Interior: the block's window lies inside the grid's computed points (r
/// from each edge), its rows whole and aligned accesses (the tile it stores
/// is still only part of the window). AllPlanes: the planes its levels
/// compute lie inside the grid's computed points (passBlock), so no point
/// keeps its value of the level before for its plane (a select a point and
/// level, which the compiler makes as register moves on every plane: 6-15 %
/// of the interior loop's instructions; with Interior, no select at all);
/// where the grid is not periodic, the planes it loads lie inside the grid
/// too, and (but in fp64) the loads skip the test (kLoadsInside). Both
/// (kWhole) come with whole, aligned accesses: inside the grid, and
/// passBlock asks them of an edge block.
/// Iteration i takes input plane i as level 0 and computes plane i - t kLag
/// of level t; plane c of every level sits in queue slot (c - iFirst) mod
/// kQueue and ring slot (c - iFirst) mod kSlots, which the unrolled loop
/// makes constants (offsets from its part's first slot where the ring's
/// parts rotate a round: RingParts). Input planes are loaded two iterations ahead (or
/// staged kStagedPlanes ahead: kStagesInput). A warp
/// skips the levels none of its rows computes for the tile (levelsNeeded).
/// Ring false: the points of a fixed ring are not stored (NAME_step leaves
/// out's as they were), so a thread at an edge may store part of its row.
/// (The flags of Part's rows, the loads of the input planes and the stores
/// of whole rows stay here: split into helpers, they change the PTX; the
/// columns' flags moved to placePart with the same machine code.)
template <class S, int Levels, bool Interior, bool AllPlanes, bool Ring = true>
__device__ __forceinline__ void pass(const typename S::Element *__restrict__ in,
                                     typename S::Element *__restrict__ out, int nz, int ny, int nx,
                                     OuterRange chunk) {
  static_assert(Levels >= 1 && Levels <= S::kSteps, "a pass fuses 1 .. kSteps steps");
  using Element = typename S::Element;
  using Access = typename S::Access;
  using Rule = Computes<typename S::Boundary>;
  constexpr int r = S::kRadius, kRows = S::kRows, kCols = S::kCols;
  constexpr int kLag = S::kLag, kQueue = S::kQueue;
  constexpr bool kWhole = Interior || AllPlanes; // whole accesses (passBlock)
  Element *const ring = rings<Element>();
  Part<S> p;
  placePart<S>(p, in, out, nx, chunk, r);
#pragma unroll
  for (int e = 0; e < kRows; ++e) {
    const int cy = p.band * kRows + e;
    const int y = p.yFirst + e;
    p.yComputed[e] = Rule::axis(y, ny, r);
    p.yStored[e] = cy >= S::kHaloY && cy < S::kHaloY + S::kTileY && y < ny;
    p.rowVector[e] = p.vectorIn && p.xFirst >= 0 && p.xFirst + kCols <= nx && y >= 0 && y < ny;
  }
  storeComputedOnly<S, Ring>(p);
  const bool xWhole = p.vectorOut && p.xStored[0] && p.xStored[kCols - 1];
  Element queue[Levels][kQueue][kRows][kCols];
  clearRingsAndQueues<S, Levels>(ring, queue);
  PlaneValues<S, Levels> values{};
  const PlaneOrder<S, Levels> order(ring); // (a __syncthreads: the rings cleared)
  const int iFirst = p.zBegin - Levels * r, iLast = p.zEnd - 1 + Levels * kLag;
  Element next[2][kRows][kCols];
  Access *const stage = stagedSlots<S, Levels>(ring);
  int taken = 0;
  startInput<S, Levels, Interior, AllPlanes>(next, stage, in, iFirst, iLast, p, nz, ny, nx);
  Element *const edges = ring + p.edgeBase;
  RingParts<S> parts;
  const unsigned needed = kWarpsSkipLevels<S> ? levelsNeeded<S, Levels>() : ~0u;
  for (int i0 = iFirst;; i0 += S::kUnroll, parts.rotate()) {
#pragma unroll
    for (int u = 0; u < S::kUnroll; ++u) {
      const int i = i0 + u;
      takeInput<S, Levels, Interior, AllPlanes>(queue[0][u % kQueue], next, stage, taken, u, i,
                                                iLast, in, p, nz, ny, nx);
      writeEdges<S>(edges + parts.at(u % S::kSlots), queue[0][u % kQueue]);
      order.await(u); // every thread's edge rows of the plane before
#pragma unroll
      for (int t = 1; t <= Levels; ++t) {
        const int c = i - t * kLag;
        order.arrive(t); // before the last level, which writes no edge rows
        if (!(needed >> t & 1u)) {
          continue;
        }
        const int slot = wrapSlot(u - t * kLag, kQueue);
        const int ringSlot = wrapSlot(u - t * kLag, S::kSlots);
        Element result[kRows][kCols];
        computeLevelPlane<S, Interior, AllPlanes>(result, queue, values, t, edges, parts, ringSlot,
                                                  c, p, nz, slot);
        if (t < Levels) {
          copyPlane<S>(queue[t][slot], result);
          writeEdges<S>(edges + t * S::kSlots * S::kEdgePlane + parts.at(ringSlot), result);
        } else if (c >= p.zBegin && c < p.zEnd && (Ring || AllPlanes || Rule::axis(c, nz, r))) {
          Element *row = out + static_cast<long long>(c) * ny * nx + p.rowOffset;
#pragma unroll
          for (int e = 0; e < kRows; ++e, row += nx) {
            if (!p.yStored[e]) {
              continue;
            }
            if (xWhole) {
              Access bits;
              std::memcpy(&bits, &result[e][0], sizeof bits);
              *reinterpret_cast<Access *>(row) = bits;
            } else if (!kWhole || !(Ring || Interior)) { // (whole: all stored or none)
              storePoints<S>(row, result[e], p);
            }
          }
        }
      }
      if (i == iLast) {
        return;
      }
      order.next();
    }
  }
}

/// A pass of Levels fused steps by the block, storing its chunk of
/// `planes` (ZChunks): the interior versions where the block's window lies
/// inside the grid, the one without the planes' tests where its levels'
/// planes and its loads do too (the middle run of chunks). Where loads may
/// skip the planes' test (kLoadsInside: not fp64, not periodic), a block at
/// the x or y edges whose accesses are whole and aligned takes the copy
/// without the planes' tests too (fp32 2-3 % faster, fp64 2-5 % slower,
/// and with whole accesses known there 10 % more: docs/performance.md,
/// 2026-11-30 19:51), and then no interior copy with them is compiled:
/// the head and tail runs are a few planes.
template <class S, int Levels, bool Ring = true>
__device__ __forceinline__ void passBlock(const typename S::Element *__restrict__ in,
                                          typename S::Element *__restrict__ out, int nz, int ny,
                                          int nx, OuterRange planes) {
  using Rule = Computes<typename S::Boundary>;
  constexpr int r = S::kRadius;
  const int x0 = static_cast<int>(blockIdx.x) * S::kTileX - S::kHaloX;
  const int y0 = static_cast<int>(blockIdx.y) * S::kTileY - S::kHaloY;
  const bool whole = wholeAccesses<S>(in, nx) && wholeAccesses<S>(out, nx);
  const bool interior =
      whole && x0 >= r && x0 + S::kWidth <= nx - r && y0 >= r && y0 + S::kHeight <= ny - r;
  // The first and last planes the levels compute (pass's iFirst - Levels
  // kLag and iLast - kLag): where the steps compute both, they compute
  // every plane between; the last plane loaded (iLast), unless periodic.
  const OuterRange chunk = ZChunks<S, Levels>(planes, nz).chunk(static_cast<int>(blockIdx.z));
  const bool allPlanes = Rule::axis(chunk.begin - Levels * (r + S::kLag), nz, r) &&
                         Rule::axis(chunk.end - 1 + (Levels - 1) * S::kLag, nz, r) &&
                         (Rule::kEveryPoint || chunk.end - 1 + Levels * S::kLag < nz);
  if (interior && allPlanes) {
    pass<S, Levels, true, true, Ring>(in, out, nz, ny, nx, chunk);
  } else if constexpr (kLoadsInside<S, true>) {
    if (allPlanes && whole) {
      pass<S, Levels, false, true, Ring>(in, out, nz, ny, nx, chunk);
    } else {
      pass<S, Levels, false, false, Ring>(in, out, nz, ny, nx, chunk);
    }
  } else if (interior && !Rule::kEveryPoint) { // (a copy less to compile)
    pass<S, Levels, true, false, Ring>(in, out, nz, ny, nx, chunk);
  } else {
    pass<S, Levels, false, false, Ring>(in, out, nz, ny, nx, chunk);
  }
}

/// The kernel of a pass of Levels fused steps, every plane stored (Ring
/// false: but a fixed ring, as pass's).
template <class S, int Levels, bool Ring = true>
__global__ void __launch_bounds__(S::kThreads, S::kMinBlocks)
    passKernel(const typename S::Element *__restrict__ in, typename S::Element *__restrict__ out,
               int nz, int ny, int nx) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    letDependentsLaunch(); // a band (fused_band.cuh) may start beside the last blocks
    passBlock<S, Levels, Ring>(in, out, nz, ny, nx, OuterRange{0, nz});
  }
}

/// The kernel of a pass of Levels fused steps that stores `planes` only
/// (NAME_pass_range).
template <class S, int Levels>
__global__ void __launch_bounds__(S::kThreads, S::kMinBlocks)
    passRangeKernel(const typename S::Element *__restrict__ in,
                    typename S::Element *__restrict__ out, int nz, int ny, int nx,
                    OuterRange planes) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    passBlock<S, Levels>(in, out, nz, ny, nx, planes);
  }
}

/// The blocks of a pass storing planesZ planes of rows ny and columns nx
/// in even chunks (chunkOf).
template <class S> inline dim3 gridFor(int planesZ, int ny, int nx) {
  return dim3(static_cast<unsigned>((nx - 1) / S::kTileX + 1),
              static_cast<unsigned>((ny - 1) / S::kTileY + 1),
              static_cast<unsigned>((planesZ - 1) / S::kChunkZ + 1));
}

/// The blocks of a pass of Levels steps storing `planes` of an nz x ny x
/// nx grid in ZChunks' chunks.
template <class S, int Levels> inline dim3 passGridFor(OuterRange planes, int nz, int ny, int nx) {
  dim3 grid = gridFor<S>(1, ny, nx);
  grid.z = static_cast<unsigned>(ZChunks<S, Levels>(planes, nz).count());
  return grid;
}

/// Launches `kernel` (a pass of Levels steps) on `stream` with `args` over
/// `grid`; the launch's status (cudaErrorInvalidValue for a grid past the
/// launch limits).
template <class S, int Levels, class Kernel, class... Args>
inline cudaError_t launchKernel(Kernel kernel, dim3 grid, cudaStream_t stream, Args... args) {
  if (grid.y > kMostBlocksYZ || grid.z > kMostBlocksYZ) {
    return cudaErrorInvalidValue;
  }
  constexpr int bytes = S::sharedBytes(Levels);
  if (const cudaError_t optIn = allowDynamicShared(kernel, bytes); optIn != cudaSuccess) {
    return optIn;
  }
  kernel<<<grid, S::kThreads, bytes, stream>>>(args...);
  return cudaGetLastError();
}

/// Launches one pass of `levels` fused steps (1 .. kSteps) on `stream`,
/// in -> out, storing `planes` (every plane where it is the whole grid), and
/// returns the launch's status (cudaErrorInvalidValue for a grid past the
/// launch limits or levels out of range).
template <class S>
inline cudaError_t launchPass(int levels, const typename S::Element *in, typename S::Element *out,
                              int nz, int ny, int nx, OuterRange planes, cudaStream_t stream) {
  return withLevels<S::kSteps>(levels, [&](auto at) {
    constexpr int kLevels = decltype(at)::value;
    const dim3 grid = passGridFor<S, kLevels>(planes, nz, ny, nx);
    if (planes.whole(nz)) {
      return launchKernel<S, kLevels>(passKernel<S, kLevels>, grid, stream, in, out, nz, ny, nx);
    }
    return launchKernel<S, kLevels>(passRangeKernel<S, kLevels>, grid, stream, in, out, nz, ny, nx,
                                    planes);
  });
}

/// NAME_pass_range: one pass of `steps` fused steps (1 .. kSteps), in ->
/// out, in never written, storing planes [first, first + count) of out
/// only, the fixed ring on them included (every other point of out is left
/// as it was; in is read wherever the steps reach).
/// The caller has checked the pointers, the sizes and the range
/// (validRange).
template <class S>
inline cudaError_t onePassRange(const typename S::Element *in, typename S::Element *out, int nz,
                                int ny, int nx, int first, int count, int steps,
                                cudaStream_t stream) {
  if (steps < 1 || steps > S::kSteps) {
    return cudaErrorInvalidValue;
  }
  return launchPass<S>(steps, in, out, nz, ny, nx, OuterRange{first, first + count}, stream);
}

/// NAME_pass: one pass of `steps` fused steps (1 .. kSteps), in -> out, in
/// never written (the pass stores every point of the grid, a fixed ring
/// included). The caller has checked the pointers and sizes.
template <class S>
inline cudaError_t onePass(const typename S::Element *in, typename S::Element *out, int nz, int ny,
                           int nx, int steps, cudaStream_t stream) {
  return onePassRange<S>(in, out, nz, ny, nx, 0, nz, steps, stream);
}

/// NAME_step where the plan takes the fused kernel for it (measured faster
/// than the step kernel for its kind): a pass of one step, in -> out,
/// storing the points a step computes only, so that a fixed ring of out is
/// left as it was, as the step kernel leaves it (elsewhere the pass of one
/// step NAME_run launches, the same kernel). cudaErrorInvalidValue, and
/// nothing enqueued, for a grid past the launch limits (the caller then
/// launches the step kernel). The caller has checked the pointers and
/// sizes.
template <class S>
inline cudaError_t step(const typename S::Element *in, typename S::Element *out, int nz, int ny,
                        int nx, cudaStream_t stream) {
  return launchKernel<S, 1>(passKernel<S, 1, fused::kStepStoresEveryPoint<typename S::Boundary>>,
                            passGridFor<S, 1>(OuterRange{0, nz}, nz, ny, nx), stream, in, out, nz,
                            ny, nx);
}

/// `steps` steps on an nz x ny x nx grid: passes of kSteps fused steps and
/// one pass of the remainder, each `pass(levels, from, to)`, ping-ponging
/// between a and b; the result is left in a (b is scratch of the same size,
/// its contents never read). cudaErrorInvalidValue, and nothing enqueued,
/// for a null pointer, a == b, a size below the boundary's minimum (fixed:
/// 2r + 1) or steps < 0.
template <class S, class Pass>
inline cudaError_t runPasses(typename S::Element *a, typename S::Element *b, int nz, int ny, int nx,
                             int steps, cudaStream_t stream, Pass pass) {
  const int least = minExtent<typename S::Boundary>(S::kRadius);
  if (a == nullptr || b == nullptr || a == b || nz < least || ny < least || nx < least ||
      steps < 0) {
    return cudaErrorInvalidValue;
  }
  return fused::alternatePasses<S>(a, b, static_cast<size_t>(nz) * ny * nx, steps, stream, pass);
}

/// NAME_run's passes (runPasses), each one launch of the fused kernel.
template <class S>
inline cudaError_t run(typename S::Element *a, typename S::Element *b, int nz, int ny, int nx,
                       int steps, cudaStream_t stream) {
  static_assert(fused::kPassesExactAlone<S>, "a folding rule's passes need the band: runBanded");
  return runPasses<S>(a, b, nz, ny, nx, steps, stream,
                      [=](int levels, const typename S::Element *from, typename S::Element *to) {
                        return launchPass<S>(levels, from, to, nz, ny, nx, OuterRange{0, nz},
                                             stream);
                      });
}

} // namespace fused3d
} // namespace device
} // namespace stencilc
