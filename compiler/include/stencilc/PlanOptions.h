//===- PlanOptions.h - What the caller leaves open or fixes in a plan -*- C++ -*-===//
//
// The planners' inputs beside the spec: the target architecture, the free
// parameters --plan-option sets (one field per line of PlanOptions.def, 0
// leaving it to the planner) and the limits the planners work within.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "stencilc/Plan.h"
#include "stencilc/Spec.h"
#include "stencilc/Target.h"

namespace stencilc {

/// Which backends' plans have a --plan-option: a set of BackendKind bits,
/// one a backend of Backends.def (PlanOptions.def names a backend, or Both
/// for the tensor and CUDA-core backends).
enum class PlanOptionBackends : unsigned {
#define STENCILC_BACKEND(Enumerator, ...)                                                          \
  Enumerator = 1u << static_cast<int>(BackendKind::Enumerator),
#include "stencilc/Backends.def"
  Both = Tensor | Simt,
};

struct PlanOptions {
  Arch target = Arch::Sm80;

  // The --plan-option parameters (PlanOptions.def gives each one's meaning
  // and range); 0: the planner's choice, or the --tune table's.
#define STENCILC_PLAN_OPTION(Field, Name, Backends, Min, Max, MultipleOf, PowerOfTwo, Help)        \
  int Field = 0;
#include "stencilc/PlanOptions.def"

  /// --plan-option lowrank: whether the CUDA-core kernels of a 2D or 3D
  /// stencil evaluate it as a sum of separable terms (a word, so not a line of
  /// PlanOptions.def, whose options are integers).
  LowRankRequest lowRank = LowRankRequest::Auto;
  /// --plan-option arith: the arithmetic of a 2D 16-bit stencil on CUDA
  /// cores (a word too); Packed only where asked.
  ArithRequest arith = ArithRequest::Widened;
  /// --plan-option mma: the MMAs of a 2D 16-bit stencil on tensor cores (a word
  /// too); Sparse only where asked.
  MmaRequest mma = MmaRequest::Auto;
  /// --plan-option scale: whether an fp64 stencil's coefficients may become
  /// integers times one factor on CUDA cores (a word too).
  ScaleRequest scale = ScaleRequest::Auto;
  /// --plan-option pairs: whether a 2D low-rank form may add in the paired
  /// order (a word too).
  PairsRequest pairs = PairsRequest::Auto;
  /// --plan-option compose: whether NAME_run of a rank-1 2D stencil may run
  /// its steps composed on CUDA cores (a word too).
  ComposeRequest compose = ComposeRequest::Auto;
  /// --plan-option copy: how the stacked tensor-core form copies its
  /// windows (a word too).
  CopyRequest copy = CopyRequest::Auto;
  /// --plan-option barrier: how a fused 3D pass on CUDA cores orders its
  /// planes (a word too).
  BarrierRequest barrier = BarrierRequest::Auto;
  /// --plan-option ring: how far a fused 3D pass on CUDA cores unrolls its
  /// stream's loop (a word too).
  RingRequest ring = RingRequest::Auto;
  /// --plan-option windows: whether the stacked tensor-core form may read
  /// a second window, half a chunk right (a word too).
  WindowsRequest windows = WindowsRequest::Auto;
  /// --plan-option grid: the stacked tensor-core form's grid (a word too).
  GridRequest grid = GridRequest::Auto;

  /// Tensor cores: parameter fragments stay in registers while they need at
  /// most this many 32-bit registers per thread; beyond, they are re-read
  /// from shared memory.
  int paramRegisterBudget = 64;
  /// Tensor cores: pads the window pitch so that the 8 rows of a fragment
  /// load fall in different banks (rows stay 16-byte aligned, as ldmatrix
  /// requires).
  bool padPitchForBanks = true;
  /// CUDA cores: 32-bit registers the queue of partial outputs may take per
  /// thread.
  int queueRegisterBudget = 64;
  /// CUDA cores: the most points x outputs per thread emitted as
  /// straight-line FMAs.
  int unrollLimit = 4096;
  /// Shared memory a block may use (the launch needs no opt-in below the
  /// static 48 KiB). The CUDA-core plane buffers that `stages` asks for may
  /// use up to the target's opt-in maximum instead, as dynamic shared memory
  /// where they pass this limit.
  int sharedMemoryLimit = StaticSharedMemoryBytes;
};

/// One --plan-option: a line of PlanOptions.def.
struct PlanOptionInfo {
  std::string_view name;
  PlanOptionBackends backends;
  int min, max, multipleOf;
  bool powerOfTwo; ///< only powers of two in [min, max]
  std::string_view help;
  int PlanOptions::*field;

