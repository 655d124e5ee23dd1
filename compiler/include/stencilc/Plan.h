//===- Plan.h - How a stencil is computed on the GPU, as data ---*- C++ -*-===//
//
// A Plan is what the Planner decides for one StencilSpec and what the code
// generator and the PlanEmulator both execute: the backend, the MMA shape, the
// slice GEMMs with their parameter matrices as numbers, the tile and block
// geometry and the shared-memory window. It is plain data; printPlan() gives
// the `--emit=plan` text. The CUDA-core backend's geometry is SimtPlan; a
// Plan holds one of the two beside the spec, the target and the schedule.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "stencilc/Spec.h"
#include "stencilc/Target.h"

namespace llvm {
class raw_ostream;
}

namespace stencilc {

struct PlanOptions;

/// The backends, from Backends.def (in the order of stencil_info.h's
/// stencilc_backend).
enum class BackendKind {
#define STENCILC_BACKEND(Enumerator, ...) Enumerator,
#include "stencilc/Backends.def"
};
/// Every backend, in Backends.def's order.
inline constexpr BackendKind AllBackends[] = {
#define STENCILC_BACKEND(Enumerator, ...) BackendKind::Enumerator,
#include "stencilc/Backends.def"
};
/// What --backend takes for it ("tensor"), its kernels as an adjective
/// ("tensor-core") and what runs them ("tensor cores"): Backends.def's texts.
std::string_view keyword(BackendKind b);
std::string_view kernelsAdjective(BackendKind b);
std::string_view unitsName(BackendKind b);

/// The shared memory a kernel may declare statically; past it a launch must
/// opt in (and the memory be dynamic).
constexpr int StaticSharedMemoryBytes = 48 * 1024;

/// A warp-level MMA shape D(m x n) = A(m x k) * B(k x n) + C with its operand
/// and accumulator types.
struct MmaShape {
  int m = 16;
  int n = 8;
  int k = 16;
  /// The type the A and B operands are rounded to (FP16, BF16, TF32, FP64).
  Precision operand = Precision::FP16;
  /// FP32 or FP64.
  Precision accumulator = Precision::FP32;

  /// "m16n8k16" and friends.
  std::string name() const;

  bool operator==(const MmaShape &) const = default;
};

/// A dense row-major matrix of numbers, already rounded to the MMA operand
/// type, so the kernel tables and the emulator use exactly the same values.
struct ParameterMatrix {
  int rows = 0;
  int cols = 0;
  std::vector<double> values;

  ParameterMatrix() = default;
  ParameterMatrix(int rows, int cols)
      : rows(rows), cols(cols), values(std::size_t(rows) * cols, 0.0) {}
  double &at(int r, int c) { return values[std::size_t(r) * cols + c]; }
  double at(int r, int c) const { return values[std::size_t(r) * cols + c]; }
};

/// Which operand of the MMA is the input window.
enum class SliceKind {
  /// The star's vertical GEMM: P_v (M x K) * window columns. The input is the
  /// B operand: window rows [tileRow + firstK, +K), columns
  /// [tileCol + haloCols, +N). P_v[m][kk] = v[firstK + kk - m - r].
  Vertical,
  /// A row slice (every box slice, and the star's horizontal GEMM): window
  /// rows [tileRow + radius + dy, +M), columns [tileCol + firstK, +K) times
  /// B (K x N), B[kk][n] = w[dy][firstK + kk - haloCols - n].
  Row,
};

/// One GEMM of every output tile: chunkCount MMAs along K.
struct SliceGemm {
  SliceKind kind = SliceKind::Row;
  /// The input plane a 3D slice reads (-r..r, its plane's window slab); 0 in
  /// 1D and 2D.
  int dz = 0;
  /// Row offset of a Row slice (-r..r); 0 for Vertical.
  int dy = 0;
  /// What the slice stands for, for comments: "vertical", "horizontal",
  /// "row dy=-1".
  std::string label;
  /// Where K starts, relative to the tile's first window row (Vertical) or
  /// column (Row); it spans chunkCount * k.
  int firstK = 0;
  int chunkCount = 0;
  /// Vertical: M x (chunkCount*k), the A operand. Row: (chunkCount*k) x n,
  /// the B operand. N above is one MMA's n; the n-th MMA block of a tile
  /// reads the same window columns shifted by n * mma.n.
  ParameterMatrix param;
};

/// A stencil of fields on tensor cores (Tensor/TensorFields.cpp,
/// docs/design.md "Stencils of fields on tensor cores"): every term that
/// reads a field at a neighbour goes into the slice GEMMs of the accumulator
/// group of that field and its coefficient field (read at the output point,
/// or none); the epilogue multiplies each group by its coefficient field and
/// adds the point terms. Every group has the same slice GEMMs (the plan's
/// `gemms`) with its own parameter matrices, built by the host code per
/// call from the terms' coefficients, over its field's window.
struct TensorFieldsPlan {
  /// The first input field the slice GEMMs read (windowFields[0]).
  int gemmField = 0;
  /// The input fields read at neighbours, in order of first read: each has
  /// a window (shared-memory tile) of its own.
  std::vector<int> windowFields;
  /// Per accumulator group: the coefficient field that multiplies it at the
  /// output point, or -1 for none.
  std::vector<int> groupCoefficientField;
  /// Per accumulator group: the index into windowFields of the field whose
  /// window its slice GEMMs read.
  std::vector<int> groupWindow;
  /// Per group, per element of the parameter matrices (every slice GEMM's
  /// in order, concatenated): the term (index into spec.fieldTerms) whose
  /// coefficient the element holds, or -1 for a zero.
  std::vector<std::vector<int>> paramTerms;
  /// The terms applied in the epilogue at the output point, in order.
  std::vector<int> pointTerms;
  /// Per group, per slice GEMM: whether the group runs it. With several
  /// windows a group skips the GEMMs whose matrices hold only zeros for it
  /// (offsets only other fields read); empty: every group runs every GEMM.
  std::vector<std::vector<bool>> groupRunsGemm;

