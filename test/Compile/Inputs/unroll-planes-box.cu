// Appended to box3d27p_fp32 planned with the split barrier
// (fused3d-unroll-planes-rotate-the-ring.test).
#include "ring-parts-rounds.h"

namespace f3 = stencilc::device::fused3d;
using Planned = stencilc_gen_box3d27p_fp32::Fused;
static_assert(Planned::kUnroll == 8 && Planned::kSlots == 8 && Planned::kRingParts == 1,
              "the split ring rounded up to 8 slots, the loop whole rings");
struct Rotated : stencilc_gen_box3d27p_fp32::FusedParams {
  static constexpr int kUnrollPlanes = 4;
};
using G = f3::Geometry<Rotated>;
static_assert(G::kUnroll == 4 && G::kSlots == 5 && G::kRingParts == 5,
              "a loop of 4 planes, a ring of 5 slots in five parts");
static_assert(f3::RingParts<G>::kTurn == 4, "the parts rotate 4 places a round");
template __global__ void f3::passKernel<G, 3, true>(const float *, float *, int, int, int);
template __global__ void f3::passKernel<G, 1, true>(const float *, float *, int, int, int);

static_assert(slotsKeepTheirPlanes<G>(), "a plane keeps its ring slot from round to round");
static_assert(slotsKeepTheirPlanes<Planned>(), "so does it where the loop unrolls whole rings");
