// stencilc/device/band.cuh - the band: every point within W = T·r of a
// grid edge, recomputed step by step on CUDA cores with the true boundary
// rule, after a pass of T steps whose kernel is exact only farther inside.
// Two passes take it: the tensor cores' composed passes (composed.cuh,
// whose composed stencil reads the input T·r inside the grid), and the
// CUDA cores' fused passes under clamp, mirror and reflect (fused_band.cuh,
// which read 0 outside the grid instead of each level's own fold).
// docs/design.md, "The band".
//
// A 3D grid's band is patches of its faces (volumeKernel, at the end; its
// traits give a point's arithmetic, point(at) with at(dz, dy, dx)). A 1D
// line's band is a block at each end (lineKernel). In 2D,
// on a grid wider than 2 W on both axes the band runs in strips
// (stripKernel below). Otherwise the tile kernel: a block takes a
// kTile x kTile tile of the grid that meets the band, loads the input
// window around it (W more on each side) through the boundary policy into
// shared memory in the arithmetic type, and computes T levels in place of
// two buffers, each level on the points the tile's stored ones need
// (BandRegions: a tile on one band stores only its W lines of that band, so
// its levels need those lines widened by r a level still to come, not the
// whole window). Per level and point:
//   - inside the grid, and not in a `fixed` ring: the stencil's arithmetic
//     over the previous level (levelPoint), rounded to the element type
//     (what a single step stores);
//   - a `fixed` ring point, or a point outside the grid under `fixed` or
//     `constant`: the previous level's value, unchanged;
//   - outside the grid under `clamp`, `mirror` or `reflect`: after a
//     barrier, the value this level gives the point stencilc_fold_index
//     lands on (inside the window whenever kTile >= W).
// Only the points within W of an edge (and not in a `fixed` ring) are
// stored; the pass's own store of them, if any, came first.
//
// Band traits:
//   using Element, Compute;                 element type; float or double
//   using Boundary;                         boundary.cuh policy of the stencil
//   static constexpr stencilc_boundary kBoundaryKind;
//   static constexpr int kRadius, kSteps, kRing;
//   template <class F> static __device__ void points(F &&f);
//       calls f(dy, dx, coefficient) for every point, in a fixed order
// or, instead of points, a point's whole arithmetic (the CUDA cores' fused
// passes, whose forms include scaled and low-rank ones):
//   static constexpr bool kOwnArithmetic = true;
//   template <class At> static __device__ Compute point(At at);
//       a point's value before rounding, at(dy, dx) the previous level
//       (at(dx) on a line)
// or, for a 2D stencil of rank 1 (column(dy) row(dx): the composed rank-1
// passes' band), a level as two passes (separableStripLevel and
// separableTileLevel):
//   static constexpr bool kSeparable = true;
//   static __device__ Compute row(int k), column(int k);   k in [0, 2 r]
#pragma once

#include <type_traits>

#include <cuda_runtime.h>

#include "stencilc/device/arch.cuh"
#include "stencilc/device/boundary.cuh"
#include "stencilc/device/dependent.cuh"
#include "stencilc/device/element.cuh"
#include "stencilc/device/host.cuh"
#include "stencilc/runtime/boundary_index.h"

namespace stencilc {
namespace device {
namespace band {

/// The band's tiles: the rows of tiles that meet the top or bottom W rows,
/// whole, then in the rows between them the columns of tiles that meet the
/// left or right W columns.
struct BandTiles {
  int tilesY, tilesX;
  int top, bottom; // tile rows [0, top) and [bottom, tilesY) meet the top/bottom band
  int left, right; // tile columns [0, left) and [right, tilesX) meet the side bands

