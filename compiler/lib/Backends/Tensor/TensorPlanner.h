//===- TensorPlanner.h - From a StencilSpec to a tensor-core Plan -*- C++ -*-===//
//
// The planner decides how a checked stencil runs: which backend can take it,
// and for the tensor-core backend the MMA shape, the slice GEMMs with their
// parameter matrices, and the tile, block and shared-memory geometry. It
// reports nothing itself: the caller turns a refusal into a diagnostic at
// the stencil's location.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"

namespace stencilc {

/// The largest radius the tensor-core path takes for a precision: half the
/// output tile (8 for fp16/bf16/tf32, 4 for fp64). Beyond it most of every
/// MMA multiplies zeros, and the CUDA-core path is the better kernel.
int maxTensorRadius(Precision p);

/// Elements a thread reads from a window row as one unit when it loads an A
/// fragment: a pair for fp16 and bf16, so a Row slice's K starts on an even
/// column.
int operandLoadWidth(Precision operand);

/// The sparse form's numbers (tensor.cuh, "the sparse form of a band"): the
/// largest radius (a band of 2r + 1 <= 15 columns holds at most two of every
/// four K positions it permutes), the columns of K, the elements of the
/// window's swizzle block, and a slice's registers a lane (A and metadata).
inline constexpr int SparseMaxRadius = 7;
inline constexpr int SparseMmaK = 32;
inline constexpr int SparseSwizzleBlock = 64;
inline constexpr int SparseSliceRegisters = 5;

/// The stacked form's numbers (stencilc/device/stacked.cuh): the largest
/// radius (5 chunks of 8 columns hold a block's 8 + 2r; past
/// maxTensorRadius, the only form that takes it), the strip a warp computes (16 rows by
/// StackedBlocks MMA blocks of 8 columns), warps (strips) a block, accumulators an MMA block and
/// blocks a multiprocessor (launch bounds, 168 registers): the geometry measured best for the 15 x
/// 15 box on an H200 (bench/results/2026-12-01-1135-tensor15-rows-in-k-h200.txt, and for the blocks
/// a multiprocessor bench/results/2026-12-01-1205-stacked-form-h200.txt).
inline constexpr int StackedMaxRadius = 16;
inline constexpr int StackedBlocks = 16;
inline constexpr int StackedWarps = 4;
inline constexpr int StackedSplit = 4;
/// A composed pass's stacked step sums an MMA block in 3 accumulators
/// (TensorPlan::splitAccumulators): its MMAs bind it, and star2d5p fp16's
/// composed step ran 2 % faster so on an H200, with its windows copied by
/// cp.async or by the tensor memory accelerator alike
/// (bench/results/2026-12-04-2140-stacked-composed-step-ceiling-h200.txt).
inline constexpr int StackedComposedSplit = 3;
inline constexpr int StackedMinBlocks = 3;

/// The stacked form's windows (StackedHalf::window) for a stencil of
/// radius r: window w's columns start stackedHaloCols(r, w) left of a block
/// tile's first output, and a block's row offers stackedWindowChunks(r, w)
/// chunks of 8 columns in it. Window 0: r rounded up to 8 columns left and
/// right of its outputs (3 chunks to radius 8, 5 to 16); window 1, the
/// shifted one, up to radius 8: 4, 2 chunks for rows that reach 4 or less
/// (none past radius 8).
int stackedHaloCols(int radius, int window);
int stackedWindowChunks(int radius, int window);
/// MMA blocks a strip where the form reads the shifted windows: four
/// windows of 8 such blocks' rows fit StackedMinBlocks blocks on sm_90
/// (not yet measured against other shapes).
inline constexpr int StackedShiftedBlocks = 8;

/// The weight of stencil row `row` (0 .. 2r) at column offset dx as the
/// stacked form's MMAs take it, rounded to their operand; 0 beyond the
/// radius.
double stackedTap(const StencilSpec &spec, int row, int dx);

/// The stacked form's B: the weight that column `col` (0-7) of chunk `chunk`
/// of window `window` takes for stencil row `row` (0 .. 2r, dy = row - r)
/// and output column n (0-7) of an MMA block (dx = 8 chunk + col -
/// stackedHaloCols(r, window) - n), rounded to the MMA operand; 0 beyond the
/// radius.
double stackedWeight(const StencilSpec &spec, int row, int window, int chunk, int col, int n);

/// The column offset dx of stackedWeight's weight: 8 chunk + col -
/// stackedHaloCols(radius, window) - n.
int stackedDx(int radius, int window, int chunk, int col, int n);

/// stackedTap of every row and dx of a stencil, looked up and rounded once:
/// the emulator's products read their weights here (each stackedWeight's
/// value), where a lookup and a conversion a product took most of its time.
class StackedTaps {
public:
  explicit StackedTaps(const StencilSpec &spec);
  double weight(int row, int window, int chunk, int col, int n) const {
    const int dx = stackedDx(radius, window, chunk, col, n);
    return dx < -radius || dx > radius ? 0.0 : taps[std::size_t(row * side + dx + radius)];
  }

private:
  int radius, side;
  std::vector<double> taps; // side x side, row-major by stencil row, then dx
};

/// The stacked form's groups of MMAs (TensorPlan::stackedGroups): every
/// stencil row with a nonzero weight in exactly one group, each half the
/// chunks that hold every column its row's nonzero weights reach, rows
/// paired to take the fewest K halves (a k16 MMA's two, a k8's one), then
/// the fewest MMAs, then the fewest halves in window 1, which only
/// `twoWindows` allows. A star's rows far from its centre reach only the
/// outputs' column (one chunk), and with the shifted window rows that reach
/// 4 or less take 2 chunks instead of 3. Among equal costs the rows keep
/// their order: a box's groups are rows 2p and 2p + 1, and 2r alone.
std::vector<StackedGroup> stackedGroups(const StencilSpec &spec, bool twoWindows);

/// The shared memory a block of the stacked form may take with its warps'
/// output stages (TensorPlan::stagedStores): the dynamic shared memory the
/// target lets a block opt in to (the launch asks for it), at least
/// options.sharedMemoryLimit. Its windows alone stay within
/// options.sharedMemoryLimit.
int stackedSharedLimit(const PlanOptions &options);

/// Whether the stacked form's single step, laid out as `tp`, stages its
/// stores (TensorPlan::stagedStores; stencilc/device/stacked.cuh, kStaged):
/// where StackedMinBlocks blocks with the stages fit the shared memory a
/// block may opt in to (stackedSharedLimit), and not on a periodic grid at
/// radius 7 or 8 (its copy stores pairs). A composed pass never stages.
bool stackedStepStages(const StencilSpec &spec, const TensorPlan &tp, const PlanOptions &options);

/// Whether the stacked form laid out as `tp` has its windows copied by the
/// tensor memory accelerator (TensorPlan::mappedWindows;
/// stencilc/device/stacked.cuh, kMapped): from sm_90 on, on a fixed grid
/// (the accelerator reads zeros outside it), a window row within a box's
/// 256 elements, unless --plan-option copy=threads asks for cp.async.
bool stackedWindowsMapped(const StencilSpec &spec, const TensorPlan &tp,
                          const PlanOptions &options);

/// The L2 promotion of the accelerator's window reads for the stacked form
/// laid out as `tp` (TensorPlan::windowPromotion; stencilc/device/stacked.cuh,
/// kPromotion): none for a single step, 128 bytes for a composed pass's
/// step (`composed`); 0 where its windows are not mapped.
int stackedWindowPromotion(const TensorPlan &tp, bool composed);

/// Whether the stacked form laid out as `tp` runs in a persistent grid
/// (TensorPlan::persistentGrid; stencilc/device/stacked.cuh, kPersistent):
/// as --plan-option grid asks; unasked, a block a block tile from sm_90 on
/// where that measured faster for the kernel (`tilesFaster`: a single
/// step, and a composed pass's step where composedStepInTiles says,
/// TensorFusion.h). True for any other form (which has no such choice).
bool stackedPersistentGrid(const TensorPlan &tp, const PlanOptions &options, bool tilesFaster);

/// Blocks a multiprocessor the stacked form's kernel laid out as `tp` asks
/// of the register allocator (TensorPlan::minBlocks; stacked.cuh's
/// kMinBlocks): StackedMinBlocks (168 registers a thread), but 2 (255) past
/// radius 8 where a lane's A quads and B words pass
/// StackedOperandRegisters. At 3, boxes of radius 10 and 12 spilled 1352
/// and 1912 bytes a thread; at 2, 480 and 888, and their steps ran 2.5 x as
/// fast on an H100, bit for bit the same (docs/performance.md, 2026-12-06
/// 11:09-11:15).
int stackedMinBlocks(const TensorPlan &tp);
inline constexpr int StackedOperandRegisters = 160;

/// Blocks a multiprocessor the 2D tile kernel laid out as `tp` asks the
/// register allocator for (TensorPlan::minBlocks): 2 for an fp64 stencil of
/// radius 1 under clamp, mirror or reflect, in blocks of 256 threads of which
/// two fit a multiprocessor's shared memory (stackedSharedLimit), on sm_90
/// and later; 1 otherwise.
int tileMinBlocks(const StencilSpec &spec, const TensorPlan &tp, const PlanOptions &options);

/// Plans the tensor-core kernel of `spec`, or says why the tensor cores
/// cannot take it (fp32, a radius past maxTensorRadius, or shared memory that
/// even the narrowest block overflows with these options).
/// Guarantees, for a plan: every fragment load the plan implies is aligned to
/// its unit (ldmatrix rows to 16 bytes, fp16/bf16 pairs to 4), every window
/// element a GEMM reads is filled, and sharedBytes() fits the limit.
PlanOrRefusal planTensor(const StencilSpec &spec, const PlanOptions &options = {});

/// The promises of planTensor, planTensorFields and planTensorFusion that
/// `plan` (a tensor-core plan, planned with `options`) breaks, appended to
/// `problems` (verifyPlan; TensorVerify.cpp).
void verifyTensorPlan(const Plan &plan, const PlanOptions &options,
                      std::vector<std::string> &problems);

} // namespace stencilc
