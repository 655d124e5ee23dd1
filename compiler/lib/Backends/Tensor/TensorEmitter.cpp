//===- CudaEmitter.cpp - The .cu of a file's stencils ----------------------===//
//
// For each plan: a namespace with the plan's numbers as constants, the
// parameter matrices as aligned tables, the boundary read, the kernel (window
// fill, the slice GEMMs of every tile, the store) and the C entry points.
// The code shapes come from Tensor/templates/tensor.cu.tpl; this file decides which
// sections go in and with what numbers.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include <fmt/format.h>

#include "llvm/Support/ErrorHandling.h"

#include "Backends/Common/CodeGen.h"
#include "Backends/Common/CodeWriter.h"
#include "Backends/Common/EmitterParts.h"

namespace stencilc {

namespace {

constexpr std::string_view KernelTemplate = "tensor.cu.tpl";

std::string_view section(std::string_view name) { return templateSection(KernelTemplate, name); }

std::string kernelName(const Plan &plan) {
  return plan.spec.name + (plan.spec.dims == 3 ? "_tensor3d_kernel" : "_tensor2d_kernel");
}

std::string namespaceName(const Plan &plan) { return "stencilc_gen_" + plan.spec.name; }

/// The template section with the MMA of a precision: fragment types, their
/// loads and the mma.sync itself.
void writeMma(CodeWriter &w, const MmaShape &mma) {
  switch (mma.operand) {
  case Precision::FP16:
    w.fillWith(section("mma_m16n8k16"), fmt::arg("type", "f16"), fmt::arg("pair_type", "__half2"),
               fmt::arg("pack_pair", "__floats2half2_rn"));
    return;
  case Precision::BF16:
    w.fillWith(section("mma_m16n8k16"), fmt::arg("type", "bf16"),
               fmt::arg("pair_type", "__nv_bfloat162"),
               fmt::arg("pack_pair", "__floats2bfloat162_rn"));
    return;
  case Precision::TF32:
    w.fillWith(section("mma_m16n8k8_tf32"));
    return;
  case Precision::FP64:
    w.fillWith(section(mma.m == 16 ? "mma_m16n8k4_f64" : "mma_m8n8k4_f64"));
    return;
  case Precision::FP32:
    break;
  }
  llvm_unreachable("fp32 has no tensor-core kernel");
}

/// The tables hold doubles for fp64 and floats otherwise (every fp16, bf16
/// and tf32 value is exactly a float).
bool tablesAreFloat(Precision p) { return p != Precision::FP64; }

/// The stencil's coefficients as tables for comments, "." where the stencil
/// does not read: one row (1D), one (2r+1) x (2r+1) table (2D), or one such
/// table per plane dz (3D).
void writeCoefficientTable(CodeWriter &w, const StencilSpec &spec) {
  const int r = spec.radius, n = 2 * r + 1;
  const int planes = spec.dims == 3 ? n : 1;
  const int rows = spec.dims == 1 ? 1 : n;
  // A table past a comment's use (the largest 3D box would write 274,625
  // cells, 4 MB) is named rather than written.
  constexpr long MaxCells = 4096;
  if (static_cast<long>(planes) * rows * n > MaxCells) {
    w.line("//   coefficients: a {} table of {} points, too large to show here; "
           "`stencilc --emit=spec` lists every one",
           spec.dims == 3   ? fmt::format("{0} x {0} x {0}", n)
           : spec.dims == 2 ? fmt::format("{0} x {0}", n)
                            : fmt::format("{}-entry", n),
           spec.points());
    return;
  }
  auto coefficient = [&](int plane, int row, int col) {
    const int dz = plane - planes / 2, dy = row - rows / 2, dx = col - r;
    return spec.coefficient(spec.dims == 1   ? Offset{{dx, 0, 0}}
                            : spec.dims == 2 ? Offset{{dy, dx, 0}}
                                             : Offset{{dz, dy, dx}});
  };
  std::vector<std::string> cells;
  std::size_t width = 1;
  for (int plane = 0; plane < planes; ++plane) {
    for (int row = 0; row < rows; ++row) {
      for (int col = 0; col < n; ++col) {
        double c = coefficient(plane, row, col);
        cells.push_back(c == 0.0 ? "." : formatExact(c));
        width = std::max(width, cells.back().size());
      }
    }
  }
  if (spec.dims == 1) {
    w.line("//   coefficients (dx = {}..{}):", -r, r);
  } else {
    w.line("//   coefficients ({}rows dy = {}..{}, columns dx = {}..{}):",
           spec.dims == 3 ? fmt::format("planes dz = {}..{}, ", -r, r) : "", -r, r, -r, r);
  }
  for (int plane = 0; plane < planes; ++plane) {
    if (spec.dims == 3) {
      w.line("//     dz = {}:", plane - r);
    }
    for (int row = 0; row < rows; ++row) {
      std::string text = "//     ";
      for (int col = 0; col < n; ++col) {
        text += fmt::format("{}{:>{}}", col ? "  " : "",
                            cells[(std::size_t(plane) * rows + row) * n + col], width);
      }
      w.line(text);
    }
  }
}

std::string boundaryDescription(const StencilSpec &spec) {
  if (spec.boundary == BoundaryKind::Constant) {
    return fmt::format("constant {}", formatExact(spec.boundaryValue));
  }
  return std::string(keyword(spec.boundary));
}

/// Writes `text` as comment lines of at most 80 columns: the first starts
/// with `prefix`, the others are indented to match it.
void writeWrappedComment(CodeWriter &w, std::string_view prefix, std::string_view text) {
  std::string continuation(prefix.size(), ' ');
  continuation.replace(0, 2, "//");
  std::string current(prefix);
  bool empty = true;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t space = text.find(' ', pos);
    if (space == std::string_view::npos) {
      space = text.size();
    }
    std::string_view word = text.substr(pos, space - pos);
    if (!empty && current.size() + 1 + word.size() > 80) {
      w.line(current);
      current = continuation;
      empty = true;
    }
    current += empty ? "" : " ";
    current += word;
    empty = false;
    pos = space + 1;
  }
  w.line(current);
}

void writeFileComment(CodeWriter &w, const std::vector<Plan> &plans,
                      const CodeGenOptions &options) {
  w.line("// Generated by stencilc {} from {}; do not edit.", options.compilerVersion,
         options.inputFile.empty() ? std::string("<stdin>") : options.inputFile);
  w.line("// Needs only the CUDA toolkit and the stencilc runtime headers; C++17,");
  const bool anyTensor = std::any_of(plans.begin(), plans.end(), [](const Plan &plan) {
    return plan.backend() == BackendKind::Tensor;
  });
  // Only the fp64 m16n8k4 MMA (planned for sm_90) needs more than sm_80.
  const bool needsSm90 = std::any_of(plans.begin(), plans.end(), [](const Plan &plan) {
    return plan.backend() == BackendKind::Tensor && plan.tensor().mma.operand == Precision::FP64 &&
           plan.tensor().mma.m == 16;
  });
  w.line(!anyTensor  ? "// sm_80 or newer (CUDA cores only)."
         : needsSm90 ? "// sm_90 or newer (tensor-core MMAs through mma.sync, fp64 "
                       "m16n8k4)."
                     : "// sm_80 or newer (tensor-core MMAs through mma.sync).");
  for (const Plan &plan : plans) {
    const StencilSpec &spec = plan.spec;
    w.line("//");
    w.line("// stencil {} ({}:{}): {}D {} radius {}, {} points, {}, boundary {}", spec.name,
           spec.sourceFile.empty() ? options.inputFile : spec.sourceFile, spec.sourceLine,
           spec.dims, keyword(spec.shape), spec.radius, spec.points(), keyword(spec.precision),
           boundaryDescription(spec));
    writeCoefficientTable(w, spec);
    writeWrappedComment(w, "//   plan: ", summarizePlan(plan));
  }
}

/// kParams: every slice's parameter matrix, one row a line, columns aligned.
void writeParameterTables(CodeWriter &w, const Plan &plan) {
  const TensorPlan &tp = plan.tensor();
  const bool asFloat = tablesAreFloat(plan.spec.precision);
  w.line("// The parameter matrices of the slice GEMMs (ARCHITECTURE.md), rounded once");
  w.line("// to {} and written exactly. Every block copies them to shared "
         "memory and",
         keyword(tp.mma.operand));
  w.line("// loads them into MMA fragments.");
  w.openScope(fmt::format("static __device__ const {} kParams[kParamElements] =",
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

/// Where the kernel's grid of outputs lies in memory: a 2D grid is itself; a
/// 1D line runs as rows of one block's width (kBlockCols points), output
/// (y, x) being point y kBlockCols + x, and each window row carries the
/// halo of its own row. These are the pieces of the template that differ.
struct GridText {
  std::string pairDoc, pairPoint;          // storePair
  std::string windowDoc, windowY, windowX; // fetchWindow
  std::string gridRows;                    //   rows readInput sees
  std::string blocksAcross;                // block tiles across
  std::string tileInside, rowPitch;        // tile_store_rows16
  std::string rowsEven, rowsVectors;       // rows start on a pair / a vector
  std::string lineRows;                    // launch
  // 3D: fetchWindow reads one input plane z of nz (its extra parameters,
  // the plane's bounds and row, readInput's z arguments), and the slice
  // GEMMs read their plane's slab of the window.
  std::string planeParams, planeInside, gridRow = "y", planeAt, planeSize;
  std::string planesDoc;
};

GridText gridText(const StencilSpec &spec, const TensorPlan &tp) {
  GridText t;
  if (spec.dims == 1) {
    t.pairDoc = "\n/// On the line: output (y, x) of a tile is its point "
                "y kBlockCols + x\n/// (the line runs as ny rows of "
                "kBlockCols points).";
    t.pairPoint = "x += y * kBlockCols; // the point of the line\n"
                  "Element* dst = out + x;";
    t.windowDoc = "window[w][c] = in[(blockRow + w) kBlockCols - kHaloCols + "
                  "c]\n/// (row w: kBlockCols outputs of the line and the "
                  "halo on both sides):";
    t.windowY = "0";
    t.windowX = "(blockRow + row) * kBlockCols - kHaloCols + col";
    t.gridRows = "1";
    t.blocksAcross = "1";
    t.tileInside = "outRow * kBlockCols + outCol >= kRing &&\n"
                   "    (outRow + kTileM - 1) * kBlockCols + outCol + kTileN "
                   "<= nx - kRing";
    t.rowPitch = "kBlockCols";
    // Rows of kBlockCols points start on whole vectors whatever the length.
    t.lineRows = "static_assert(kHaloCols >= kRadius, \"each window row "
                 "carries its row's halo\");\n"
                 "const int ny = (nx + kBlockCols - 1) / kBlockCols; // the "
                 "line as rows of kBlockCols points";
    return t;
  }
  t.pairPoint = "if (y < kRing || y >= ny - kRing) {\n  return;\n}\n"
                "Element* dst = out + y * nx + x;";
  t.windowDoc = "window[w][c] = in(blockRow - kRadius + w, blockCol - "
                "kHaloCols + c):";
  t.windowY = "blockRow - kRadius + row";
  t.windowX = "blockCol - kHaloCols + col";
  t.gridRows = "ny";
  t.blocksAcross = "(nx + kBlockCols - 1) / kBlockCols";
  t.tileInside = "outRow >= kRing && outRow + kTileM <= ny - kRing && "
                 "outCol >= kRing &&\n    outCol + kTileN <= nx - kRing";
  t.rowPitch = "nx";
  t.rowsEven = "nx % 2 == 0 && ";
  t.rowsVectors = "nx % kVec == 0 && ";
  if (spec.dims == 3) {
    t.windowDoc = "window[w][c] = in(z, blockRow - kRadius + w, blockCol - "
                  "kHaloCols + c)\n/// (one slab: input plane z):";
    t.planeParams = "int nz, long long z, ";
    t.planeInside = "z >= 0 && z < nz && ";
    t.gridRow = "(z * ny + y)";
    t.planeAt = "z, ";
    t.planeSize = "nz, ";
    t.planesDoc = fmt::format("\nconstexpr int kPlanes = {}; // the window's slabs: input "
                              "planes z - kRadius .. z + kRadius",
                              tp.planes);
  }
  return t;
}

void writeElementHelpers(CodeWriter &w, const Plan &plan, const GridText &grid) {
  const Precision p = plan.spec.precision;
  std::string toElement, storeBoth;
  switch (p) {
  case Precision::FP16:
  case Precision::BF16:
    toElement = p == Precision::FP16 ? "__float2half_rn(value)" : "__float2bfloat16_rn(value)";
    // packPair: the m16n8k16 section's rounding of two accumulators.
    storeBoth = "*reinterpret_cast<std::uint32_t*>(dst) = packPair(first, second);";
    break;
  case Precision::TF32:
    toElement = "value";
    // As PTX: the compiler splits a float2 or double2 store into two.
    storeBoth =
        R"(asm volatile("st.global.v2.f32 [%0], {%1, %2};" : : "l"(dst), "f"(first), "f"(second));)";
    break;
  case Precision::FP64:
    toElement = "value";
    storeBoth =
        R"(asm volatile("st.global.v2.f64 [%0], {%1, %2};" : : "l"(dst), "d"(first), "d"(second));)";
    break;
  case Precision::FP32:
    llvm_unreachable("fp32 has no tensor-core kernel");
  }
  w.fillWith(section("element_helpers"), fmt::arg("to_element", toElement),
             fmt::arg("store_both", storeBoth), fmt::arg("pair_doc", grid.pairDoc),
             fmt::arg("pair_point", grid.pairPoint));
  w.line();
  // A 3D window reads planes: the simt template's readInput of (z, y, x).
  writeBoundaryRead(w, plan.spec, plan.spec.dims == 3 ? "simt.cu.tpl" : KernelTemplate);
  w.line();
}

/// Offsets of each slice's matrix inside kParams, in elements.
std::vector<int> parameterOffsets(const TensorPlan &tp) {
  std::vector<int> offsets;
  int offset = 0;
  for (const SliceGemm &g : tp.gemms) {
    offsets.push_back(offset);
    offset += g.param.rows * g.param.cols;
  }
  return offsets;
}

/// Where chunk c of a slice's parameter matrix starts in `params`, and the
/// matrix's row pitch.
std::string parameterAddress(const SliceGemm &g, int offset) {
  return g.kind == SliceKind::Vertical ? fmt::format("&params[{} + c * kMmaK]", offset)
                                       : fmt::format("&params[{} + c * kMmaK * kMmaN]", offset);
}
std::string parameterPitch(const TensorPlan &tp, const SliceGemm &g) {
  return g.kind == SliceKind::Vertical ? std::to_string(g.chunkCount * tp.mma.k)
                                       : std::string("kMmaN");
}

void writeParameterFragments(CodeWriter &w, const TensorPlan &tp, const std::vector<int> &offsets) {
  w.line("// The parameter fragments, reused by every tile of the block.");
  for (std::size_t i = 0; i < tp.gemms.size(); ++i) {
    const SliceGemm &g = tp.gemms[i];
    const bool vertical = g.kind == SliceKind::Vertical;
    w.fillWith(section("param_fragments"),
               fmt::arg("fragment", vertical ? "FragmentA" : "FragmentB"),
               fmt::arg("loader", vertical ? "loadA" : "loadB"), fmt::arg("index", i),
               fmt::arg("label", g.label), fmt::arg("chunks", g.chunkCount),
               fmt::arg("address", parameterAddress(g, offsets[i])),
               fmt::arg("ld", parameterPitch(tp, g)));
  }
  w.line();
}

void writeSliceGemms(CodeWriter &w, const TensorPlan &tp, const std::vector<int> &offsets) {
  for (std::size_t i = 0; i < tp.gemms.size(); ++i) {
    const SliceGemm &g = tp.gemms[i];
    // 3D: the rows of the slice's input plane start at slab[dz + r].
    const std::string slab =
        tp.planes > 1 ? fmt::format("slab[{}] + ", g.dz + tp.planes / 2) : std::string();
    const bool vertical = g.kind == SliceKind::Vertical;
    const int K = g.chunkCount * tp.mma.k;
    std::string paramLoad, param;
    if (tp.paramsInRegisters) {
      param = fmt::format("param{}[c]", i);
    } else {
      param = "param";
      paramLoad = fmt::format("const {} param = {}({}, {}, lane);",
                              vertical ? "FragmentA" : "FragmentB", vertical ? "loadA" : "loadB",
                              parameterAddress(g, offsets[i]), parameterPitch(tp, g));
    }
    if (vertical) {
      w.fillWith(section("gemm_vertical"), fmt::arg("index", i), fmt::arg("label", g.label),
                 fmt::arg("kdim", K), fmt::arg("chunks", g.chunkCount),
                 fmt::arg("param_load", paramLoad), fmt::arg("param", param),
                 fmt::arg("slab", slab));
    } else {
      w.fillWith(section("gemm_row"), fmt::arg("index", i), fmt::arg("label", g.label),
                 fmt::arg("kdim", K), fmt::arg("chunks", g.chunkCount),
                 fmt::arg("row", tp.haloRows + g.dy), fmt::arg("first_col", g.firstK),
                 fmt::arg("param_load", paramLoad), fmt::arg("param", param),
                 fmt::arg("slab", slab));
    }
  }
}

void writeStencil(CodeWriter &w, const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  const TensorPlan &tp = plan.tensor();
  const bool fixed = spec.boundary == BoundaryKind::Fixed;
  const std::string ns = namespaceName(plan);
  const std::string element(elementTypeName(spec.precision));
  int paramElements = 0;
  for (const SliceGemm &g : tp.gemms) {
    paramElements += g.param.rows * g.param.cols;
  }

  const GridText grid = gridText(spec, tp);
  w.line("// ===== stencil {} =====", spec.name);
  w.line("namespace {} {{", ns);
  w.line();
  w.fillWith(
      section("constants"), fmt::arg("element", element),
      fmt::arg("accumulator", elementTypeName(tp.mma.accumulator)), fmt::arg("radius", spec.radius),
      fmt::arg("tile_m", tp.tileM), fmt::arg("tile_n", tp.tileN), fmt::arg("n_blocks", tp.nBlocks),
      fmt::arg("mma_n", tp.mma.n), fmt::arg("mma_k", tp.mma.k),
      fmt::arg("tile_rows", tp.tileRowsPerBlock), fmt::arg("tile_cols", tp.tileColsPerBlock),
      fmt::arg("warps", tp.warps), fmt::arg("halo_cols", tp.haloCols),
      fmt::arg("window_rows", tp.windowRows), fmt::arg("pitch", tp.windowPitch),
      fmt::arg("loaded_rows", tp.loadedRows), fmt::arg("loaded_col_begin", tp.loadedColBegin),
      fmt::arg("loaded_col_end", tp.loadedColEnd), fmt::arg("vector_width", tp.vectorWidth),
      fmt::arg("param_elements", paramElements), fmt::arg("ring", fixed ? spec.radius : 0),
      fmt::arg("min_size", fixed ? 2 * spec.radius + 1 : 1),
      fmt::arg("planes_doc", grid.planesDoc));
  w.line();
  writeMma(w, tp.mma);
  writeParameterTables(w, plan);
  writeElementHelpers(w, plan, grid);

  // --plan-option l2-prefetch: the window's 16-byte reads carry the L2's
  // prefetch size (default: none, the plain read-only load).
  const std::string load =
      writeVectorLoad(w, tp.l2PrefetchBytes, fmt::format("in + {} * nx + x", grid.gridRow));
  w.fillWith(section("window_io"), fmt::arg("vector_load", load),
             fmt::arg("store_staged", CodeWriter::filled(section(spec.precision == Precision::TF32
                                                                     ? "store_staged_tf32"
                                                                     : "store_staged_plain"))),
             fmt::arg("window_doc", grid.windowDoc), fmt::arg("window_y", grid.windowY),
             fmt::arg("window_x", grid.windowX), fmt::arg("grid_rows", grid.gridRows),
             fmt::arg("rows_vectors", grid.rowsVectors), fmt::arg("plane_params", grid.planeParams),
             fmt::arg("plane_inside", grid.planeInside), fmt::arg("plane_at", grid.planeAt),
             fmt::arg("plane_size", grid.planeSize));
  w.line();
  const bool volume = spec.dims == 3;
  const std::string paramsToShared = CodeWriter::filled(section("params_to_shared"));
  if (volume) {
    w.fillWith(section("kernel_head_3d"), fmt::arg("kernel", kernelName(plan)),
               fmt::arg("params_to_shared", paramsToShared));
  } else {
    w.fillWith(section("kernel_head"), fmt::arg("kernel", kernelName(plan)),
               fmt::arg("blocks_across", grid.blocksAcross), fmt::arg("rows_even", grid.rowsEven),
               fmt::arg("params_to_shared", paramsToShared));
  }
  w.indent();
  std::vector<int> offsets = parameterOffsets(tp);
  if (tp.paramsInRegisters) {
    writeParameterFragments(w, tp, offsets);
  }
  if (volume) {
    // Block columns, each streaming its chunk of planes through the ring.
    w.openScope("for (long long blockTile = blockIdx.x; blockTile < blockTiles; blockTile += "
                "gridDim.x)");
    w.fillWith(section("block_head_3d"));
    w.openScope("for (long long z = z0; z < zEnd; ++z)");
    w.fillWith(section("plane_head_3d"));
    w.openScope("if (planeWritten)"); // fixed: the ring planes are never stored
  } else {
    w.openScope("for (; blockTile < blockTiles; blockTile += gridDim.x)");
    w.fillWith(section("block_head"));
  }
  w.line("#pragma unroll");
  w.openScope("for (int i = 0; i < kTilesPerWarp; ++i)");
  w.fillWith(section("tile_head"));
  writeSliceGemms(w, tp, offsets);
  if (tp.tileM == 8) {
    w.fillWith(section("tile_store_m8n8"));
  } else if (elementBytes(plan.spec.precision) == 2 && tp.nBlocks % 2 == 0) {
    // Whole rows of 16-byte vectors, else (edge tiles) pair by pair.
    w.fillWith(section("tile_store_rows16"), fmt::arg("tile_inside", grid.tileInside),
               fmt::arg("row_pitch", grid.rowPitch), fmt::arg("rows_vectors", grid.rowsVectors));
    w.indent();
    w.fillWith(section("tile_store_m16n8"));
    w.closeScope();
  } else {
    w.fillWith(section("tile_store_m16n8"));
  }
  w.closeScope("", "tile loop");
  if (volume) {
    w.closeScope("", "planeWritten");
  }
  w.fillWith(section("block_tail"));
  if (volume) {
    w.closeScope("", "plane loop");
  }
  w.closeScope("", "block-tile loop");
  w.closeScope("", kernelName(plan));
  w.line();

  // The C entry points are shared with the simt backend (HostApi.cpp).
  const std::string resident =
      CodeWriter::filled(section("resident_blocks"), fmt::arg("kernel", kernelName(plan)));
  writeHostApi(w, plan, ns,
               volume
                   ? CodeWriter::filled(section("launch_3d"), fmt::arg("kernel", kernelName(plan)),
                                        fmt::arg("resident_blocks", resident))
                   : CodeWriter::filled(section("launch"), fmt::arg("kernel", kernelName(plan)),
                                        fmt::arg("line_rows", grid.lineRows),
                                        fmt::arg("blocks_across", grid.blocksAcross),
                                        fmt::arg("resident_blocks", resident)));
  w.line();
}

} // namespace

std::string numberLiteral(double value, bool asFloat) {
  std::string text = formatExact(value);
  if (text.find_first_of(".en") == std::string::npos) {
    text += ".0";
  }
  return asFloat ? text + "f" : text;
}

std::string elementTypeIncludes(const std::vector<Plan> &plans) {
  std::string includes;
  auto uses = [&](Precision p) {
    return std::any_of(plans.begin(), plans.end(),
                       [p](const Plan &plan) { return plan.spec.precision == p; });
  };
  if (uses(Precision::FP16)) {
    includes += "#include <cuda_fp16.h>";
  }
  if (uses(Precision::BF16)) {
    includes += std::string(includes.empty() ? "" : "\n") + "#include <cuda_bf16.h>";
  }
  return includes;
}

std::string emitCudaSource(const std::vector<Plan> &plans, const CodeGenOptions &options) {
  CodeWriter w;
  writeFileComment(w, plans, options);
  w.line();
  const std::string extraIncludes = elementTypeIncludes(plans);
  // simt-only files need no <mma.h> (simt.cu.tpl's includes).
  const bool anyTensor = std::any_of(plans.begin(), plans.end(), [](const Plan &plan) {
    return plan.backend() == BackendKind::Tensor;
  });
  w.fillWith(anyTensor ? section("file_includes") : templateSection("simt.cu.tpl", "file_includes"),
             fmt::arg("header", options.headerInclude), fmt::arg("extra_includes", extraIncludes));
  w.line();
  for (const Plan &plan : plans) {
    if (plan.backend() == BackendKind::Simt) {
      writeSimtStencil(w, plan); // SimtEmitter.cpp
    } else {
      writeStencil(w, plan);
    }
  }
  return w.take();
}

} // namespace stencilc
