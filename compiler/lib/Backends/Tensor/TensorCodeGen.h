//===- TensorCodeGen.h - The tensor backend's emitters, inside the backend -*- C++ -*-===//
//
// Internal to the tensor backend: what TensorBackend.cpp calls to write CUDA
// and to print plans.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

#include "stencilc/Plan.h"

namespace llvm {
class raw_ostream;
}

namespace stencilc {

class CodeWriter;
struct FieldsNames;

/// Rows of threads in a block of the tensor-core fields path's ring copy (a
/// thread a point, 32 across): NAME_run refuses ny above 65535 times this.
inline constexpr int TensorFieldsRingRows = 8;

/// Everything of one stencil of one field on tensor cores: geometry,
/// parameter tables, kernel and entry points (TensorEmitter.cpp).
void writeTensorStencil(CodeWriter &w, const Plan &plan);

/// The namespace of a stencil of fields on tensor cores: its kernel, launch,
/// copyRing and the cached parameter matrices (TensorEmitter.cpp).
void writeTensorFieldsKernels(CodeWriter &w, const Plan &plan, const FieldsNames &names);

/// The tensor-core lines after the frame (Tensor/TensorPlanPrinter.cpp).
void printTensorPlanBody(const Plan &plan, llvm::raw_ostream &os);
/// A tensor-core plan in one paragraph (for the .cu header comment).
std::string summarizeTensorPlan(const Plan &plan);
/// The schedule lines of a plan with a composed pass (Schedule::composed).
void printComposedSchedule(const Plan &plan, llvm::raw_ostream &os);
/// Its composed pass in one sentence (for the .cu header comment).
std::string summarizeComposedSchedule(const Plan &plan);

} // namespace stencilc
