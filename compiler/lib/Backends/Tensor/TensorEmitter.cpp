//===- TensorEmitter.cpp - The tensor-core kernel of one stencil -----------===//
//
// Writes a tensor plan as CUDA: a namespace with the plan's numbers as a
// geometry type, the parameter matrices as aligned tables, the kernel (the
// fixed device code of runtime/include/stencilc/device/tensor.cuh tied to
// the plan's slice GEMMs) and the C entry points (HostApi.cpp). The code
// shapes come from Tensor/templates/tensor.cu.tpl; this file decides which
// sections go in and with what numbers.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include <fmt/format.h>

#include "llvm/Support/ErrorHandling.h"

#include "Backends/Common/CodeGen.h"
#include "Backends/Common/CodeWriter.h"
#include "Backends/Common/EmitterParts.h"
#include "Backends/Tensor/TensorCodeGen.h"
#include "Backends/Tensor/TensorPlanner.h"

namespace stencilc {

namespace {

constexpr std::string_view KernelTemplate = "tensor.cu.tpl";

std::string_view section(std::string_view name) { return templateSection(KernelTemplate, name); }

std::string kernelName(const Plan &plan) {
  return plan.spec.name + (plan.spec.dims == 3 ? "_tensor3d_kernel" : "_tensor2d_kernel");
}

/// The MMA shape type of stencilc/device/mma.cuh.
std::string mmaType(const MmaShape &mma) {
  switch (mma.operand) {
  case Precision::FP16:
    return "MmaM16N8K16<__half>";
  case Precision::BF16:
    return "MmaM16N8K16<__nv_bfloat16>";
  case Precision::TF32:
    return "MmaM16N8K8Tf32";
  case Precision::FP64:
    return mma.m == 16 ? "MmaM16N8K4F64" : "MmaM8N8K4F64";
  case Precision::FP32:
    break;
  }
  llvm_unreachable("fp32 has no tensor-core kernel");
}

/// The tables hold doubles for fp64 and floats otherwise (every fp16, bf16
/// and tf32 value is exactly a float).
bool tablesAreFloat(Precision p) { return p != Precision::FP64; }

/// The boundary policy of stencilc/device/boundary.cuh (boundaryPolicy,
/// shared with the simt backend); a constant boundary first gets the struct
/// that carries its value.
std::string writeBoundaryPolicy(CodeWriter &w, const StencilSpec &spec) {
  const BoundaryPolicy policy = boundaryPolicy(spec);
  if (!policy.valueStruct.empty()) {
    w.fillWith(section("boundary_value"), fmt::arg("value_struct", policy.valueStruct));
    w.line();
  }
  return policy.type;
}

/// kParams: every slice's parameter matrix, one row a line, columns aligned.
void writeParameterTables(CodeWriter &w, const Plan &plan) {
  const TensorPlan &tp = plan.tensor();
  const bool asFloat = tablesAreFloat(plan.spec.precision);
  w.line("// The parameter matrices of the slice GEMMs (docs/design.md), rounded once");
  w.line("// to {} and written exactly. Every block copies them to shared "
         "memory and",
         keyword(tp.mma.operand));
  w.line("// loads them into MMA fragments.");
  w.openScope(fmt::format("static __device__ constexpr {} kParams[Geometry::kParamElements] =",
                          asFloat ? "float" : "double"));
  for (std::size_t i = 0; i < tp.gemms.size(); ++i) {
    const SliceGemm &g = tp.gemms[i];
    const ParameterMatrix &m = g.param;
    std::vector<std::string> cells;
    std::size_t width = 1;
    for (double v : m.values) {
      cells.push_back(numberLiteral(v, asFloat) + ",");
      width = std::max(width, cells.back().size());
    }
    if (g.kind == SliceKind::Vertical) {
      w.line("// gemm {} ({}): P_v, {} x {}, the A operand (row m, column k)", i, g.label, m.rows,
             m.cols);
    } else {
      w.line("// gemm {} ({}): B, {} x {}, the B operand (row k, column n)", i, g.label, m.rows,
             m.cols);
    }
    for (int row = 0; row < m.rows; ++row) {
      std::string text;
      for (int col = 0; col < m.cols; ++col) {
        text +=
            fmt::format("{}{:<{}}", col ? " " : "", cells[std::size_t(row) * m.cols + col], width);
      }
      while (!text.empty() && text.back() == ' ') {
        text.pop_back();
      }
      w.line(text);
    }
  }
  w.closeScope(";");
  w.line();
}

/// Each slice's parameter matrix in shared memory, as tensor.cuh's
/// VerticalParams or RowParams: `verticalParams<chunks>(&params[offset], ld)`;
/// the matrices start at element `offset` (a stencil of fields: its group's).
std::vector<std::string> parameterSources(const TensorPlan &tp, int offset = 0) {
  std::vector<std::string> sources;
  for (const SliceGemm &g : tp.gemms) {
    sources.push_back(g.kind == SliceKind::Vertical
                          ? fmt::format("verticalParams<{}>(&params[{}], {})", g.chunkCount, offset,
                                        g.chunkCount * tp.mma.k)
                          : fmt::format("rowParams<{}>(&params[{}])", g.chunkCount, offset));
    offset += g.param.rows * g.param.cols;
  }
  return sources;
}

/// Parameter fragments in registers: one line per slice, loaded once per
/// block, named param{first + i}.
std::string parameterFragments(const TensorPlan &tp, const std::vector<std::string> &sources,
                               std::size_t first = 0, const std::vector<bool> *runs = nullptr) {
  if (!tp.paramsInRegisters) {
    return {};
  }
  std::string text =
      first == 0 ? "// The parameter fragments, reused by every tile of the block." : std::string();
  for (std::size_t i = 0; i < tp.gemms.size(); ++i) {
    if (runs && !(*runs)[i]) {
      continue;
    }
    text += '\n';
    text +=
        CodeWriter::filled(section("param_fragments"), fmt::arg("index", first + i),
                           fmt::arg("params", sources[i]), fmt::arg("label", tp.gemms[i].label));
  }
  return text;
}

/// The slice GEMMs of a tile, one call each, into the accumulators `acc`
/// with the parameter fragments param{first + i}, over the shared-memory
/// window `window`; those `runs` (if given) says to.
std::string sliceGemms(const TensorPlan &tp, const std::vector<std::string> &sources,
                       std::string_view acc = "acc", std::size_t first = 0,
                       std::string_view window = "window",
                       const std::vector<bool> *runs = nullptr) {
  std::string text;
  for (std::size_t n = 0; n < tp.gemms.size(); ++n) {
    if (runs && !(*runs)[n]) {
      continue;
    }
    const SliceGemm &g = tp.gemms[n];
    const std::size_t i = first + n;
    // 3D: the rows of the slice's input plane start at slab[dz + r].
    const bool planes = tp.planes > 1;
    const std::string slab = planes ? fmt::format("slab[{}]", g.dz + tp.planes / 2) : "";
    const std::string params =
        tp.paramsInRegisters ? fmt::format("param{}", i) : fmt::format("Block::{}", sources[n]);
    const int K = g.chunkCount * tp.mma.k;
    const std::string slabDoc = planes ? fmt::format(" of {}", slab) : std::string();
    if (!text.empty()) {
      text += "\n";
    }
    if (g.kind == SliceKind::Vertical) {
      text += CodeWriter::filled(
          section("gemm_vertical"), fmt::arg("index", i), fmt::arg("label", g.label),
          fmt::arg("kdim", K), fmt::arg("slab_doc", slabDoc),
          fmt::arg("first_row", planes ? slab : "0"), fmt::arg("params", params),
          fmt::arg("acc", acc), fmt::arg("window", window));
    } else {
      const int row = tp.haloRows + g.dy;
      text += CodeWriter::filled(
          section("gemm_row"), fmt::arg("index", i), fmt::arg("label", g.label),
          fmt::arg("kdim", K), fmt::arg("row", row), fmt::arg("slab_doc", slabDoc),
          fmt::arg("first_row", planes ? slab : "0"), fmt::arg("first_col", g.firstK),
          fmt::arg("params", params), fmt::arg("acc", acc), fmt::arg("window", window));
    }
  }
  return text;
}

/// `text` with the comments that follow code on a line moved to one column,
/// past the longest such code.
std::string alignTrailingComments(const std::string &text) {
  std::vector<std::string> lines;
  std::size_t width = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    end = end == std::string::npos ? text.size() : end;
    lines.push_back(text.substr(pos, end - pos));
    const std::size_t comment = lines.back().find("; //");
    if (comment != std::string::npos) {
      width = std::max(width, comment + 1);
    }
    pos = end + 1;
  }
  std::string out;
  for (const std::string &line : lines) {
    const std::size_t comment = line.find("; //");
    out += comment == std::string::npos ? line
                                        : fmt::format("{:<{}} {}", line.substr(0, comment + 1),
                                                      width, line.substr(comment + 2));
    out += '\n';
  }
  return out;
}

/// The geometry; a stencil of fields has the matrices of `groups` groups.
void writeGeometry(CodeWriter &w, const Plan &plan, std::string_view boundary, int groups = 1) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const int paramElements = groups * tp.paramElements();
  w.fillWith(
      "{geometry}",
      fmt::arg("geometry",
               alignTrailingComments(CodeWriter::filled(
                   section("geometry"), fmt::arg("element", elementTypeName(spec.precision)),
                   fmt::arg("mma", mmaType(tp.mma)),
                   fmt::arg("accumulator", elementTypeName(tp.mma.accumulator)),
                   fmt::arg("boundary", boundary), fmt::arg("dims", spec.dims),
                   fmt::arg("radius", spec.radius), fmt::arg("ring", spec.ring()),
                   fmt::arg("tile_m", tp.tileM), fmt::arg("tile_n", tp.tileN),
                   fmt::arg("n_blocks", tp.nBlocks), fmt::arg("tile_rows", tp.tileRowsPerBlock),
                   fmt::arg("tile_cols", tp.tileColsPerBlock), fmt::arg("warps", tp.warps),
                   fmt::arg("halo_cols", tp.haloCols), fmt::arg("window_rows", tp.windowRows),
                   fmt::arg("pitch", tp.windowPitch), fmt::arg("loaded_rows", tp.loadedRows),
                   fmt::arg("loaded_col_begin", tp.loadedColBegin),
                   fmt::arg("loaded_col_end", tp.loadedColEnd),
                   fmt::arg("vector_width", tp.vectorWidth), fmt::arg("planes", tp.planes),
                   fmt::arg("planes_doc",
                            tp.planes > 1 ? "window slabs: input planes z - kRadius .. z + kRadius"
                                          : "one window: the grid has no planes"),
                   fmt::arg("param_elements", paramElements),
                   fmt::arg("swizzled",
                            tp.sparse ? "static constexpr bool kSwizzled = true; // the sparse "
                                        "form's window (TensorBlock::swizzle)"
                                      : ""),
                   fmt::arg("min_blocks",
                            tp.minBlocks == 1
                                ? std::string()
                                : fmt::format("static constexpr int kMinBlocks = {}; // blocks a "
                                              "multiprocessor (launch bounds)",
                                              tp.minBlocks)),
                   fmt::arg("prefetch_bytes", tp.l2PrefetchBytes),
                   fmt::arg("min_size", spec.smallestExtent())))));
  w.line();
}

