//===- MultiArch.cpp - One .cu and .h with a plan per architecture ---------===//
//
// For --arch=sm_80,sm_90 the .cu holds each architecture's plans as a .cu of
// one would, their stencils renamed NAME_sm_80 and so on, each plan's
// kernels compiled only in nvcc's device passes of its architectures; then,
// under the stencils' own names, the entry points of the header, which run
// the plan of the newest architecture the current device can
// (stencilc/device/arch.cuh). The header is the newest plans' header with
// one stencilc_stencil_info per plan and NAME_info standing for the one that
// runs. docs/generated-code.md, "Several architectures".
//
//===----------------------------------------------------------------------===//
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "Backends/Common/CodeGen.h"
#include "Backends/Common/CodeWriter.h"
#include "Backends/Common/EmitterParts.h"

namespace stencilc {

namespace {

/// "#if ..." deciding whether a pass of nvcc compiles a plan of `passes`;
/// true in the host pass, which must see every kernel.
std::string passCondition(const Plan::DevicePasses &passes) {
  std::string outside = fmt::format("__CUDA_ARCH__ < {}", passes.from);
  if (passes.below) {
    outside += fmt::format(" || __CUDA_ARCH__ >= {}", passes.below);
  }
  return fmt::format("defined(__CUDA_ARCH__) && ({})", outside);
}

/// The suffix of a plan's stencil names in a multi-architecture .cu.
std::string planSuffix(Arch arch) { return "_" + std::string(keyword(arch)); }

/// An entry point of the header: `returns name(params);`, with the names of
/// its parameters as a call passes them on.
struct EntryPoint {
  std::string returns, name, params, args;
};

/// The C entry points the header `header` declares for stencil `stencil`.
std::vector<EntryPoint> entryPoints(const std::string &header, const std::string &stencil) {
  std::vector<EntryPoint> found;
  // The names the header templates declare (header.h.tpl, fields.h.tpl):
  // spelled out, so that stencil `heat` does not claim `heat_x`'s.
  const std::regex prototype("^(cudaError_t|void) (" + stencil +
                             "_(?:step|run|pass|pass_range|coefficients))\\((.*)\\);$");
  const std::regex lastName("([A-Za-z_][A-Za-z_0-9]*)$");
  std::size_t start = 0;
  while (start < header.size()) {
    std::size_t end = std::min(header.find('\n', start), header.size());
    const std::string line = header.substr(start, end - start);
    start = end + 1;
    std::smatch m;
    if (!std::regex_match(line, m, prototype)) {
      continue;
    }
    EntryPoint e{m[1], m[2], m[3], ""};
    std::size_t from = 0;
    while (from <= e.params.size()) {
      const std::size_t comma = std::min(e.params.find(',', from), e.params.size());
      const std::string param = e.params.substr(from, comma - from);
      std::smatch name;
      std::regex_search(param, name, lastName);
      e.args += (e.args.empty() ? "" : ", ") + name[1].str();
      from = comma + 1;
    }
    found.push_back(std::move(e));
  }
  return found;
}

/// The text of `header` from the line starting `first` to the next "};"
/// line, inclusive; empty if there is none.
std::string blockFrom(const std::string &header, const std::string &first) {
  const std::size_t begin = header.find("\n" + first);
  if (begin == std::string::npos) {
    return {};
  }
  const std::size_t end = header.find("\n};\n", begin + 1);
  return header.substr(begin + 1, end + 3 - begin - 1);
}

std::string infoLine(const std::string &stencil) {
  return "static const stencilc_stencil_info " + stencil + "_info = {";
}

} // namespace

std::string kernelGuardBegin(const Plan &plan) {
  return plan.devicePasses ? "#if !(" + passCondition(*plan.devicePasses) + ")" : "";
}

std::string kernelGuardEnd(const Plan &plan) { return plan.devicePasses ? "#endif" : ""; }

namespace {

/// The plans of one architecture in a .cu of several: their stencils
/// renamed NAME_sm_80, their kernels compiled only in the device passes of
/// `arch` up to `next` (no bound when `newest`).
std::vector<Plan> plansForArch(const std::vector<Plan> &plans, Arch arch, Arch next, bool newest) {
  std::vector<Plan> renamed = plans;
  const Plan::DevicePasses passes{info(arch).sm * 10, newest ? 0 : info(next).sm * 10};
  for (Plan &plan : renamed) {
    plan.spec.name += planSuffix(arch);
    plan.devicePasses = passes;
    for (std::optional<ComposedPass> *pass : {&plan.schedule.composed, &plan.schedule.remainder}) {
      if (*pass) {
        auto composed = std::make_shared<Plan>(*(*pass)->plan);
        composed->devicePasses = passes;
        (*pass)->plan = std::move(composed);
      }
    }
  }
  return renamed;
}

} // namespace

MultiArchParts multiArchParts(const std::vector<std::vector<Plan>> &perArch,
                              llvm::ArrayRef<Arch> archs, const CodeGenOptions &options) {
  MultiArchParts parts;
  for (std::size_t a = 0; a < archs.size(); ++a) {
    parts.headers.push_back(emitHeader(perArch[a], options));
    const bool newest = a + 1 == archs.size();
    parts.renamed.push_back(plansForArch(perArch[a], archs[a], archs[newest ? a : a + 1], newest));
  }
  return parts;
}

namespace {

/// The namespace of a plan's stencil opens with the answer to "does this
/// pass compile my kernels?" for the kernel templates of the device headers.
void writePassQuestion(CodeWriter &w, const Plan &plan) {
  const Plan::DevicePasses &passes = *plan.devicePasses;
  w.line("namespace {} {{", stencilNamespace(plan));
  w.line("// This plan's kernels compile in the host pass and the device passes of");
  w.line("// __CUDA_ARCH__ {} and up{} only (stencilc/device/arch.cuh).", passes.from,
         passes.below ? fmt::format(", below {}", passes.below) : "");
  w.line("#if {}", passCondition(passes));
  w.line("template <class T> __host__ __device__ constexpr bool planCompiledHere(const T *) { "
         "return false; }");
  w.line("#else");
  w.line("template <class T> __host__ __device__ constexpr bool planCompiledHere(const T *) { "
         "return true; }");
  w.line("#endif");
  w.line("}} // namespace {}", stencilNamespace(plan));
  w.line();
}

/// The table of a stencil's plans and the function that says which one the
/// current device runs.
void writePlanChoice(CodeWriter &w, const std::string &stencil, llvm::ArrayRef<Arch> archs) {
  std::string sms, names;
  for (Arch arch : archs) {
    sms += fmt::format("{}{}", sms.empty() ? "" : ", ", info(arch).sm);
    names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", keyword(arch));
  }
  w.line("// ===== {}: the plan the current device runs =====", stencil);
  w.line("namespace stencilc_gen_{} {{", stencil);
  w.line();
  w.line("/// No work; compiled in every pass, so that its attributes say which");
  w.line("/// architecture the code loaded on a device was compiled for.");
  w.line("__global__ void archProbe() {}");
  w.line();
  w.line("constexpr int kPlanSms[] = {{{}}};", sms);
  w.line("constexpr const char *kPlanNames[] = {{{}}};", names);
  w.line("inline std::atomic<int> planCache[stencilc::device::kCachedDevices];");
  w.line();
  w.line("/// The index of the plan the current device runs, or -1 (arch.cuh).");
  w.line("inline int devicePlan() {");
  w.line("  const stencilc::device::PlanTable plans{{\"{}\", {}, kPlanSms, kPlanNames,", stencil,
         archs.size());
  w.line("                                       reinterpret_cast<const void *>(archProbe)};");
  w.line("  return stencilc::device::devicePlan(plans, planCache);");
  w.line("}");
  w.line();
  w.line("}} // namespace stencilc_gen_{}", stencil);
  w.line();
}

/// Each entry point of the header under the stencil's own name: the plan
/// the device runs, or (launching nothing) cudaErrorNoKernelImageForDevice
/// where there is none (noPlanStatus). A plan without the entry point (NAME_pass_range
/// where only some plans have it) answers cudaErrorNotSupported.
void writeDispatch(CodeWriter &w, const std::string &stencil, llvm::ArrayRef<Arch> archs,
                   const std::vector<std::vector<EntryPoint>> &perArch) {
  std::vector<EntryPoint> all;
  for (const std::vector<EntryPoint> &points : perArch) {
    for (const EntryPoint &e : points) {
      bool seen = false;
      for (const EntryPoint &a : all) {
        seen |= a.name == e.name;
      }
      if (!seen) {
        all.push_back(e);
      }
    }
  }
  for (const EntryPoint &e : all) {
    const std::string rest = e.name.substr(stencil.size());
    w.line("extern \"C\" {} {}({}) {{", e.returns, e.name, e.params);
    if (e.returns == "void") { // the host's own work: any plan's will do
      w.line("  {}{}{}({});", stencil, planSuffix(archs[0]), rest, e.args);
      w.line("}");
      w.line();
      continue;
    }
    w.line("  switch (stencilc_gen_{}::devicePlan()) {{", stencil);
    for (std::size_t i = 0; i < archs.size(); ++i) {
      bool has = false;
      for (const EntryPoint &p : perArch[i]) {
        has |= p.name == e.name;
      }
      w.line("  case {}:", i);
      w.line(
          has ? fmt::format("    return {}{}{}({});", stencil, planSuffix(archs[i]), rest, e.args)
              : std::string("    return cudaErrorNotSupported;"));
    }
    w.line("  default:");
    w.line("    return stencilc::device::noPlanStatus();");
    w.line("  }");
    w.line("}");
    w.line();
  }
}

/// Each plan's info (the header declares them) and NAME_current_info: the
/// info of the plan the device runs; where none runs, a copy of the oldest
/// plan's, so that its address is none of theirs.
void writeInfos(CodeWriter &w, const std::string &stencil, llvm::ArrayRef<Arch> archs,
                llvm::ArrayRef<std::string> headers) {
  for (std::size_t a = 0; a < archs.size(); ++a) {
    std::string block = blockFrom(headers[a], infoLine(stencil));
    block.replace(0, infoLine(stencil).size(),
                  fmt::format("extern \"C\" const stencilc_stencil_info {}_info{} = {{", stencil,
                              planSuffix(archs[a])));
    w.line(block);
    w.line();
  }
  w.line("extern \"C\" const stencilc_stencil_info *{}_current_info(void) {{", stencil);
  w.line("  switch (stencilc_gen_{}::devicePlan()) {{", stencil);
  for (std::size_t i = 0; i < archs.size(); ++i) {
    w.line("  case {}:", i);
    w.line("    return &{}_info{};", stencil, planSuffix(archs[i]));
  }
  w.line("  default: {");
  w.line("    static const stencilc_stencil_info none = {}_info{};", stencil, planSuffix(archs[0]));
  w.line("    return &none;");
  w.line("  }");
  w.line("  }");
  w.line("}");
  w.line();
}

std::string archList(llvm::ArrayRef<Arch> archs) {
  std::vector<std::string_view> names;
  for (Arch arch : archs) {
    names.push_back(keyword(arch));
  }
  return joinList(names, " and ");
}

} // namespace

std::string emitMultiArchCuda(llvm::ArrayRef<std::vector<Plan>> perArch, llvm::ArrayRef<Arch> archs,
                              llvm::ArrayRef<std::string> headers, const CodeGenOptions &options) {
  CodeWriter w;
  std::string text;
  w.line("// Generated by stencilc {} from {}; do not edit.", options.compilerVersion,
         options.inputFile.empty() ? std::string("<stdin>") : options.inputFile);
  w.line("// Plans for {}: each plan's kernels compile only in nvcc's device passes",
         archList(archs));
  w.line("// of its architectures, and the entry points at the end run the plan of the");
  w.line("// newest architecture the device can. Build with code for each architecture");
  w.line("// and PTX for the newest (docs/generated-code.md, \"Several architectures\").");
  w.line();
  w.line("// A plan's tables go unused in the passes that compile its kernels empty.");
  w.line("#pragma nv_diag_suppress 177");
  w.line();
  for (std::size_t a = 0; a < archs.size(); ++a) {
    w.line("// ===== the plans for {} =====", keyword(archs[a]));
    w.line();
    for (const Plan &plan : perArch[a]) {
      writePassQuestion(w, plan);
    }
    text += w.take() + emitCudaSource(perArch[a], options) + "\n";
    w = CodeWriter();
  }
  w.line("#include <atomic>");
  w.line();
  w.line("#include <stencilc/device/arch.cuh>");
  w.line();
  for (std::size_t i = 0; i < perArch.back().size(); ++i) {
    const std::string &renamed = perArch.back()[i].spec.name;
    const std::string stencil = renamed.substr(0, renamed.size() - planSuffix(archs.back()).size());
    std::vector<std::vector<EntryPoint>> points;
    for (const std::string &header : headers) {
      points.push_back(entryPoints(header, stencil));
    }
    writePlanChoice(w, stencil, archs);
    writeDispatch(w, stencil, archs, points);
    writeInfos(w, stencil, archs, headers);
  }
  return text + w.take();
}

std::string emitMultiArchHeader(llvm::ArrayRef<std::string> headers, llvm::ArrayRef<Arch> archs,
                                const std::vector<std::string> &stencils) {
  std::string header = headers.back();
  const std::string include = "#include \"stencilc/runtime/stencil_info.h\"\n";
  header.insert(header.find(include) + include.size(),
                fmt::format("/* Plans for {}: the comments below describe the {} plan, and\n"
                            " * NAME_info the plan that runs on the current device. */\n",
                            archList(archs), keyword(archs.back())));
  for (const std::string &stencil : stencils) {
    std::string declarations;
    for (Arch arch : archs) {
      declarations +=
          fmt::format("extern const stencilc_stencil_info {}_info{};\n", stencil, planSuffix(arch));
    }
    const std::string infos =
        fmt::format("/* The info of each plan. {0}_info is the one of the plan that runs on the\n"
                    " * current device (cudaGetDevice): `&{0}_info == &{0}_info{1}` when the\n"
                    " * {2} plan does. Where the device is older than every plan, it is a copy of\n"
                    " * the oldest plan's, none of these, and the entry points launch nothing. */\n"
                    "#ifdef __cplusplus\nextern \"C\" {{\n#endif\n{3}"
                    "const stencilc_stencil_info *{0}_current_info(void);\n"
                    "#ifdef __cplusplus\n}} /* extern \"C\" */\n#endif\n"
                    "#define {0}_info (*{0}_current_info())",
                    stencil, planSuffix(archs.back()), keyword(archs.back()), declarations);
    const std::string newest = blockFrom(header, infoLine(stencil));
    header.replace(header.find(newest), newest.size(), infos);
  }
  return header;
}

} // namespace stencilc