  bool runs(std::size_t group, std::size_t gemm) const {
    return groupRunsGemm.empty() || groupRunsGemm[group][gemm];
  }
};

/// One half of a stacked MMA's K (stencilc/device/stacked.cuh): 8 columns
/// of stencil row `row` (0 .. 2r, dy = row - r) from window `window` (0:
/// its columns start 8 left of the block's first output; 1: 4 left), the
/// MMA block's chunk `first` and those after it (chunk k of MMA block j is
/// window columns 8 (j + k) on).
struct StackedHalf {
  int row = -1;
  int window = 0;
  int first = 0;
  bool operator==(const StackedHalf &) const = default;
};

/// A group of the stacked form's MMAs: `count` chunks, each one MMA whose K
/// is half[0]'s 8 columns and half[1]'s (a k16 MMA), or half[0]'s alone
/// where half[1].row < 0 (a k8 one).
struct StackedGroup {
  StackedHalf half[2];
  int count = 0;
  bool paired() const { return half[1].row >= 0; }
  /// Its halves in window 1, the shifted one.
  int shiftedHalves() const { return (half[0].window == 1) + (paired() && half[1].window == 1); }
  bool operator==(const StackedGroup &) const = default;
};

/// The tensor-core kernel of a 2D stencil (TCStencil made general).
///
/// The output is cut into tiles of tileM x tileN points, nBlocks MMA outputs
/// side by side; each is the sum of the slice GEMMs, computed by one warp
/// with mma.sync, its accumulators stored straight to global memory. A block
/// computes tileRowsPerBlock x tileColsPerBlock tiles. It first fills a
/// shared-memory window with the input around its outputs: window row w, column
/// c is the input point (blockRow - radius + w, blockCol - haloCols + c), read
/// with the boundary rule where it lies outside the grid. Rows [0, loadedRows)
/// and columns [loadedColBegin, loadedColEnd) are read that way; the rest of
/// the window is only ever multiplied by zero parameters and is filled with
/// zeros so that no NaN or Inf from stale memory can leak into a product.
///
/// A 3D stencil runs plane by plane along z (2.5D blocking): the window is
/// `planes` = 2r + 1 slabs of windowRows rows, slab dz + r holding input
/// plane z + dz laid out as above, and a slice GEMM of plane dz reads its
/// slab. A box is every (dz, dy) row slice; a star is the 2D star on the
/// centre slab plus the centre-only row slice of every other plane. The
/// kernel keeps the slabs as a ring, so each input plane is read once per
/// block while the block walks its chunk of planes.
struct TensorPlan {
  MmaShape mma;
  /// Output tile: tileM (= mma.m) rows x tileN columns, the latter
  /// nBlocks MMAs side by side (tileN = nBlocks * mma.n). fp16 and bf16
  /// take two, so that a warp can store each row of 16 outputs as 32 bytes.
  int tileM = 16;
  int tileN = 8;
  int nBlocks = 1;
  int tileRowsPerBlock = 1;
  int tileColsPerBlock = 1;
  int warps = 1;
  /// Halo rows above and below: the radius.
  int haloRows = 1;
  /// Halo columns left and right: the radius rounded up to a 16-byte vector,
  /// so that every tile's first output column is 16-byte aligned in the
  /// window as in the grid.
  int haloCols = 8;
  /// Window slabs: 2r + 1 for 3D, 1 otherwise. windowRows is per slab.
  int planes = 1;
  int windowRows = 0;
  int windowCols = 0;
  /// Row pitch in elements (a multiple of 16 bytes, padded so that the
  /// fragment loads of 8 rows meet no bank conflict).
  int windowPitch = 0;
  int loadedRows = 0;
  int loadedColBegin = 0;
  int loadedColEnd = 0;
  /// Elements per 16-byte vector: the unit of global loads.
  int vectorWidth = 8;
  /// 64, 128 or 256: each 16-byte read of the input window asks the L2 to
  /// fetch that many bytes around it from memory (--plan-option
  /// l2-prefetch, or TunedPlans.inc); 0: plain read-only loads.
  int l2PrefetchBytes = 0;
  /// Parameter fragments are loaded once per block into registers (small
  /// plans) or re-read from shared memory for every tile (large ones).
  bool paramsInRegisters = true;
  /// Blocks a multiprocessor the register allocator must fit
  /// (__launch_bounds__'s second argument) in the 2D tile kernel; 1 leaves
  /// ptxas free (tileMinBlocks, TensorPlanner.h, says where 2 is asked). In
  /// the stacked form, stackedMinBlocks's.
  int minBlocks = 1;
  /// The sparse form (--plan-option mma=sparse, 2D fp16 or bf16): every row
  /// slice, K 32 columns from the tile's first window column, run as 2:4
  /// sparse MMAs (mma.sp m16n8k32) whose A each lane derives from the
  /// slice's parameter matrix; a swizzled window of whole 64-element rows.
  bool sparse = false;
  /// The stacked form (stencilc/device/stacked.cuh; 2D fp16 or bf16, radius
  /// 1-8): the stencil's rows stacked in K, two rows of an 8-column chunk a
  /// k16 MMA; a warp computes a strip of tileM rows x tileN columns, a
  /// block tileRowsPerBlock strips (one a warp), from two windows in turn.
  bool stacked = false;
  /// The stacked form's single step stores through a stage a warp in shared
  /// memory (16 rows of StageCols outputs, rows StagePitch apart), as rows
  /// of 16-byte vectors; a composed pass's stacked step stores from its
  /// registers (stacked.cuh, kStaged).
  bool stagedStores = false;
  /// The stacked form's windows copied by the tensor memory accelerator
  /// (sm_90 on, a fixed grid; stacked.cuh, kMapped): one thread a block
  /// issues a window's copy, where the grid allows a tensor map of it (rows
  /// a whole number of 16-byte vectors apart); cp.async from every thread
  /// where it does not.
  bool mappedWindows = false;
  /// Bytes the L2 fetches around each of the accelerator's reads of a
  /// window (its tensor map's L2 promotion: 0 none, 128 or 256) where
  /// mappedWindows; stackedWindowPromotion (TensorPlanner.h) sets it.
  int windowPromotion = 0;
  /// The stacked form's grid: as many blocks as fit at once, each walking
  /// block tiles gridDim.x apart while the next one's window is copied
  /// (true), or a block a block tile (false; stacked.cuh, kPersistent);
  /// stackedPersistentGrid (TensorPlanner.h) sets it.
  bool persistentGrid = true;
  /// The stacked form's accumulators an MMA block (MMA m into m mod this,
  /// added in order at the end): StackedSplit for a single step,
  /// StackedComposedSplit for a composed pass's step (TensorPlanner.h).
  int splitAccumulators = 0;
  /// The stacked form's MMAs, as groups (StackedGroup): for every chunk of
  /// a group, one MMA of its rows, the groups in turn chunk by chunk (every
  /// group's first chunk, then every second, ...), the m-th MMA into
  /// accumulator m mod splitAccumulators. Each stencil row that has a
  /// nonzero weight is in exactly one group (stackedGroups, TensorPlanner.h).
  std::vector<StackedGroup> stackedGroups;
  /// The stacked form reads a second window, its columns 4 right of the
  /// first's (StackedHalf::window 1), in every stage (twoWindows): some
  /// group's rows take fewer chunks there.
  bool shiftedWindow = false;
  static constexpr int StageCols = 64;
  static constexpr int StagePitch = StageCols + 8;
  /// Bytes of shared memory: a window (each of windows()) and the
  /// parameter matrices.
  int windowBytes = 0;
  int paramBytes = 0;