  __host__ __device__ BandTiles(int ny, int nx, int tile, int w) {
    tilesY = (ny + tile - 1) / tile;
    tilesX = (nx + tile - 1) / tile;
    top = min((w + tile - 1) / tile, tilesY);
    bottom = max(top, (ny - w) / tile);
    left = min((w + tile - 1) / tile, tilesX);
    right = max(left, (nx - w) / tile);
  }
  __host__ __device__ int rowBandTiles() const { return (top + tilesY - bottom) * tilesX; }
  __host__ __device__ int count() const {
    return rowBandTiles() + (bottom - top) * (left + tilesX - right);
  }
  /// Tile i of count(), as (tile row, tile column).
  __device__ void tile(int i, int &ty, int &tx) const {
    if (i < rowBandTiles()) {
      const int k = i / tilesX;
      tx = i % tilesX;
      ty = k < top ? k : bottom + (k - top);
      return;
    }
    i -= rowBandTiles();
    const int middle = bottom - top;
    ty = top + i % middle;
    const int k = i / middle;
    tx = k < left ? k : right + (k - left);
  }
};

/// Along one axis, the grid lines [lo, hi) of a tile's lines [t0, t1) that
/// lie within w of either end of [0, n): empty (lo >= hi) where the tile
/// meets neither end's band.
struct Span {
  long long lo, hi;
};
__device__ inline Span bandSpan(long long t0, long long t1, int n, int w) {
  return {t0 < w ? t0 : max(t0, static_cast<long long>(n) - w),
          t1 > static_cast<long long>(n) - w ? t1 : min(t1, static_cast<long long>(w))};
}

/// A rectangle of the band window, [y0, y1) x [x0, x1) in window lines.
struct Region {
  int y0, y1, x0, x1;
  __device__ int height() const { return y1 - y0; }
  __device__ int width() const { return x1 - x0; }
  __device__ bool holds(long long y, long long x) const {
    return y >= y0 && y < y1 && x >= x0 && x < x1;
  }
};

/// The points of a band tile's window that level l needs: the tile's stored
/// points (a tile on one band only stores that band's lines, W of its 32;
/// a corner tile, or one of a small grid, the whole tile), widened by r for
/// each level still to come, within the lines level l can compute. Every
/// point level l + 1 needs is then r inside level l's region, so the band
/// computes no point that no stored output depends on.
template <int kTile, int kW, int kR, int kSteps> struct BandRegions {
  Region stored; // window lines of the stored points (level kSteps's region)

  __device__ BandRegions(long long y0, long long x0, int ny, int nx) {
    const long long ty = y0 + kW, tx = x0 + kW; // the tile's first grid line
    const long long ty1 = min(ty + kTile, static_cast<long long>(ny));
    const long long tx1 = min(tx + kTile, static_cast<long long>(nx));
    const Span sy = bandSpan(ty, ty1, ny, kW), sx = bandSpan(tx, tx1, nx, kW);
    const bool alongY = sy.lo < sy.hi, alongX = sx.lo < sx.hi;
    const Span rows = alongY && !alongX ? sy : Span{ty, ty1};
    const Span cols = alongX && !alongY ? sx : Span{tx, tx1};
    stored = {static_cast<int>(rows.lo - y0), static_cast<int>(rows.hi - y0),
              static_cast<int>(cols.lo - x0), static_cast<int>(cols.hi - x0)};
  }
  /// Level l's region (level 0: the input the window loads).
  __device__ Region at(int l) const {
    const int grow = (kSteps - l) * kR, lo = l * kR, hi = kTile + 2 * kW - l * kR;
    return {max(lo, stored.y0 - grow), min(hi, stored.y1 + grow), max(lo, stored.x0 - grow),
            min(hi, stored.x1 + grow)};
  }
};

/// i moved into [begin, end) (end > begin): a line past a level's read
/// reads its last line again, so that every load is made untested.
__device__ __forceinline__ int within(int i, int begin, int end) {
  return min(max(i, begin), end - 1);
}

/// Whether Band computes a point itself (kOwnArithmetic, Band::point).
template <class Band, class = void> struct OwnArithmeticOf : std::false_type {};
template <class Band>
struct OwnArithmeticOf<Band, std::void_t<decltype(Band::kOwnArithmetic)>>
    : std::bool_constant<Band::kOwnArithmetic> {};

/// Whether Band's levels are an x-pass and a y-pass (kSeparable).
template <class Band, class = void> struct SeparableOf : std::false_type {};
template <class Band>
struct SeparableOf<Band, std::void_t<decltype(Band::kSeparable)>>
    : std::bool_constant<Band::kSeparable> {};

/// A separable level's two sums (Band::kSeparable): a value of the x-pass
/// is row(k)'s multiply-adds over the level before at dx = k - r, from 0
/// in k's order; a point the column's over the x-pass at dy = k - r,
/// rounded to the element type. 2 (2 r + 1) operations a point where the
/// direct form takes (2 r + 1)^2: in 49 terms the band took 12-13 % of the
/// blur's composed passes beside it, separable 7 % (docs/performance.md,
/// 2026-12-06 22:28 and 23:29).
template <class Band, class Weight, class At>
__device__ __forceinline__ typename Band::Compute separableSum(Weight weight, At at) {
  typename Band::Compute acc = 0;
#pragma unroll
  for (int k = 0; k <= 2 * Band::kRadius; ++k) {
    acc = madd(weight(k), at(k - Band::kRadius), acc);
  }
  return acc;
}
template <class Band, class At> __device__ __forceinline__ typename Band::Compute rowSum(At at) {
  return separableSum<Band>([](int k) { return Band::row(k); }, at);
}
template <class Band, class At> __device__ __forceinline__ typename Band::Compute columnSum(At at) {
  return toCompute(toElement<typename Band::Element>(
      separableSum<Band>([](int k) { return Band::column(k); }, at)));
}

/// A thread's kCount loads, all made before any is stored: `load(k)` reads
/// the k-th (every one inside the grid or a value the rule gives, so none
/// is tested), `store(k, value)` keeps it where it belongs. A load in a
/// branch with its store made a thread's loads wait one after the other
/// (docs/performance.md, 2026-12-04 16:17-16:44).
template <int kCount, class Load, class Store>
__device__ __forceinline__ void loadAllThenStore(Load load, Store store) {
  decltype(load(0)) loaded[kCount];
#pragma unroll
  for (int k = 0; k < kCount; ++k) {
    loaded[k] = load(k);
  }
#pragma unroll
  for (int k = 0; k < kCount; ++k) {
    store(k, loaded[k]);
  }
}

/// A level's point inside the grid and outside a `fixed` ring: the
/// stencil's FMAs over the previous level (`at(dy, dx)`) from 0 in the
/// order of Band::points, or Band::point's arithmetic, rounded to the
/// element type (what a single step stores). Both band kernels compute
/// through it (a separable band through rowSum and columnSum), so that they
/// give the same bits.
template <class Band, class At>
__device__ __forceinline__ typename Band::Compute levelPoint(At at) {
  using Compute = typename Band::Compute;
  if constexpr (OwnArithmeticOf<Band>::value) {
    return toCompute(toElement<typename Band::Element>(Band::point(at)));
  } else {
    Compute acc = 0;
    Band::points(
        [&](int dy, int dx, Compute coefficient) { acc = madd(coefficient, at(dy, dx), acc); });
    return toCompute(toElement<typename Band::Element>(acc));
  }
}

/// The tile kernel's block: two levels of (kTile + 2 W)^2 values of the
/// arithmetic type, in dynamic shared memory (past the 48 KB a block has
/// without opting in where no tile of 16 holds W: the 7 x 7 blur composed
/// over 6 steps, W 18, takes tiles of 32 in 73 984 bytes in fp64).
template <class Band, int kTile> constexpr int tileBytes() {
  constexpr int kSide = kTile + 2 * Band::kRadius * Band::kSteps;
  return 2 * kSide * kSide * static_cast<int>(sizeof(typename Band::Compute));
}

/// A tile's separable level (Band::kSeparable) in place in `lvl`: the
/// x-pass of the rows `need` reads (r more above and below) into `tmp`,
/// then the y-pass of each point of `need` inside the grid and outside a
/// `fixed` ring into `lvl`; its other points keep the level before.
template <class Band, int kSide, class Inside, class InRing>
__device__ __forceinline__ void
separableTileLevel(typename Band::Compute (*lvl)[kSide], typename Band::Compute (*tmp)[kSide],
                   const Region &need, long long y0, long long x0, Inside inside, InRing inRing) {
  constexpr int kR = Band::kRadius;
  const int rows = need.height() + 2 * kR;
  for (int c = threadIdx.x; c < rows * need.width(); c += blockDim.x) {
    const int wy = need.y0 - kR + c / need.width(), wx = need.x0 + c % need.width();
    tmp[wy][wx] = rowSum<Band>([&](int dx) { return lvl[wy][wx + dx]; });
  }
  __syncthreads();
  for (int c = threadIdx.x; c < need.height() * need.width(); c += blockDim.x) {
    const int wy = need.y0 + c / need.width(), wx = need.x0 + c % need.width();
    if (inside(y0 + wy, x0 + wx) && !inRing(y0 + wy, x0 + wx)) {
      lvl[wy][wx] = columnSum<Band>([&](int dy) { return tmp[wy + dy][wx]; });
    }
  }
}

template <class Band, int kTile>
__device__ __forceinline__ void bandBlock(const typename Band::Element *__restrict__ in,
                                          typename Band::Element *__restrict__ out, int ny, int nx,
                                          void *shared) {
  using Element = typename Band::Element;
  using Compute = typename Band::Compute;
  constexpr int kR = Band::kRadius;
  constexpr int kW = Band::kRadius * Band::kSteps;
  constexpr int kSide = kTile + 2 * kW;
  constexpr bool kFolded = STENCILC_BOUNDARY_FOLDS_AT_EDGE(Band::kBoundaryKind);
  static_assert(kTile >= kW, "clamp and mirror folds must land inside the window");
  auto level = static_cast<Compute(*)[kSide][kSide]>(shared); // [2][kSide][kSide]

  const BandTiles tiles(ny, nx, kTile, kW);
  int ty = 0, tx = 0;
  tiles.tile(blockIdx.x, ty, tx);
  const long long y0 = static_cast<long long>(ty) * kTile - kW;
  const long long x0 = static_cast<long long>(tx) * kTile - kW;
  const BandRegions<kTile, kW, kR, Band::kSteps> regions(y0, x0, ny, nx);
  auto inside = [&](long long y, long long x) { return y >= 0 && y < ny && x >= 0 && x < nx; };
  auto inRing = [&](long long y, long long x) {
    return y < Band::kRing || y >= ny - Band::kRing || x < Band::kRing || x >= nx - Band::kRing;
  };

  const Region input = regions.at(0);
  for (int c = threadIdx.x; c < input.height() * input.width(); c += blockDim.x) {
    const int wy = input.y0 + c / input.width(), wx = input.x0 + c % input.width();
    level[0][wy][wx] = toCompute(Band::Boundary::read(in, y0 + wy, x0 + wx, ny, nx));
  }
  __syncthreads();

  // A separable band keeps each level in level[0], level[1] its x-pass.
  constexpr bool kSeparable = SeparableOf<Band>::value;
#pragma unroll 1
  for (int l = 1; l <= Band::kSteps; ++l) {
    const Compute(*prev)[kSide] = level[(l - 1) & 1];
    Compute(*cur)[kSide] = level[kSeparable ? 0 : l & 1];
    const Region need = regions.at(l);
    if constexpr (kSeparable) {
      separableTileLevel<Band, kSide>(level[0], level[1], need, y0, x0, inside, inRing);
    }
    for (int c = threadIdx.x; !kSeparable && c < need.height() * need.width(); c += blockDim.x) {
      const int wy = need.y0 + c / need.width(), wx = need.x0 + c % need.width();
      const long long y = y0 + wy, x = x0 + wx;
      if (!inside(y, x) || inRing(y, x)) {
        cur[wy][wx] = prev[wy][wx]; // folded below under clamp and mirror
        continue;
      }
      cur[wy][wx] = levelPoint<Band>([&](int dy, int dx) { return prev[wy + dy][wx + dx]; });
    }
    if constexpr (kFolded) {
      __syncthreads();
      for (int c = threadIdx.x; c < need.height() * need.width(); c += blockDim.x) {
        const int wy = need.y0 + c / need.width(), wx = need.x0 + c % need.width();
        const long long y = y0 + wy, x = x0 + wx;
        if (inside(y, x))
          continue;
        // Points this far out that no stored point needs may fold outside
        // this level's region; they keep their stale value.
        const long long fy = stencilc_fold_index(Band::kBoundaryKind, y, ny) - y0;
        const long long fx = stencilc_fold_index(Band::kBoundaryKind, x, nx) - x0;
        if (need.holds(fy, fx))
          cur[wy][wx] = cur[fy][fx];
      }
    }
    __syncthreads();
  }

  const Compute(*last)[kSide] = level[kSeparable ? 0 : Band::kSteps & 1];
  waitForPrimary(); // the fused pass's stores of these points come first
  for (int c = threadIdx.x; c < kTile * kTile; c += blockDim.x) {
    const long long y = static_cast<long long>(ty) * kTile + c / kTile;
    const long long x = static_cast<long long>(tx) * kTile + c % kTile;
    const bool band = y < kW || y >= ny - kW || x < kW || x >= nx - kW;
    if (inside(y, x) && band && !inRing(y, x))
      out[y * nx + x] = toElement<Element>(last[kW + c / kTile][kW + c % kTile]);
  }
}

template <class Band, int kTile>
__global__ void __launch_bounds__(256)
    bandKernel(const typename Band::Element *__restrict__ in,
               typename Band::Element *__restrict__ out, int ny, int nx) {
  if constexpr (planCompiledHere(static_cast<const Band *>(nullptr))) {
    extern __shared__ __align__(16) unsigned char tileLevels[];
    bandBlock<Band, kTile>(in, out, ny, nx, tileLevels);
  }
}

// ---- The band in strips ----------------------------------------------------
//
// A band's levels need no margin toward its edge: outside the grid a level
// holds the boundary's values (kept under fixed and constant, refolded from
// the level's points inside under clamp, mirror and reflect: foldLevel).
// Each of the four bands is cut into strips of kStripThreads - 2 W lines
// along it; a strip's window is its W lines and W more on every side (3 W
// lines across by kStripThreads along), and kStripSplit threads compute each
// line across the band, walking every kStripSplit-th point of it, every
// level (no division a point, a strip's levels widened only along the band
// and inward). The top and bottom
// strips hold the corners; the side strips the rows between them. The tile
// kernel above still takes grids within 2 W of their size on an axis.

/// Threads a strip's line along takes, each every kStripSplit-th line
/// across: the band is a chain of T levels, each a walk across it, at few
/// warps a multiprocessor, and a line's walk split in two halves it
/// (docs/performance.md, 2026-12-04 08:25).
constexpr int kStripSplit = 2;

/// A strip's threads: its window's lines along.
constexpr int kStripThreads = 128;

/// A strip's block's dynamic shared memory: two windows of kStripThreads x
/// (3 W + 1) values of the arithmetic type. Strips take the band wherever
/// the device lets a block opt in to that (launchBand; from fp64 W 8 past
/// the 48 KB a block has without opting in), else the tile kernel does.
/// The planners' bandStripBytes (Backends/Common/Band.cpp) is the same
/// formula, against the target's limit, for the plan.
template <class Band> constexpr int stripBytes() {
  return 2 * kStripThreads * (3 * Band::kRadius * Band::kSteps + 1) *
         static_cast<int>(sizeof(typename Band::Compute));
}

/// Whether strips can take a band at all: a strip stores some lines
/// (2 W < kStripThreads) and its windows fit the largest opt-in of any
/// device (227 KB, sm_90); else stripKernel is not compiled.
template <class Band>
constexpr bool kStripsPossible =
    2 * Band::kRadius * Band::kSteps < kStripThreads && stripBytes<Band>() <= 227 * 1024;

/// The strips of one pass: top and bottom, then left and right.
struct BandStrips {
  int along, rowStrips, sideStrips; // stored lines a strip, strips a top/bottom band, a side band
  __host__ __device__ BandStrips(int ny, int nx, int w, int threads)
      : along(threads - 2 * w), rowStrips((nx + along - 1) / along),
        sideStrips((ny - 2 * w + along - 1) / along) {}
  __host__ __device__ int count() const { return 2 * (rowStrips + sideStrips); }
};

/// Under clamp, mirror and reflect, a level's points of the strip's window
/// outside the grid take the value the level has where the rule folds
/// them: across the band from the points of the same line along (after a
/// barrier, since kStripSplit threads compute each line), then, after
/// another, the positions along outside the grid from the threads of the
/// position they fold to. Lines [lo, hi) across and positions [lo, end)
/// along are the level's (level l starts l r into the window both ways);
/// every point of them is less than W outside a grid wider than 2 W, as
/// stencilc_fold_index_near needs, and a point folding outside them keeps
/// its stale value (no later level reads it).
template <class Band, bool kAlongX, class Cell>
__device__ __forceinline__ void foldLevel(typename Band::Compute *cur, Cell cell, int ny, int nx,
                                          long long y0, long long x0, int lo, int hi, int a,
                                          int part, bool active, int end) {
  constexpr stencilc_boundary kRule = Band::kBoundaryKind;
  const long long acrossOrigin = kAlongX ? y0 : x0, alongOrigin = kAlongX ? x0 : y0;
  const int nAcross = kAlongX ? ny : nx, nAlong = kAlongX ? nx : ny;
  auto foldAcross = [&](int c) {
    return static_cast<int>(stencilc_fold_index_near(kRule, acrossOrigin + c, nAcross) -
                            acrossOrigin);
  };
  const long long g = alongOrigin + a;
  const bool insideAlong = g >= 0 && g < nAlong;
  if constexpr (kStripSplit > 1) {
    __syncthreads(); // a line's points across come from kStripSplit threads
  }
  for (int c = lo + part; active && insideAlong && c < hi; c += kStripSplit) {
    const int from = foldAcross(c);
    if (from != c && from >= lo && from < hi) {
      cur[cell(c, a)] = cur[cell(from, a)];
    }
  }
  __syncthreads();
  const int from = static_cast<int>(stencilc_fold_index_near(kRule, g, nAlong) - alongOrigin);
  const bool source = from >= lo && from < end; // the folded position's thread computed it
  for (int c = lo + part; active && !insideAlong && source && c < hi; c += kStripSplit) {
    const int fromLine = foldAcross(c);
    if (fromLine >= lo && fromLine < hi) {
      cur[cell(c, a)] = cur[cell(fromLine, from)];
    }
  }
}

/// A strip's separable level (Band::kSeparable) in place in `lvl`, as
/// separableTileLevel: the x-pass of the cells the y-pass reads into
/// `tmp` (grid x runs along a top or bottom strip, across a side strip),
/// then the y-pass of the level's lines [lo, hi) across at the positions
/// along [aLo, aHi), where `computed(c)` (inside the grid, outside a ring).
template <class Band, bool kAlongX, class Cell, class Computed>
__device__ __forceinline__ void
separableStripLevel(typename Band::Compute *lvl, typename Band::Compute *tmp, Cell cell, int lo,
                    int hi, int aLo, int aHi, int a, int part, Computed computed) {
  constexpr int kR = Band::kRadius;
  // The y-pass reads r more lines across (top, bottom) or positions along (sides).
  const int xLo = kAlongX ? lo - kR : lo, xHi = kAlongX ? hi + kR : hi;
  const bool xActive = kAlongX ? a >= aLo && a < aHi : a >= aLo - kR && a < aHi + kR;
  for (int c = xLo + part; xActive && c < xHi; c += kStripSplit) {
    tmp[cell(c, a)] =
        rowSum<Band>([&](int dx) { return lvl[kAlongX ? cell(c, a + dx) : cell(c + dx, a)]; });
  }
  __syncthreads();
  const bool active = a >= aLo && a < aHi;
  for (int c = lo + part; active && c < hi; c += kStripSplit) {
    if (computed(c)) {
      lvl[cell(c, a)] =
          columnSum<Band>([&](int dy) { return tmp[kAlongX ? cell(c + dy, a) : cell(c, a + dy)]; });
    }
  }
}

/// One strip of the band: window lines [0, 3W) across by [0, kThreads)
/// along, from grid point (y0, x0); kAlongX: a top or bottom strip (window
/// [across][along]), else a side strip (window [along][across]).
template <class Band, int kThreads, bool kAlongX>
__device__ __forceinline__ void
stripBlock(const typename Band::Element *__restrict__ in, typename Band::Element *__restrict__ out,
           int ny, int nx, long long y0, long long x0, int stored, typename Band::Compute *window) {
  using Compute = typename Band::Compute;
  constexpr int kR = Band::kRadius, kW = Band::kRadius * Band::kSteps, kAcross = 3 * kW;
  constexpr bool kFolded = STENCILC_BOUNDARY_FOLDS_AT_EDGE(Band::kBoundaryKind);
  // A side strip keeps each line along's 3 W values together, lines an odd
  // number of words apart, so that a warp (32 lines along) meets no bank
  // conflict.
  constexpr int kPitch = kAlongX ? kThreads : kAcross | 1;
  constexpr int kCells = kThreads * (kAcross + 1); // either way round
  auto level = [&](int l) { return window + (l & 1) * kCells; };
  auto cell = [](int across, int along) {
    return kAlongX ? across * kPitch + along : along * kPitch + across;
  };
  auto gridY = [&](int across, int along) { return y0 + (kAlongX ? across : along); };
  auto gridX = [&](int across, int along) { return x0 + (kAlongX ? along : across); };
  const int a = threadIdx.x % kThreads, part = threadIdx.x / kThreads;
  // Every line's read made (the last line's again past the window), so
  // the count is known here; a loop over them, its load in a branch under
  // fixed and constant, had them wait one after the other.
  loadAllThenStore<(kAcross + kStripSplit - 1) / kStripSplit>(
      [&](int k) {
        const int c = min(part + k * kStripSplit, kAcross - 1);
        return Band::Boundary::read(in, gridY(c, a), gridX(c, a), ny, nx);
      },
      [&](int k, typename Band::Element value) {
        if (const int c = part + k * kStripSplit; c < kAcross) {
          level(0)[cell(c, a)] = toCompute(value);
        }
      });
  __syncthreads();
  // A separable band keeps each level in level(0), level(1) its x-pass.
  constexpr bool kSeparable = SeparableOf<Band>::value;
  auto computed = [&](int c) { // inside the grid, outside a `fixed` ring
    const long long y = gridY(c, a), x = gridX(c, a);
    return y >= Band::kRing && y < ny - Band::kRing && x >= Band::kRing && x < nx - Band::kRing;
  };
#pragma unroll 1
  for (int l = 1; l <= Band::kSteps; ++l) {
    const Compute *prev = level(l - 1);
    Compute *cur = level(kSeparable ? 0 : l);
    // Level l's lines along: the stored ones widened by r a level to come.
    const int grow = (Band::kSteps - l) * kR;
    const bool active = a >= l * kR && a < kW + stored + grow;
    const int lo = l * kR, hi = kAcross - l * kR; // level l's lines across
    if constexpr (kSeparable) {
      separableStripLevel<Band, kAlongX>(cur, level(1), cell, lo, hi, l * kR, kW + stored + grow, a,
                                         part, computed);
    }
    for (int c = lo + part; !kSeparable && active && c < hi; c += kStripSplit) {
      const long long y = gridY(c, a), x = gridX(c, a);
      if (kFolded && (y < 0 || y >= ny || x < 0 || x >= nx)) {
        continue; // folded below, from this level's points inside the grid
      }
      if (!computed(c)) {
        cur[cell(c, a)] = prev[cell(c, a)];
        continue;
      }
      cur[cell(c, a)] = levelPoint<Band>([&](int dy, int dx) {
        return prev[cell(c + (kAlongX ? dy : dx), a + (kAlongX ? dx : dy))];
      });
    }
    if constexpr (kFolded) {
      foldLevel<Band, kAlongX>(cur, cell, ny, nx, y0, x0, lo, hi, a, part, active,
                               kW + stored + grow);
    }
    __syncthreads();
  }
  const Compute *last = level(kSeparable ? 0 : Band::kSteps);
  if (a < kW || a >= kW + stored) {
    return;
  }
  waitForPrimary(); // the fused pass's stores of these points come first
  for (int c = kW + part; c < 2 * kW; c += kStripSplit) {
    if (computed(c)) {
      out[gridY(c, a) * nx + gridX(c, a)] = toElement<typename Band::Element>(last[cell(c, a)]);
    }
  }
}

template <class Band, int kThreads>
__global__ void __launch_bounds__(kThreads *kStripSplit)
    stripKernel(const typename Band::Element *__restrict__ in,
                typename Band::Element *__restrict__ out, int ny, int nx) {
  if constexpr (planCompiledHere(static_cast<const Band *>(nullptr))) {
    constexpr int kW = Band::kRadius * Band::kSteps;
    extern __shared__ __align__(16) unsigned char stripWindows[]; // stripBytes<Band>()
    auto *window = reinterpret_cast<typename Band::Compute *>(stripWindows);
    const BandStrips strips(ny, nx, kW, kThreads);
    int i = blockIdx.x;
    if (i < 2 * strips.rowStrips) { // top, then bottom: stored rows [0, W) or [ny - W, ny)
      const bool bottom = i >= strips.rowStrips;
      const long long first = static_cast<long long>(i % strips.rowStrips) * strips.along;
      const int stored = static_cast<int>(nx - first < strips.along ? nx - first : strips.along);
      stripBlock<Band, kThreads, true>(in, out, ny, nx, bottom ? ny - 2 * kW : -kW, first - kW,
                                       stored, window);
      return;
    }
    i -= 2 * strips.rowStrips; // left, then right: stored columns [0, W) or [nx - W, nx)
    const bool right = i >= strips.sideStrips;
    const long long first = kW + static_cast<long long>(i % strips.sideStrips) * strips.along;
    const long long left = ny - kW - first; // rows the side bands have from here
    const int stored = static_cast<int>(left < strips.along ? left : strips.along);
    stripBlock<Band, kThreads, false>(in, out, ny, nx, first - kW, right ? nx - 2 * kW : -kW,
                                      stored, window);
  }
}

/// Launches the band kernel of one pass (in -> out) on `stream`, as a
/// programmatic dependent of the kernel before it where `dependent`
/// (dependent.cuh: a fused pass's kernel, which stored the band's points).
template <class Band, int kTile>
cudaError_t launchBand(const typename Band::Element *in, typename Band::Element *out, int ny,
                       int nx, cudaStream_t stream, bool dependent = false) {
  constexpr int kW = Band::kRadius * Band::kSteps;
  if constexpr (kStripsPossible<Band>) {
    if (ny > 2 * kW && nx > 2 * kW && stripBytes<Band>() <= sharedOptIn()) {
      const auto kernel = stripKernel<Band, kStripThreads>;
      if (const cudaError_t status = allowDynamicShared(kernel, stripBytes<Band>());
          status != cudaSuccess) {
        return status;
      }
      const int strips = BandStrips(ny, nx, kW, kStripThreads).count();
      return launchDependent(kernel, strips, kStripThreads * kStripSplit, stripBytes<Band>(),
                             stream, dependent, in, out, ny, nx);
    }
  }
  constexpr int kBytes = tileBytes<Band, kTile>();
  if (const cudaError_t status = allowDynamicShared(bandKernel<Band, kTile>, kBytes);
      status != cudaSuccess) {
    return status;
  }
  const BandTiles tiles(ny, nx, kTile, kW);
  return launchDependent(bandKernel<Band, kTile>, tiles.count(), 256, kBytes, stream, dependent, in,
                         out, ny, nx);
}

// ---- The band of a 1D grid -------------------------------------------------
//
// The points within W of either end of a line: a block an end, its window
// the 3 W points from W outside the grid to 2 W inside (one block, and the
// window W past both ends, for a line within 2 W of its size), each level
// computed on the window points it can, those outside the line under clamp,
// mirror and reflect refolded from the level's points inside after a
// barrier, as the 2D kernels do.

/// A 1D band's window: at most 4 W points (a line within 2 W of its size
/// and W past each end).
template <class Band> constexpr int kLineWindow = 4 * Band::kRadius * Band::kSteps;

template <class Band, int kThreads>
__global__ void __launch_bounds__(kThreads)
    lineKernel(const typename Band::Element *__restrict__ in,
               typename Band::Element *__restrict__ out, int nx) {
  if constexpr (planCompiledHere(static_cast<const Band *>(nullptr))) {
    using Compute = typename Band::Compute;
    constexpr int kR = Band::kRadius, kW = Band::kRadius * Band::kSteps;
    constexpr bool kFolded = STENCILC_BOUNDARY_FOLDS_AT_EDGE(Band::kBoundaryKind);
    __shared__ Compute level[2][kLineWindow<Band>];
    const bool whole = nx <= 2 * kW;
    const long long x0 = whole || blockIdx.x == 0 ? -kW : static_cast<long long>(nx) - 2 * kW;
    const int n = whole ? nx + 2 * kW : 3 * kW; // the window's points
    auto inside = [&](long long x) { return x >= 0 && x < nx; };
    for (int i = threadIdx.x; i < n; i += kThreads) {
      level[0][i] = toCompute(Band::Boundary::read(in, 0, x0 + i, 1, nx));
    }
    __syncthreads();
#pragma unroll 1
    for (int l = 1; l <= Band::kSteps; ++l) {
      const Compute *prev = level[(l - 1) & 1];
      Compute *cur = level[l & 1];
      const int lo = l * kR, hi = n - l * kR;
      for (int i = lo + threadIdx.x; i < hi; i += kThreads) {
        const long long x = x0 + i;
        const bool ring = x < Band::kRing || x >= nx - Band::kRing;
        cur[i] = !inside(x) || ring ? prev[i] // folded below under clamp, mirror, reflect
                                    : levelPoint<Band>([&](int dx) { return prev[i + dx]; });
      }
      if constexpr (kFolded) {
        __syncthreads();
        for (int i = lo + threadIdx.x; i < hi; i += kThreads) {
          const long long x = x0 + i;
          const long long f = stencilc_fold_index(Band::kBoundaryKind, x, nx) - x0;
          if (!inside(x) && f >= lo && f < hi) {
            cur[i] = cur[f];
          }
        }
      }
      __syncthreads();
    }
    const Compute *last = level[Band::kSteps & 1];
    waitForPrimary(); // the fused pass's stores of these points come first
    for (int i = kW + threadIdx.x; i < n - kW; i += kThreads) {
      const long long x = x0 + i;
      const bool mine = whole || (blockIdx.x == 0 ? x < kW : x >= nx - kW);
      if (mine && x >= Band::kRing && x < nx - Band::kRing) {
        out[x] = toElement<typename Band::Element>(last[i]);
      }
    }
  }
}

/// Launches the band of one pass of a 1D line (in -> out) on `stream`, a
/// programmatic dependent of the kernel before it where `dependent`.
template <class Band>
cudaError_t launchLineBand(const typename Band::Element *in, typename Band::Element *out, int nx,
                           cudaStream_t stream, bool dependent = false) {
  constexpr int kW = Band::kRadius * Band::kSteps;
  return launchDependent(lineKernel<Band, 128>, nx <= 2 * kW ? 1 : 2, 128, 0, stream, dependent, in,
                         out, nx);
}

// ---- The band of a 3D grid -------------------------------------------------
//
// The points within W of a face, axis by axis: the two faces normal to z
// whole, then those normal to y between z's, then those normal to x between
// both (an axis within 2 W of its size is one face: the whole axis). A face
// is cut into patches of kPatchRows x kPatchCols window positions (the
// face's rows and columns: y and x for z's faces, z and x for y's, z and y
// for x's), each storing its middle (kPatchRows - 2 W) x (kPatchCols - 2 W)
// positions; a block takes a patch and a thread a position, whose line
// across the face it walks: window lines from W outside the grid to 2 W
// inside (the whole axis and W past both ends for an axis within 2 W).
// Level l is computed on the stored box widened by r a level still to come,
// as BandRegions' (the window's lines l r in from its sides), then, under
// clamp, mirror and reflect, its points outside the grid that the next
// level reads take the level's value where the rule folds them (inside the
// level's box wherever they are needed, since a patch stores at least one
// position and its line a face's W lines or the whole axis): a thread's
// own line's where the patch's positions lie inside the face, without a
// barrier, else after one. Two levels of the window live in dynamic shared
// memory, in the arithmetic type. The x faces' lines run along x, so their
// loads and stores go a warp along the lines (loadAlong, storeAlong)
// rather than a position a thread.

/// A 3D band patch's window positions: rows, and columns (a warp's lanes).
constexpr int kPatchRows = 32, kPatchCols = 32;

/// A window line's cells in shared memory: its positions and one more, so
/// that a warp at two positions of many lines (an x face's loads and
/// stores) meets two ways of bank conflict rather than sixteen.
constexpr int kLineCells = kPatchRows * kPatchCols + 1;

/// Blocks of a patch's threads a multiprocessor asks of the register
/// allocator: two (32 registers a thread) where it holds 2048 threads, one
/// where it holds 1536 (sm_86, sm_87, sm_89, sm_120 and on).
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 870 ||                     \
                               __CUDA_ARCH__ == 890 || __CUDA_ARCH__ >= 1200)
constexpr int kPatchBlocks = 1;
#else
constexpr int kPatchBlocks = 2;
#endif

/// The widest band a 3D patch takes: one stored row.
constexpr int kMostVolumeBand = (kPatchRows - 1) / 2;

/// The patches of one pass's 3D band, on an nz x ny x nx grid, W = w.
struct VolumeBand {
  int n[3], w;
  int faces[3]; // faces normal to axis a: 2, 1 (the whole axis), 0 (held by earlier axes)
  int rows[3];  // patches along a face's rows, and along its columns
  int cols[3];
  int first[3]; // axis a's first patch, in blockIdx.x

