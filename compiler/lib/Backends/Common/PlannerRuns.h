//===- PlannerRuns.h - How often each backend's planner ran -----*- C++ -*-===//
//
// planTensor() and planSimt() count their runs here, so that a test can show
// that the pipeline plans each stencil once per backend (the answer to "can
// the tensor cores take it?" is the tensor-core plan itself).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>

namespace stencilc {

struct PlannerRuns {
  std::atomic<long> tensor{0};
  std::atomic<long> simt{0};
};

/// The process's counts (one instance, whichever file includes this).
inline PlannerRuns &plannerRuns() {
  static PlannerRuns runs;
  return runs;
}

} // namespace stencilc
