// A plan under clamp of STEPS steps a pass, and fused::kPassesExactAlone's
// verdict on it: a pass of one level reads the folds and is exact alone; a
// pass of more reads 0 outside the grid and needs its band. With RUN = 1,
// 2 or 3 the file also instantiates fused1d::run, fused::run or
// fused3d::run for it, which must not compile past one step a pass (the
// folding rules' runs are fused_band.cuh's runBanded).
#include <stencilc/device/fused1d.cuh>
#include <stencilc/device/fused3d.cuh>

namespace device = stencilc::device;

struct Plan {
  using Element = float;
  using Compute = float;
  using Boundary = device::ClampBoundary;
  static constexpr int kSteps = STEPS, kRadius = 1;
};

/// The same plan at a fixed boundary, whose passes are exact alone.
struct FixedPlan : Plan {
  using Boundary = device::FixedBoundary;
};

static_assert(device::fused::kPassesExactAlone<Plan> == (STEPS == 1));
static_assert(device::fused::kPassesExactAlone<FixedPlan>);

#if RUN == 1
template cudaError_t device::fused1d::run<Plan>(float *, float *, int, int, cudaStream_t);
#elif RUN == 2
template cudaError_t device::fused::run<Plan>(float *, float *, int, int, int, cudaStream_t);
#elif RUN == 3
template cudaError_t device::fused3d::run<Plan>(float *, float *, int, int, int, int, cudaStream_t);
#endif
