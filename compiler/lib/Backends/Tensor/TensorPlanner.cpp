//===- TensorPlanner.cpp - The tensor-core decomposition of a stencil ------===//
//
// Builds the slice GEMMs of docs/design.md ("The tensor-core method") with
// the halo inside the GEMM (K covers the halo), and chooses the block and
// shared-memory geometry. See Plan.h for what each field means.
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorPlanner.h"
#include "Backends/Common/PlannerRuns.h"
#include "Backends/Common/TunedPlans.h"
#include "Backends/Tensor/TensorFusion.h"

#include <algorithm>
#include <bit>
#include <compare>
#include <cstdlib>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/ErrorHandling.h"

namespace stencilc {

namespace {

int roundUp(int value, int multiple) { return (value + multiple - 1) / multiple * multiple; }

double convertVia(double value, const llvm::fltSemantics &semantics, llvm::RoundingMode mode) {
  llvm::APFloat number(value);
  bool losesInfo = false;
  number.convert(semantics, mode, &losesInfo);
  number.convert(llvm::APFloat::IEEEdouble(), llvm::RoundingMode::NearestTiesToEven, &losesInfo);
  return number.convertToDouble();
}

/// The mma.sync shape for a precision: sm_80's shapes, and where the target
/// has it (sm_90) the fp64 m16n8k4, which does twice the work of m8n8k4 per
/// instruction (+26 % on the 49-point fp64 box on an H100; m16n8k16,
/// measured too, was no faster there and 12 % slower on the 25-point box).
MmaShape mmaShapeFor(Precision p, Arch target) {
  switch (p) {
  case Precision::FP16:
  case Precision::BF16:
    return {16, 8, 16, p, Precision::FP32};
  case Precision::TF32:
    return {16, 8, 8, p, Precision::FP32};
  case Precision::FP64:
    if (info(target).hasFp64M16n8k4) {
      return {16, 8, 4, p, Precision::FP64};
    }
    return {8, 8, 4, p, Precision::FP64};
  case Precision::FP32:
    break;
  }
  llvm_unreachable("no MMA shape for fp32: the planner refuses it first");
}

/// The default block geometry per precision (output rows, output columns,
/// warps): a block of 64 x 128 (fp16, bf16) or 64 x 64 outputs reads a
/// window a little taller and wider than its outputs, so the halo costs
/// little, and fits several blocks in an SM's shared memory.
struct BlockDefaults {
  int rows, cols, warps;
};

BlockDefaults blockDefaultsFor(Precision p) {
  switch (p) {
  case Precision::FP16:
  case Precision::BF16:
    return {64, 128, 8};
  case Precision::TF32:
  case Precision::FP64:
    return {64, 64, 8};
  case Precision::FP32:
    break;
  }
  llvm_unreachable("no block geometry for fp32 on tensor cores");
}

/// 32-bit registers one thread holds for a parameter fragment: the A
/// operand (m x k) of a Vertical slice, the B operand (k x n) of a Row slice,
/// spread over the 32 lanes.
int registersPerFragment(const MmaShape &mma, SliceKind kind) {
  const int elements = (kind == SliceKind::Vertical ? mma.m : mma.n) * mma.k / 32;
  return elements * static_cast<int>(elementBytes(mma.operand)) / 4;
}

/// Bytes of one element of the operand type in shared memory (tf32 is held
/// as float).
int operandBytes(Precision p) { return static_cast<int>(elementBytes(p)); }

/// The chunks of the star's vertical GEMM: K spans the M + 2r rows a tile
/// reads.
int verticalChunks(const TensorPlan &tp, int r) {
  return roundUp(tp.tileM + 2 * r, tp.mma.k) / tp.mma.k;
}

/// Where a row slice's K starts: the first column any output of an MMA
/// block reads, rounded down to the A fragment's load unit; for the sparse
/// form, whose A derives from these matrices, the tile's first window
/// column, from which it reads 32 columns for each pair of MMA blocks.
int rowFirstK(const TensorPlan &tp, int r) {
  const int unit = operandLoadWidth(tp.mma.operand);
  return tp.sparse ? 0 : (tp.haloCols - r) / unit * unit;
}

/// The chunks of a row slice: K reaches the last column an MMA block reads
/// (the sparse form: 32 columns).
int rowChunks(const TensorPlan &tp, int r) {
  return tp.sparse ? SparseMmaK / tp.mma.k
                   : roundUp(tp.haloCols + tp.mma.n + r - rowFirstK(tp, r), tp.mma.k) / tp.mma.k;
}

/// The star's vertical GEMM: P_v (M x K) times the window's output columns.
SliceGemm verticalGemm(const StencilSpec &spec, const TensorPlan &tp, bool includeCentre) {
  const int r = spec.radius, M = tp.tileM, k = tp.mma.k;
  SliceGemm gemm;
  gemm.kind = SliceKind::Vertical;
  gemm.label = "vertical";
  gemm.firstK = 0;
  gemm.chunkCount = verticalChunks(tp, r);
  gemm.param = ParameterMatrix(M, gemm.chunkCount * k);
  for (int m = 0; m < M; ++m) {
    for (int kk = 0; kk < gemm.param.cols; ++kk) {
      int dy = gemm.firstK + kk - m - r;
      if (std::abs(dy) > r || (dy == 0 && !includeCentre)) {
        continue;
      }
      Offset o;
      o.d[0] = dy;
      gemm.param.at(m, kk) = roundCoefficient(spec.coefficient(o), spec.precision);
    }
  }
  return gemm;
}

/// A row slice: the window rows of `dy` times B (K x N), B[kk][n] =
/// w[dy][dx] at dx = firstK + kk - haloCols - n (rowFirstK, rowChunks).
SliceGemm rowGemm(const StencilSpec &spec, const TensorPlan &tp, int dy, bool includeCentre,
                  std::string label) {
  const int r = spec.radius, N = tp.mma.n, k = tp.mma.k, H = tp.haloCols;
  SliceGemm gemm;
  gemm.kind = SliceKind::Row;
  gemm.dy = dy;
  gemm.label = std::move(label);
  gemm.firstK = rowFirstK(tp, r);
  gemm.chunkCount = rowChunks(tp, r);
  gemm.param = ParameterMatrix(gemm.chunkCount * k, N);
  for (int kk = 0; kk < gemm.param.rows; ++kk) {
    for (int n = 0; n < N; ++n) {
      int dx = gemm.firstK + kk - H - n;
      if (std::abs(dx) > r || (dy == 0 && dx == 0 && !includeCentre)) {
        continue;
      }
      Offset o;
      o.d[0] = dy;
      o.d[1] = dx;
      gemm.param.at(kk, n) = roundCoefficient(spec.coefficient(o), spec.precision);
    }
  }
  return gemm;
}

bool hasTermWhere(const StencilSpec &spec, auto predicate) {
  return std::any_of(spec.terms.begin(), spec.terms.end(),
                     [&](const Term &t) { return predicate(t.offset); });
}

/// The slice GEMMs of every tile. Slices with no non-zero coefficient are
/// left out; the centre is counted in exactly one slice.
std::vector<SliceGemm> sliceGemms(const StencilSpec &spec, const TensorPlan &tp) {
  std::vector<SliceGemm> gemms;
  const int r = spec.radius;
  // A star as one vertical and one horizontal GEMM, unless its 2r + 1 rows
  // take no more MMAs (radius 1 in fp16 and bf16) and a smaller window.
  if (spec.shape == Shape::Star && !tp.sparse && !tp.stacked &&
      (2 * r + 1) * rowChunks(tp, r) > verticalChunks(tp, r) + rowChunks(tp, r)) {
    bool vertical = hasTermWhere(spec, [](const Offset &o) { return o.d[0] != 0; });
    bool horizontal = hasTermWhere(spec, [](const Offset &o) { return o.d[1] != 0; });
    if (vertical) {
      gemms.push_back(verticalGemm(spec, tp, /*includeCentre=*/true));
    }
    if (horizontal || !vertical) {
      gemms.push_back(rowGemm(spec, tp, 0, /*includeCentre=*/!vertical, "horizontal"));
    }
    return gemms;
  }
  // The sparse form runs every row slice in order, those of zeros too.
  for (int dy = -r; dy <= r; ++dy) {
    if (tp.sparse || tp.stacked ||
        hasTermWhere(spec, [dy](const Offset &o) { return o.d[0] == dy; })) {
      gemms.push_back(rowGemm(spec, tp, dy, /*includeCentre=*/true, fmt::format("row dy={}", dy)));
    }
  }
  if (gemms.empty()) { // all-zero stencil: one slice of zeros keeps it uniform
    gemms.push_back(rowGemm(spec, tp, 0, true, "row dy=0"));
  }
  return gemms;
}

/// Plane dz of a 3D stencil as the 2D stencil of its offsets (dy, dx): the
/// centre plane keeps the stencil's shape, the others are boxes (a star's
/// other planes hold only their centre point).
StencilSpec planeOf(const StencilSpec &spec, int dz) {
  StencilSpec plane = spec;
  plane.dims = 2;
  plane.shape = dz == 0 ? spec.shape : Shape::Box;
  plane.terms.clear();
  for (const Term &t : spec.terms) {
    if (t.offset.d[0] == dz) {
      plane.terms.push_back(t);
      plane.terms.back().offset.d = {t.offset.d[1], t.offset.d[2], 0};
    }
  }
  return plane;
}

/// The slice GEMMs of a 3D stencil: those of each plane that reads anything,
/// each reading its plane's slab of the window.
std::vector<SliceGemm> sliceGemms3D(const StencilSpec &spec, const TensorPlan &tp) {
  std::vector<SliceGemm> gemms;
  for (int dz = -spec.radius; dz <= spec.radius; ++dz) {
    const StencilSpec plane = planeOf(spec, dz);
    // An all-zero stencil keeps one slice of zeros (sliceGemms), on dz = 0.
    if (plane.terms.empty() && (dz != 0 || !spec.terms.empty())) {
      continue;
    }
    for (SliceGemm &g : sliceGemms(plane, tp)) {
      g.dz = dz;
      g.label = fmt::format("plane dz={} {}", dz, g.label);
      gemms.push_back(std::move(g));
    }
  }
  return gemms;
}

/// Whether a window pitch of `bytes` lets the fragment loads of 8 rows meet
/// no bank conflict: rows 16 bytes apart modulo 32 for 4-byte loads and
/// ldmatrix, 32 modulo 64 for the 8-byte loads of fp64.
bool pitchAvoidsConflicts(int bytes, Precision operand) {
  return operand == Precision::FP64 ? bytes % 64 == 32 : bytes % 32 == 16;
}

/// Fills in the window and shared-memory sizes for the current block shape.
void layOutWindow(const StencilSpec &spec, TensorPlan &tp, bool padPitchForBanks) {
  const int r = spec.radius, M = tp.tileM, V = tp.vectorWidth;
  tp.loadedRows = tp.blockRows() + 2 * tp.haloRows;
  tp.windowRows = tp.loadedRows;
  tp.windowCols = tp.blockCols() + 2 * tp.haloCols;
  for (const SliceGemm &g : tp.gemms) {
    const int K = g.chunkCount * tp.mma.k;
    if (g.kind == SliceKind::Vertical) {
      tp.windowRows = std::max(tp.windowRows, tp.blockRows() - M + g.firstK + K);
    } else {
      tp.windowCols = std::max(tp.windowCols, tp.blockCols() - tp.mma.n + g.firstK + K);
    }
  }
  tp.windowCols = roundUp(tp.windowCols, V);
  tp.windowPitch = tp.windowCols; // a multiple of 16 bytes
  const int opBytes = operandBytes(spec.precision);
  while (padPitchForBanks && !tp.sparse &&
         !pitchAvoidsConflicts(tp.windowPitch * opBytes, spec.precision)) {
    tp.windowPitch += V;
  }
  if (tp.sparse) { // whole 64-element blocks: the swizzle of tensor.cuh
    tp.windowPitch = roundUp(tp.windowPitch, SparseSwizzleBlock);
  }
  tp.loadedColBegin = (tp.haloCols - r) / V * V;
  tp.loadedColEnd = std::min(tp.windowPitch, roundUp(tp.haloCols + tp.blockCols() + r, V));

  tp.windowBytes = tp.planes * tp.windowRows * tp.windowPitch * opBytes;
  tp.paramBytes = 0;
  for (const SliceGemm &g : tp.gemms) {
    tp.paramBytes += g.param.rows * g.param.cols * opBytes;
  }
  tp.paramBytes += tp.sparseSliceBytes();
}

} // namespace

std::string MmaShape::name() const { return fmt::format("m{}n{}k{}", m, n, k); }

int TensorPlan::paramFragments() const {
  int total = 0;
  for (const SliceGemm &g : gemms) {
    total += g.chunkCount;
  }
  return total;
}

int TensorPlan::paramElements() const {
  int total = 0;
  for (const SliceGemm &g : gemms) {
    total += g.param.rows * g.param.cols;
  }
  return total;
}

int TensorPlan::mmasPerTile() const {
  // The sparse form: one mma.sp a slice for each of the tile's 8-row halves
  // and pairs of MMA blocks. The stacked form: its groups' chunks, an MMA
  // each, a MMA block.
  if (stacked) {
    const StackedMmas mmas = stackedMmas();
    return nBlocks * (mmas.k16 + mmas.k8);
  }
  return sparse ? static_cast<int>(gemms.size()) * nBlocks : nBlocks * paramFragments();
}

TensorPlan::StackedMmas TensorPlan::stackedMmas() const {
  StackedMmas mmas;
  for (const StackedGroup &g : stackedGroups) {
    (g.paired() ? mmas.k16 : mmas.k8) += g.count;
  }
  return mmas;
}

int TensorPlan::stageBytes() const {
  // A warp's 16 rows of StagePitch elements of 16 / vectorWidth bytes.
  return warps * 16 * StagePitch * (16 / vectorWidth);
}

int TensorPlan::sparseSliceBytes() const {
  return sparse && !paramsInRegisters
             ? static_cast<int>(gemms.size()) * 32 * SparseSliceRegisters * 4
             : 0;
}

int TensorPlan::paramFragmentRegisters() const {
  if (stacked) { // two words a k16 MMA, one a k8
    const StackedMmas mmas = stackedMmas();
    return 2 * mmas.k16 + mmas.k8;
  }
  if (sparse) {
    return static_cast<int>(gemms.size()) * SparseSliceRegisters;
  }
  int registers = 0;
  for (const SliceGemm &g : gemms) {
    registers += g.chunkCount * registersPerFragment(mma, g.kind);
  }
  return registers;
}

double roundCoefficient(double value, Precision p) {
  if (p == Precision::TF32) {
    return convertVia(value, llvm::APFloat::FloatTF32(), llvm::RoundingMode::NearestTiesToEven);
  }
  return roundToStorage(value, p);
}

double roundInputOperand(double value, Precision p) {
  if (p == Precision::TF32) {
    return convertVia(value, llvm::APFloat::FloatTF32(), llvm::RoundingMode::NearestTiesToAway);
  }
  return value;
}

int maxTensorRadius(Precision p) { return p == Precision::FP64 ? 4 : 8; }

int operandLoadWidth(Precision operand) { return isSixteenBit(operand) ? 2 : 1; }

namespace {

/// A 1D stencil as the 2D box of one row (offsets (0, dx)): the kernel
/// computes the line as rows of consecutive points, each row's window
/// carrying its own halo, so the one row slice dy = 0 is the whole stencil.
StencilSpec asRowOfA2DBox(const StencilSpec &spec) {
  StencilSpec row = spec;
  row.dims = 2;
  row.shape = Shape::Box;
  for (Term &t : row.terms) {
    t.offset.d = {0, t.offset.d[0], 0};
  }
  return row;
}

/// Why the tensor cores cannot take `spec` with `options`, whatever the
/// geometry: fp32, or a radius past maxTensorRadius that the stacked form
/// (the only one past it) cannot take or that the options rule out.
std::optional<std::string> unsupportedKind(const StencilSpec &spec, const PlanOptions &options) {
  if (spec.precision == Precision::FP32) {
    return std::string("precision fp32 needs full fp32 arithmetic, which the "
                       "tensor cores do not offer (use tf32 to accept "
                       "tensor-core rounding)");
  }
  if (spec.radius <= maxTensorRadius(spec.precision)) {
    return std::nullopt;
  }
  if (stackedMmaUnavailable(spec)) {
    return fmt::format("radius {} is larger than {}, the most a {} fragment "
                       "allows",
                       spec.radius, maxTensorRadius(spec.precision), keyword(spec.precision));
  }
  if (stackedMmaChosen(spec, options)) {
    return std::nullopt;
  }
  return fmt::format("radius {} is larger than {}, the most a GEMM a row takes, and only the "
                     "stacked form takes it (radius up to {}), which {} rules out",
                     spec.radius, maxTensorRadius(spec.precision), StackedMaxRadius,
                     options.mma != MmaRequest::Auto  ? "the asked --plan-option mma"
                     : givesDenseBlockOption(options) ? "an option shaping the dense form's block"
                                                      : "the shared memory of its windows");
}

/// What a stencil lacks of a 2D stencil of one field in fp16 or bf16 (what
/// the sparse and the stacked forms take), or nothing.
std::optional<std::string> notSixteenBit2D(const StencilSpec &spec) {
  if (!isSixteenBit(spec.precision)) {
    return fmt::format("it needs fp16 or bf16 elements, and stencil '{}' is {}", spec.name,
                       keyword(spec.precision));
  }
  if (spec.dims != 2 || spec.hasFields()) {
    return fmt::format(
        "it is built for 2D stencils of one field, and stencil '{}' is {}", spec.name,
        spec.hasFields() ? std::string("a stencil of fields") : fmt::format("{}D", spec.dims));
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> sparseMmaUnavailable(const StencilSpec &spec,
                                                const PlanOptions &options) {
  if (std::optional<std::string> missing = notSixteenBit2D(spec)) {
    return missing;
  }
  if (spec.radius > SparseMaxRadius) {
    return fmt::format("it takes a radius of at most {} (its K order keeps a band of up to {} "
                       "columns to 2 of every 4), and stencil '{}' has radius {}",
                       SparseMaxRadius, 2 * SparseMaxRadius + 1, spec.name, spec.radius);
  }
  if (options.nBlocks % 2 != 0) {
    return fmt::format("it computes MMA blocks two at a time, and --plan-option n-blocks={} is odd",
                       options.nBlocks);
  }
  return std::nullopt;
}

std::optional<std::string> stackedMmaUnavailable(const StencilSpec &spec) {
  if (std::optional<std::string> missing = notSixteenBit2D(spec)) {
    return missing;
  }
  if (spec.radius > StackedMaxRadius) {
    return fmt::format("it takes a radius of at most {} (5 chunks of 8 columns hold a block's "
                       "8 + 2r), and stencil '{}' has radius {}",
                       StackedMaxRadius, spec.name, spec.radius);
  }
  return std::nullopt;
}

namespace {

void layOutStacked(const StencilSpec &spec, TensorPlan &tp, const PlanOptions &options);

/// The shared memory of the stacked form's two windows for `spec` (the
/// shifted ones, where asked, are taken only where they fit besides).
int stackedSharedBytes(const StencilSpec &spec) {
  TensorPlan tp;
  tp.stacked = true;
  tp.mma = mmaShapeFor(spec.precision, Arch::Sm80);
  tp.vectorWidth = 16 / static_cast<int>(elementBytes(spec.precision));
  layOutStacked(spec, tp, PlanOptions{});
  return tp.sharedBytes();
}

} // namespace

int stackedSharedLimit(const PlanOptions &options) {
  return std::max(options.sharedMemoryLimit, info(options.target).maxDynamicSharedBytes);
}

bool stackedMmaChosen(const StencilSpec &spec, const PlanOptions &options) {
  if (stackedMmaUnavailable(spec)) {
    return false;
  }
  // Under auto wherever it is open, unless an option shapes the dense
  // form's block (DenseBlockOptions, PlanOptions.h): those
  // ask for its geometry (a --tune sweep of them measures it), and the
  // stacked form's is fixed; nor where its two windows pass the shared
  // memory a block may use (the dense block narrows to fit). Since its
  // stores write whole sectors it measured faster than the dense form at
  // every radius on an H200 (NAME_run, 10240², fp16: 723.4 against 658.5 at
  // radius 1, 706.6 against 613.0 at 2, 680.9 against 573.8 at 3, 625.6
  // against 478.5 at 4, 547.6 against 236.4 at 5, 485.3 against 231.9 at
  // 6, 440 against 213 at 7; the stars of radius 1-3 by 2-8 %;
  // docs/performance.md, 2026-12-01 15:08-15:18).
  // Past maxTensorRadius, where no other form takes the stencil, its
  // windows are held to what a block may opt in to.
  const int limit = spec.radius > maxTensorRadius(spec.precision) ? stackedSharedLimit(options)
                                                                  : options.sharedMemoryLimit;
  return options.mma == MmaRequest::Stacked ||
         (options.mma == MmaRequest::Auto && !givesDenseBlockOption(options) &&
          stackedSharedBytes(spec) <= limit);
}

double stackedTap(const StencilSpec &spec, int row, int dx) {
  if (dx < -spec.radius || dx > spec.radius) {
    return 0.0;
  }
  const Offset at{{row - spec.radius, dx, 0}};
  return roundCoefficient(spec.coefficient(at), mmaShapeFor(spec.precision, Arch::Sm80).operand);
}

int stackedDx(int radius, int window, int chunk, int col, int n) {
  return 8 * chunk + col - stackedHaloCols(radius, window) - n;
}

double stackedWeight(const StencilSpec &spec, int row, int window, int chunk, int col, int n) {
  return stackedTap(spec, row, stackedDx(spec.radius, window, chunk, col, n));
}

StackedTaps::StackedTaps(const StencilSpec &spec)
    : radius(spec.radius), side(2 * spec.radius + 1), taps(std::size_t(side) * side) {
  for (int row = 0; row < side; ++row) {
    for (int dx = -radius; dx <= radius; ++dx) {
      taps[std::size_t(row * side + dx + radius)] = stackedTap(spec, row, dx);
    }
  }
}

int stackedHaloCols(int radius, int window) {
  return window == 0 ? std::max(8, roundUp(radius, 8)) : 4;
}

int stackedWindowChunks(int radius, int window) {
  return window == 0 ? 1 + 2 * stackedHaloCols(radius, 0) / 8 : radius <= 8 ? 2 : 0;
}

namespace {

/// The chunks of each window a stencil row needs: [first, first + count)
/// holds every column its nonzero weights reach for an MMA block's 8
/// outputs; count 0 where the window cannot hold them, or the row has no
/// nonzero weight.
struct RowChunks {
  int first[2] = {0, 0};
  int count[2] = {0, 0};
};

RowChunks rowChunks(const StencilSpec &spec, int row) {
  int low = spec.radius + 1, high = -spec.radius - 1; // the row's nonzero dx
  for (int dx = -spec.radius; dx <= spec.radius; ++dx) {
    if (stackedTap(spec, row, dx) != 0.0) {
      low = std::min(low, dx);
      high = std::max(high, dx);
    }
  }
  RowChunks chunks;
  for (int w = 0; low <= high && w < 2; ++w) {
    // Outputs 0-7 read window columns low + h .. 7 + high + h (h: the halo).
    const int halo = stackedHaloCols(spec.radius, w);
    const int first = (low + halo) / 8, last = (7 + high + halo) / 8;
    if (low + halo >= 0 && last < stackedWindowChunks(spec.radius, w)) {
      chunks.first[w] = first;
      chunks.count[w] = last - first + 1;
    }
  }
  return chunks;
}

/// The group of rows a and b (b < 0: a alone) of fewest chunks, in window
/// 0 where that takes no more (window 1 only where `twoWindows`); count 0
/// where no window holds them.
StackedGroup cheapestGroup(const std::vector<RowChunks> &chunks, int a, int b, bool twoWindows,
                           int radius) {
  StackedGroup best;
  const int windows = twoWindows ? 2 : 1;
  for (int wa = 0; wa < windows; ++wa) {
    for (int wb = 0; wb < (b < 0 ? 1 : windows); ++wb) {
      const int needA = chunks[a].count[wa], needB = b < 0 ? 1 : chunks[b].count[wb];
      const int count = std::max(needA, needB);
      const int room = std::min(stackedWindowChunks(radius, wa), stackedWindowChunks(radius, wb));
      if (needA == 0 || needB == 0 || count > room || (best.count && best.count <= count)) {
        continue;
      }
      // A half that needs fewer chunks takes as many, within its window.
      auto half = [&](int row, int w) {
        const int first = std::min(chunks[row].first[w], stackedWindowChunks(radius, w) - count);
        return StackedHalf{row, w, first};
      };
      best.half[0] = half(a, wa);
      best.half[1] = b < 0 ? StackedHalf{} : half(b, wb);
      best.count = count;
    }
  }
  return best;
}

/// What a set of groups costs: K halves of 8 columns (a k16 MMA two, a k8
/// one: the tensor pipe's time), then MMAs issued, then halves in window 1.
struct GroupsCost {
  int halves = 0, mmas = 0, shifted = 0;
  auto operator<=>(const GroupsCost &) const = default;
  GroupsCost plus(const StackedGroup &g) const {
    return {halves + g.count * (g.paired() ? 2 : 1), mmas + g.count, shifted + g.shiftedHalves()};
  }
};

} // namespace

namespace {

/// The least cost of grouping the rows a state has not done (a bit a row
/// of `rows`), and the group it starts with: the lowest row left takes a
/// partner or goes alone. Only the states that such steps reach from none
/// done are found (4180 of the 131072 at 17 rows), each once.
class SubsetGroups {
public:
  /// Each row i's group with row j > i, or alone (j = n), found once: the
  /// states ask for each of them many times.
  SubsetGroups(const std::vector<RowChunks> &chunks, const std::vector<int> &rows, bool twoWindows,
               int radius)
      : n(static_cast<int>(rows.size())), with(std::size_t(n) * (n + 1)) {
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j <= n; ++j) {
        group(i, j) = cheapestGroup(chunks, rows[i], j == n ? -1 : rows[j], twoWindows, radius);
      }
    }
  }

  struct Best {
    GroupsCost cost; // nothing where no group is found, as for none left
    StackedGroup first;
  };

  Best best(int done) {
    if (done == (1 << n) - 1) {
      return {};
    }
    if (auto it = memo.find(done); it != memo.end()) {
      return it->second;
    }
    const int i = std::countr_one(static_cast<unsigned>(done));
    Best found;
    // Partners first, then alone: among equal costs the rows keep their
    // order (a box's pairs 2p, 2p + 1 and its row 2r alone).
    for (int j = i + 1; j <= n; ++j) {
      const bool alone = j == n;
      if (!alone && (done >> j & 1)) {
        continue;
      }
      const StackedGroup &g = group(i, j);
      if (g.count == 0) {
        continue;
      }
      const GroupsCost total = best(done | 1 << i | (alone ? 0 : 1 << j)).cost.plus(g);
      if (found.first.count == 0 || total < found.cost) {
        found = {total, g};
      }
    }
    memo.try_emplace(done, found);
    return found;
  }

private:
  StackedGroup &group(int i, int j) { return with[std::size_t(i) * (n + 1) + j]; }

  int n;
  std::vector<StackedGroup> with; // row i's group with j: group(i, j)
  llvm::DenseMap<int, Best> memo;
};

/// The groups of `rows` (those with a nonzero weight) of least cost: every
/// pairing (SubsetGroups).
std::vector<StackedGroup> groupsBySubsets(const std::vector<RowChunks> &chunks,
                                          const std::vector<int> &rows, bool twoWindows,
                                          int radius) {
  const int all = (1 << rows.size()) - 1;
  SubsetGroups subsets(chunks, rows, twoWindows, radius);
  std::vector<StackedGroup> groups;
  for (int done = 0; done != all;) {
    const StackedGroup g = subsets.best(done).first;
    groups.push_back(g);
    for (const StackedHalf &h : g.half) {
      if (h.row >= 0) {
        done |= 1 << (std::find(rows.begin(), rows.end(), h.row) - rows.begin());
      }
    }
  }
  return groups;
}

/// The groups of `rows` in one window, each row paired with the next row
/// left of as many chunks. In one window that is a least cost: a pair of
/// counts a and b takes 2 max(a, b) halves, a + b only where a = b, so no
/// other pair saves halves, and every such pair saves MMAs.
std::vector<StackedGroup> groupsByCount(const std::vector<RowChunks> &chunks,
                                        const std::vector<int> &rows, int radius) {
  std::vector<StackedGroup> groups;
  std::vector<bool> taken(rows.size(), false);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (taken[i]) {
      continue;
    }
    int partner = -1;
    for (std::size_t j = i + 1; j < rows.size() && partner < 0; ++j) {
      if (!taken[j] && chunks[rows[j]].count[0] == chunks[rows[i]].count[0]) {
        partner = rows[j];
        taken[j] = true;
      }
    }
    groups.push_back(cheapestGroup(chunks, rows[i], partner, false, radius));
  }
  return groups;
}

} // namespace

// (Declared with its contract in TensorPlanner.h.) Up to 17 rows with a
// weight (radius 8) every pairing is tried; past that (radius 9-16, where
// the shifted window is not taken) rows pair by their chunks' count.
std::vector<StackedGroup> stackedGroups(const StencilSpec &spec, bool twoWindows) {
  std::vector<RowChunks> chunks;
  std::vector<int> rows; // those with a nonzero weight
  for (int row = 0; row <= 2 * spec.radius; ++row) {
    chunks.push_back(rowChunks(spec, row));
    if (chunks.back().count[0] > 0) {
      rows.push_back(row);
    }
  }
  if (rows.empty()) { // every weight zero: one MMA of zeros a block
    return {StackedGroup{{{spec.radius, 0, 1}, {}}, 1}};
  }
  return rows.size() <= 17 ? groupsBySubsets(chunks, rows, twoWindows, spec.radius)
                           : groupsByCount(chunks, rows, spec.radius);
}

namespace {

/// The stacked form's groups and geometry, with the shifted window where
/// `twoWindows` allows it and its rows then take fewer MMAs: strips of 16
/// rows by MMA blocks, one a warp, and a window of the block's rows and r
/// above and below by its columns and 8 left and right, rows an odd number
/// of 16-byte vectors apart. With the shifted windows a strip is
/// StackedShiftedBlocks MMA blocks, so that StackedMinBlocks blocks of four
/// windows fit a multiprocessor.
void layOutStackedWindows(const StencilSpec &spec, TensorPlan &tp, bool twoWindows) {
  tp.stackedGroups = stackedGroups(spec, twoWindows);
  tp.shiftedWindow = std::ranges::any_of(
      tp.stackedGroups, [](const StackedGroup &g) { return g.shiftedHalves() > 0; });
  tp.tileM = 16;
  tp.nBlocks = tp.shiftedWindow ? StackedShiftedBlocks : StackedBlocks;
  tp.tileN = tp.nBlocks * tp.mma.n;
  tp.tileRowsPerBlock = StackedWarps;
  tp.tileColsPerBlock = 1;
  tp.warps = StackedWarps;
  tp.haloRows = spec.radius;
  tp.haloCols = stackedHaloCols(spec.radius, 0);
  tp.loadedRows = tp.windowRows = tp.blockRows() + 2 * spec.radius;
  tp.windowCols = tp.blockCols() + 2 * tp.haloCols;
  tp.windowPitch = tp.windowCols;
  const int opBytes = operandBytes(spec.precision);
  while (!pitchAvoidsConflicts(tp.windowPitch * opBytes, spec.precision)) {
    tp.windowPitch += tp.vectorWidth;
  }
  tp.loadedColBegin = 0;
  tp.loadedColEnd = tp.windowCols;
  // Each window 128-byte aligned, as the tensor memory accelerator writes
  // one (stacked.cuh, kWindowElements).
  tp.windowBytes = roundUp(tp.windowRows * tp.windowPitch * opBytes, 128);
}

/// The stacked form's plan (stencilc/device/stacked.cuh): its groups and
/// geometry (layOutStackedWindows), the shifted windows only where the four
/// windows fit the shared memory a block may opt in to; no parameter
/// matrices in shared memory.
void layOutStacked(const StencilSpec &spec, TensorPlan &tp, const PlanOptions &options) {
  layOutStackedWindows(spec, tp, options.windows == WindowsRequest::Two);
  if (tp.shiftedWindow && tp.stackedWindowsBytes() > stackedSharedLimit(options)) {
    layOutStackedWindows(spec, tp, false);
  }
  tp.paramBytes = 0;
  tp.paramsInRegisters = true;
  tp.splitAccumulators = StackedSplit;
}

} // namespace

// (Declared with its contract in TensorPlanner.h.) One thread's copy of a
// window instead of every thread's cp.async: a prototype of star2d5p fp16's
// composed step ran 1.15 x faster on an H200, its output bit for bit the
// same (docs/performance.md, 2026-12-04 about 21:40).
bool stackedWindowsMapped(const StencilSpec &spec, const TensorPlan &tp,
                          const PlanOptions &options) {
  return tp.stacked && options.copy != CopyRequest::Threads && info(options.target).sm >= 90 &&
         spec.boundary == BoundaryKind::Fixed && tp.windowPitch <= 256 && tp.windowRows <= 256;
}

// (Declared with its contract in TensorPlanner.h.) Promoted to 256 bytes
// (as first built), an L2 miss of a window's read fetched the whole
// 256-byte block around it: box2d9p fp16's single step read 174 MB from
// memory for a grid of 134 on an H100, 148 MB without promotion, and ran
// 1.09-1.12 x faster so (every 16-bit single step tried, radius 1-3); the
// composed passes ran as fast or faster at 128 bytes than without
// (box2d49p 1.03 x, star2d13p 1.01 x; against 256 1.06 x and 1.04 x;
// docs/performance.md, 2026-12-06 05:45-06:40).
int stackedWindowPromotion(const TensorPlan &tp, bool composed) {
  return tp.mappedWindows && composed ? 128 : 0;
}

// (Declared with its contract in TensorPlanner.h.) A block a tile, with
// one window, ran the single steps of the 16-bit stars and boxes of
// radius 1-3 at 8192^2 1.07-1.16 x as fast on an H100 as the persistent
// grid at a fixed grid, 1.06-1.11 x at a periodic one (cp.async): the
// hardware hands each next tile to whichever multiprocessor has room
// (docs/performance.md, 2026-12-06 07:20-08:45). The composed steps
// differ by kind (composedStepInTiles).
bool stackedPersistentGrid(const TensorPlan &tp, const PlanOptions &options, bool tilesFaster) {
  if (!tp.stacked || options.grid == GridRequest::Persistent) {
    return true;
  }
  if (options.grid == GridRequest::Tiles) {
    return false;
  }
  return !tilesFaster || info(options.target).sm < 90;
}

// (Declared with its contract in TensorPlanner.h.) A lane holds every
// group's quads (4 registers a chunk of a k16 MMA, 2 of a k8) and the B
// words (TensorPlan::paramFragmentRegisters); star2d13p's composed step of
// 3 steps takes 141 and kept 3 blocks without a spill (165 registers).
int stackedMinBlocks(const TensorPlan &tp) {
  int operands = tp.paramFragmentRegisters();
  for (const StackedGroup &g : tp.stackedGroups) {
    operands += g.count * (g.paired() ? 4 : 2);
  }
  return tp.stackedPastRadius8() && operands > StackedOperandRegisters ? 2 : StackedMinBlocks;
}

// (Declared with its contract in TensorPlanner.h.) The folds of the edge
// reads (clamp, mirror, reflect) raised these kernels to 156-197 registers,
// one block of 256 threads a multiprocessor; asked for two, ptxas fits 128
// (clamp: no spill) and the steps ran 1.04-1.25x faster on an H200, output
// bit for bit the same. At radius 2 the same request spilled and ran
// 0.58-0.67x (docs/performance.md, 2026-12-04 05:00).
int tileMinBlocks(const StencilSpec &spec, const TensorPlan &tp, const PlanOptions &options) {
  const bool measured = foldsAtEdge(spec.boundary) && spec.dims == 2 && spec.radius == 1 &&
                        spec.precision == Precision::FP64 && !spec.hasFields() && !tp.stacked &&
                        !tp.sparse && tp.threads() == 256 && info(options.target).sm >= 90;
  // A multiprocessor holds at least the shared memory one block may opt in to.
  return measured && 2 * tp.sharedBytes() <= stackedSharedLimit(options) ? 2 : 1;
}

// (Declared with its contract in TensorPlanner.h.) Staged, single steps ran
// 7-16 % faster at radius 1 and 2 and 1-4 % at 3 and 7 than stored from
// registers on an H200, and the periodic 15 x 15 box, whose copy stores
// pairs, 12 % slower (docs/performance.md, 2026-12-02 04:24-04:50); the
// fit to StackedMinBlocks blocks keeps the stages from costing occupancy
// (sm_80 and sm_90 on, not sm_86 or sm_89).
bool stackedStepStages(const StencilSpec &spec, const TensorPlan &tp, const PlanOptions &options) {
  return !(spec.boundary == BoundaryKind::Periodic && spec.radius >= 7) &&
         StackedMinBlocks * (tp.stackedWindowsBytes() + tp.stageBytes()) <=
             stackedSharedLimit(options);
}

namespace {

/// The window of the block shape, the block narrowed until its shared
/// memory fits: columns first (the halo rows then stay a small part of the
/// window), then rows. A 3D window holds 2r + 1 slabs and shrinks much
/// further: there the longer side is halved, so that the halo stays a small
/// part of each slab both ways.
void layOutNarrowedToFit(const StencilSpec &spec, TensorPlan &tp, const PlanOptions &options) {
  layOutWindow(spec, tp, options.padPitchForBanks);
  while (tp.sharedBytes() > options.sharedMemoryLimit &&
         (tp.tileColsPerBlock > 1 || tp.tileRowsPerBlock > 1)) {
    const bool narrower =
        spec.dims != 3 || tp.tileRowsPerBlock == 1 || tp.blockCols() >= tp.blockRows();
    if (tp.tileColsPerBlock > 1 && narrower) {
      tp.tileColsPerBlock /= 2;
    } else {
      tp.tileRowsPerBlock /= 2;
    }
    tp.warps = std::min(tp.warps, tp.tileRowsPerBlock * tp.tileColsPerBlock);
    layOutWindow(spec, tp, options.padPitchForBanks);
  }
}

/// The tensor-core plan with exactly the parameters `options` asks for.
Plan planTensorWith(const StencilSpec &spec, const PlanOptions &options) {
  Plan plan;
  plan.spec = spec;
  plan.target = options.target;

  TensorPlan &tp = plan.kernel.emplace<TensorPlan>();
  tp.mma = mmaShapeFor(spec.precision, options.target);
  tp.tileM = tp.mma.m;
  tp.nBlocks = options.nBlocks ? options.nBlocks : isSixteenBit(spec.precision) ? 2 : 1;
  // The sparse form where asked and the stencil allows, its MMA blocks in
  // pairs (an odd n-blocks from the tuning table rounded up; the pipeline
  // refuses one given).
  PlanOptions paired = options;
  paired.nBlocks = roundUp(tp.nBlocks, 2);
  tp.sparse = options.mma == MmaRequest::Sparse && !sparseMmaUnavailable(spec, paired);
  tp.nBlocks = tp.sparse ? paired.nBlocks : tp.nBlocks;
  tp.stacked = !tp.sparse && stackedMmaChosen(spec, options);
  tp.tileN = tp.nBlocks * tp.mma.n;
  tp.l2PrefetchBytes = options.l2Prefetch;
  tp.vectorWidth = 16 / static_cast<int>(elementBytes(spec.precision));
  tp.haloRows = spec.dims == 1 ? 0 : spec.radius;
  tp.planes = spec.dims == 3 ? 2 * spec.radius + 1 : 1;
  tp.haloCols = roundUp(spec.radius, tp.vectorWidth);

  BlockDefaults defaults = blockDefaultsFor(spec.precision);
  tp.tileRowsPerBlock = options.tileRows ? options.tileRows : defaults.rows / tp.tileM;
  tp.tileColsPerBlock = options.tileCols ? options.tileCols : defaults.cols / tp.tileN;
  int warps = options.warps ? options.warps : defaults.warps;
  tp.warps = std::min(warps, tp.tileRowsPerBlock * tp.tileColsPerBlock);
  tp.gemms = spec.dims == 3   ? sliceGemms3D(spec, tp)
             : spec.dims == 1 ? sliceGemms(asRowOfA2DBox(spec), tp)
                              : sliceGemms(spec, tp);
  tp.paramsInRegisters = tp.paramFragmentRegisters() <= options.paramRegisterBudget;

  if (tp.stacked) {
    layOutStacked(spec, tp, options);
    tp.minBlocks = stackedMinBlocks(tp);
    tp.persistentGrid = stackedPersistentGrid(tp, options, true);
    tp.stagedStores = stackedStepStages(spec, tp, options);
    tp.mappedWindows = stackedWindowsMapped(spec, tp, options);
    tp.windowPromotion = stackedWindowPromotion(tp, false);
  } else {
    layOutNarrowedToFit(spec, tp, options);
    tp.minBlocks = tileMinBlocks(spec, tp, options);
  }

  plan.choice =
      tp.stacked
          ? fmt::format("tensor cores: {} mma.sync m16n8k16 and m16n8k8 with {} accumulation, "
                        "the stencil's rows stacked in K, {}",
                        keyword(spec.precision), keyword(tp.mma.accumulator),
                        options.mma == MmaRequest::Stacked ? "as --plan-option mma=stacked asked"
                        : spec.radius > maxTensorRadius(spec.precision)
                            ? "the only tensor-core form past radius 8"
                            : "measured faster than a GEMM a row at every radius on an H200")
      : tp.sparse
          ? fmt::format("tensor cores: {} m16n8k32 2:4 sparse mma.sp with {} accumulation, as "
                        "--plan-option mma=sparse asked",
                        keyword(spec.precision), keyword(tp.mma.accumulator))
          : fmt::format("tensor cores: {} {} mma.sync with {} accumulation",
                        keyword(spec.precision), tp.mma.name(), keyword(tp.mma.accumulator));
  return plan;
}

/// The single-step kernel of `spec`, or why the tensor cores cannot take it.
PlanOrRefusal planTensorKernel(const StencilSpec &spec, const PlanOptions &options) {
  if (std::optional<std::string> reason = unsupportedKind(spec, options)) {
    return PlanOrRefusal::refused(std::move(*reason));
  }
  // A sweep on another architecture measured this kernel when the MMA is
  // the same there (every precision but fp64 between sm_80 and sm_90). The
  // sweep measured the dense form's blocks: the stacked form has a geometry
  // of its own, which no swept block changes.
  const MmaShape mma = mmaShapeFor(spec.precision, options.target);
  const TunedPlan *tuned = stackedMmaChosen(spec, options)
                               ? nullptr
                               : findTuned(tunedPlans(), spec, options.target, BackendKind::Tensor,
                                           [&](const TunedPlan &t) {
                                             return mmaShapeFor(spec.precision, t.arch) == mma;
                                           });
  Plan plan =
      planTuned(tuned, options, [&](const PlanOptions &o) { return planTensorWith(spec, o); });
  // The planner narrows the block until its shared memory fits; a plan that
  // still does not (3D: 2r + 1 window slabs and every plane's parameter
  // matrices, with these options) cannot run. (Stages are taken only where
  // they fit: stackedStepStages.)
  const TensorPlan &tp = plan.tensor();
  const int limit = tp.stacked ? stackedSharedLimit(options) : options.sharedMemoryLimit;
  if (tp.sharedBytes() > limit) {
    return PlanOrRefusal::refused(
        fmt::format("its {} slice GEMMs over {} planes need {} bytes of shared memory "
                    "even for the narrowest block, more than the {} a block may use",
                    tp.gemms.size(), tp.planes, tp.sharedBytes(), limit));
  }
  return plan;
}

} // namespace

PlanOrRefusal planTensor(const StencilSpec &spec, const PlanOptions &options) {
  ++plannerRuns().tensor;
  PlanOrRefusal plan = planTensorKernel(spec, options);
  if (plan) {
    planTensorFusion(*plan, options, planTensorKernel);
  }
  return plan;
}

} // namespace stencilc
