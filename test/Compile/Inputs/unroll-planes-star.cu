// Appended to star3d13p_fp32 as auto plans it, the barrier a plane
// (fused3d-unroll-planes-rotate-the-ring.test).
#include "ring-parts-rounds.h"

namespace f3 = stencilc::device::fused3d;
using Planned = stencilc_gen_star3d13p_fp32::Fused;
static_assert(Planned::kUnroll == 30 && Planned::kSlots == 3 && Planned::kQueue == 5,
              "queues of 5 and a ring of 3: a loop of 30 planes");
struct Rotated : stencilc_gen_star3d13p_fp32::FusedParams {
  static constexpr int kUnrollPlanes = 10;
};
using G = f3::Geometry<Rotated>;
static_assert(G::kUnroll == 10 && G::kSlots == 3 && G::kRingParts == 3,
              "a loop of 10 planes, the ring of 3 in three parts of one");
static_assert(f3::RingParts<G>::kTurn == 1, "the parts rotate 1 place a round");
template __global__ void f3::passKernel<G, 2, true>(const float *, float *, int, int, int);

static_assert(slotsKeepTheirPlanes<G>(), "a plane keeps its ring slot from round to round");