  std::vector<SliceGemm> gemms;
  /// A stencil of fields: its groups and point terms (the gemms' `param`
  /// then holds group 0's matrices for parameters all 0, for the plan text).
  std::optional<TensorFieldsPlan> fields;

  int blockRows() const { return tileRowsPerBlock * tileM; }
  /// The window row a slice's first operand row lies in for the tile at the
  /// block's first row: a Row slice's first input row, a Vertical slice's
  /// first K row, each in its plane's slab.
  int sliceWindowRow(const SliceGemm &g) const {
    const int slab = (g.dz + planes / 2) * windowRows;
    return slab + (g.kind == SliceKind::Row ? haloRows + g.dy : g.firstK);
  }
  int blockCols() const { return tileColsPerBlock * tileN; }
  int threads() const { return warps * 32; }
  /// One parameter fragment per chunk of every slice GEMM.
  int paramFragments() const;
  /// Elements of the slice GEMMs' parameter matrices (of one accumulator
  /// group, for a stencil of fields).
  int paramElements() const;
  /// Every MMA block of a tile runs every chunk.
  int mmasPerTile() const;
  /// Windows in shared memory: one per field read at neighbours.
  int windows() const {
    return fields && !fields->windowFields.empty() ? int(fields->windowFields.size()) : 1;
  }
  /// The stacked form double-buffers its window (or its two:
  /// shiftedWindow) in a persistent grid, and its warps' stages follow.
  int sharedBytes() const {
    return stacked ? stackedWindowsBytes() + (stagedStores ? stageBytes() : 0)
                   : windows() * windowBytes + paramBytes;
  }
  /// The stacked form's windows a stage: 2 where it reads the shifted one.
  int stackedWindows() const { return shiftedWindow ? 2 : 1; }
  /// The stacked form's window stages: two in a persistent grid (the next
  /// tile's copied while a block computes one), one in a block a tile.
  int stackedStages() const { return persistentGrid ? 2 : 1; }
  /// The bytes of the stacked form's windows, every stage's.
  int stackedWindowsBytes() const { return stackedStages() * stackedWindows() * windowBytes; }
  /// The stacked form's MMAs an MMA block: k16 (two rows a group) and k8.
  struct StackedMmas {
    int k16 = 0, k8 = 0;
  };
  StackedMmas stackedMmas() const;
  /// Whether the stacked form runs past radius 8 (a halo of 16 columns),
  /// where no other tensor-core form takes the stencil.
  bool stackedPastRadius8() const { return stacked && haloCols > 8; }
  /// Whether the stacked form's windows are held only to the shared memory
  /// a block may opt in to, which its launch does: with the shifted ones,
  /// and stackedPastRadius8.
  bool stackedWindowsOptIn() const { return shiftedWindow || stackedPastRadius8(); }
  /// The bytes held to the shared memory a block may use without opting in
  /// (PlanOptions::sharedMemoryLimit): all of sharedBytes(), but for the
  /// stacked form its windows' stages alone (its shifted windows and stages
  /// are held to what a block may opt in to), none where stackedPastRadius8
  /// (every window is).
  int unoptedSharedBytes() const {
    return !stacked ? sharedBytes() : stackedPastRadius8() ? 0 : stackedStages() * windowBytes;
  }
  /// The bytes of the warps' stages, 16 rows each (in sharedBytes() where
  /// stagedStores).
  int stageBytes() const;
  /// 32-bit registers per thread that the parameter fragments would take.
  int paramFragmentRegisters() const;
  /// Bytes of shared memory the sparse form's slices take beside the
  /// matrices: each lane's, where they do not stay in registers.
  int sparseSliceBytes() const;
};

// ---- CUDA-core (simt) backend (issue 4) -------------------------------------

/// One read of a simt kernel: offsets in the plane (dy rows, dx columns) and
/// the coefficient rounded once to the arithmetic type.
struct SimtTerm {
  int dy = 0;
  int dx = 0;
  double coefficient = 0.0;
};

/// The reads of one plane offset dz, in the order the kernel accumulates them.
struct SimtSlice {
  int dz = 0;
  std::vector<SimtTerm> terms;
};

/// What --plan-option lowrank asks for: the low-rank form wherever it takes
/// fewer operations and keeps the accuracy (Auto), wherever it takes fewer
/// operations (On), or never (Off).
enum class LowRankRequest { Auto, Off, On };

/// One tap of a row pass: intermediate `pass` of a row gains weight times
/// the input at column offset dx.
struct LowRankRowTap {
  int pass = 0;
  int dx = 0;
  double weight = 0.0;
};

/// One multiply-add into an output of the low-rank form: coefficient times,
/// at offset dy along the streamed axis (2D: y, the rows; 3D: z, the
/// planes), one value of that row or plane: in 2D intermediate `pass` of
/// the row (pass >= 0) or the input at column offset dx (pass -1: a factor
/// of one tap folded into the other pass); in 3D plane value `plane` (>= 0),
/// else intermediate `pass` of plane row `row`, else the input at (row, dx).
struct LowRankTerm {
  int dy = 0;
  int pass = -1;
  int dx = 0;
  double coefficient = 0.0;
  int plane = -1; ///< 3D only
  int row = 0;    ///< 3D only: the offset along y of the pass or input read
};

/// 3D: one multiply-add of a plane value (a term's plane matrix applied to
/// one input plane): value `plane` gains coefficient times, at plane row
/// offset dy, intermediate `pass` of that row (pass >= 0) or the input at
/// (dy, dx).
struct LowRankPlaneTap {
  int plane = 0;
  int dy = 0;
  int pass = -1;
  int dx = 0;
  double coefficient = 0.0;
};

/// A 2D stencil evaluated as a sum of separable terms (docs/design.md,
/// "Low-rank structure"): per input row, each row pass's intermediate (its
/// taps in order, the first a multiply, the others multiply-adds, in the
/// arithmetic type); then per output, from 0, the terms' multiply-adds in
/// the order of `terms` (by dy, then by the analysis' term). Both kernels
/// and the emulator keep this order, so a fused NAME_run gives what as many
/// NAME_step calls give, bit for bit.
///
/// 3D (docs/simt-backend.md, "Low-rank form in 3D"): per input plane, each
/// row pass over every row of the block's plane window, once for the block
/// (into shared memory); then per output of that plane, each plane value
/// from 0 (the first tap a product, then multiply-adds in the order of
/// `planeTaps`); then the terms' multiply-adds into the queue entries of the
/// output planes p - dy (by dy, then in order). The emulator keeps it.
struct LowRankForm {
  int dims = 2;
  int passes = 0;
  std::vector<LowRankRowTap> rowTaps;     ///< by pass, then dx
  std::vector<LowRankTerm> terms;         ///< by dy
  int planeValues = 0;                    ///< 3D only
  std::vector<LowRankPlaneTap> planeTaps; ///< 3D only: by plane value
  /// 2D: the paired order (docs/generated-code.md, "Paired sums"; its
  /// runs: pairedRuns): a point adds its columns, and its rows' passes, in
  /// blocks of an even index of the grid and the next where both are its,
  /// else one, left to right. Planned where both kernels keep it
  /// (SimtPlanner.cpp's planPairedOrder).
  bool paired = false;
  /// Operations a point of the form takes, as counted by the analysis (each
  /// row pass once a row).
  int ops() const { return static_cast<int>(rowTaps.size() + planeTaps.size() + terms.size()); }
  /// Operations a thread of the step kernel executes a point, redundant ones
  /// included: in 3D a block computes its row passes over planeRows rows of
  /// the plane window for tileY rows of outputs.
  double executedOps(int planeRows, int tileY) const {
    const double rowShare = dims == 3 ? double(planeRows) / tileY : 1.0;
    return double(rowTaps.size()) * rowShare + double(planeTaps.size() + terms.size());
  }
};

/// The runs of a 2D low-rank form that the paired order takes: its one row
/// pass's taps, of weight 1, at the columns [loX, hiX], its terms of that
/// pass, one coefficient c, on the rows [loY, hiY], and its terms at the
/// point (pass -1, a centre), in the form's order, on rows of those.
struct PairedRuns {
  int loX = 0, hiX = 0, loY = 0, hiY = 0;
  double c = 0.0;
  std::vector<LowRankTerm> atPoint;
};

/// The planner's low-rank decision for a simt plan, for --emit=plan.
struct LowRankChoice {
  /// Operations per point of the direct form and of the decomposed one
  /// (equal where there is none).
  int directOps = 0, decomposedOps = 0;
  /// sum |scale| |u|_1 |v|_1 over the terms / sum |c|: how much larger the
  /// rounding errors of the passes may be than the direct form's (0 where
  /// there is no decomposition).
  double amplification = 0.0;
  /// Why the form is used or not, in one phrase.
  std::string why;
  /// Whether --plan-option lowrank=auto or on found it fewer operations but
  /// kept the direct form (-v says so).
  bool fellBack = false;
  std::optional<LowRankForm> form;
};

/// What --plan-option arith asks for of a 16-bit stencil on CUDA cores: each
/// value widened to fp32 and every multiply-add in fp32, one rounding to the
/// element type on store (Widened, the default), or packed half2 / bfloat162
/// multiply-adds, two adjacent columns an instruction, each rounded to the
/// 16-bit type (Packed: opt-in, less accurate; docs/generated-code.md,
/// "Packed 16-bit arithmetic").
enum class ArithRequest { Widened, Packed };

/// What --plan-option mma asks for of a 2D 16-bit stencil on tensor cores:
/// the stacked form where it measured faster, else the dense one (Auto, the
/// default); the dense MMAs of the banded parameter matrices, one GEMM a
/// stencil row (Dense); the 2:4 structured sparse ones (Sparse: mma.sp on
/// the band's nonzeros, K permuted so that at most two of every four are
/// nonzero; opt-in: docs/generated-code.md, "The sparse tensor-core form");
/// or the stencil's rows stacked in K (Stacked: docs/generated-code.md,
/// "The stacked tensor-core form").
enum class MmaRequest { Auto, Dense, Sparse, Stacked };

/// What --plan-option scale asks for of an fp64 stencil on CUDA cores: its
/// coefficients as integer multiples of one factor where they are
/// (ScaledCoefficients; Auto, the default) or as given (Off).
enum class ScaleRequest { Auto, Off };

/// What --plan-option pairs asks for of a 2D low-rank form on CUDA cores:
/// the paired order where both kernels keep it (LowRankForm::paired; Auto,
/// the default) or the form's own order (Off).
enum class PairsRequest { Auto, Off };

/// What --plan-option compose asks for of a rank-1 2D stencil on CUDA
/// cores: NAME_run in composed rank-1 passes where they measured faster
/// with their band (RankOnePass; Auto, the default), wherever the planner
/// has their geometry (On), or the fused kernel, which gives what as many
/// NAME_step calls give bit for bit (Off).
enum class ComposeRequest { Auto, Off, On };

/// What --plan-option barrier asks for of a fused 3D pass on CUDA cores:
/// the split barrier (FusedKernel::splitBarrier) where the target is sm_90
/// or later and it measured faster for the kind, else one __syncthreads a
/// plane (Auto, the default); the split barrier wherever its rings fit, an
/// error where the stencil or target cannot take it (Split); or one
/// __syncthreads a plane (Sync).
enum class BarrierRequest { Auto, Split, Sync };

/// What --plan-option ring asks for of a fused 3D pass on CUDA cores: its
/// stream's loop unrolled whole rings of edge rows (Auto, the default,
/// until the other is measured; Whole), or as few planes as its register
/// queues need, the ring's parts rotating a round (FusedKernel::
/// unrollPlanes; Rotate).
enum class RingRequest { Auto, Whole, Rotate };

/// What --plan-option copy asks for of the stacked tensor-core form's
/// windows: by the tensor memory accelerator where the plan allows it
/// (TensorPlan::mappedWindows; Auto, the default), or by cp.async from
/// every thread everywhere (Threads).
enum class CopyRequest { Auto, Threads };

/// What --plan-option windows asks for of the stacked tensor-core form:
/// one window (Auto, the default), or a second one, its columns 4 right of
/// the first's, wherever it takes fewer MMAs (Two; TensorPlan::shiftedWindow).
enum class WindowsRequest { Auto, Two };

/// What --plan-option grid asks for of the stacked tensor-core form's
/// kernels: the planner's grid (Auto, the default;
/// TensorPlan::persistentGrid), a persistent grid of the blocks that fit
/// at once for every one (Persistent), or a block a block tile (Tiles).
enum class GridRequest { Auto, Persistent, Tiles };

/// An fp64 stencil's coefficients as integers k times one factor 1/D
/// (docs/generated-code.md, "Scaled coefficients"): where the exact
/// coefficients (the simplest rationals rounding to them) share a
/// denominator D, not a power of two, with every k = c * D below 2^21 in
/// magnitude, each k is an fp64 FMA's immediate operand (a double whose
/// low 32 bits are 0), so the FMAs read two registers instead of three; a
/// point is then the sum of k times the values, from 0 in the slices'
/// order, times 1/D rounded once (one more multiply a point).
struct ScaledCoefficients {
  long long denominator = 0; ///< D; 0: the coefficients as given
  double factor = 1.0;       ///< 1/D rounded to double
  /// Why the plan scales them, or why not (--emit=plan's scale line).
  std::string why;
  bool on() const { return denominator != 0; }
};

/// The CUDA-core kernel of a stencil of any dimension. The grid is seen as
/// nz x ny x nx (1D: 1 x 1 x n; 2D: ny x 1 x nx, so 2D streams along its rows;
/// 3D as is). A block owns tileY x tileX outputs of every plane z in
/// [chunk start, +chunkZ) and walks the planes from chunk start - radiusZ to
/// chunk end - 1 + radiusZ: each input plane (tileY + 2 radiusY rows, pitch
/// columns, column c being x = tile start - haloX + c) is read into shared
/// memory once with 16-byte loads, and every thread adds the plane's slices
/// into a register queue of 2 radiusZ + 1 partial outputs per item (2.5D
/// blocking: the queue holds the z column, the plane the x/y neighbours).
/// The oldest queue entry is then complete and is stored.
struct SimtPlan {
  /// The arithmetic type: FP64 for fp64, FP32 for everything else (fp16 and
  /// bf16 are widened on load, tf32 is plain fp32 on CUDA cores).
  Precision compute = Precision::FP32;
  int radiusZ = 0; ///< the streamed axis (3D z, 2D y; 0 in 1D)
  int radiusY = 0; ///< rows of the plane (3D y; 0 otherwise)
  int radiusX = 0; ///< the contiguous axis
  int tileX = 0;
  int tileY = 1;
  /// Output planes per block: at most chunkZ; at launch, halved (not below
  /// minChunkZ) while the grid would have fewer than targetBlocks blocks, so
  /// that grids thin along z, and the last wave of a large one, keep every
  /// SM busy (chunkFor()). A chunk-z plan option fixes it (minChunkZ =
  /// chunkZ).
  int chunkZ = 1;
  int minChunkZ = 1;
  long long targetBlocks = 0;
  int threads = 128;
  /// Elements per 16-byte vector: the unit of global loads and stores.
  int vectorWidth = 4;
  /// Consecutive x outputs one item computes (vectorWidth, or 1 for stencils
  /// whose queue would not fit in registers otherwise).
  int outputsX = 4;
  int itemsPerThread = 1;
  /// radiusX rounded up to vectorWidth, so tile columns start 16-byte aligned.
  int haloX = 0;
  int planeRows = 0;
  int pitch = 0;
  /// 3 or more: a ring of planes filled by asynchronous copies (cp.async),
  /// buffers - 1 ahead; 2: the next plane is fetched into registers while
  /// this one is computed (one barrier per plane either way); 1: fetched
  /// straight into shared memory.
  int buffers = 2;
  /// 64, 128 or 256: each 16-byte read of the input (cp.async or a vector
  /// load) asks the L2 to fetch that many bytes around it from memory (a
  /// tuning option, --plan-option l2-prefetch); 0: no hint.
  int l2PrefetchBytes = 0;
  int groupsPerThread = 0;
  int planeBytes = 0;
  /// Straight-line FMAs with the coefficients as literals, or (very large
  /// stencils) loops over a coefficient table.
  bool unrolled = true;
  std::vector<SimtSlice> slices;
  /// The low-rank form (2D or 3D, one field, constant coefficients), where
  /// the planner chose it: the kernels evaluate `lowRank.form` instead of the
  /// slices.
  LowRankChoice lowRank;
  /// --plan-option arith=packed (2D fp16 or bf16, one field): both kernels
  /// evaluate the slices' terms as packed 16-bit FMAs (__hfma2) on two
  /// adjacent outputs, from 0 in the slices' order, each rounded to the
  /// element type; the coefficients are rounded once to it (SimtPlanner.cpp's
  /// packedUnavailable says where it cannot apply).
  bool packed = false;
  /// The slices' coefficients as integers times `scaled.factor`, where the
  /// planner chose it (fp64 in the direct form): both kernels multiply
  /// each finished sum by the factor.
  ScaledCoefficients scaled;
  /// A 3D stencil of fields that reads one field off the output point and
  /// every other at it: that field, which the plane kernel streams through a
  /// ring of `buffers` planes in shared memory (stencilc/device/fields.cuh,
  /// stepPlanes; tileX x tileY outputs of chunkZ planes a block). -1: a
  /// chunk of outputs a thread (fields.cuh, stepChunks).
  int planeField = -1;

