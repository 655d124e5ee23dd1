//===- FieldsPlanner.cpp - The CUDA-core plan of a stencil of fields --------===//
//
// A stencil of fields (several input fields, coefficient fields, run-time
// parameters; docs/language.md) runs on CUDA cores, a thread a chunk of
// outputs along the outermost axis or, in 3D where one field is read off the
// point, the plane kernel (stencilc/device/fields.cuh), one step a launch:
// the fused kernels do not take it yet, and the tensor cores only where
// asked (Tensor/TensorFields.cpp).
// This is its plan and its `--emit=plan` text.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtPlanner.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "llvm/Support/raw_ostream.h"

#include "Backends/Common/PlanText.h"
#include "Backends/Simt/SimtCodeGen.h"

namespace stencilc {

namespace {

/// The block and chunk where --plan-option leaves them open, from the one
/// step of bench/fields on an H100 (2026-11-25 06:35 UTC, percent of the
/// copy roofline counting every stream; docs/performance.md, "Stencils of
/// fields, a chunk a thread"):
/// - 2D: a chunk of 4 rows a thread. fp32 in blocks of 8 x 32 threads
///   (wave2d 98.8 %, varheat 90.3 %, against 91.9 % and 61.0 % for a thread
///   a point); fp64 in 4 x 32 (101.4 %, 96.0 %, against 102.3 % and 87.1 %).
/// - 3D that reads along z: fp32 a chunk of 2 planes (wave3d r4 77.8 %),
///   fp64 a thread a point (82.5 %); longer chunks were slower (8: 70.6 %
///   and 67.3 %; 16: 66.8 % and 59.0 %).
/// - 3D that does not read along z, and 1D: a thread a point.
/// fp16 and bf16 (fp32 arithmetic) take fp32's; they were not measured.
struct FieldsBlock {
  int tileY;
  int chunk;
};
FieldsBlock defaultFieldsBlock(const StencilSpec &spec, bool zReads) {
  const bool fp64 = spec.precision == Precision::FP64;
  if (spec.dims == 2) {
    return {fp64 ? 4 : 8, 4};
  }
  if (spec.dims == 3) {
    return {8, zReads && !fp64 ? 2 : 1};
  }
  return {1, 1};
}

/// How far the terms read along an axis of the spec (0 the outermost),
/// coefficient fields included.
int axisReach(const StencilSpec &spec, int axis) {
  int r = 0;
  for (const FieldTerm &t : spec.fieldTerms) {
    r = std::max(r, std::abs(t.offset.d[axis]));
    if (t.coefficientField >= 0) {
      r = std::max(r, std::abs(t.coefficientOffset.d[axis]));
    }
  }
  return r;
}

/// The plane kernel's block where --plan-option leaves it open, from the
/// one step of wave3d r4 (bench/fields) on an H100, 2026-11-25 12:34 UTC
/// (percent of the copy roofline counting every stream; docs/performance.md,
/// "Sums by coefficient field"): blocks of 16 x 32 outputs of 32 planes
/// and 256 threads; fp32 with 2 planes in flight (87.3-87.5 %; 83.5 % with
/// 64 planes), fp64 with 1 (90.3 %; 88.5-88.8 % with 64 planes, 85.2 %
/// with 64 planes and 128 threads).
struct PlaneBlock {
  int tileX, tileY, threads, planes, ahead;
};
PlaneBlock defaultPlaneBlock(Precision p) {
  return p == Precision::FP64 ? PlaneBlock{32, 16, 256, 32, 1} : PlaneBlock{32, 16, 256, 32, 2};
}

/// The field the plane kernel streams: in 3D, the one field read off the
/// output point (as an input or a coefficient) where every other is read
/// only at it; -1 for any other stencil, and for fp16 and bf16 (the plane
/// kernel measured 42 % of the roofline there, 10:17 UTC: they keep the
/// chunk kernel).
int planeFieldOf(const StencilSpec &spec) {
  if (spec.dims != 3 || isSixteenBit(spec.precision)) {
    return -1;
  }
  int field = -1;
  const auto read = [&](int f, const Offset &o) {
    if (o.d[0] == 0 && o.d[1] == 0 && o.d[2] == 0) {
      return true;
    }
    if (field >= 0 && field != f) {
      return false;
    }
    field = f;
    return true;
  };
  for (const FieldTerm &t : spec.fieldTerms) {
    if (!read(t.field, t.offset) ||
        (t.coefficientField >= 0 && !read(t.coefficientField, t.coefficientOffset))) {
      return -1;
    }
  }
  return field;
}

/// Fills in the plane kernel's part of the plan (SimtPlan::planeField) for
/// `field`; returns why it cannot take it (more than 32 rows a block, or a
/// ring past the shared memory a block may take), or nothing.
std::string planePlan(const StencilSpec &spec, const PlanOptions &options, int field,
                      SimtPlan &sp) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  sp.planeField = field;
  sp.vectorWidth = 16 / bytes;
  sp.radiusZ = axisReach(spec, 0);
  sp.radiusY = axisReach(spec, 1);
  sp.radiusX = axisReach(spec, 2);
  const PlaneBlock block = defaultPlaneBlock(spec.precision);
  const int tileX = options.tileX ? options.tileX : block.tileX;
  sp.tileX = (tileX + sp.vectorWidth - 1) / sp.vectorWidth * sp.vectorWidth;
  sp.tileY = options.tileY ? options.tileY : block.tileY;
  sp.threads = options.threads ? options.threads : block.threads;
  sp.chunkZ = options.chunkZ ? options.chunkZ : block.planes;
  sp.minChunkZ = sp.chunkZ;
  sp.outputsX = 1;
  sp.buffers = 2 * sp.radiusZ + 1 + (options.stages ? options.stages : block.ahead);
  deriveGeometry(spec, sp);
  if (sp.tileY > 32) { // the ring copy puts a thread row on each output row
    return fmt::format("the plane kernel takes at most 32 rows a block (tile-y), not {}", sp.tileY);
  }
  const int limit = info(options.target).maxDynamicSharedBytes;
  if (sp.sharedBytes() <= limit) {
    return "";
  }
  return fmt::format("the plane kernel's ring of {} planes of {} x {} elements ({} bytes) passes "
                     "the {} bytes of shared memory a block of {} may take: ask for a smaller "
                     "tile-x, tile-y or stages",
                     sp.buffers, sp.planeRows, sp.pitch, sp.sharedBytes(), limit,
                     keyword(options.target));
}

/// What a thread computes: "a chunk of 4 outputs along y", "an output".
std::string chunkText(const Plan &plan) {
  const int chunk = plan.simt().chunkZ;
  if (chunk == 1) {
    return "an output";
  }
  return fmt::format("a chunk of {} outputs along {}", chunk, plan.spec.dims == 3 ? "z" : "y");
}

/// The outputs of a block, outermost axis first: "32 x 32" (2D, 8 rows of
/// threads a chunk of 4 rows each), "8 x 8 x 32" (3D).
std::string blockOutputsText(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  if (plan.spec.dims == 1) {
    return fmt::format("{}", sp.tileX);
  }
  if (plan.spec.dims == 2) {
    return fmt::format("{} x {}", sp.tileY * sp.chunkZ, sp.tileX);
  }
  return fmt::format("{} x {} x {}", sp.chunkZ, sp.tileY, sp.tileX);
}

/// The plan with its step kernel, and the schedule of NAME_run
/// (FieldsFusion.cpp).
Plan finishFieldsPlan(Plan plan, const SimtPlan &sp, const PlanOptions &options) {
  plan.kernel = sp;
  plan.choice = "the kernel of a stencil of fields";
  planFieldsFusion(plan, options);
  return plan;
}

} // namespace

