//===- Planner.h - From a StencilSpec to a Plan -----------------*- C++ -*-===//
//
// The planner decides how a checked stencil runs: which backend can take it,
// and for the tensor-core backend the MMA shape, the slice GEMMs with their
// parameter matrices, and the tile, block and shared-memory geometry. It
// reports nothing itself: the caller turns a refusal reason into a
// diagnostic at the stencil's location.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc {

struct PlannerOptions {
  std::string arch = "sm_80";
  /// Parameter fragments stay in registers while they need at most this many
  /// 32-bit registers per thread; beyond, they are re-read from shared memory.
  int paramRegisterBudget = 64;
  /// Static shared memory a block may use (the launch needs no opt-in below
  /// 48 KiB).
  int sharedMemoryLimit = StaticSharedMemoryBytes;
  /// Overrides of the block geometry (0: the planner's default), for tuning
  /// and for tests that need several blocks on a small grid.
  int tileRowsPerBlock = 0;
  int tileColsPerBlock = 0;
  int warps = 0;
  /// MMA blocks side by side in one output tile (its accumulators are
  /// independent, and row slices share their A fragments across them).
  int nBlocks = 0;
  /// The L2 prefetch size (64, 128 or 256 bytes) of the input window's
  /// 16-byte reads (--plan-option l2-prefetch); 0: plain read-only loads.
  int l2Prefetch = 0;
  /// Pads the window pitch so that the 8 rows of a fragment load fall in
  /// different banks (rows stay 16-byte aligned, as ldmatrix requires).
  bool padPitchForBanks = true;
};

/// The largest radius the tensor-core path takes for a precision: half the
/// output tile (8 for fp16/bf16/tf32, 4 for fp64). Beyond it most of every
/// MMA multiplies zeros, and the CUDA-core path is the better kernel.
int maxTensorRadius(Precision p);

/// Why the tensor-core backend cannot compute `spec` planned with `options`,
/// or nullopt when it can. The reason is one phrase fit for "cannot use
/// tensor cores: <reason>".
std::optional<std::string> tensorUnsupportedReason(const StencilSpec &spec,
                                                   const PlannerOptions &options = {});

/// Plans the tensor-core kernel of `spec`.
/// Needs: tensorUnsupportedReason(spec, options) is nullopt.
/// Guarantees: every fragment load the plan implies is aligned to its unit
/// (ldmatrix rows to 16 bytes, fp16/bf16 pairs to 4), every window element a
/// GEMM reads is filled, and sharedBytes() fits the limit.
Plan planTensor(const StencilSpec &spec, const PlannerOptions &options = {});

} // namespace stencilc
