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

#include "Backends/Common/CodeWriter.h"
#include "stencilc/Plan.h"

namespace stencilc {

/// "int nz, int ny, int nx" (3D), "int ny, int nx" (2D) or "int nx" (1D).
std::string sizeParameters(int dims);
/// "nz, ny, nx" and friends.
std::string sizeArguments(int dims);

/// Closes the stencil's namespace `ns` and writes NAME_step (argument checks,
/// then `launch`, code that launches the kernel and returns its status) and
/// NAME_run for the plan's dimension, from Common/templates/host_api.cu.tpl.
void writeHostApi(CodeWriter &w, const Plan &plan, std::string_view ns, std::string_view launch);

/// Everything of one simt-backend stencil: constants, helpers, kernel and
/// entry points (SimtEmitter.cpp).
void writeSimtStencil(CodeWriter &w, const Plan &plan);

/// The boundary rule of `spec` as the `read_fixed`, `read_constant` or
/// `read_periodic` section of `kernelTemplate`; every backend's template has
/// the three, filled with the same holes.
void writeBoundaryRead(CodeWriter &w, const StencilSpec &spec, std::string_view kernelTemplate);

/// The 16-byte read of the input at `address` (a `const Element*`): the
/// plain read-only load, or, with an L2 prefetch size (`prefetchBytes` 64,
/// 128 or 256; --plan-option l2-prefetch), a call of loadPrefetching, whose
/// definition (simt.cu.tpl's `load_prefetching`, for both backends) it then
/// writes to `w` first.
std::string writeVectorLoad(CodeWriter &w, int prefetchBytes, std::string_view address);

/// "stencilc_gen_NAME": the namespace of a stencil's kernel and constants.
std::string stencilNamespace(const Plan &plan);

/// Everything of one tensor-backend stencil: geometry, parameter tables,
/// kernel and entry points (TensorEmitter.cpp).
void writeTensorStencil(CodeWriter &w, const Plan &plan);

} // namespace stencilc