  /// The face's row and column axes of axis a's faces.
  __host__ __device__ static int rowAxis(int a) { return a == 0 ? 1 : 0; }
  __host__ __device__ static int colAxis(int a) { return a == 2 ? 1 : 2; }
  /// Axis b's lines along a face of axis a: all of them, or for an axis
  /// before a (whose faces hold its first and last W), the lines between.
  __host__ __device__ int lo(int a, int b) const { return b < a ? w : 0; }
  __host__ __device__ int hi(int a, int b) const { return b < a ? n[b] - w : n[b]; }

  __host__ __device__ VolumeBand(int nz, int ny, int nx, int w) : n{nz, ny, nx}, w(w) {
    int count = 0;
    for (int a = 0; a < 3; ++a) {
      const int r = rowAxis(a), c = colAxis(a);
      const int sr = kPatchRows - 2 * w, sc = kPatchCols - 2 * w;
      const int lr = hi(a, r) - lo(a, r), lc = hi(a, c) - lo(a, c);
      rows[a] = lr > 0 ? (lr + sr - 1) / sr : 0;
      cols[a] = lc > 0 ? (lc + sc - 1) / sc : 0;
      faces[a] = rows[a] * cols[a] == 0 ? 0 : n[a] <= 2 * w ? 1 : 2;
      first[a] = count;
      count += faces[a] * rows[a] * cols[a];
    }
  }
  __host__ __device__ int count() const { return first[2] + faces[2] * rows[2] * cols[2]; }
  /// The window's lines across axis a's faces: 3 W, or the whole axis and W past both ends.
  __host__ __device__ int across(int a) const { return n[a] <= 2 * w ? n[a] + 2 * w : 3 * w; }
  /// The most lines across of any axis with faces (the shared memory's).
  __host__ __device__ int mostAcross() const {
    int most = 0;
    for (int a = 0; a < 3; ++a) {
      most = faces[a] > 0 && across(a) > most ? across(a) : most;
    }
    return most;
  }
};

/// One axis of a patch's window: lines [0, size) from grid line `origin`,
/// those stored [w, w + stored); level l takes lines [lo(l), hi(l)).
struct PatchAxis {
  long long origin;
  int size, stored;
  __device__ int lo(int l, int r, int grow, int w) const { return max(l * r, w - grow); }
  __device__ int hi(int l, int r, int grow, int w) const {
    return min(size - l * r, w + stored + grow);
  }
};

/// The patch of blockIdx.x on a face normal to kAxis: its lines across,
/// its rows and its columns.
template <int kAxis>
__device__ __forceinline__ void patchOf(const VolumeBand &vb, int i, PatchAxis (&p)[3]) {
  const int w = vb.w, perFace = vb.rows[kAxis] * vb.cols[kAxis];
  const int face = i / perFace, pr = i % perFace / vb.cols[kAxis], pc = i % vb.cols[kAxis];
  const int n = vb.n[kAxis];
  p[0] = n <= 2 * w ? PatchAxis{-w, n + 2 * w, n}
                    : PatchAxis{face == 0 ? -w : static_cast<long long>(n) - 2 * w, 3 * w, w};
  const int axes[2] = {VolumeBand::rowAxis(kAxis), VolumeBand::colAxis(kAxis)};
  const int along[2] = {pr * (kPatchRows - 2 * w), pc * (kPatchCols - 2 * w)};
  const int sizes[2] = {kPatchRows, kPatchCols};
  for (int k = 0; k < 2; ++k) {
    const int b = axes[k], start = vb.lo(kAxis, b) + along[k];
    p[1 + k] = {static_cast<long long>(start) - w, sizes[k],
                min(sizes[k] - 2 * w, vb.hi(kAxis, b) - start)};
  }
}

/// A thread of a patch of axis kAxis's faces: its position (row pr,
/// column pc) and the line across the face through it.
template <class Band, int kAxis> struct PatchThread {
  using Element = typename Band::Element;
  using Compute = typename Band::Compute;
  using Boundary = typename Band::Boundary;
  static_assert(OwnArithmeticOf<Band>::value, "a 3D band computes through Band::point");
  static_assert(STENCILC_BOUNDARY_FOLDS_AT_EDGE(Band::kBoundaryKind) && Band::kRing == 0,
                "the 3D band is the folding rules' (fused_band.cuh)");
  static constexpr int kR = Band::kRadius, kW = Band::kRadius * Band::kSteps;
  static constexpr int kRowAxis = kAxis == 0 ? 1 : 0, kColAxis = kAxis == 2 ? 1 : 2;
  static constexpr int kLine = kLineCells;  // a window line's cells
  static constexpr int kMostLines = 4 * kW; // the window's lines across

  const VolumeBand &vb;
  PatchAxis p[3];
  int pr, pc, own;          // the position, its cell on line 0
  int nAcross;              // the grid's lines across
  int acrossLo, acrossHi;   // the window lines inside the grid along the axis across
  int insideLo, insideHi;   // those at this position (none outside the grid's face)
  bool alongInside;         // the position lies inside the grid's face
  long long along;          // the position's offset in a plane of lines across (folded)
  long long stride;         // the grid's step from one line across to the next
  int foldedRow, foldedCol; // the window position the rule folds this one onto

  __device__ PatchThread(const VolumeBand &vb, int i) : vb(vb) {
    patchOf<kAxis>(vb, i, p);
    pr = static_cast<int>(threadIdx.x) / kPatchCols;
    pc = static_cast<int>(threadIdx.x) % kPatchCols;
    own = pr * kPatchCols + pc;
    nAcross = vb.n[kAxis];
    const long long gr = p[1].origin + pr, gc = p[2].origin + pc;
    const int nr = vb.n[kRowAxis], nc = vb.n[kColAxis];
    alongInside = gr >= 0 && gr < nr && gc >= 0 && gc < nc;
    const long long fr = Boundary::fold(gr, nr), fc = Boundary::fold(gc, nc);
    foldedRow = static_cast<int>(fr - p[1].origin);
    foldedCol = static_cast<int>(fc - p[2].origin);
    const long long steps[3] = {static_cast<long long>(vb.n[1]) * vb.n[2], vb.n[2], 1};
    along = fr * steps[kRowAxis] + fc * steps[kColAxis];
    stride = steps[kAxis];
    const long long o = p[0].origin;
    acrossLo = static_cast<int>(max(-o, 0LL));
    acrossHi = static_cast<int>(min(static_cast<long long>(p[0].size), nAcross - o));
    insideLo = alongInside ? acrossLo : 0;
    insideHi = alongInside ? acrossHi : 0;
  }
  /// Level l's window lines along axis k (0 across, 1 rows, 2 columns).
  __device__ int lo(int k, int l) const { return p[k].lo(l, kR, (Band::kSteps - l) * kR, kW); }
  __device__ int hi(int k, int l) const { return p[k].hi(l, kR, (Band::kSteps - l) * kR, kW); }
  __device__ bool active(int l) const {
    return pr >= lo(1, l) && pr < hi(1, l) && pc >= lo(2, l) && pc < hi(2, l);
  }
  /// Whether every position that computes a level lies inside the grid's
  /// face (the same for the whole block): then a level's points outside the
  /// grid fold onto the thread's own line, and refold needs no barrier
  /// before it. Only the patches at a face's edges have positions outside.
  __device__ bool foldsOwnLines() const {
    const int axes[2] = {kRowAxis, kColAxis};
    for (int k = 1; k < 3; ++k) {
      if (p[k].origin + lo(k, 1) < 0 || p[k].origin + hi(k, 1) > vb.n[axes[k - 1]]) {
        return false;
      }
    }
    return true;
  }
  /// Level 0: the input over the level's lines, through the rule: the
  /// window's 3 W lines, or 4 W at most on an axis within 2 W of its size.
  __device__ void load(const Element *__restrict__ in, Compute *level) const {
    if (p[0].size == 3 * kW) {
      loadLines<3 * kW>(in, level);
    } else {
      loadLines<kMostLines>(in, level);
    }
  }
  /// Every read of the window lies in the grid (folded), so each of its
  /// kLines loads is made, a line past the level's read again
  /// (loadAllThenStore).
  template <int kLines>
  __device__ void loadLines(const Element *__restrict__ in, Compute *level) const {
    if (!active(0)) {
      return;
    }
    const int c0 = lo(0, 0), c1 = hi(0, 0);
    loadAllThenStore<kLines>(
        [&](int c) {
          const int line = within(c, c0, c1);
          return in[along + Boundary::fold(p[0].origin + line, nAcross) * stride];
        },
        [&](int c, Element value) {
          if (c >= c0 && c < c1) {
            level[c * kLine + own] = toCompute(value);
          }
        });
  }

  /// An x face's lines run along x: its loads and stores go kAlong lanes
  /// along a position's lines (8, 16 or 32: the lines rounded up to a power
  /// of two, at most 32) and 1024 / kAlong positions at once, so that a warp's access is a few
  /// rows' whole sectors rather than 32 rows. A thread a position made the
  /// x faces cost as much as the other four together (star3d7p fp32
  /// clamp on an H200, 216 of 391 us a pass). A thread keeps its lines and
  /// its column (1024 / kAlong is a multiple of the 32 columns).
  template <int kLines> static constexpr int kAlong = kLines <= 8 ? 8 : kLines <= 16 ? 16 : 32;

  /// Level 0 of an x face's patch, as load's (lines along x: kAlong).
  __device__ void loadAlong(const Element *__restrict__ in, Compute *level) const {
    static_assert(kAxis == 2, "an x face: rows along z, columns along y, lines along x");
    constexpr int kLanes = kAlong<kMostLines>, kAtOnce = kPatchRows * kPatchCols / kLanes;
    const int lane = static_cast<int>(threadIdx.x) % kLanes;
    const int first = static_cast<int>(threadIdx.x) / kLanes, col = first % kPatchCols;
    const int c0 = lo(0, 0), c1 = hi(0, 0);
    const bool colIn = col >= lo(2, 0) && col < hi(2, 0);
    const long long planeStep = static_cast<long long>(vb.n[1]) * vb.n[2];
    const Element *rows = in + Boundary::fold(p[2].origin + col, vb.n[1]) * vb.n[2];
    const int r0 = lo(1, 0), r1 = hi(1, 0);
    constexpr int kBatch = kLanes < 8 ? kLanes : 8; // loads in flight at once: registers
#pragma unroll
    for (int j = 0; j < (kMostLines + kLanes - 1) / kLanes; ++j) { // c < c1 <= kMostLines
      const int c = lane + j * kLanes;
      // every read lies in the grid (folded), so the loads are all made,
      // a line or row past the level's read again (loadAllThenStore)
      const long long a = Boundary::fold(p[0].origin + within(c, c0, c1), nAcross);
      const bool lineIn = colIn && c >= c0 && c < c1;
#pragma unroll
      for (int i0 = 0; i0 < kLanes; i0 += kBatch) {
        loadAllThenStore<kBatch>(
            [&](int i) {
              const int row = (first + (i0 + i) * kAtOnce) / kPatchCols;
              const long long z = Boundary::fold(p[1].origin + within(row, r0, r1), vb.n[0]);
              return rows[z * planeStep + a];
            },
            [&](int i, Element value) {
              const int at = first + (i0 + i) * kAtOnce, row = at / kPatchCols;
              if (lineIn && row >= r0 && row < r1) {
                level[c * kLine + at] = toCompute(value);
              }
            });
      }
    }
  }

  /// The stored points of an x face's patch (2 W lines from line W: a
  /// face's W, or an axis of at most 2 W), as loadAlong goes.
  __device__ void storeAlong(Element *__restrict__ out, const Compute *last) const {
    static_assert(kAxis == 2, "an x face: rows along z, columns along y, lines along x");
    constexpr int kLanes = kAlong<2 * kW>, kAtOnce = kPatchRows * kPatchCols / kLanes;
    const int lane = static_cast<int>(threadIdx.x) % kLanes;
    const int first = static_cast<int>(threadIdx.x) / kLanes, col = first % kPatchCols;
    const long long planeStep = static_cast<long long>(vb.n[1]) * vb.n[2];
    const long long base = (p[2].origin + col) * vb.n[2] + p[0].origin; // stored: no folds
#pragma unroll
    for (int j = 0; j < (2 * kW + kLanes - 1) / kLanes; ++j) {
      const int c = kW + lane + j * kLanes;
      const bool lineIn = c < kW + p[0].stored && col >= kW && col < kW + p[2].stored;
#pragma unroll
      for (int i = 0; i < kLanes; ++i) {
        const int at = first + i * kAtOnce, row = at / kPatchCols;
        if (lineIn && row >= kW && row < kW + p[1].stored) {
          out[base + (p[1].origin + row) * planeStep + c] =
              toElement<Element>(last[c * kLine + at]);
        }
      }
    }
  }

  /// Level l's points inside the grid, from level l - 1: a loop over the
  /// level's lines inside (1-2 % faster than the 4 W lines unrolled, each
  /// tested: docs/performance.md, 2026-12-04 13:43-14:14).
  __device__ void compute(const Compute *prev, Compute *cur, int l) const {
    if (!active(l)) {
      return;
    }
    const int c0 = max(lo(0, l), insideLo), c1 = min(hi(0, l), insideHi);
#pragma unroll 1
    for (int c = c0; c < c1; ++c) {
      const int at = c * kLine + own;
      cur[at] = levelPoint<Band>([&](int dz, int dy, int dx) {
        const int d[3] = {dz, dy, dx};
        return prev[at + d[kAxis] * kLine + d[kRowAxis] * kPatchCols + d[kColAxis]];
      });
    }
  }

  /// Level l's points outside the grid that compute(l + 1) reads (none
  /// more than r lines across from the lines inside): the level's value
  /// where the rule folds them, computed by compute() (after a barrier
  /// unless foldsOwnLines). One that no stored point needs may fold outside
  /// the level's box and keeps its stale value. At a position inside the
  /// face only the r lines at either end of the lines inside are refolded.
  __device__ void refold(Compute *cur, int l) const {
    const int c0 = lo(0, l), c1 = hi(0, l);
    const bool held = foldedRow >= lo(1, l) && foldedRow < hi(1, l) && foldedCol >= lo(2, l) &&
                      foldedCol < hi(2, l);
    if (!active(l) || !held) {
      return;
    }
    const int read0 = max(c0, acrossLo - kR), read1 = min(c1, acrossHi + kR);
    auto line = [&](int c) {
      if (c >= read0 && c < read1 && (c < insideLo || c >= insideHi)) {
        const int from = static_cast<int>(Boundary::fold(p[0].origin + c, nAcross) - p[0].origin);
        if (from >= c0 && from < c1) {
          cur[c * kLine + own] = cur[from * kLine + foldedRow * kPatchCols + foldedCol];
        }
      }
    };
    if (alongInside) {
#pragma unroll
      for (int k = 0; k < kR; ++k) {
        line(acrossLo - kR + k);
        line(acrossHi + k);
      }
    } else {
#pragma unroll 1
      for (int c = read0; c < read1; ++c) {
        line(c);
      }
    }
  }

  /// The stored points of the last level.
  __device__ void store(Element *__restrict__ out, const Compute *last) const {
    if (pr < kW || pr >= kW + p[1].stored || pc < kW || pc >= kW + p[2].stored) {
      return;
    }
    Element *to = out + along + (p[0].origin + kW) * stride; // stored points lie inside
#pragma unroll
    for (int c = kW; c < 3 * kW; ++c) { // a face's W lines, or an axis of at most 2 W
      if (c < kW + p[0].stored) {
        to[(c - kW) * stride] = toElement<Element>(last[c * kLine + own]);
      }
    }
  }
};

/// One patch of axis kAxis's faces (see the section's comment). `window`
/// holds two levels of lines of kLineCells values.
template <class Band, int kAxis>
__device__ __forceinline__ void
patchBlock(const typename Band::Element *__restrict__ in, typename Band::Element *__restrict__ out,
           const VolumeBand &vb, int i, typename Band::Compute *window) {
  const PatchThread<Band, kAxis> t(vb, i);
  const int cells = t.p[0].size * PatchThread<Band, kAxis>::kLine;
  auto level = [&](int l) { return window + (l & 1) * cells; };
  if constexpr (kAxis == 2) {
    t.loadAlong(in, level(0));
  } else {
    t.load(in, level(0));
  }
  __syncthreads();
  const bool ownFolds = t.foldsOwnLines();
#pragma unroll 1
  for (int l = 1; l < Band::kSteps; ++l) {
    t.compute(level(l - 1), level(l), l);
    if (!ownFolds) { // refold reads other positions' lines
      __syncthreads();
    }
    t.refold(level(l), l); // the last level's points outside the grid are not read
    __syncthreads();
  }
  t.compute(level(Band::kSteps - 1), level(Band::kSteps), Band::kSteps);
  waitForPrimary(); // the fused pass's stores of these points come first
  if constexpr (kAxis == 2) {
    __syncthreads(); // storeAlong stores other positions' points; store its own
    t.storeAlong(out, level(Band::kSteps));
  } else {
    t.store(out, level(Band::kSteps));
  }
}

template <class Band>
__global__ void __launch_bounds__(kPatchRows *kPatchCols, kPatchBlocks)
    volumeKernel(const typename Band::Element *__restrict__ in,
                 typename Band::Element *__restrict__ out, VolumeBand vb) {
  if constexpr (planCompiledHere(static_cast<const Band *>(nullptr))) {
    extern __shared__ __align__(16) unsigned char volumeWindow[];
    auto *window = reinterpret_cast<typename Band::Compute *>(volumeWindow);
    const int i = blockIdx.x;
    if (i < vb.first[1]) {
      patchBlock<Band, 0>(in, out, vb, i, window);
    } else if (i < vb.first[2]) {
      patchBlock<Band, 1>(in, out, vb, i - vb.first[1], window);
    } else {
      patchBlock<Band, 2>(in, out, vb, i - vb.first[2], window);
    }
  }
}

/// Shared memory of a 3D band's block: two levels of `lines` lines of
/// kLineCells values of `bytes` (the planners' volumeBandBytes).
constexpr int volumeBandBytes(int lines, int bytes) { return 2 * lines * kLineCells * bytes; }

/// Launches the band of one pass of a 3D grid (in -> out) on `stream`, a
/// programmatic dependent of the kernel before it where `dependent`.
template <class Band>
cudaError_t launchVolumeBand(const typename Band::Element *in, typename Band::Element *out, int nz,
                             int ny, int nx, cudaStream_t stream, bool dependent = false) {
  constexpr int kW = Band::kRadius * Band::kSteps;
  static_assert(kW <= kMostVolumeBand, "a patch stores at least one row");
  const VolumeBand vb(nz, ny, nx, kW);
  const int bytes = volumeBandBytes(vb.mostAcross(), sizeof(typename Band::Compute));
  if (const cudaError_t optIn = allowDynamicShared(volumeKernel<Band>, bytes);
      optIn != cudaSuccess) {
    return optIn;
  }
  return launchDependent(volumeKernel<Band>, vb.count(), kPatchRows * kPatchCols, bytes, stream,
                         dependent, in, out, vb);
}

} // namespace band
} // namespace device
} // namespace stencilc