/// The sparse form's slices, in registers or shared memory as the plan
/// says, and its one GEMM call for all of them (tensor.cuh, gemmRowSparse).
std::pair<std::string, std::string> sparseBand(const Plan &plan) {
  const TensorPlan &tp = plan.tensor();
  const std::size_t slices = tp.gemms.size();
  const int matrixElements = tp.gemms.front().param.rows * tp.gemms.front().param.cols;
  const std::string setup = CodeWriter::filled(
      section(tp.paramsInRegisters ? "sparse_band_registers" : "sparse_band_shared"),
      fmt::arg("slices", slices), fmt::arg("matrix_elements", matrixElements));
  const std::string gemm = CodeWriter::filled(section("gemm_sparse"), fmt::arg("slices", slices),
                                              fmt::arg("radius", plan.spec.radius),
                                              fmt::arg("acc", "acc"), fmt::arg("window", "window"));
  return {setup, gemm};
}

/// The stacked form's B table (stencilc/device/stacked.cuh, loadWeights):
/// for each group, chunk by chunk, each half's 32 lanes; eight words a line.
std::string stackedWeights(const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  auto word = [&](const StackedHalf &h, int chunk, int lane) {
    const int g = lane / 4, t = lane % 4;
    auto weight = [&](int col) {
      return sixteenBits(stackedWeight(spec, h.row, h.window, h.first + chunk, col, g),
                         spec.precision);
    };
    return weight(2 * t) | weight(2 * t + 1) << 16;
  };
  std::vector<unsigned> words;
  for (const StackedGroup &g : plan.tensor().stackedGroups) {
    for (int k = 0; k < g.count; ++k) {
      for (int h = 0; h < (g.paired() ? 2 : 1); ++h) {
        for (int lane = 0; lane < 32; ++lane) {
          words.push_back(word(g.half[h], k, lane));
        }
      }
    }
  }
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) {
    text += fmt::format("{}0x{:08X}u,", i % 8 == 0 ? (i ? "\n  " : "  ") : " ", words[i]);
  }
  return text;
}

