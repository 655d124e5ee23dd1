//===- SimtEmitter.cpp - The CUDA-core kernel of one stencil ---------------===//
//
// Writes a simt plan as CUDA: the plan's numbers as constants, the element
// helpers and boundary read, the streaming kernel of Simt/templates/simt.cu.tpl
// with the plan's slices as straight-line FMAs whose coefficients are
// literals (or loops over a coefficient table for very large stencils), and
// the shared C entry points (HostApi.cpp).
//
//===----------------------------------------------------------------------===//
#include <fmt/format.h>

#include "Backends/Common/CodeGen.h"
#include "Backends/Common/EmitterParts.h"

namespace stencilc {

namespace {

constexpr std::string_view KernelTemplate = "simt.cu.tpl";

std::string_view section(std::string_view name) { return templateSection(KernelTemplate, name); }

std::string kernelName(const Plan &plan) { return plan.spec.name + "_simt_kernel"; }

bool computesInFloat(const SimtPlan &sp) { return sp.compute != Precision::FP64; }

/// The index of a read relative to `at`: "dy * kPitch + o + dx".
std::string readIndex(int dy, int dx) {
  std::string text = dy != 0 ? fmt::format("{} * kPitch + o", dy) : std::string("o");
  if (dx != 0) {
    text += fmt::format(" {} {}", dx > 0 ? '+' : '-', dx > 0 ? dx : -dx);
  }
  return text;
}

/// Whether the unrolled slices read a bf16 plane through 32-bit words
/// (readPair): items of whole 16-byte vectors, so every item's `at` is
/// 16-byte aligned and each read's half is known when the kernel compiles.
bool readsPairs(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  return plan.spec.precision == Precision::BF16 && sp.unrolled && sp.outputsX == sp.vectorWidth;
}

void writeConstants(CodeWriter &w, const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  const bool fixed = spec.boundary == BoundaryKind::Fixed;
  w.fillWith(section("constants"), fmt::arg("element", elementTypeName(spec.precision)),
             fmt::arg("compute", computesInFloat(sp) ? "float" : "double"),
             fmt::arg("radius_z", sp.radiusZ), fmt::arg("radius_y", sp.radiusY),
             fmt::arg("radius_x", sp.radiusX), fmt::arg("tile_x", sp.tileX),
             fmt::arg("tile_y", sp.tileY), fmt::arg("chunk_z", sp.chunkZ),
             fmt::arg("min_chunk_z", sp.minChunkZ), fmt::arg("target_blocks", sp.targetBlocks),
             fmt::arg("threads", sp.threads), fmt::arg("vector_width", sp.vectorWidth),
             fmt::arg("outputs_x", sp.outputsX), fmt::arg("halo_x", sp.haloX),
             fmt::arg("stages", sp.buffers), fmt::arg("ring_z", fixed ? sp.radiusZ : 0),
             fmt::arg("ring_y", fixed ? sp.radiusY : 0), fmt::arg("ring_x", fixed ? sp.radiusX : 0),
             fmt::arg("min_size", fixed ? 2 * spec.radius + 1 : 1),
             fmt::arg("shared_bytes_constant",
                      sp.dynamicShared()
                          ? "constexpr int kSharedBytes = kStages * kPlaneRows * kPitch * "
                            "int(sizeof(Element)); // dynamic shared memory"
                          : ""));
  w.line();
}

void writeHelpers(CodeWriter &w, const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  const Precision p = spec.precision;
  std::string toCompute = "value", toElement = "value";
  if (p == Precision::FP16) {
    toCompute = "__half2float(value)";
    toElement = "__float2half_rn(value)";
  } else if (p == Precision::BF16) {
    toCompute = "__bfloat162float(value)";
    toElement = "__float2bfloat16_rn(value)";
  }
  w.fillWith(section("element_helpers"), fmt::arg("to_compute", toCompute),
             fmt::arg("to_element", toElement),
             fmt::arg("fma", computesInFloat(plan.simt()) ? "__fmaf_rn" : "__fma_rn"),
             fmt::arg("read_pair", readsPairs(plan) ? CodeWriter::filled(section("read_bf16_pair"))
                                                    : std::string()));
  w.line();
  writeBoundaryRead(w, spec, KernelTemplate);
  w.line();
  // --plan-option l2-prefetch: the input's 16-byte reads carry the L2's
  // prefetch size (default: none, the plain read-only load).
  const int prefetch = plan.simt().l2PrefetchBytes;
  const std::string load = writeVectorLoad(w, prefetch, "in + (z * ny + y) * nx + x");
  w.fillWith(section("fetch_group"), fmt::arg("vector_load", load));
  w.line();
  if (plan.simt().buffers > 2) {
    w.fillWith(section("async_copy"),
               fmt::arg("l2_prefetch", prefetch ? fmt::format(".L2::{}B", prefetch) : ""));
    w.line();
  }
}

/// The reads of a looped plan as two tables, eight entries a line.
void writeTermTables(CodeWriter &w, const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  std::vector<std::string> offsets, coefficients;
  for (const SimtSlice &slice : sp.slices) {
    for (const SimtTerm &t : slice.terms) {
      offsets.push_back(std::to_string(t.dy * sp.pitch + t.dx));
      coefficients.push_back(numberLiteral(t.coefficient, computesInFloat(sp)));
    }
  }
  auto table = [&](std::string_view head, const std::vector<std::string> &cells) {
    w.openScope(fmt::format("{}[{}] =", head, cells.size()));
    for (std::size_t i = 0; i < cells.size(); i += 8) {
      std::string text;
      for (std::size_t j = i; j < std::min(cells.size(), i + 8); ++j) {
        text += cells[j] + ",";
        text += j + 1 < std::min(cells.size(), i + 8) ? " " : "";
      }
      w.line(text);
    }
    w.closeScope(";");
  };
  w.line("// The reads of every slice in accumulation order (too many to unroll):");
  w.line("// kOffsets[t] = dy * kPitch + dx, and the coefficient rounded once.");
  table("static __device__ const int kOffsets", offsets);
  table("static __device__ const Compute kCoefficients", coefficients);
  w.line();
}

void writeSlices(CodeWriter &w, const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  const bool pairs = readsPairs(plan);
  int begin = 0;
  for (const SimtSlice &slice : sp.slices) {
    const int entry = sp.radiusZ - slice.dz;
    const int end = begin + static_cast<int>(slice.terms.size());
    if (sp.unrolled) {
      std::string fmas;
      for (const SimtTerm &t : slice.terms) {
        const std::string index = readIndex(t.dy, t.dx);
        fmas += fmt::format("{}queue[k][{}][o] = madd({}, {}, queue[k][{}][o]);",
                            fmas.empty() ? "" : "\n", entry,
                            numberLiteral(t.coefficient, computesInFloat(sp)),
                            pairs ? fmt::format("readPair(at, {})", index)
                                  : fmt::format("toCompute(at[{}])", index),
                            entry);
      }
      w.fillWith(section("slice_unrolled"), fmt::arg("dz", slice.dz),
                 fmt::arg("count", slice.terms.size()), fmt::arg("entry", entry),
                 fmt::arg("fmas", fmas));
    } else {
      w.fillWith(section("slice_looped"), fmt::arg("dz", slice.dz), fmt::arg("begin", begin),
                 fmt::arg("end", end), fmt::arg("entry", entry));
    }
    begin = end;
  }
}

std::string launchCode(const Plan &plan) {
  const int dims = plan.spec.dims;
  return CodeWriter::filled(
      section("launch"),
      fmt::arg("view", dims == 1   ? "1 x 1 x nx"
                       : dims == 2 ? "ny x 1 x nx, the rows streamed"
                                   : "nz x ny x nx, the planes streamed"),
      fmt::arg("planes_z", dims == 1   ? "1"
                           : dims == 2 ? "ny"
                                       : "nz"),
      fmt::arg("rows_y", dims == 3 ? "ny" : "1"), fmt::arg("kernel", kernelName(plan)),
      fmt::arg("opt_in",
               plan.simt().dynamicShared()
                   ? CodeWriter::filled(section("opt_in"), fmt::arg("kernel", kernelName(plan)))
                   : std::string()),
      fmt::arg("shared_bytes", plan.simt().dynamicShared() ? "kSharedBytes" : "0"));
}

} // namespace

void writeSimtStencil(CodeWriter &w, const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  const std::string ns = stencilNamespace(plan);
  w.line("// ===== stencil {} =====", plan.spec.name);
  w.line("namespace {} {{", ns);
  w.line();
  writeConstants(w, plan);
  writeHelpers(w, plan);
  if (!sp.unrolled) {
    writeTermTables(w, plan);
  }

  // How planes reach shared memory: straight (1 buffer), the next one through
  // registers (2), or a ring of 3 or more filled by asynchronous copies,
  // whose threads also keep their items' addresses (items_ring).
  const bool ring = sp.buffers > 2;
  const char *stream = ring              ? "stream_async"
                       : sp.buffers == 2 ? "stream_prefetch"
                                         : "stream_direct";
  w.fillWith(section("kernel_head"), fmt::arg("kernel", kernelName(plan)),
             fmt::arg("shared_planes",
                      CodeWriter::filled(
                          section(sp.dynamicShared() ? "planes_dynamic" : "planes_static"))));
  w.line();
  w.fillWith(section(ring ? "items_ring" : "items"));
  w.indent();
  w.fillWith(section(stream));
  w.indent();
  w.fillWith(section("item_head"),
             fmt::arg("item_at", ring ? "itemAt[k]"
                                      : "(itemRow[k] + kRadiusY) * kPitch + itemCol[k] + kHaloX"));
  w.indent();
  w.indent();
  writeSlices(w, plan);
  w.dedent();
  w.dedent();
  w.fillWith(section("item_tail"));
  w.fillWith(section(ring ? "store_and_shift_ring" : "store_and_shift"));
  w.dedent();
  w.fillWith(section(fmt::format("{}_tail", stream)));
  w.closeScope("", kernelName(plan));
  w.line();
  writeHostApi(w, plan, ns, launchCode(plan));
  w.line();
}

} // namespace stencilc
