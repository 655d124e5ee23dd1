// stencilc/device/band.cuh - the band: every point within W = T·r of a
// grid edge, recomputed step by step on CUDA cores with the true boundary
// rule, after a pass of T steps whose kernel is exact only farther inside.
// Two passes take it: the tensor cores' composed passes (composed.cuh,
// whose composed stencil reads the input T·r inside the grid), and the
// CUDA cores' fused passes under clamp, mirror and reflect (fused_band.cuh,
// whose levels outside the grid keep the input's folded values instead of
// each level's own fold). docs/design.md, "The band".
//
// A 1D line's band is a block at each end (lineKernel, at the end). In 2D,
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
#pragma once

#include <type_traits>

#include <cuda_runtime.h>

#include "stencilc/device/arch.cuh"
#include "stencilc/device/boundary.cuh"
#include "stencilc/device/element.cuh"
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

/// Whether Band computes a point itself (kOwnArithmetic, Band::point).
template <class Band, class = void> struct OwnArithmeticOf : std::false_type {};
template <class Band>
struct OwnArithmeticOf<Band, std::void_t<decltype(Band::kOwnArithmetic)>>
    : std::bool_constant<Band::kOwnArithmetic> {};

/// A level's point inside the grid and outside a `fixed` ring: the
/// stencil's FMAs over the previous level (`at(dy, dx)`) from 0 in the
/// order of Band::points, or Band::point's arithmetic, rounded to the
/// element type (what a single step stores). Both band kernels compute
/// through it, so that they give the same bits.
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