/// The stacked form's groups as the cases of its geometry's group(g).
std::string stackedGroupCases(const TensorPlan &tp) {
  std::string text;
  for (std::size_t i = 0; i < tp.stackedGroups.size(); ++i) {
    const StackedGroup &g = tp.stackedGroups[i];
    auto half = [](const StackedHalf &h) {
      return fmt::format("{{{}, {}, {}}}", h.row, h.window, h.first);
    };
    text += fmt::format("{}    case {}: return {{{{{}, {}}}, {}}};", i ? "\n" : "", i,
                        half(g.half[0]), g.paired() ? half(g.half[1]) : "{-1, 0, 0}", g.count);
  }
  return text;
}

/// The stacked form's kernel (stencilc/device/stacked.cuh): its B table,
/// geometry and kernel.
void writeStackedKernel(CodeWriter &w, const Plan &plan, std::string_view boundary,
                        const std::string &kernel) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const std::string weights = stackedWeights(plan);
  w.fillWith(
      section("kernel_stacked"), fmt::arg("weight_words", tp.paramFragmentRegisters() * 32),
      fmt::arg("weights", weights), fmt::arg("element", elementTypeName(spec.precision)),
      fmt::arg("boundary", boundary), fmt::arg("radius", spec.radius),
      fmt::arg("ring", spec.ring()), fmt::arg("warps", tp.warps), fmt::arg("blocks", tp.nBlocks),
      fmt::arg("pitch", tp.windowPitch), fmt::arg("split", tp.splitAccumulators),
      fmt::arg("min_blocks", tp.minBlocks), fmt::arg("staged", tp.stagedStores),
      fmt::arg("mapped", tp.mappedWindows), fmt::arg("promotion", tp.windowPromotion),
      fmt::arg("persistent", tp.persistentGrid), fmt::arg("shifted", tp.shiftedWindow),
      fmt::arg("groups", tp.stackedGroups.size()), fmt::arg("group_cases", stackedGroupCases(tp)),
      fmt::arg("shared_bytes", tp.sharedBytes()), fmt::arg("min_size", spec.smallestExtent()),
      fmt::arg("kernel", kernel), fmt::arg("guard_begin", kernelGuardBegin(plan)),
      fmt::arg("guard_end", kernelGuardEnd(plan)));
  w.line();
}

