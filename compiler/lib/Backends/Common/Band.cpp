//===- Band.cpp - The band kernel's numbers, for the planners that take it -===//
#include "Backends/Common/Band.h"

namespace stencilc {

namespace {

/// The band's arithmetic type's bytes: double for fp64, else float.
int computeBytes(const StencilSpec &spec) { return spec.precision == Precision::FP64 ? 8 : 4; }

/// The tile kernel's static shared memory (band.cuh's `level` array).
constexpr int kStaticSharedBytes = 48 * 1024;

} // namespace

int bandSharedBytes(const StencilSpec &spec, int steps, int tile) {
  const int side = tile + 2 * steps * spec.radius;
  return 2 * side * side * computeBytes(spec);
}

int volumeBandBytes(const StencilSpec &spec, int lines) {
  return 2 * lines * kBandLineCells * computeBytes(spec);
}

int bandStripBytes(const StencilSpec &spec, int steps) {
  const int bytes = 2 * kBandStripThreads * (3 * steps * spec.radius + 1) * computeBytes(spec);
  return spec.boundary != BoundaryKind::Periodic && bytes <= kStaticSharedBytes ? bytes : 0;
}

BandKernel bandKernel(const StencilSpec &spec, int steps, int tile) {
  return {tile, bandSharedBytes(spec, steps, tile), bandStripBytes(spec, steps)};
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
      return bandKernel(spec, steps, tile);
    }
  }
  return std::nullopt;
}

} // namespace stencilc
