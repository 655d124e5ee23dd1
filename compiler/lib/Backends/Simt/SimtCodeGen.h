//===- SimtCodeGen.h - The simt backend's emitters, inside the backend -*- C++ -*-===//
//
// Internal to the simt backend: what SimtBackend.cpp calls to write CUDA and
// to print plans.
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

/// Everything of one stencil of one field on CUDA cores: its plan's
/// numbers, its reads, its kernels and entry points (SimtEmitter.cpp).
void writeSimtStencil(CodeWriter &w, const Plan &plan);

/// The namespace of a stencil of fields on CUDA cores: its term table, its
/// kernels, `launch` and `copyRing` (FieldsEmitter.cpp).
void writeSimtFieldsKernels(CodeWriter &w, const Plan &plan, const FieldsNames &names);

/// The 2D, 1D or 3D fused kernel's numbers as the members of its Params
/// (simt.cu.tpl's section fused_geometry_Nd; SimtEmitter.cpp).
std::string fusedGeometryLines(const Plan &plan);

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