  int queueLength() const { return 2 * radiusZ + 1; }
  int items() const { return tileX / outputsX * tileY; }
  int groupsPerPlane() const { return planeRows * pitch / vectorWidth; }
  /// 3D low-rank form: the row passes of a plane window (planeRows x tileX
  /// values of the arithmetic type each) beside the planes; else 0.
  int passBytes() const {
    if (!lowRank.form || lowRank.form->dims != 3) {
      return 0;
    }
    return lowRank.form->passes * planeRows * tileX * (compute == Precision::FP64 ? 8 : 4);
  }
  int sharedBytes() const { return buffers * planeBytes + passBytes(); }
  /// Whether the planes pass the 48 KiB a block may declare statically: the
  /// kernel then takes them as dynamic shared memory, and the launch opts in.
  bool dynamicShared() const { return sharedBytes() > StaticSharedMemoryBytes; }
  /// The planes per block a launch on nz x ny x nx (the kernel's view) uses.
  int chunkFor(long long nz, long long ny, long long nx) const;
};

/// The band kernel (runtime/include/stencilc/device/band.cuh) of a pass of
/// `steps` steps whose own kernel is exact only W = steps·r inside the grid:
/// it recomputes every point within W of an edge step by step with the
/// true boundary rule, on CUDA cores. The tensor cores' composed passes take
/// it (but for `periodic`), and the CUDA cores' fused passes under `clamp`,
/// `mirror` and `reflect`.
struct BandKernel {
  /// The tile kernel: tile x tile output tiles, 256 threads, two
  /// (tile + 2 W)^2 levels of the arithmetic type in dynamic shared memory
  /// (`sharedBytes`); it takes grids within 2 W of their size on an axis.
  /// A 1D line's band has tile 0 and `sharedBytes` its end blocks' two
  /// levels of 4 W values (band.cuh's lineKernel).
  int tile = 32;
  int sharedBytes = 0;
  /// The band in strips along the edges on grids past 2 W on each axis:
  /// two windows of 3 W x 128 values (allocated 3 W + 1 across) in dynamic
  /// shared memory; 0 where the tile kernel takes it all (bandStripBytes).
  int stripBytes = 0;
};

/// The kernel NAME_run uses for its passes when it fuses steps
/// (Schedule::fusedSteps > 1), one per dimension:
///
/// - 2D: runtime/include/stencilc/device/fused.cuh. Each warp owns a strip of
///   `width` columns (32 threads of width / 32 adjacent columns each) and a
///   block's `chunkRows` output rows, and streams down the rows `batch` rows
///   of each fused level at a time, every level's window in registers (no
///   shared memory). The `halo` columns at each side of a strip are computed
///   by the neighbouring strips too (the redundant halo the levels eat into,
///   r columns a level); the middle width - 2 halo are stored.
/// - 1D: fused1d.cuh. A block holds a segment of `width` points (its `halo`
///   each side included) in shared memory and computes every level there;
///   it stores the middle width - 2 halo.
/// - 3D: fused3d.cuh (3.5D blocking). A block's window is `width` columns by
///   `height` rows (halos of `halo` columns and `haloY` rows each side
///   included); it streams `chunkRows` output planes along z, `batch` planes
///   of each level at a time, each level a ring of planes in shared memory;
///   a thread computes pieces of `rows` points along y.
struct FusedKernel {
  int width = 0;
  /// 3D: the window's rows, halo included (0 otherwise).
  int height = 0;
  /// Threads per block (2D: threads / 32 strips side by side).
  int threads = 0;
  /// 2D: rows, 3D: planes of each level computed at a time (0 in 1D).
  int batch = 0;
  /// 2D: output rows, 3D: output planes per block (0 in 1D).
  int chunkRows = 0;
  /// 3D: the rows of a thread's piece (0 otherwise).
  int rows = 0;
  /// 2D and 3D: blocks per multiprocessor the register allocator must fit
  /// (__launch_bounds__'s second argument).
  int minBlocks = 1;
  /// 2D, the direct form: a window row's side columns are shared when the
  /// row enters its window (fused.cuh's kSidesAtEntry), not just before the
  /// point that reads them, which a star's kernel otherwise does.
  bool sidesAtEntry = false;
  /// 2D, the direct or low-rank form (not packed): the queued form of
  /// fused.cuh (kQueued): each level keeps the partial sums of the rows it
  /// has yet to finish, not a window of the rows below, and adds each row of
  /// the level below into them as it is computed (measured faster for the
  /// wide boxes).
  bool queued = false;
  /// 2D: an L2 prefetch this many rows ahead of the stream's loads inside
  /// the grid (fused.cuh's kPrefetchRows; 0: none), where measured faster.
  int prefetchRows = 0;
  /// 3D: a pass of several levels by a block inside the grid copies its
  /// input planes this many ahead into shared memory by cp.async
  /// (fused3d.cuh's kStagedPlanes; 0: two ahead into registers), where
  /// measured faster; never on a periodic grid, whose passes load wrapped.
  int stagedPlanes = 0;
  /// 3D, sm_90 and later: a pass of several levels orders its planes by an
  /// mbarrier each thread arrives at after its last edge rows of a plane
  /// and waits on before it next reads any (fused3d.cuh's kSplitBarrier),
  /// not one __syncthreads a plane; each level's ring holds a plane more.
  /// Where the rings fit and the kind measured faster with it
  /// (MeasuredFusion::splitBarrier) or --plan-option barrier=split asks.
  bool splitBarrier = false;
  /// 3D: the planes the stream's loop unrolls where not whole rings of
  /// edge rows (fused3d.cuh's kUnrollPlanes; 0: whole rings): lcm(2, the
  /// register queue), the ring's slots addressed in parts that rotate a
  /// round, and under the split barrier a ring not rounded up to whole
  /// queues. Where --plan-option ring=rotate asks, or by default where
  /// measured faster for the kind (MeasuredFusion::ringRotate).
  int unrollPlanes = 0;
  /// T * r rounded up to a whole memory access (the x halo).
  int halo = 0;
  /// 3D: T * r, the y halo (0 otherwise).
  int haloY = 0;
  /// 2D: bytes of one load or store of a thread's columns: the widest of
  /// 16, 8 and 4 that divides them (fused.cuh's kAccessBytes).
  /// 1D and 3D: 16 (whole 16-byte vectors).
  int accessBytes = 0;
  /// 1D and 3D: the dynamic shared memory of a pass of T steps (the 2D
  /// kernel uses none).
  int sharedBytes = 0;
  /// Of the point-levels a pass computes, the share that no stored point of
  /// the block needs: the halo, and (2D, 3D) the rows or planes beside a
  /// block's own that each level recomputes.
  double redundantShare = 0.0;
  /// Under `clamp`, `mirror` or `reflect`: the band kernel that follows each
  /// pass (fused_band.cuh; the pass reads 0 outside the grid, fused.cuh's
  /// ReadsOutside, so only the points W = levels·r inside are exact). In 1D
  /// its tile is 0: a block at each end of the line; in 3D the rows of a
  /// face's patches (band.cuh's volumeKernel), sharedBytes two levels of 3 W
  /// lines of a patch.
  std::optional<BandKernel> band;
  /// A stencil of fields: the fewest grid points NAME_run fuses; below it
  /// one step a launch measured faster (0: every grid).
  long long minGridPoints = 0;
  /// Where the geometry comes from (a measurement, or the rule).
  std::string source;
  /// NAME_step launches this kernel for one level (the fused headers'
  /// `step`, which leaves a fixed ring as the step kernel does), not the
  /// step kernel: measured faster for this kind and geometry; `stepWhy`
  /// gives the figures.
  bool takesSteps = false;
  std::string stepWhy;

