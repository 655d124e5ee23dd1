//===- Band.h - The band kernel's numbers, for the planners that take it -*- C++ -*-===//
//
// The band (runtime/include/stencilc/device/band.cuh) recomputes the points
// within W = T·r of a grid edge step by step after a pass whose own kernel is
// exact only farther inside: the tensor cores' composed passes and the CUDA
// cores' fused 1D, 2D and 3D passes under the folding rules take it. These are
// its shared-memory formulas, the device header's own, for the plans.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "stencilc/Plan.h"

namespace stencilc {

/// Lines along an edge of a band strip, as band.cuh's stripThreads: 128;
/// and the threads of each (band.cuh's kStripSplit), each every other point
/// across the band.
constexpr int kBandStripThreads = 128;
constexpr int kBandStripSplit = 2;

/// A 3D band's patch (band.cuh's kPatchRows, kPatchCols): window positions
/// on a face, a thread each, the middle (rows - 2 W) x (cols - 2 W) stored.
constexpr int kBandPatchRows = 32;
constexpr int kBandPatchCols = 32;
/// A line's cells in a 3D band's shared memory (band.cuh's kLineCells):
/// the patch's positions and one more, against bank conflicts.
constexpr int kBandLineCells = kBandPatchRows * kBandPatchCols + 1;

/// Shared memory of a 3D band's block (band.cuh's volumeBandBytes): two
/// levels of `lines` lines of kBandLineCells values of the arithmetic type;
/// lines is 3 W, or up to 4 W on an axis within 2 W.
int volumeBandBytes(const StencilSpec &spec, int lines);

/// Shared memory of the band's tile kernel's block: two levels of
/// (tile + 2 T r)^2 values of the arithmetic type (float, or double for
/// fp64).
int bandSharedBytes(const StencilSpec &spec, int steps, int tile);

/// Shared memory of the band's strip kernel (band.cuh, stripKernel): two
/// windows of kBandStripThreads x (3 T r + 1) values of the arithmetic
/// type, where there is a band (every rule but periodic), a strip stores
/// some lines (2 T r < kBandStripThreads) and `target` lets a block opt in
/// to them; else 0 (no band, or the tile kernel takes it). band.cuh asks
/// the device it runs on the same question.
int bandStripBytes(const StencilSpec &spec, int steps, Arch target);

/// How a 2D band of width `w` runs, for the plan: in strips, or in tiles
/// (`values`: "doubles" or "floats").
std::string bandKernelText(const BandKernel &band, int w, std::string_view values);

/// The band of a pass of `steps` steps in tiles of `tile`, on `target`.
BandKernel bandKernel(const StencilSpec &spec, int steps, int tile, Arch target);

/// The band of a pass of `steps` steps: in 2D in the widest tile of 32 or
/// 16 that is at least T r and whose two levels fit the 48 KB a block has
/// without opting in, else in the smallest of 16, 32 and 64 whose levels
/// `target` lets a block opt in to, none where none does (the tile kernel
/// takes its levels as dynamic shared memory); in 1D a block at each
/// end of the line (tile 0), two levels of 4 T r values; in 3D patches of
/// each face (tile kBandPatchRows) where one stores a row (2 T r <
/// kBandPatchRows) and the block's two levels of 4 T r lines fit what
/// `target` lets a block opt in to, sharedBytes those of 3 T r lines.
std::optional<BandKernel> fittingBand(const StencilSpec &spec, int steps, Arch target);

} // namespace stencilc
