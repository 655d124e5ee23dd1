//===- FieldsEmitter.cpp - The CUDA-core kernels of a stencil of fields ----===//
//
// Writes the namespace of a stencil of fields on CUDA cores
// (Simt/templates/fields.cu.tpl): its terms as a table for
// stencilc/device/fields.cuh, the chunk or plane kernel and the ring copy,
// and the `launch` and `copyRing` the shared entry points call
// (Common/FieldsHostApi.cpp).
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtCodeGen.h"

#include <fmt/format.h>

#include "Backends/Common/CodeGen.h"
#include "Backends/Common/EmitterParts.h"
#include "Backends/Simt/SimtPlanner.h"

namespace stencilc {

namespace {

/// The terms as rows of fields.cuh's term table, each with its text.
std::vector<std::string> termRows(const StencilSpec &spec) {
  std::vector<std::string> rows;
  for (const FieldTerm &t : spec.fieldTerms) {
    const auto d = zyxOffset(spec, t.offset);
    const auto c = zyxOffset(spec, t.coefficientOffset);
    rows.push_back(fmt::format("      {{{}, {}, {}, {}, {}, {}, {}, {}}}, // {}", t.field, d[0],
                               d[1], d[2], t.coefficientField, c[0], c[1], c[2],
                               fieldTermText(spec, t)));
  }
  return rows;
}

} // namespace

void writeSimtFieldsKernels(CodeWriter &w, const Plan &plan, const FieldsNames &n) {
  const StencilSpec &spec = plan.spec;
  const std::string element(elementTypeName(spec.precision));
  const std::string ns = stencilNamespace(plan);
  const BoundaryPolicy boundary = boundaryPolicy(spec);
  const int dims = spec.dims;
  const std::vector<std::string> terms = termRows(spec);
  const SimtPlan &sp = plan.simt();
  const std::array<int, 3> ring = fixedRingZyx(spec);
  // The chunk geometry: the step's, or with the plane kernel the ring
  // copy's (a thread a column of the plane kernel's block: the same
  // blocks along y and z, so the same launch limits).
  const bool planes = sp.planeField >= 0;
  struct {
    int tileX, tileY, chunkZ;
  } chunks = {planes ? 32 : sp.tileX, sp.tileY, sp.chunkZ};
  w.fillWith(
      templateSection("fields.cu.tpl", "stencil"), fmt::arg("guard_begin", kernelGuardBegin(plan)),
      fmt::arg("guard_end", kernelGuardEnd(plan)), fmt::arg("name", spec.name),
      fmt::arg("namespace", ns), fmt::arg("boundary_value", boundary.valueStruct),
      fmt::arg("element", element),
      fmt::arg("compute", sp.compute == Precision::FP64 ? "double" : "float"),
      fmt::arg("boundary", boundary.type), fmt::arg("field_count", spec.fields.size()),
      fmt::arg("term_count", spec.fieldTerms.size()), fmt::arg("terms", joinWith(terms, "\n")),
      fmt::arg("stepped_field", spec.steppedField), fmt::arg("previous_field", spec.previousField),
      fmt::arg("sources", spec.injectsSources ? "true" : "false"),
      fmt::arg("threads_x", chunks.tileX), fmt::arg("threads_y", chunks.tileY),
      fmt::arg("chunk_z", chunks.chunkZ), fmt::arg("chunk_axis", dims == 3 ? 0 : 1),
      fmt::arg("threads", sp.threads), fmt::arg("ring_threads", chunks.tileX * chunks.tileY),
      fmt::arg("plane_field", sp.planeField), fmt::arg("plane_tile_x", planes ? sp.tileX : 0),
      fmt::arg("plane_tile_y", planes ? sp.tileY : 0),
      fmt::arg("plane_threads", planes ? sp.threads : 0),
      fmt::arg("planes_z", planes ? sp.chunkZ : 0),
      fmt::arg("planes_ahead", planes ? sp.buffers - sp.queueLength() : 0),
      // The fixed ring, not the plane kernel's reach along each axis, which
      // may be shorter.
      fmt::arg("ring_z", ring[0]), fmt::arg("ring_y", ring[1]), fmt::arg("ring_x", ring[2]),
      fmt::arg("min_size", spec.smallestExtent()),
      fmt::arg("field_params_const", n.fieldParamsConst), fmt::arg("param_params", n.paramParams),
      fmt::arg("field_list", n.fieldList), fmt::arg("param_args_first", n.paramArgsFirst));
  if (plan.schedule.fusedSteps > 1) {
    w.line();
    const int r = steppedReach(spec);
    // 2D: fused.cuh's Geometry takes the reach and terms; 3D: fused3d.cuh's
    // takes the offsets of the stepped field's reads (fields::SteppedReads).
    const std::string reads =
        dims == 3 ? fmt::format("using Stencil = fields::SteppedReads<Fields>; // reaching {}", r)
                  : fmt::format("struct Stencil {{\n    static constexpr int kRadius = {};\n    "
                                "static constexpr int kTerms = {};\n  }};",
                                r, spec.fieldTerms.size());
    w.fillWith(
        templateSection("fields.cu.tpl", "fused"), fmt::arg("name", spec.name),
        fmt::arg("kernel_header", dims == 3 ? "fields_fused3d.cuh" : "fields_fused.cuh"),
        fmt::arg("base_geometry", dims == 3 ? "fused3d.cuh's Geometry, its queue lengthened by "
                                              "fields::Geometry3,"
                                            : "fused.cuh's Geometry"),
        fmt::arg("stencil_reads", reads),
        fmt::arg("geometry_type", dims == 3 ? "fields::Geometry3" : "fused::Geometry"),
        fmt::arg("namespace", ns), fmt::arg("element", element),
        fmt::arg("compute", sp.compute == Precision::FP64 ? "double" : "float"),
        fmt::arg("boundary", boundary.type), fmt::arg("stepped", n.stepped), fmt::arg("radius", r),
        fmt::arg("steps", plan.schedule.fusedSteps), fmt::arg("geometry", fusedGeometryLines(plan)),
        fmt::arg("min_points", plan.schedule.fused.minGridPoints));
  }
}

} // namespace stencilc
