//===- PlanText.h - The parts of the `--emit=plan` text ---------*- C++ -*-===//
//
// Internal to the plan printer: printPlan() (Common/PlanPrinter.cpp) writes
// the frame every plan shares, then the room of the plan's backend writes
// the rest, with the lines both backends print taken from here.
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

/// The tensor-core lines after the frame (Tensor/TensorPlanPrinter.cpp).
void printTensorPlanBody(const Plan &plan, llvm::raw_ostream &os);
/// A tensor-core plan in one paragraph (for the .cu header comment).
std::string summarizeTensorPlan(const Plan &plan);
/// The schedule lines of a plan with a composed pass (Schedule::composed).
void printComposedSchedule(const Plan &plan, llvm::raw_ostream &os);
/// Its composed pass in one sentence (for the .cu header comment).
std::string summarizeComposedSchedule(const Plan &plan);

/// The CUDA-core lines after the frame (Simt/SimtPlanPrinter.cpp).
void printSimtPlanBody(const Plan &plan, llvm::raw_ostream &os);
/// A CUDA-core plan in one paragraph (for the .cu header comment).
std::string summarizeSimtPlan(const Plan &plan);
/// The lines and the paragraph of a stencil of fields' plan
/// (Simt/FieldsPlanner.cpp).
void printFieldsPlanBody(const Plan &plan, llvm::raw_ostream &os);
std::string summarizeFieldsPlan(const Plan &plan);
/// How a stencil of fields' threads cover the grid: "a thread a chunk of 4
/// outputs along y, in blocks of 32 x 32", "a thread an output, in blocks
/// of 256".
std::string fieldsThreadText(const Plan &plan);

} // namespace stencilc