  constexpr bool appliesTo(BackendKind b) const {
    return (static_cast<unsigned>(backends) >> static_cast<int>(b)) & 1u;
  }
};

/// Every --plan-option, in PlanOptions.def's order.
inline constexpr PlanOptionInfo PlanOptionTable[] = {
#define STENCILC_PLAN_OPTION(Field, Name, Backends, Min, Max, MultipleOf, PowerOfTwo, Help)        \
  {Name, PlanOptionBackends::Backends, Min, Max, MultipleOf, PowerOfTwo, Help, &PlanOptions::Field},
#include "stencilc/PlanOptions.def"
};

/// The option of a name, or null.
constexpr const PlanOptionInfo *findPlanOption(std::string_view name) {
  for (const PlanOptionInfo &o : PlanOptionTable) {
    if (o.name == name) {
      return &o;
    }
  }
  return nullptr;
}

/// The options that shape the dense tensor-core form's block, which the
/// stacked form's fixed geometry does not take: given under mma=auto they
/// select the dense form; given with mma=stacked they are ignored, with a
/// warning.
inline constexpr int PlanOptions::*DenseBlockOptions[] = {
    &PlanOptions::tileRows, &PlanOptions::tileCols, &PlanOptions::warps, &PlanOptions::nBlocks,
    &PlanOptions::l2Prefetch};

/// Whether --plan-option `name` is one of DenseBlockOptions.
constexpr bool shapesDenseBlock(std::string_view name) {
  const PlanOptionInfo *option = findPlanOption(name);
  for (int PlanOptions::*field : DenseBlockOptions) {
    if (option && option->field == field) {
      return true;
    }
  }
  return false;
}

/// Whether --plan-option `name` shapes only the stacked tensor-core form's
/// windows or grid (copy, windows, grid), which the dense and sparse forms
/// do not read.
constexpr bool shapesStackedWindows(std::string_view name) {
  return name == "copy" || name == "windows" || name == "grid";
}

/// Whether `options` sets one of DenseBlockOptions.
constexpr bool givesDenseBlockOption(const PlanOptions &options) {
  for (int PlanOptions::*field : DenseBlockOptions) {
    if (options.*field != 0) {
      return true;
    }
  }
  return false;
}

/// What a stencil lacks for --plan-option mma=sparse on the target of
/// `options`, in a phrase, or nothing where the tensor cores' sparse form
/// can take it: fp16 or bf16, 2D, one field, radius 7 or less, an even
/// n-blocks (TensorPlanner.cpp). Every target stencilc plans for (sm_80 on)
/// has mma.sp.
std::optional<std::string> sparseMmaUnavailable(const StencilSpec &spec,
                                                const PlanOptions &options);

/// What a stencil lacks for --plan-option mma=stacked, in a phrase, or
/// nothing where the tensor cores' stacked form can take it: fp16 or bf16,
/// 2D, one field, radius 1-16 (TensorPlanner.cpp; past 8 the only tensor-core form). Every target
/// stencilc plans for (sm_80 on) has its MMAs and cp.async.
std::optional<std::string> stackedMmaUnavailable(const StencilSpec &spec);

/// Whether the tensor cores' single-step kernel of `spec` takes the stacked
/// form with `options`: asked (mma=stacked) or, under mma=auto (it measured
/// faster than the dense form at every radius), unless an option shapes
/// the dense form's block or its windows pass the shared-memory limit; and
/// only where the stencil allows.
bool stackedMmaChosen(const StencilSpec &spec, const PlanOptions &options);

} // namespace stencilc