PlanOrRefusal planFields(const StencilSpec &spec, const PlanOptions &options) {
  Plan plan;
  plan.spec = spec;
  plan.target = options.target;
  SimtPlan sp;
  sp.compute = spec.precision == Precision::FP64 ? Precision::FP64 : Precision::FP32;
  // A thread a chunk of outputs along the outermost axis (z in 3D, y in 2D),
  // in blocks of 32 threads across x (256 in 1D) (fields.cuh).
  auto readsZ = [](const FieldTerm &t) {
    return t.offset.d[0] != 0 || (t.coefficientField >= 0 && t.coefficientOffset.d[0] != 0);
  };
  const bool zReads =
      spec.dims == 3 && std::any_of(spec.fieldTerms.begin(), spec.fieldTerms.end(), readsZ);
  // The plane kernel where the stencil has its form and its ring fits; a
  // ring that does not fit is an error where options asked for its block,
  // else the chunk kernel takes the stencil.
  if (const int field = planeFieldOf(spec); field >= 0) {
    SimtPlan planes = sp;
    const std::string why = planePlan(spec, options, field, planes);
    if (why.empty()) {
      return finishFieldsPlan(std::move(plan), planes, options);
    }
    if (options.tileX || options.tileY || options.stages) {
      return PlanOrRefusal::refused(why);
    }
  }
  // A 1D grid has one row: tile-y and chunk-z do not reach it (the driver
  // warns).
  const FieldsBlock block = defaultFieldsBlock(spec, zReads);
  sp.tileX = options.tileX ? options.tileX : spec.dims == 1 ? 256 : 32;
  sp.tileY = spec.dims == 1 ? 1 : options.tileY ? options.tileY : block.tileY;
  sp.chunkZ = spec.dims == 1 ? 1 : options.chunkZ ? options.chunkZ : block.chunk;
  sp.minChunkZ = sp.chunkZ;
  sp.threads = sp.tileX * sp.tileY;
  if (sp.threads > 1024 || sp.threads % 32 != 0 ||
      (options.threads != 0 && options.threads != sp.threads)) {
    return PlanOrRefusal::refused(fmt::format(
        "a block of {} x {} threads{}: the kernel of a stencil of fields takes a block of a "
        "multiple of 32 threads, at most 1024, that is tile-x x tile-y",
        sp.tileX, sp.tileY,
        options.threads != 0 && options.threads != sp.threads
            ? fmt::format(", not the {} threads asked for", options.threads)
            : std::string()));
  }
  sp.radiusX = spec.radius;
  sp.radiusY = spec.dims >= 2 ? spec.radius : 0;
  sp.radiusZ = spec.dims == 3 ? spec.radius : 0;
  return finishFieldsPlan(std::move(plan), sp, options);
}

