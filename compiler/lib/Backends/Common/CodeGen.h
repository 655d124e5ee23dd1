//===- CodeGen.h - CUDA source and C header from plans ----------*- C++ -*-===//
//
// The code generator turns the plans of one input file into one .cu (every
// kernel and the C entry points) and one .h (the C API of docs/generated-code.md
// and each stencil's stencilc_stencil_info). It fills the skeletons of
// templates/ through a CodeWriter; it reports nothing: the plans it gets are
// ones the planner accepted.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "llvm/ADT/ArrayRef.h"

#include "stencilc/Plan.h"

namespace stencilc {

struct CodeGenOptions {
  /// The input file as given on the command line (for the header comment).
  std::string inputFile;
  /// What the .cu writes in its #include of the header.
  std::string headerInclude;
  /// The compiler version, for the header comment.
  std::string compilerVersion;
};

/// The .cu text for `plans` (all tensor-backend plans).
std::string emitCudaSource(const std::vector<Plan> &plans, const CodeGenOptions &options);

/// The .h text for `plans`.
std::string emitHeader(const std::vector<Plan> &plans, const CodeGenOptions &options);

/// The names the .cu and the .h define for `plan`'s stencil (every
/// identifier of its generated code that is made from its name), to find
/// two stencils of one file that would define the same one.
std::set<std::string> generatedSymbols(const Plan &plan, const CodeGenOptions &options);

/// The same for a stencil in a .cu of several architectures (MultiArch.cpp):
/// `perArch[a]` its plan for `archs[a]`, not yet renamed. That file defines
/// each plan's names under NAME_sm_80 and so on, and the header's under NAME.
std::set<std::string> generatedSymbols(llvm::ArrayRef<Plan> perArch, llvm::ArrayRef<Arch> archs,
                                       const CodeGenOptions &options);

/// What a .cu of several architectures is made of, from `perArch[a]`, the
/// plans of `archs[a]` (oldest first): each architecture's plans renamed
/// NAME_sm_80 and so on, their kernels compiled only in the device passes of
/// their architecture up to the next, and the header their unrenamed plans
/// would have.
struct MultiArchParts {
  std::vector<std::vector<Plan>> renamed;
  std::vector<std::string> headers;
};
MultiArchParts multiArchParts(const std::vector<std::vector<Plan>> &perArch,
                              llvm::ArrayRef<Arch> archs, const CodeGenOptions &options);

/// The .cu of several architectures' plans: `perArch[a]` are the renamed
/// plans of `archs[a]` (oldest first), `headers[a]` the header their
/// unrenamed plans would have.
std::string emitMultiArchCuda(llvm::ArrayRef<std::vector<Plan>> perArch, llvm::ArrayRef<Arch> archs,
                              llvm::ArrayRef<std::string> headers, const CodeGenOptions &options);

/// The .h of several architectures' plans, from each one's header
/// (`headers`, as above) and the file's stencil names.
std::string emitMultiArchHeader(llvm::ArrayRef<std::string> headers, llvm::ArrayRef<Arch> archs,
                                const std::vector<std::string> &stencils);

/// A template file of a library's templates/, embedded at build time
/// (EmbedTemplates.cmake writes an initializer list of them).
struct TemplateFile {
  std::string_view name;
  std::string_view text;
};

/// Makes a backend's template files known to templateSection (its
/// initialize function calls this; Common's own are always known).
void registerTemplates(llvm::ArrayRef<TemplateFile> files);

/// A section of a template file embedded from templates/ (e.g.
/// templateSection("tensor.cu.tpl", "kernel_head")). Asking for a section
/// that does not exist is a bug in stencilc.
std::string_view templateSection(std::string_view file, std::string_view section);

/// The #include lines the element types of `plans` need (cuda_fp16.h,
/// cuda_bf16.h), one a line, or nothing.
std::string elementTypeIncludes(const std::vector<Plan> &plans);

/// A C/CUDA literal of a number that is exact in the operand type: a float
/// literal (`0.125f`) when `asFloat`, else a double literal (`0.1`).
std::string numberLiteral(double value, bool asFloat);

} // namespace stencilc
