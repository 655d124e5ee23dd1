//===- SimtRankOne.h - Composed rank-1 passes on CUDA cores -----*- C++ -*-===//
//
// T steps of a rank-1 2D stencil as one pass of the stencil composed T
// times (Plan.h's RankOnePass; runtime/include/stencilc/device/rank_one.cuh;
// docs/design.md, "Composed rank-1 passes"): its planner, plan lines,
// emitter and CPU model (its promises: SimtVerify.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "Backends/Common/EmitterParts.h"
#include "stencilc/LowRank.h"
#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace stencilc {

class CodeWriter;
struct GridND;

/// Puts the composed rank-1 pass in `plan`'s schedule in place of the fused
/// kernel for a 2D stencil of exact rank 1, not periodic, of a kind the
/// planner has the pass's geometry for, where it measured faster with its
/// band or --plan-option compose=on asks (not where lowrank=off or
/// compose=off is asked, nor fuse without compose=on; fuse=T with
/// compose=on composes T steps), with a remainder pass of T - 2 steps where
/// that is 2 or more; else leaves the plan as it is.
void planRankOne(Plan &plan, const PlanOptions &options);

/// The plan's lines for its composed rank-1 passes (--emit=plan).
void printRankOne(const Plan &plan, llvm::raw_ostream &os);

/// The pass's kernel traits and band traits in the stencil's namespace
/// `ns`, and NAME_run's and NAME_pass's bodies.
PassBodies writeRankOne(CodeWriter &w, const Plan &plan, std::string_view ns,
                        std::string_view boundary);

/// One composed pass `p` (the plan's, or its remainder), in -> out, as
/// NAME_pass runs it: the kernel's points W = T r or more inside the grid,
/// then the band's. `out` starts as a copy of `in` (NAME_run's ring copy).
void emulateRankOnePass(const Plan &plan, const RankOnePass &p, const GridND &in, GridND &out);

/// The composed stencil's row or column: the T-fold convolution of `factor`
/// with itself (2 T r + 1 entries), exactly.
std::vector<Rational> convolvedPower(const std::vector<Rational> &factor, int times);

} // namespace stencilc