/// The kernel of `plan`'s single step (no C entry points).
void writeKernel(CodeWriter &w, const Plan &plan, std::string_view boundary,
                 const std::string &kernel) {
  const TensorPlan &tp = plan.tensor();
  if (tp.stacked) {
    writeStackedKernel(w, plan, boundary, kernel);
    return;
  }
  writeGeometry(w, plan, boundary);
  writeParameterTables(w, plan);
  const std::vector<std::string> sources = parameterSources(tp);
  const auto [fragments, gemms] =
      tp.sparse ? sparseBand(plan)
                : std::pair(parameterFragments(tp, sources), sliceGemms(tp, sources));
  w.fillWith(section(plan.spec.dims == 3 ? "kernel_3d" : "kernel_2d"),
             fmt::arg("guard_begin", kernelGuardBegin(plan)),
             fmt::arg("guard_end", kernelGuardEnd(plan)), fmt::arg("kernel", kernel),
             fmt::arg("launch_bounds", tp.minBlocks == 1 ? "Block::kThreads"
                                                         : "Block::kThreads, Geometry::kMinBlocks"),
             fmt::arg("param_fragments", fragments), fmt::arg("gemms", gemms));
  w.line();
}

/// One composed pass of a fused plan (Schedule::composed or ::remainder):
/// the composed stencil's kernel in namespace `ns`, and the band kernel's
/// traits `band`.
void writeComposedPass(CodeWriter &w, const Plan &plan, const ComposedPass &pass,
                       std::string_view boundary, std::string_view ns, std::string_view band,
                       const std::string &passDoc) {
  const StencilSpec &spec = plan.spec;
  const int halo = pass.steps * spec.radius;
  const std::string kernel = fmt::format("{}_{}_tensor2d_kernel", spec.name, ns);
  // The composed step's own rule (`fixed` where the pass has a band:
  // TensorFusion.cpp, composedStepSpec), which needs no value struct.
  CodeWriter composedKernel;
  writeKernel(composedKernel, *pass.plan, boundaryPolicy(pass.plan->spec).type, kernel);
  const bool asFloat = tablesAreFloat(spec.precision);
  w.fillWith(section("composed"), fmt::arg("kernel", kernel), fmt::arg("halo", halo),
             fmt::arg("pass_doc", passDoc), fmt::arg("namespace", ns),
             fmt::arg("steps", pass.steps), fmt::arg("composed_kernel", composedKernel.takeHole()),
             fmt::arg("element", elementTypeName(spec.precision)),
             fmt::arg("compute", asFloat ? "float" : "double"),
             fmt::arg("band_traits", bandTraits(spec, band, pass.steps, boundary)));
  w.line();
}

