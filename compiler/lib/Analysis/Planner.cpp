//===- Planner.cpp - The tensor-core decomposition of a 2D stencil ---------===//
//
// Builds the slice GEMMs of ARCHITECTURE.md ("The tensor-core method") with
// the halo inside the GEMM (K covers the halo), and chooses the block and
// shared-memory geometry. See Plan.h for what each field means.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Planner.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/ErrorHandling.h"

namespace stencilc {

namespace {

int roundUp(int value, int multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

double convertVia(double value, const llvm::fltSemantics &semantics,
                  llvm::RoundingMode mode) {
  llvm::APFloat number(value);
  bool losesInfo = false;
  number.convert(semantics, mode, &losesInfo);
  number.convert(llvm::APFloat::IEEEdouble(), llvm::RoundingMode::NearestTiesToEven,
                 &losesInfo);
  return number.convertToDouble();
}

/// The MMA shape WMMA offers for a precision on sm_80 and later.
MmaShape mmaShapeFor(Precision p) {
  switch (p) {
  case Precision::FP16:
  case Precision::BF16:
    return {16, 16, 16, p, Precision::FP32};
  case Precision::TF32:
    return {16, 16, 8, p, Precision::FP32};
  case Precision::FP64:
    return {8, 8, 4, p, Precision::FP64};
  case Precision::FP32:
    break;
  }
  llvm_unreachable("no MMA shape for fp32: the planner refuses it first");
}

/// The default block geometry per precision (tiles down, tiles across,
/// warps): a block reads a window a little taller and wider than its outputs,
/// large enough that the halo columns (aligned to the MMA k) cost little.
/// Chosen by measurement on an H100 (bench/results/2026-11-21-tensor-h100.txt:
/// star2d5p and box2d9p in fp16, star2d5p in tf32 and fp64, box2d49p fp64).
struct BlockDefaults {
  int tileRows, tileCols, warps;
};

BlockDefaults blockDefaultsFor(Precision p) {
  switch (p) {
  case Precision::FP16:
  case Precision::BF16:
    return {4, 8, 4};
  case Precision::TF32:
    return {2, 8, 8};
  case Precision::FP64:
    return {8, 4, 8};
  case Precision::FP32:
    break;
  }
  llvm_unreachable("no block geometry for fp32 on tensor cores");
}

/// 32-bit registers one thread holds for one WMMA operand fragment (the
/// fp16/bf16 m16n16k16 fragments hold every element twice).
int registersPerFragment(Precision operand) {
  switch (operand) {
  case Precision::FP16:
  case Precision::BF16:
    return 8;
  case Precision::TF32:
    return 4;
  case Precision::FP64:
    return 2;
  case Precision::FP32:
    break;
  }
  llvm_unreachable("no fragment for fp32");
}

/// Bytes of one element of the operand type in shared memory (tf32 is held
/// as float).
int operandBytes(Precision p) { return static_cast<int>(elementBytes(p)); }
int accumulatorBytes(const MmaShape &mma) {
  return mma.accumulator == Precision::FP64 ? 8 : 4;
}

/// The star's vertical GEMM: P_v (L x K) times the window's output columns.
SliceGemm verticalGemm(const StencilSpec &spec, const TensorPlan &tp,
                       bool includeCentre) {
  const int r = spec.radius, L = tp.tile, k = tp.mma.k;
  SliceGemm gemm;
  gemm.kind = SliceKind::Vertical;
  gemm.label = "vertical";
  gemm.firstChunk = 0;
  gemm.chunkCount = roundUp(L + 2 * r, k) / k;
  gemm.param = ParameterMatrix(L, gemm.chunkCount * k);
  for (int m = 0; m < L; ++m) {
    for (int kk = 0; kk < gemm.param.cols; ++kk) {
      int dy = kk - m - r;
      if (std::abs(dy) > r || (dy == 0 && !includeCentre)) {
        continue;
      }
      Offset o;
      o.d[0] = dy;
      gemm.param.at(m, kk) =
          roundCoefficient(spec.coefficient(o), spec.precision);
    }
  }
  return gemm;
}

/// A row slice: the window rows of `dy` times B (K x L), B[kk][n] =
/// w[dy][dx] at dx = firstChunk*k + kk - haloCols - n.
SliceGemm rowGemm(const StencilSpec &spec, const TensorPlan &tp, int dy,
                  bool includeCentre, std::string label) {
  const int r = spec.radius, L = tp.tile, k = tp.mma.k, H = tp.haloCols;
  SliceGemm gemm;
  gemm.kind = SliceKind::Row;
  gemm.dy = dy;
  gemm.label = std::move(label);
  gemm.firstChunk = (H - r) / k;
  const int lastChunk = (H + L - 1 + r) / k;
  gemm.chunkCount = lastChunk - gemm.firstChunk + 1;
  gemm.param = ParameterMatrix(gemm.chunkCount * k, L);
  for (int kk = 0; kk < gemm.param.rows; ++kk) {
    for (int n = 0; n < L; ++n) {
      int dx = gemm.firstChunk * k + kk - H - n;
      if (std::abs(dx) > r || (dy == 0 && dx == 0 && !includeCentre)) {
        continue;
      }
      Offset o;
      o.d[0] = dy;
      o.d[1] = dx;
      gemm.param.at(kk, n) =
          roundCoefficient(spec.coefficient(o), spec.precision);
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
std::vector<SliceGemm> sliceGemms(const StencilSpec &spec,
                                  const TensorPlan &tp) {
  std::vector<SliceGemm> gemms;
  const int r = spec.radius;
  if (spec.shape == Shape::Star) {
    bool vertical =
        hasTermWhere(spec, [](const Offset &o) { return o.d[0] != 0; });
    bool horizontal =
        hasTermWhere(spec, [](const Offset &o) { return o.d[1] != 0; });
    if (vertical) {
      gemms.push_back(verticalGemm(spec, tp, /*includeCentre=*/true));
    }
    if (horizontal || !vertical) {
      gemms.push_back(rowGemm(spec, tp, 0, /*includeCentre=*/!vertical,
                              "horizontal"));
    }
    return gemms;
  }
  for (int dy = -r; dy <= r; ++dy) {
    if (hasTermWhere(spec, [dy](const Offset &o) { return o.d[0] == dy; })) {
      gemms.push_back(rowGemm(spec, tp, dy, /*includeCentre=*/true,
                              fmt::format("row dy={}", dy)));
    }
  }
  if (gemms.empty()) { // all-zero stencil: one slice of zeros keeps it uniform
    gemms.push_back(rowGemm(spec, tp, 0, true, "row dy=0"));
  }
  return gemms;
}

/// Fills in the window and shared-memory sizes for the current block shape.
void layOutWindow(const StencilSpec &spec, TensorPlan &tp, bool padPitchForBanks) {
  const int r = spec.radius, L = tp.tile, V = tp.vectorWidth;
  tp.loadedRows = tp.blockRows() + 2 * r;
  tp.windowRows = tp.loadedRows;
  for (const SliceGemm &g : tp.gemms) {
    if (g.kind == SliceKind::Vertical) {
      tp.windowRows = std::max(tp.windowRows, tp.blockRows() - L +
                                                  g.chunkCount * tp.mma.k);
    }
  }
  tp.windowCols = tp.blockCols() + 2 * tp.haloCols;
  tp.windowPitch = tp.windowCols; // a multiple of k elements, i.e. 32 bytes
  const int opBytes = operandBytes(spec.precision);
  while (padPitchForBanks && tp.windowPitch * opBytes % 128 != 32 &&
         tp.windowPitch * opBytes % 128 != 96) {
    tp.windowPitch += tp.mma.k;
  }
  tp.loadedColBegin = (tp.haloCols - r) / V * V;
  tp.loadedColEnd = std::min(
      tp.windowPitch, roundUp(tp.haloCols + tp.blockCols() + r, V));

  tp.windowBytes = tp.windowRows * tp.windowPitch * opBytes;
  tp.paramBytes = 0;
  for (const SliceGemm &g : tp.gemms) {
    tp.paramBytes += g.param.rows * g.param.cols * opBytes;
  }
  // Each warp's accumulator tile, rows padded by 16 bytes (kStagePitch).
  const int accBytes = accumulatorBytes(tp.mma);
  tp.stagingBytes = tp.warps * L * (L + 16 / accBytes) * accBytes;
}

} // namespace

std::string_view keyword(BackendKind b) {
  return b == BackendKind::Tensor ? "tensor" : "simt";
}

std::string MmaShape::name() const {
  return fmt::format("m{}n{}k{}", m, n, k);
}

int TensorPlan::mmasPerTile() const {
  int total = 0;
  for (const SliceGemm &g : gemms) {
    total += g.chunkCount;
  }
  return total;
}

int TensorPlan::paramFragmentRegisters() const {
  return mmasPerTile() * registersPerFragment(mma.operand);
}

double roundToStorage(double value, Precision p) {
  switch (p) {
  case Precision::FP16:
    return convertVia(value, llvm::APFloat::IEEEhalf(),
                      llvm::RoundingMode::NearestTiesToEven);
  case Precision::BF16:
    return convertVia(value, llvm::APFloat::BFloat(),
                      llvm::RoundingMode::NearestTiesToEven);
  case Precision::TF32:
  case Precision::FP32:
    return static_cast<double>(static_cast<float>(value));
  case Precision::FP64:
    return value;
  }
  llvm_unreachable("unknown precision");
}

double roundCoefficient(double value, Precision p) {
  if (p == Precision::TF32) {
    return convertVia(value, llvm::APFloat::FloatTF32(),
                      llvm::RoundingMode::NearestTiesToEven);
  }
  return roundToStorage(value, p);
}

double roundInputOperand(double value, Precision p) {
  if (p == Precision::TF32) {
    return convertVia(value, llvm::APFloat::FloatTF32(),
                      llvm::RoundingMode::NearestTiesToAway);
  }
  return value;
}

int maxTensorRadius(Precision p) {
  return p == Precision::FP64 ? 4 : 8;
}

std::optional<std::string> tensorUnsupportedReason(const StencilSpec &spec) {
  if (spec.precision == Precision::FP32) {
    return std::string("precision fp32 needs full fp32 arithmetic, which the "
                       "tensor cores do not offer (use tf32 to accept "
                       "tensor-core rounding)");
  }
  if (spec.dims != 2) {
    return fmt::format("{}D stencils have no tensor-core kernel yet (only 2D "
                       "does)",
                       spec.dims);
  }
  if (spec.radius > maxTensorRadius(spec.precision)) {
    return fmt::format("radius {} is larger than {}, the most a {} fragment "
                       "allows",
                       spec.radius, maxTensorRadius(spec.precision),
                       keyword(spec.precision));
  }
  return std::nullopt;
}

Plan planTensor(const StencilSpec &spec, const PlannerOptions &options) {
  Plan plan;
  plan.spec = spec;
  plan.backend = BackendKind::Tensor;
  plan.arch = options.arch;

  TensorPlan &tp = plan.tensor;
  tp.mma = mmaShapeFor(spec.precision);
  tp.tile = tp.mma.m;
  tp.haloRows = spec.radius;
  tp.haloCols = roundUp(spec.radius, tp.mma.k);
  tp.vectorWidth = 16 / static_cast<int>(elementBytes(spec.precision));

  BlockDefaults defaults = blockDefaultsFor(spec.precision);
  tp.tileRowsPerBlock =
      options.tileRowsPerBlock ? options.tileRowsPerBlock : defaults.tileRows;
  tp.tileColsPerBlock =
      options.tileColsPerBlock ? options.tileColsPerBlock : defaults.tileCols;
  int warps = options.warps ? options.warps : defaults.warps;
  tp.warps = std::min(warps, tp.tileRowsPerBlock * tp.tileColsPerBlock);
  tp.gemms = sliceGemms(spec, tp);
  tp.paramsInRegisters =
      tp.paramFragmentRegisters() <= options.paramRegisterBudget;

  // Narrow the block until its shared memory fits: columns first (the halo
  // rows then stay a small part of the window), then rows.
  layOutWindow(spec, tp, options.padPitchForBanks);
  while (tp.sharedBytes() > options.sharedMemoryLimit &&
         (tp.tileColsPerBlock > 1 || tp.tileRowsPerBlock > 1)) {
    if (tp.tileColsPerBlock > 1) {
      tp.tileColsPerBlock /= 2;
    } else {
      tp.tileRowsPerBlock /= 2;
    }
    tp.warps = std::min(tp.warps, tp.tileRowsPerBlock * tp.tileColsPerBlock);
    layOutWindow(spec, tp, options.padPitchForBanks);
  }

  plan.choice = fmt::format(
      "tensor cores: {} {} MMA with {} accumulation", keyword(spec.precision),
      tp.mma.name(), keyword(tp.mma.accumulator));
  return plan;
}

} // namespace stencilc