  int columnsPerThread() const { return width / 32; }
  int storedColumns() const { return width - 2 * halo; }
  /// 3D: the tile's rows of each plane.
  int storedRows() const { return height - 2 * haloY; }
};

struct Plan;

/// Fused steps on tensor cores (issue 19, item 4; docs/design.md, "Fused
/// steps on tensor cores"): a pass runs the stencil composed T times on tensor
/// cores, then the band kernel of stencilc/device/composed.cuh recomputes the
/// points within T·r of an edge step by step on CUDA cores.
struct ComposedPass {
  /// The steps it replaces: T (Schedule::composed), or T / 2
  /// (Schedule::remainder).
  int steps = 0;
  /// The tensor-core plan of the composed stencil (radius steps·r; its
  /// spec's name is the stencil's own).
  std::shared_ptr<const Plan> plan;
  /// The band kernel (stripBytes 0 and unlaunched on a periodic grid, which
  /// has no band).
  BandKernel band;
  /// MMAs per output point of one composed step over those of the T single
  /// steps it replaces (the composed box is larger than T stars or boxes).
  double mmaRatio = 0.0;
};

/// T steps of a rank-1 2D stencil as one pass of the stencil composed T
/// times, on CUDA cores (runtime/include/stencilc/device/rank_one.cuh;
/// docs/design.md, "Composed rank-1 passes"): an x-pass and a y-pass of
/// 2 T r + 1 taps, then the band kernel of stencilc/device/composed.cuh for
/// the points within T r of an edge. Not bit for bit the T steps: the
/// composed weights are rounded once (docs/generated-code.md states the
/// error).
struct RankOnePass {
  int steps = 0;
  /// The composed stencil's row (along x) and column (along y, with the
  /// scale), 2 T r + 1 taps each from offset -T r, each rounded once from
  /// its exact value to the arithmetic type.
  std::vector<double> row, column;
  /// The kernel's strip of columns, batch of rows, output rows and threads
  /// a block, and blocks a multiprocessor (__launch_bounds__).
  int columns = 0, batch = 0, rows = 0, threads = 0, minBlocks = 1;
  /// Its dynamic shared memory (rank_one.cuh's Shape::kSharedBytes).
  int sharedBytes = 0;
  BandKernel band;
  /// The band's levels as an x-pass and a y-pass (band.cuh's kSeparable):
  /// the stencil's own row and column (with the scale), 2 r + 1 taps each,
  /// rounded once each to the arithmetic type.
  std::vector<double> bandRow, bandColumn;
  /// Where the geometry and the choice come from (a measurement).
  std::string source;
  /// NAME_run's last steps, where T - 2 or more remain after its passes of
  /// T (and T - 2 >= 2): one pass of the stencil composed T - 2 times, in
  /// the same geometry, its band in the same tiles, before single steps of
  /// the rest. Its own remainder and source are empty.
  std::shared_ptr<const RankOnePass> remainder;
};

/// How the time steps of NAME_run map onto kernel launches: passes of
/// fusedSteps steps (T) each and one pass of the remainder. NAME_step is
/// always one step.
struct Schedule {
  /// T; 1: NAME_run launches the step kernel once per step.
  int fusedSteps = 1;
  /// The fused kernel (fusedSteps > 1) on CUDA cores.
  FusedKernel fused;
  /// The composed pass (fusedSteps > 1) on tensor cores; then `fused` is unused.
  std::optional<ComposedPass> composed;
  /// NAME_run's last steps, where T / 2 or more of them remain after its
  /// passes of T: one composed pass of T / 2 steps before the single steps
  /// of the rest (where T / 2 >= 2 and the composed step is stacked).
  std::optional<ComposedPass> remainder;
  /// The composed rank-1 pass (fusedSteps > 1) on CUDA cores, where the
  /// planner takes it; then `fused` is unused.
  std::optional<RankOnePass> rankOne;
  /// Why T is what it is, in one phrase (the plan prints it).
  std::string why;
  /// Whether T is lower than --plan-option fuse asked for (`why` says why):
  /// an error at the stencil where the backend was requested, a remark under
  /// --backend=auto.
  bool lowered = false;
};

/// The `T` that `v` holds, const as `v` is. Needs: `v` holds a `T`.
template <typename T, typename Variant> auto &alternative(Variant &v) {
  assert(std::holds_alternative<T>(v));
  return *std::get_if<T>(&v);
}

struct Plan {
  StencilSpec spec;
  /// The architecture planned for.
  Arch target = Arch::Sm80;
  Schedule schedule;
  /// The kernel of the backend chosen: which alternative is backend().
  std::variant<TensorPlan, SimtPlan> kernel;
  /// Why this backend, in one line (printed in the plan and the .cu header).
  std::string choice;
  /// The device passes of nvcc that compile the plan's kernels, where a .cu
  /// holds a plan per architecture (--arch=sm_80,sm_90): __CUDA_ARCH__ from
  /// `from` up to, not including, `below` (0: no bound). Unset in a .cu of
  /// one plan, whose kernels every pass compiles.
  struct DevicePasses {
    int from = 0;
    int below = 0;
  };
  std::optional<DevicePasses> devicePasses;

