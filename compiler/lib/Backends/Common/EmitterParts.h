//===- EmitterParts.h - Pieces every backend's emitter shares ---*- C++ -*-===//
//
// Internal to the code generator: the C entry points (validation, launch,
// NAME_run ping-pong) of any backend and dimension, the size parameters of a
// dimension, and the simt backend's stencil writer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "Backends/Common/CodeWriter.h"
#include "stencilc/Plan.h"

namespace stencilc {

/// The lines that open and close a generated kernel's body where the .cu
/// holds a plan per architecture (Plan::devicePasses): the passes of other
/// architectures compile it empty. Nothing for a .cu of one plan.
std::string kernelGuardBegin(const Plan &plan);
std::string kernelGuardEnd(const Plan &plan);

/// The bit pattern of an fp16 or bf16 value (a double holding one exactly).
unsigned sixteenBits(double value, Precision element);

/// "int nz, int ny, int nx" (3D), "int ny, int nx" (2D) or "int nx" (1D).
std::string sizeParameters(int dims);
/// "nz, ny, nx" and friends.
std::string sizeArguments(int dims);

/// The bodies of NAME_run and NAME_pass where a backend runs its own fused
/// pass (the tensor cores' composed pass).
struct PassBodies {
  std::string run, pass;
};

/// Writes NAME_step (argument checks, then `launch`, code that launches the
/// kernel and returns its status), NAME_run and NAME_pass for the plan's
/// dimension, from Common/templates/host_api.cu.tpl, after the stencil's
/// namespace `ns` (which they use). NAME_run and NAME_pass are `fused`'s
/// where given, else the CUDA-core fused kernel's or a step at a time.
void writeEntryPoints(CodeWriter &w, const Plan &plan, std::string_view ns, std::string_view launch,
                      const PassBodies *fused = nullptr);

/// The boundary rule of a stencil as a policy of stencilc/device/boundary.cuh:
/// the type's name in a scope that uses namespace stencilc::device, and for
/// a constant boundary the struct BoundaryValue (giving the constant) that
/// it names, to be written before it (empty otherwise).
struct BoundaryPolicy {
  std::string type;
  std::string valueStruct;
};
BoundaryPolicy boundaryPolicy(const StencilSpec &spec);

/// The traits struct `name` of band.cuh's band kernel for passes of `steps`
/// steps of `spec` (the composed passes' band): the stencil's points with
/// its own coefficients in the arithmetic type (float, or double for fp64),
/// in the spec's order; `boundary` the policy's type (boundaryPolicy);
/// `members` more of them (the composed rank-1 passes' separable levels).
std::string bandTraits(const StencilSpec &spec, std::string_view name, int steps,
                       std::string_view boundary, std::string_view members = "");

/// The stencil_info.h enumerator of the spec's boundary (HeaderEmitter.cpp):
/// STENCILC_BOUNDARY_FIXED and so on.
std::string boundaryEnumerator(const StencilSpec &spec);

/// The header's sentence for a launch that would need more than the 65535
/// blocks CUDA allows along y or z: for `axis` above `most`, blocks of `per`
/// (HeaderEmitter.cpp).
std::string blockLimitSentence(std::string_view axis, long long most, std::string_view per);

/// `cells` as the body of a C array initializer: `perLine` cells a line,
/// each followed by a comma and right-aligned to the widest.
std::string alignedTable(const std::vector<std::string> &cells, std::size_t perLine);

/// What the header says of any stencil, worked out once by HeaderEmitter.cpp.
struct HeaderFacts {
  std::string description; ///< "2D star stencil of radius 1, 5 points, fp32"
  std::string extentText;  ///< "ny x nx"
  std::string boundaryNote, limitNote;
  std::string shapeEnum, precisionEnum, boundaryEnum, backendEnum;
  std::string tile; ///< "8, 32, 1"
};

/// What the entry points of a stencil of fields and its kernels' namespace
/// both fill in (FieldsHostApi.cpp): pointer lists, checks, parameters.
struct FieldsNames {
  std::string fieldParamsConst, fieldParamsRun, fieldList, runFieldList;
  std::string nullChecks, overlapChecks, runOverlapChecks;
  std::string paramParams, paramParamsFirst, paramArgs, paramArgsFirst;
  /// NAME_run's parameters: a per-step one as `const double* NAME`.
  std::string runParamParams;
  std::string stepped, previous;
};

/// A stencil of fields (FieldsHostApi.cpp): its coefficients, its
/// backend's kernels (Backend::writeFieldsKernels) and its entry points; its
/// part of the header; and its terms as comment lines.
void writeFieldsStencil(CodeWriter &w, const Plan &plan);
void writeFieldsHeader(CodeWriter &w, const Plan &plan, const HeaderFacts &facts);
void writeFieldsTerms(CodeWriter &w, const StencilSpec &spec);
/// A term as text, "dt * dt * c2[i, j] * u[i-1, j]" (FieldsHostApi.cpp).
std::string fieldTermText(const StencilSpec &spec, const FieldTerm &t);
/// The 3 components of an offset as the kernels' (dz, dy, dx).
std::array<int, 3> zyxOffset(const StencilSpec &spec, const Offset &o);
/// The ring a fixed step leaves unwritten, per axis (z, y, x): `radius` on
/// every axis of the grid, 0 on the others and for every other boundary, as
/// the emulator keeps it (stepWritesPointND). The kernels' traits and the
/// receivers' checks both take it from here (FieldsHostApi.cpp).
std::array<int, 3> fixedRingZyx(const StencilSpec &spec);
/// The items with `separator` between them ("" for none; FieldsHostApi.cpp).
std::string joinWith(const std::vector<std::string> &items, std::string_view separator);

/// The namespace of the CUDA-core fused kernel of a dimension in
/// stencilc::device: "fused1d", "fused" (2D) or "fused3d"; its header is
/// stencilc/device/<namespace>.cuh.
std::string_view fusedKernelNamespace(int dims);

/// "stencilc_gen_NAME": the namespace of a stencil's kernel and constants.
std::string stencilNamespace(const Plan &plan);

/// Whether the stencil has NAME_pass_range (docs/generated-code.md): its
/// pass runs on CUDA cores (the fused kernel, or a step kernel that takes a
/// range where the plan does not fuse: Backend::stepKernelTakesRange) in 2D
/// or 3D, whose kernels store a range of the rows or planes they stream.
bool passTakesRange(const Plan &plan);

} // namespace stencilc
