//===- EmitterParts.h - Pieces every backend's emitter shares ---*- C++ -*-===//
//
// Internal to the code generator: the C entry points (validation, launch,
// NAME_run ping-pong) of any backend and dimension, the size parameters of a
// dimension, and the simt backend's stencil writer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "Backends/Common/CodeWriter.h"
#include "stencilc/Plan.h"

namespace stencilc {

/// "int nz, int ny, int nx" (3D), "int ny, int nx" (2D) or "int nx" (1D).
std::string sizeParameters(int dims);
/// "nz, ny, nx" and friends.
std::string sizeArguments(int dims);

/// Writes NAME_step (argument checks, then `launch`, code that launches the
/// kernel and returns its status) and NAME_run for the plan's dimension, from
/// Common/templates/host_api.cu.tpl, after the stencil's namespace `ns` (which
/// they use) is closed.
void writeEntryPoints(CodeWriter &w, const Plan &plan, std::string_view ns,
                      std::string_view launch);

/// Closes the stencil's namespace `ns`, then writeEntryPoints.
void writeHostApi(CodeWriter &w, const Plan &plan, std::string_view ns, std::string_view launch);

/// The boundary rule of a stencil as a policy of stencilc/device/boundary.cuh:
/// the type's name in a scope that uses namespace stencilc::device, and for
/// a constant boundary the struct BoundaryValue (giving the constant) that
/// it names, to be written before it (empty otherwise).
struct BoundaryPolicy {
  std::string type;
  std::string valueStruct;
};
BoundaryPolicy boundaryPolicy(const StencilSpec &spec);

/// The stencil_info.h enumerator of the spec's boundary (HeaderEmitter.cpp):
/// STENCILC_BOUNDARY_FIXED and so on.
std::string boundaryEnumerator(const StencilSpec &spec);

/// `cells` as the body of a C array initializer: `perLine` cells a line,
/// each followed by a comma and right-aligned to the widest.
std::string alignedTable(const std::vector<std::string> &cells, std::size_t perLine);

/// Everything of one simt-backend stencil: its plan's numbers, its reads,
/// its kernel and entry points (SimtEmitter.cpp).
void writeSimtStencil(CodeWriter &w, const Plan &plan);

/// What the header says of any stencil, worked out once by HeaderEmitter.cpp.
struct HeaderFacts {
  std::string description; ///< "2D star stencil of radius 1, 5 points, fp32"
  std::string extentText;  ///< "ny x nx"
  std::string boundaryNote, limitNote;
  std::string shapeEnum, precisionEnum, boundaryEnum;
  std::string tile; ///< "8, 32, 1"
};

/// A stencil of fields (Simt/FieldsEmitter.cpp): its kernels and entry
/// points, its part of the header, and its terms as comment lines.
void writeFieldsStencil(CodeWriter &w, const Plan &plan);
void writeFieldsHeader(CodeWriter &w, const Plan &plan, const HeaderFacts &facts);
void writeFieldsTerms(CodeWriter &w, const StencilSpec &spec);
/// A term as text, "dt * dt * c2[i, j] * u[i-1, j]" (FieldsEmitter.cpp).
std::string fieldTermText(const StencilSpec &spec, const FieldTerm &t);
/// The items with `separator` between them ("" for none; FieldsEmitter.cpp).
std::string joinWith(const std::vector<std::string> &items, std::string_view separator);

/// A stencil of fields planned on tensor cores (TensorEmitter.cpp): its
/// namespace up to the kernel (geometry, traits, parameter-term table), and
/// the kernel's name; FieldsEmitter.cpp writes the rest.
void writeTensorFieldsKernel(CodeWriter &w, const Plan &plan);
std::string tensorFieldsKernelName(const Plan &plan);
/// Rows of threads in a block of the tensor-core fields path's ring copy (a
/// thread a point, 32 across): NAME_run refuses ny above 65535 times this.
inline constexpr int TensorFieldsRingRows = 8;

/// The namespace of the CUDA-core fused kernel of a dimension in
/// stencilc::device: "fused1d", "fused" (2D) or "fused3d"; its header is
/// stencilc/device/<namespace>.cuh.
std::string_view fusedKernelNamespace(int dims);

/// "stencilc_gen_NAME": the namespace of a stencil's kernel and constants.
std::string stencilNamespace(const Plan &plan);

/// Whether the stencil has NAME_pass_range (docs/generated-code.md): its
/// pass runs on CUDA cores (the fused kernel, or the step kernel where the
/// plan does not fuse) in 2D or 3D, whose kernels store a range of the rows
/// or planes they stream.
bool passTakesRange(const Plan &plan);

/// Everything of one tensor-backend stencil: geometry, parameter tables,
/// kernel and entry points (TensorEmitter.cpp).
void writeTensorStencil(CodeWriter &w, const Plan &plan);

} // namespace stencilc
