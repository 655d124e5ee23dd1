//===- SimtFusion.h - The measured fused geometries, for the planner -*- C++ -*-===//
//
// Shared by SimtFusion.cpp (T, the schedule, the 2D kernel's geometry) and
// SimtFusionND.cpp (the geometry of the 1D and 3D kernels,
// runtime/include/stencilc/device/fused1d.cuh and fused3d.cuh).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// The fused kernel's best geometry as measured (on an H100 unless `device`
/// says otherwise) for one kind of stencil: dims, shape, radius, element
/// bytes (tf32 runs as fp32 on CUDA cores, bf16 as fp16; in 1D star and box
/// are the same points) and the form (lowRank, rowsAtPoint). Fields a
/// dimension's kernel does not have are 0. The table (SimtFusion.cpp)
/// names its fields, leaving out those at their defaults.
struct MeasuredFusion {
  int dims = 0;
  Shape shape = Shape::Star;
  int radius = 0;
  int elementBytes = 0;
  /// T of the best geometry, and its GStencil/s (NAME_run of 100 steps,
  /// every point x step counted).
  int steps = 0;
  int width = 0, height = 0, threads = 0, batch = 0, chunk = 0, rows = 0, minBlocks = 0;
  double gstencils = 0.0;
  /// The step kernel's NAME_run in the same measure where the fused kernel
  /// was measured beside it (1D, 3D), else 0. Where it is the faster, the
  /// planner keeps one launch a step.
  double stepGStencils = 0.0;
  /// The GPU of the measurement, as the plan names it.
  const char *device = "an H100";
  /// 2D: the fused kernel shares a window row's side columns when the row
  /// enters its window, not where they are read (fused.cuh, SidesOf):
  /// measured faster for this kind.
  bool sidesAtEntry = false;
  /// The form measured: the low-rank form (docs/generated-code.md,
  /// "Low-rank form") where true, else the direct terms.
  bool lowRank = false;
  /// 2D low-rank form: some of its terms read the input rows at the point
  /// (a centre beside the passes), which keeps every level's window rows
  /// in registers (fused.cuh): a kind of its own.
  bool rowsAtPoint = false;
  /// 2D: fused.cuh's queued form (FusedKernel::queued) measured faster for
  /// this kind and form.
  bool queued = false;
  /// 2D direct form: measured with scaled coefficients (Plan.h's
  /// ScaledCoefficients): its FMAs take immediates, freeing the registers
  /// that held the coefficients, so it is a kind of its own where measured.
  bool scaled = false;
  /// Measured on a periodic grid and for that boundary only (its passes
  /// compute every plane and load wrapped, so its best geometry may differ);
  /// an entry without it serves every boundary the table has no periodic
  /// entry for ahead of it.
  bool periodic = false;
  /// 2D low-rank form: measured for a form of this many operations a point
  /// only (LowRankForm::ops), 0 for any. Forms of one kind may differ
  /// widely in their work: a box's one pass beside its centre (15) and
  /// EBISU's 2d49pt grouped (38).
  int formOps = 0;
  /// 2D: an L2 prefetch this many rows ahead of the stream inside the grid
  /// (FusedKernel::prefetchRows) measured faster for this kind; 0: none.
  int prefetchRows = 0;
  /// 3D: the input planes staged this many ahead in shared memory
  /// (FusedKernel::stagedPlanes) measured faster for this kind; 0: none.
  int stagedPlanes = 0;
  /// 3D, sm_90 on: the split barrier (FusedKernel::splitBarrier) measured
  /// faster for this kind and form at its T, on an H100.
  bool splitBarrier = false;
  /// 3D: the stream's loop unrolled as few planes as its queues need, the
  /// ring's slots in parts that rotate a round (FusedKernel::unrollPlanes),
  /// measured faster for this kind and form at its T, on an H100.
  bool ringRotate = false;
  /// 2D low-rank form: measured in the paired order (LowRankForm::paired),
  /// for a form of its shape only (SimtPlanner.h's pairedShape); an entry
  /// without it serves every form the entries before it did not.
  bool paired = false;

  /// Whether the best fused run measured faster than one step a launch.
  bool fusingGains() const { return steps > 1 && gstencils > stepGStencils; }
};

/// The shared memory of a 3D pass of `steps` levels' staged input planes
/// (fused3d.cuh's kStageBytes where it stages: more than one level): two
/// slots more than the planes staged ahead, each thread's accesses of a
/// plane a slot; 0 where the plan stages none.
int stagedPlaneBytes(const FusedKernel &k, int steps);

/// The fewest planes the stream's loop of a 3D pass may unroll, each
/// register queue slot a constant: lcm(2, the queue's planes), the
/// FusedKernel::unrollPlanes of --plan-option ring=rotate. lowRankForm: as
/// fusedGeometryND's.
int queueUnrollPlanes(const StencilSpec &spec, bool lowRankForm);

/// The shared memory of a 3D pass of `steps` levels in geometry `k`
/// (fused3d.cuh's Geometry::sharedBytes): its levels' rings of edge rows
/// (a plane deeper under k.splitBarrier, rounded up to whole queues unless
/// k.unrollPlanes), its staged planes' slots and the split barrier's
/// mbarrier. lowRankForm: as fusedGeometryND's.
int fused3DSharedBytes(const StencilSpec &spec, const FusedKernel &k, int steps, bool lowRankForm);

/// The geometry of the 1D or 3D fused kernel for `steps` steps of `spec`:
/// the measured one where `m` is given, else the rule's, widened until the
/// halo leaves points to store; sharedBytes is what a pass needs. Needs:
/// spec.dims is 1 or 3, 1 < steps <= 8. lowRankForm: the plan evaluates
/// the 3D low-rank form (its own rule, below).
FusedKernel fusedGeometryND(const StencilSpec &spec, int steps, const MeasuredFusion *m,
                            bool lowRankForm = false);

/// The fused kernel's geometry for `steps` steps of `spec`, any dims: the
/// measured one where `m` is given, else the rule's (lowRankForm: of the
/// 3D low-rank form); `source` says which.
FusedKernel fusedGeometry(const StencilSpec &spec, int steps, const MeasuredFusion *m,
                          bool lowRankForm = false);

/// Starts schedule `s` afresh and settles it as one launch a step where
/// --plan-option fuse=1 asked for that, or where `whyNot` (a reason the
/// fused kernel cannot take the stencil) is given: lowered where fuse asked
/// for more. Returns whether it settled it.
bool settledUnfused(Schedule &s, int asked, std::string whyNot);

/// Why `spec`'s boundary keeps it from fusing on CUDA cores without a band
/// (clamp, mirror and reflect), or empty: the stencils of fields' rule.
std::string unfusable(const StencilSpec &spec);

/// Why `plan`'s boundary keeps its CUDA-core passes from fusing, or empty:
/// under clamp, mirror and reflect the passes fuse, a band after each
/// (FusedKernel::band), in any arithmetic but packed.
std::string unfusableAtEdge(const Plan &plan);

} // namespace stencilc
