//===- Band.cpp - The band kernel's numbers, for the planners that take it -===//
#include "Backends/Common/Band.h"

#include <fmt/format.h>

namespace stencilc {

namespace {

/// The band's arithmetic type's bytes: double for fp64, else float.
int computeBytes(const StencilSpec &spec) { return spec.precision == Precision::FP64 ? 8 : 4; }

/// The shared memory a block has without opting in. The tile kernel keeps
/// its tiles within it where it can (the plans measured before its levels
/// moved to dynamic shared memory), and the 1D end blocks' static arrays
/// always.
constexpr int kStaticSharedBytes = 48 * 1024;

} // namespace

int bandSharedBytes(const StencilSpec &spec, int steps, int tile) {
  const int side = tile + 2 * steps * spec.radius;
  return 2 * side * side * computeBytes(spec);
}

int volumeBandBytes(const StencilSpec &spec, int lines) {
  return 2 * lines * kBandLineCells * computeBytes(spec);
}

int bandStripBytes(const StencilSpec &spec, int steps, Arch target) {
  const int w = steps * spec.radius;
  const int bytes = 2 * kBandStripThreads * (3 * w + 1) * computeBytes(spec);
  return spec.boundary != BoundaryKind::Periodic && 2 * w < kBandStripThreads &&
                 bytes <= info(target).maxDynamicSharedBytes
             ? bytes
             : 0;
}

BandKernel bandKernel(const StencilSpec &spec, int steps, int tile, Arch target) {
  return {tile, bandSharedBytes(spec, steps, tile), bandStripBytes(spec, steps, target)};
}

std::string bandKernelText(const BandKernel &band, int w, std::string_view values) {
  const std::string tiles = fmt::format(
      "{} x {} output tiles, 256 threads, two levels of {} x {} {} in {} bytes of "
      "shared memory",
      band.tile, band.tile, band.tile + 2 * w, band.tile + 2 * w, values, band.sharedBytes);
  return band.stripBytes == 0
             ? tiles
             : fmt::format(
                   "in strips of {} lines along each edge, {} threads a line across the "
                   "band, {} threads, two windows of {} x {} {} in {} bytes of shared memory; "
                   "a grid within {} of its size on an axis in {}",
                   kBandStripThreads - 2 * w, kBandStripSplit, kBandStripThreads * kBandStripSplit,
                   3 * w, kBandStripThreads, values, band.stripBytes, 2 * w, tiles);
}

std::optional<BandKernel> fittingBand(const StencilSpec &spec, int steps, Arch target) {
  const int w = steps * spec.radius;
  if (spec.dims == 1) { // band.cuh's lineKernel: kLineWindow
    const int bytes = 2 * 4 * w * computeBytes(spec);
    return bytes <= kStaticSharedBytes ? std::optional(BandKernel{0, bytes, 0}) : std::nullopt;
  }
  if (spec.dims == 3) { // band.cuh's volumeKernel
    return 2 * w < kBandPatchRows &&
                   volumeBandBytes(spec, 4 * w) <= info(target).maxDynamicSharedBytes
               ? std::optional(BandKernel{kBandPatchRows, volumeBandBytes(spec, 3 * w), 0})
               : std::nullopt;
  }
  for (int tile : {32, 16}) {
    if (tile >= w && bandSharedBytes(spec, steps, tile) <= kStaticSharedBytes) {
      return bandKernel(spec, steps, tile, target);
    }
  }
  for (int tile : {16, 32, 64}) { // past 48 KB: the smallest tile that holds W
    if (tile >= w && bandSharedBytes(spec, steps, tile) <= info(target).maxDynamicSharedBytes) {
      return bandKernel(spec, steps, tile, target);
    }
  }
  return std::nullopt;
}

} // namespace stencilc
