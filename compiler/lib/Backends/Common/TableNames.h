//===- TableNames.h - Short names for the measured tables' entries -*- C++ -*-===//
//
// BackendTable.inc and TunedPlans.inc are written by scripts from benchmark
// output; their entries use these names. Include inside the namespace that
// includes the table.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>

#include "stencilc/Plan.h"
#include "stencilc/Spec.h"
#include "stencilc/Target.h"

namespace stencilc::table {

/// An architecture as the tables write it ("sm_90"): the name is looked up
/// in Targets.def when the table compiles, so an entry for an architecture
/// stencilc does not know is a compile error.
struct ArchName {
  Arch arch = Arch::Sm80;

  constexpr ArchName() = default;
  consteval ArchName(const char *name) : arch(parseArch(name).value()) {}
  constexpr operator Arch() const { return arch; }
};

constexpr Shape Star = Shape::Star;
constexpr Shape Box = Shape::Box;
constexpr Precision FP16 = Precision::FP16;
constexpr Precision BF16 = Precision::BF16;
constexpr Precision TF32 = Precision::TF32;
constexpr Precision FP32 = Precision::FP32;
constexpr Precision FP64 = Precision::FP64;
constexpr BackendKind Tensor = BackendKind::Tensor;
constexpr BackendKind Simt = BackendKind::Simt;

} // namespace stencilc::table
