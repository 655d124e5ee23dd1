//===- PlanText.h - The parts of the `--emit=plan` text ---------*- C++ -*-===//
//
// Internal to the plan printers: printPlan() (Common/PlanPrinter.cpp) writes
// the frame every plan shares, then the plan's backend writes the rest
// (Backend::printPlanBody), with the lines every backend prints taken from
// here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

#include "stencilc/Plan.h"

namespace llvm {
class raw_ostream;
}

namespace stencilc {

/// The plan line of an L2 prefetch size (both backends); none without one.
void printPrefetch(int bytes, llvm::raw_ostream &os);

} // namespace stencilc