/// The composed passes of a fused plan: T's, then the remainder's, and the
/// band's tile.
void writeComposedPasses(CodeWriter &w, const Plan &plan, std::string_view boundary) {
  const Schedule &s = plan.schedule;
  writeComposedPass(w, plan, *s.composed, boundary, "composed", "Band",
                    fmt::format("NAME_run's passes of {} steps", s.fusedSteps));
  if (s.remainder) {
    writeComposedPass(w, plan, *s.remainder, boundary, "remainder", "RemainderBand",
                      fmt::format("NAME_run's pass of {} steps where {} to {} remain after its "
                                  "passes\n/// of {}",
                                  s.remainder->steps, s.remainder->steps, s.fusedSteps - 1,
                                  s.fusedSteps));
  }
  w.fillWith(section("band_tile"), fmt::arg("band_tile", s.composed->band.tile));
}

std::string tensorFieldsKernelName(const Plan &plan) {
  return plan.spec.name +
         (plan.spec.dims == 3 ? "_fields_tensor3d_kernel" : "_fields_tensor2d_kernel");
}

/// The ring copy's traits: the fixed boundary's ring of width r is copied
/// from the input, along x only in a 1D line (one row), along y in 2D and
/// 3D, along z too in 3D.
void writeRingTraits(CodeWriter &w, const StencilSpec &spec) {
  const int ring = spec.ring();
  const bool volume = spec.dims == 3;
  w.fillWith(section("ring_traits"), fmt::arg("element", elementTypeName(spec.precision)),
             fmt::arg("ring", ring), fmt::arg("ring_y", spec.dims == 1 ? 0 : ring),
             fmt::arg("ring_z", volume ? ring : 0),
             fmt::arg("chunk_doc", volume ? "3D: one output a thread, a block a plane's rows"
                                          : "2D: one output a thread"),
             fmt::arg("ring_rows", TensorFieldsRingRows));
  w.line();
}

/// Every group's term at each element of its matrices, 24 a line, as the
/// kernel's table of them (the host code folds the coefficients in).
std::string paramTermsTable(const TensorFieldsPlan &f) {
  std::string paramTerms;
  int column = 0;
  for (const std::vector<int> &map : f.paramTerms) {
    for (int term : map) {
      paramTerms += fmt::format("{}{}", column == 0 ? "   " : "", fmt::format(" {},", term));
      if (++column == 24) {
        paramTerms += '\n';
        column = 0;
      }
    }
  }
  while (!paramTerms.empty() && paramTerms.back() == '\n') {
    paramTerms.pop_back();
  }
  return paramTerms;
}

/// The traits of a kernel of several windows (several fields read at
/// neighbours, or any 3D kernel, which takes its rings of slabs from them):
/// each window's field and each group's window.
std::string windowTraits(const TensorFieldsPlan &f, bool volume) {
  std::vector<std::string> windowFields, groupWindows;
  for (int field : f.windowFields) {
    windowFields.push_back(std::to_string(field));
  }
  for (int window : f.groupWindow) {
    groupWindows.push_back(std::to_string(window));
  }
  return CodeWriter::filled(
      section("window_traits"), fmt::arg("windows", f.windowFields.size()),
      fmt::arg("window_fields", joinWith(windowFields, ", ")),
      fmt::arg("group_windows", joinWith(groupWindows, ", ")),
      fmt::arg("windows_doc", volume ? "per window (a ring of kPlanes slabs), its field; "
                                       "per group, its window"
                                     : "several fields are read at neighbours: per "
                                       "window, its field; per group, its window"));
}