bool fieldsPlanTakesOption(const StencilSpec &spec, std::string_view name) {
  const bool rows = name == "tile-y" || name == "chunk-z";
  return name == "fuse" || name == "threads" || name == "tile-x" || (rows && spec.dims > 1) ||
         (name == "stages" && planeFieldOf(spec) >= 0);
}

std::string fieldsPlanOptionsText(const StencilSpec &spec) {
  if (planeFieldOf(spec) >= 0) {
    return "the plane kernel of a 3D stencil of fields takes threads, tile-x, tile-y, chunk-z "
           "and stages only";
  }
  return fmt::format("the CUDA-core kernel of a stencil of fields takes threads, tile-x, tile-y "
                     "and chunk-z only{}",
                     spec.dims == 1 ? ", and a 1D one (a single row) threads and tile-x" : "");
}

void printFieldsPlanBody(const Plan &plan, llvm::raw_ostream &os) {
  const StencilSpec &spec = plan.spec;
  const SimtPlan &sp = plan.simt();
  std::string fields;
  for (const FieldDecl &f : spec.fields) {
    fields += fmt::format("{}{}{}", fields.empty() ? "" : ", ", f.name,
                          f.role == FieldRole::Coefficient ? " (coefficient)" : "");
  }
  os << "  fields     " << fields << "; " << elementTypeName(spec.precision) << " each\n";
  if (!spec.params.empty()) {
    std::string params;
    for (std::size_t p = 0; p < spec.params.size(); ++p) {
      params +=
          (params.empty() ? "" : ", ") + spec.params[p] + (spec.isPerStep(p) ? " (per step)" : "");
    }
    os << "  params     " << params
       << ": the coefficients that use them are evaluated in double on the host every call\n";
  }
  os << fmt::format("  arithmetic {} FMAs ({}), one a term; a term with a coefficient field "
                    "multiplies its coefficient by the field's value first (one rounding)\n",
                    keyword(sp.compute), sp.compute == Precision::FP64 ? "__fma_rn" : "__fmaf_rn");
  if (sp.planeField >= 0) {
    os << fmt::format("  block      {} threads: {} x {} outputs of {} planes, up to {} a thread "
                      "(stencilc/device/fields.cuh, the plane kernel)\n",
                      sp.threads, sp.tileY, sp.tileX, sp.chunkZ, sp.itemsPerThread);
    os << fmt::format("  planes     {} streamed through a ring of {} planes of {} x {} elements in "
                      "shared memory ({} bytes{}), {} in flight by cp.async; every other field "
                      "read at the point\n",
                      spec.fields[sp.planeField].name, sp.buffers, sp.planeRows, sp.pitch,
                      sp.sharedBytes(), sp.dynamicShared() ? ", dynamic" : "",
                      sp.buffers - sp.queueLength());
  } else {
    os << fmt::format("  block      {} threads, each {}: {} outputs (stencilc/device/fields.cuh; a "
                      "chunk whose reads are all inside the grid reads them directly, the others "
                      "through the boundary rule)\n",
                      sp.threads, chunkText(plan), blockOutputsText(plan));
  }
  os << "  boundary   " << boundaryPlanText(spec) << "\n";
  os << fmt::format("  terms      {}, coefficients rounded once to {}\n", spec.fieldTerms.size(),
                    keyword(sp.compute));
  if (plan.schedule.fusedSteps == 1) {
    os << fmt::format("  bytes      {} a point and step: every field read once and {} written\n",
                      unfusedBytes(spec), spec.fields[spec.steppedField].name);
  }
}

std::string fieldsThreadText(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  if (sp.planeField >= 0) {
    return fmt::format("the plane kernel, blocks of {} x {} outputs of {} planes, {} through "
                       "shared memory",
                       sp.tileY, sp.tileX, sp.chunkZ, plan.spec.fields[sp.planeField].name);
  }
  return fmt::format("a thread {}, in blocks of {}", chunkText(plan), blockOutputsText(plan));
}

std::string summarizeFieldsPlan(const Plan &plan) {
  const SimtPlan &sp = plan.simt();
  return fmt::format("simt backend, a stencil of {} fields, {} arithmetic; {}; {} terms, one FMA "
                     "each",
                     plan.spec.fields.size(), keyword(sp.compute), fieldsThreadText(plan),
                     plan.spec.fieldTerms.size());
}

} // namespace stencilc