template <class Band, int kTile>
__device__ __forceinline__ void bandBlock(const typename Band::Element *__restrict__ in,
                                          typename Band::Element *__restrict__ out, int ny,
                                          int nx) {
  using Element = typename Band::Element;
  using Compute = typename Band::Compute;
  constexpr int kR = Band::kRadius;
  constexpr int kW = Band::kRadius * Band::kSteps;
  constexpr int kSide = kTile + 2 * kW;
  constexpr bool kFolded = STENCILC_BOUNDARY_FOLDS_AT_EDGE(Band::kBoundaryKind);
  static_assert(kTile >= kW, "clamp and mirror folds must land inside the window");
  __shared__ Compute level[2][kSide][kSide];

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

#pragma unroll 1
  for (int l = 1; l <= Band::kSteps; ++l) {
    const Compute(*prev)[kSide] = level[(l - 1) & 1];
    Compute(*cur)[kSide] = level[l & 1];
    const Region need = regions.at(l);
    for (int c = threadIdx.x; c < need.height() * need.width(); c += blockDim.x) {
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

  const Compute(*last)[kSide] = level[Band::kSteps & 1];
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
    bandBlock<Band, kTile>(in, out, ny, nx);
  }
}

// ---- The band in strips ----------------------------------------------------
//
// A band's levels need no margin toward its edge: outside the grid a level
// holds the boundary's values (kept under fixed and constant, refolded from
// the level's points inside under clamp, mirror and reflect: foldLevel).
// Each of the four bands is cut into strips of stripThreads - 2 W lines
// along it; a strip's window is its W lines and W more on every side (3 W
// lines across by stripThreads along), and kStripSplit threads compute each
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

/// A strip's threads (its window's lines along) for a band of width w in
/// elements of `bytes`: 128, or 0 where its two windows would pass the 48 KB
/// of static shared memory (never for the widths composed passes take: at
/// most 8 in 4-byte and 4 in 8-byte arithmetic; for the CUDA cores' fused
/// passes from W 8 in fp64), which leaves the band to the tile kernel. The
/// planners' bandStripBytes (Backends/Common/Band.cpp) is the same formula,
/// for the plan's shared memory.
constexpr int stripThreads(int w, int bytes) {
  return 2 * 128 * (3 * w + 1) * bytes <= 48 * 1024 ? 128 : 0;
}

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
  for (int c = part; c < kAcross; c += kStripSplit) {
    level(0)[cell(c, a)] = toCompute(Band::Boundary::read(in, gridY(c, a), gridX(c, a), ny, nx));
  }
  __syncthreads();
#pragma unroll 1
  for (int l = 1; l <= Band::kSteps; ++l) {
    const Compute *prev = level(l - 1);
    Compute *cur = level(l);
    // Level l's lines along: the stored ones widened by r a level to come.
    const int grow = (Band::kSteps - l) * kR;
    const bool active = a >= l * kR && a < kW + stored + grow;
    const int lo = l * kR, hi = kAcross - l * kR; // level l's lines across
    for (int c = lo + part; active && c < hi; c += kStripSplit) {
      const long long y = gridY(c, a), x = gridX(c, a);
      const bool outside = y < 0 || y >= ny || x < 0 || x >= nx;
      if (outside && kFolded) {
        continue; // folded below, from this level's points inside the grid
      }
      if (outside || y < Band::kRing || y >= ny - Band::kRing || x < Band::kRing ||
          x >= nx - Band::kRing) {
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
  const Compute *last = level(Band::kSteps);
  if (a < kW || a >= kW + stored) {
    return;
  }
  for (int c = kW + part; c < 2 * kW; c += kStripSplit) {
    const long long y = gridY(c, a), x = gridX(c, a);
    if (y >= Band::kRing && y < ny - Band::kRing && x >= Band::kRing && x < nx - Band::kRing) {
      out[y * nx + x] = toElement<typename Band::Element>(last[cell(c, a)]);
    }
  }
}

template <class Band, int kThreads>
__global__ void __launch_bounds__(kThreads *kStripSplit)
    stripKernel(const typename Band::Element *__restrict__ in,
                typename Band::Element *__restrict__ out, int ny, int nx) {
  if constexpr (planCompiledHere(static_cast<const Band *>(nullptr))) {
    constexpr int kW = Band::kRadius * Band::kSteps;
    __shared__ typename Band::Compute window[2 * kThreads * (3 * kW + 1)];
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

/// Launches the band kernel of one pass (in -> out) on `stream`.
template <class Band, int kTile>
cudaError_t launchBand(const typename Band::Element *in, typename Band::Element *out, int ny,
                       int nx, cudaStream_t stream) {
  constexpr int kW = Band::kRadius * Band::kSteps;
  constexpr int kThreads = stripThreads(kW, sizeof(typename Band::Compute));
  if constexpr (kThreads > 0) {
    if (ny > 2 * kW && nx > 2 * kW) {
      const int strips = BandStrips(ny, nx, kW, kThreads).count();
      stripKernel<Band, kThreads><<<strips, kThreads * kStripSplit, 0, stream>>>(in, out, ny, nx);
      return cudaGetLastError();
    }
  }
  const BandTiles tiles(ny, nx, kTile, kW);
  bandKernel<Band, kTile><<<tiles.count(), 256, 0, stream>>>(in, out, ny, nx);
  return cudaGetLastError();
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
    for (int i = kW + threadIdx.x; i < n - kW; i += kThreads) {
      const long long x = x0 + i;
      const bool mine = whole || (blockIdx.x == 0 ? x < kW : x >= nx - kW);
      if (mine && x >= Band::kRing && x < nx - Band::kRing) {
        out[x] = toElement<typename Band::Element>(last[i]);
      }
    }
  }
}

/// Launches the band of one pass of a 1D line (in -> out) on `stream`.
template <class Band>
cudaError_t launchLineBand(const typename Band::Element *in, typename Band::Element *out, int nx,
                           cudaStream_t stream) {
  constexpr int kW = Band::kRadius * Band::kSteps;
  lineKernel<Band, 128><<<nx <= 2 * kW ? 1 : 2, 128, 0, stream>>>(in, out, nx);
  return cudaGetLastError();
}

} // namespace band
} // namespace device
} // namespace stencilc