/// The fields' traits: the fields, the groups' coefficient fields, the
/// point terms of the epilogue and the matrices' terms, and (`windows`)
/// the windows' traits.
void writeFieldsTraits(CodeWriter &w, const Plan &plan, bool windows) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const TensorFieldsPlan &f = *tp.fields;
  std::vector<std::string> groupFields, points, pointIndices;
  for (int c : f.groupCoefficientField) {
    groupFields.push_back(std::to_string(c));
  }
  for (int t : f.pointTerms) {
    const FieldTerm &term = spec.fieldTerms[std::size_t(t)];
    points.push_back(fmt::format("{{{}, {}}}", term.field, term.coefficientField));
    pointIndices.push_back(std::to_string(t));
  }
  w.fillWith(section("fields_traits"), fmt::arg("element", elementTypeName(spec.precision)),
             fmt::arg("compute", tp.mma.accumulator == Precision::FP64 ? "double" : "float"),
             fmt::arg("field_count", spec.fields.size()), fmt::arg("gemm_field", f.gemmField),
             fmt::arg("gemm_field_name", spec.fields[std::size_t(f.gemmField)].name +
                                             (windows ? " (window 0 of kWindowField)" : "")),
             fmt::arg("groups", f.groupCoefficientField.size()),
             fmt::arg("group_fields", joinWith(groupFields, ", ")),
             fmt::arg("point_count", points.size()),
             // No point terms: kPoints keeps one unused entry.
             fmt::arg("points", points.empty() ? "{0, -1}" : joinWith(points, ", ")),
             fmt::arg("param_terms", paramTermsTable(f)),
             fmt::arg("point_indices", pointIndices.empty() ? "0" : joinWith(pointIndices, ", ")),
             fmt::arg("window_traits", windows ? windowTraits(f, spec.dims == 3) : ""));
  w.line();
}

/// The kernel: every group's parameter fragments and slice GEMMs, each over
/// its window, into its own accumulators.
void writeFieldsGemms(CodeWriter &w, const Plan &plan, bool windows) {
  const TensorPlan &tp = plan.tensor();
  const TensorFieldsPlan &f = *tp.fields;
  const int groups = static_cast<int>(f.groupCoefficientField.size());
  const int elements = tp.paramElements();
  std::string fragments, gemms;
  for (int g = 0; g < groups; ++g) {
    const std::vector<std::string> sources = parameterSources(tp, g * elements);
    const std::size_t first = std::size_t(g) * tp.gemms.size();
    // Several windows: a group skips the GEMMs it holds only zeros for.
    const std::vector<bool> *runs =
        f.groupRunsGemm.empty() ? nullptr : &f.groupRunsGemm[std::size_t(g)];
    fragments += parameterFragments(tp, sources, first, runs);
    if (g > 0) {
      gemms += '\n';
    }
    const std::string window =
        windows ? fmt::format("window[{}]", f.groupWindow[std::size_t(g)]) : "window";
    gemms += sliceGemms(tp, sources, fmt::format("acc[{}]", g), first, window, runs);
  }
  w.fillWith(section(plan.spec.dims == 3 ? "kernel_fields_3d"
                     : windows           ? "kernel_fields_2d_windows"
                                         : "kernel_fields_2d"),
             fmt::arg("guard_begin", kernelGuardBegin(plan)),
             fmt::arg("guard_end", kernelGuardEnd(plan)),
             fmt::arg("kernel", tensorFieldsKernelName(plan)),
             fmt::arg("param_fragments", fragments), fmt::arg("gemms", gemms));
  w.line();
}

/// A stencil of fields' kernel with what it reads: the boundary policy, the
/// geometry, the ring copy's and the fields' traits.
void writeFieldsKernel(CodeWriter &w, const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  const TensorFieldsPlan &f = *plan.tensor().fields;
  const std::string boundary = writeBoundaryPolicy(w, spec);
  writeGeometry(w, plan, boundary, static_cast<int>(f.groupCoefficientField.size()));
  writeRingTraits(w, spec);
  // Several fields read at neighbours: the windows' fields and each group's
  // window in the traits, and the kernel of several windows. The 3D kernel
  // always takes its windows (rings of slabs) from the traits.
  const bool windows = f.windowFields.size() > 1 || spec.dims == 3;
  writeFieldsTraits(w, plan, windows);
  writeFieldsGemms(w, plan, windows);
}

} // namespace

