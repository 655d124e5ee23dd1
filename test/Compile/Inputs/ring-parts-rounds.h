// ring-parts-rounds.h - fused3d.cuh's RingParts played at compile time
// (fused3d-unroll-planes-rotate-the-ring.test's inputs include it).
#pragma once

#include "stencilc/device/fused3d.cuh"

/// Whether, round after round, RingParts puts slot s (its round's) where
/// plane iFirst + k kUnroll + s stays: ring slot (k kUnroll + s) mod kSlots.
template <class S> constexpr bool slotsKeepTheirPlanes() {
  stencilc::device::fused3d::RingParts<S> parts;
  for (int k = 0; k < 3 * S::kSlots; ++k, parts.rotate()) {
    for (int s = 0; s < S::kSlots; ++s) {
      if (parts.at(s) != (k * S::kUnroll + s) % S::kSlots * S::kEdgePlane) {
        return false;
      }
    }
  }
  return true;
}