  /// The variant's alternatives are in Backends.def's order.
  BackendKind backend() const { return static_cast<BackendKind>(kernel.index()); }
  /// The tensor-core kernel. Needs: backend() == BackendKind::Tensor.
  const TensorPlan &tensor() const { return alternative<TensorPlan>(kernel); }
  TensorPlan &tensor() { return alternative<TensorPlan>(kernel); }
  /// The CUDA-core kernel. Needs: backend() == BackendKind::Simt.
  const SimtPlan &simt() const { return alternative<SimtPlan>(kernel); }
  SimtPlan &simt() { return alternative<SimtPlan>(kernel); }
};

/// What a backend's planner gives for one stencil: its plan, or why that
/// backend cannot take the stencil (one phrase, fit for "cannot use tensor
/// cores: <reason>"). Planning once and keeping this answers both "can it?"
/// and "how?".
class PlanOrRefusal {
public:
  PlanOrRefusal(Plan plan) : value(std::move(plan)) {}
  static PlanOrRefusal refused(std::string reason) { return PlanOrRefusal(std::move(reason)); }

  /// Whether there is a plan.
  explicit operator bool() const { return std::holds_alternative<Plan>(value); }
  /// The plan. Needs: *this.
  const Plan &operator*() const & { return alternative<Plan>(value); }
  Plan &operator*() & { return alternative<Plan>(value); }
  Plan &&operator*() && { return std::move(alternative<Plan>(value)); }
  const Plan *operator->() const { return &**this; }
  Plan *operator->() { return &**this; }
  /// Why there is no plan. Needs: !*this.
  const std::string &reason() const { return alternative<std::string>(value); }

private:
  explicit PlanOrRefusal(std::string reason) : value(std::move(reason)) {}
  std::variant<Plan, std::string> value;
};

/// Rounds a coefficient to the MMA operand type of `p` once, to nearest even.
double roundCoefficient(double value, Precision p);
/// Rounds an input element (already a value of the storage type) to the MMA
/// operand type as the kernel does: tf32 by round-to-nearest, ties away from
/// zero (cvt.rna.tf32.f32, the kernel's roundToTf32); others are
/// exact.
double roundInputOperand(double value, Precision p);

/// Prints the `--emit=plan` text of a plan (Backends/Common/PlanPrinter.cpp;
/// its backend registered).
void printPlan(const Plan &plan, llvm::raw_ostream &os);

/// What `plan` breaks of the promises its planners make (their
/// "Guarantees:"), each a line naming the planner and the promise with the
/// values that break it; empty for a sound plan. `options` are those it was
/// planned with (the limits it was planned within). As MLIR's verifiers: a
/// broken promise is a bug in stencilc, which the pipeline reports as an
/// internal error in builds with assertions (assertPlanVerifies) and the
/// unit tests require never to happen (Backends/Common/VerifyPlan.cpp; its
/// backend registered).
std::vector<std::string> verifyPlan(const Plan &plan, const PlanOptions &options);

} // namespace stencilc