void writeTensorStencil(CodeWriter &w, const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  const std::string ns = stencilNamespace(plan);
  w.line("// ===== stencil {} =====", spec.name);
  if (plan.schedule.composed) {
    w.fillWith(section("composed_include"));
    w.line();
  }
  w.line("namespace {} {{", ns);
  w.line();
  const std::string boundary = writeBoundaryPolicy(w, spec);
  writeKernel(w, plan, boundary, kernelName(plan));
  if (plan.schedule.composed) {
    writeComposedPasses(w, plan, boundary);
  }
  w.line("}} // namespace {}", ns);
  w.line();
  // The C entry points are shared with the simt backend (HostApi.cpp); a
  // composed plan's NAME_run and NAME_pass are the composed pass.
  std::optional<PassBodies> composed;
  if (plan.schedule.composed) {
    composed.emplace();
    const std::optional<ComposedPass> &remainder = plan.schedule.remainder;
    const std::string remainderDoc =
        remainder ? fmt::format(",\n// one of {} (remainder::launch, then its band) where {} or "
                                "more remain,",
                                remainder->steps, remainder->steps)
                  : "";
    for (auto [body, name] :
         {std::pair{&composed->run, "run_composed"}, {&composed->pass, "pass_composed"}}) {
      *body =
          CodeWriter::filled(section(name), fmt::arg("steps", plan.schedule.fusedSteps),
                             fmt::arg("size_args", sizeArguments(spec.dims)),
                             fmt::arg("name", spec.name), fmt::arg("remainder_doc", remainderDoc),
                             fmt::arg("bands", remainder ? "Band, RemainderBand" : "Band"),
                             fmt::arg("launches", remainder ? "composed::launch, remainder::launch"
                                                            : "composed::launch"));
    }
  }
  writeEntryPoints(w, plan, ns,
                   CodeWriter::filled(section("launch"), fmt::arg("kernel", kernelName(plan)),
                                      fmt::arg("size_args", sizeArguments(spec.dims))),
                   composed ? &*composed : nullptr);
  w.line();
}

/// The namespace of a stencil of fields on tensor cores: the kernel, then
/// launch, copyRing and arguments (the parameter matrices folded and cached
/// per parameter values) for the entry points (Common/FieldsHostApi.cpp).
void writeTensorFieldsKernels(CodeWriter &w, const Plan &plan, const FieldsNames &n) {
  const StencilSpec &spec = plan.spec;
  CodeWriter body;
  writeFieldsKernel(body, plan);
  std::string values;
  for (const std::string &p : spec.params) {
    values += (values.empty() ? "" : ", ") + p;
  }
  body.fillWith(section("fields_host"), fmt::arg("guard_begin", kernelGuardBegin(plan)),
                fmt::arg("guard_end", kernelGuardEnd(plan)), fmt::arg("name", spec.name),
                fmt::arg("namespace", stencilNamespace(plan)),
                fmt::arg("kernel", tensorFieldsKernelName(plan)),
                fmt::arg("field_params_const", n.fieldParamsConst),
                fmt::arg("param_params", n.paramParams),
                fmt::arg("value_count", std::max<std::size_t>(1, spec.params.size())),
                fmt::arg("param_values", values.empty() ? "0.0" : values),
                fmt::arg("term_count", spec.fieldTerms.size()),
                fmt::arg("param_args_first", n.paramArgsFirst), fmt::arg("field_list", n.fieldList),
                // 3D: the launch takes nz (1D and 2D: their view's nz is 1).
                fmt::arg("extents", spec.dims == 3 ? "nz x ny x nx" : "ny x nx"),
                fmt::arg("nz_doc", spec.dims == 3 ? "" : " (nz is 1)"),
                fmt::arg("nz_name", spec.dims == 3 ? " nz" : ""),
                fmt::arg("nz_arg", spec.dims == 3 ? "nz, " : ""));
  w.fillWith(section("fields_namespace"), fmt::arg("name", spec.name),
             fmt::arg("namespace", stencilNamespace(plan)), fmt::arg("body", body.takeHole()));
}

} // namespace stencilc
