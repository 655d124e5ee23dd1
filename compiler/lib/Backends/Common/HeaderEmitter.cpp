//===- HeaderEmitter.cpp - The .h of a file's stencils ---------------------===//
//
// The C API of docs/generated-code.md for every stencil (NAME_step, NAME_run, with
// C linkage) and its stencilc_stencil_info, from Common/templates/header.h.tpl.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cctype>
#include <cstdint>

#include <fmt/format.h>

#include "Backends/Common/Backend.h"
#include "Backends/Common/CodeGen.h"
#include "Backends/Common/CodeWriter.h"
#include "Backends/Common/EmitterParts.h"

namespace stencilc {

namespace {

constexpr std::string_view HeaderTemplate = "header.h.tpl";

std::string_view section(std::string_view name) { return templateSection(HeaderTemplate, name); }

std::string includeGuard(const CodeGenOptions &options) {
  std::string base = options.headerInclude;
  std::size_t slash = base.find_last_of('/');
  if (slash != std::string::npos) {
    base = base.substr(slash + 1);
  }
  std::string guard = "STENCILC_GENERATED_";
  for (char c : base) {
    guard += std::isalnum(static_cast<unsigned char>(c))
                 ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                 : '_';
  }
  return guard;
}

std::string upper(std::string_view text) {
  std::string result;
  for (char c : text) {
    result += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return result;
}

std::string pointsTable(const StencilSpec &spec) {
  std::string text;
  for (std::size_t i = 0; i < spec.terms.size(); ++i) {
    const Term &t = spec.terms[i];
    text +=
        fmt::format("  {{{{{}, {}, {}}}, {}}}{}", t.offset.d[0], t.offset.d[1], t.offset.d[2],
                    numberLiteral(t.coefficient, false), i + 1 < spec.terms.size() ? ",\n" : "");
  }
  return text;
}

/// The outputs one block computes, in index order (3 entries, trailing 1s,
/// when `separator` is ", "; only the stencil's dimensions otherwise).
std::string tileText(const Plan &plan, std::string_view separator) {
  std::vector<int> tile = backendFor(plan).headerNotes(plan).tile;
  if (separator == ", ") {
    tile.resize(3, 1);
  }
  std::string text;
  for (int t : tile) {
    text += (text.empty() ? "" : std::string(separator)) + std::to_string(t);
  }
  return text;
}

/// NAME_run's ring, for a fixed boundary: the step kernels leave it
/// unwritten, and the composed passes copy a into b first, so b's ring is
/// first made a's; the fused kernels of the CUDA cores store it with its
/// kept value.
std::string runNote(const Plan &plan) {
  if (plan.spec.boundary != BoundaryKind::Fixed) {
    return {};
  }
  if (plan.schedule.fusedSteps > 1 && !plan.schedule.composed && !plan.schedule.rankOne) {
    return " The ring of a is kept at every step:\n * each pass stores it unchanged.";
  }
  return " The ring of b is first made equal to the ring of a,\n * so it stays fixed for every "
         "step.";
}

std::string extentText(int dims) {
  return dims == 1 ? "nx" : dims == 2 ? "ny x nx" : "nz x ny x nx";
}

/// The step counts NAME_pass takes: one launch of the fused kernel (1 to
/// T), the composed pass or one step (tensor cores), or one step.
std::string passNote(const Plan &plan) {
  const int t = plan.schedule.fusedSteps;
  if (t <= 1) {
    return "steps = 1";
  }
  return plan.schedule.composed || plan.schedule.rankOne ? fmt::format("steps = 1 or {}", t)
                                                         : fmt::format("steps from 1 to {}", t);
}

/// What NAME_pass_range does with a fixed boundary's ring: a fused pass
/// stores in's there; the one-step form leaves out's as it was, as
/// NAME_step does, so that a caller alternating two buffers copies the ring
/// once (the distributed runtime does) instead of every pass.
std::string ringNote(const Plan &plan) {
  if (plan.schedule.fusedSteps > 1) {
    return " The fixed ring on the range is in's.";
  }
  // (Continuation lines take the template line's indentation, " ".)
  return fmt::format("\n* The fixed ring of out is left as it was, as {}_step leaves it: give\n"
                     "* out in's ring first (once, for passes that alternate two buffers).",
                     plan.spec.name);
}

/// NAME_pass_range's declaration, where the stencil has it (passTakesRange).
std::string passRangeDeclaration(const Plan &plan) {
  if (!passTakesRange(plan)) {
    return {};
  }
  const StencilSpec &spec = plan.spec;
  const bool fixed = spec.boundary == BoundaryKind::Fixed;
  std::string text = "\n"; // (not "\n" + filled(...): GCC 12's -Wrestrict misfires on it)
  return text += CodeWriter::filled(section("pass_range"), fmt::arg("name", spec.name),
                                    fmt::arg("element", elementTypeName(spec.precision)),
                                    fmt::arg("size_params", sizeParameters(spec.dims)),
                                    fmt::arg("outer", spec.dims == 2 ? "rows" : "planes"),
                                    fmt::arg("size", spec.dims == 2 ? "ny" : "nz"),
                                    fmt::arg("ring", fixed ? ringNote(plan) : ""));
}

/// NAME_dist_*: the distributed runtime's wrappers (docs/distributed.md),
/// compiled where STENCILC_DIST is defined.
void emitDistWrappers(CodeWriter &w, const Plan &plan) {
  std::string sizes;
  for (int a = 0; a < plan.spec.dims; ++a) {
    sizes += fmt::format("{}n[{}]", a ? ", " : "", a);
  }
  const std::string element(elementTypeName(plan.spec.precision));
  const bool range = passTakesRange(plan);
  const std::string rangeWrapper =
      range ? CodeWriter::filled(section("pass_range_dist"), fmt::arg("name", plan.spec.name),
                                 fmt::arg("element", element), fmt::arg("size_elements", sizes))
            : "";
  w.line();
  w.fillWith(section("stencil_dist"), fmt::arg("name", plan.spec.name),
             fmt::arg("element", element), fmt::arg("size_elements", sizes),
             fmt::arg("pass_range_wrapper", rangeWrapper),
             fmt::arg("pass_range_pointer",
                      range ? plan.spec.name + "_dist_pass_range_sizes" : std::string("NULL")));
}

} // namespace

std::string emitHeader(const std::vector<Plan> &plans, const CodeGenOptions &options) {
  CodeWriter w;
  w.line("/* Generated by stencilc {} from {}; do not edit.", options.compilerVersion,
         options.inputFile.empty() ? std::string("<stdin>") : options.inputFile);
  w.line(" * The C API of the stencils in it (see stencilc's docs/generated-code.md). */");
  const std::string extraIncludes = elementTypeIncludes(plans);
  const std::string guard = includeGuard(options);
  w.fillWith(section("file_head"), fmt::arg("guard", guard),
             fmt::arg("extra_includes", extraIncludes));
  for (const Plan &plan : plans) {
    const StencilSpec &spec = plan.spec;
    const HeaderNotes notes = backendFor(plan).headerNotes(plan);
    w.line();
    if (spec.hasFields()) {
      HeaderFacts facts;
      facts.description = fmt::format("{}D {} stencil of fields of radius {}, {} terms, {}",
                                      spec.dims, keyword(spec.shape), spec.radius,
                                      spec.fieldTerms.size(), keyword(spec.precision));
      facts.extentText = extentText(spec.dims);
      facts.boundaryNote = boundaryHeaderText(spec);
      facts.limitNote = notes.limits;
      facts.shapeEnum = "STENCILC_" + upper(keyword(spec.shape));
      facts.precisionEnum = "STENCILC_" + upper(keyword(spec.precision));
      facts.boundaryEnum = "STENCILC_BOUNDARY_" + upper(keyword(spec.boundary));
      facts.backendEnum = "STENCILC_BACKEND_" + upper(keyword(plan.backend()));
      facts.tile = tileText(plan, ", ");
      writeFieldsHeader(w, plan, facts); // FieldsHostApi.cpp
      continue;
    }
    w.fillWith(
        section("stencil_api"), fmt::arg("name", spec.name),
        fmt::arg("description", fmt::format("{}D {} stencil of radius {}, {} points, {}", spec.dims,
                                            keyword(spec.shape), spec.radius, spec.points(),
                                            keyword(spec.precision))),
        fmt::arg("backend", keyword(plan.backend())), fmt::arg("tile_text", tileText(plan, " x ")),
        fmt::arg("tile", tileText(plan, ", ")), fmt::arg("size_params", sizeParameters(spec.dims)),
        fmt::arg("extent_text", extentText(spec.dims)),
        fmt::arg("offset_order", spec.dims == 1   ? "x"
                                 : spec.dims == 2 ? "y, x"
                                                  : "z, y, x"),
        fmt::arg("dims", spec.dims), fmt::arg("element", elementTypeName(spec.precision)),
        fmt::arg("boundary_note", boundaryHeaderText(spec)),
        fmt::arg("min_size", spec.smallestExtent()), fmt::arg("run_note", runNote(plan)),
        fmt::arg("count", spec.points()), fmt::arg("points", pointsTable(spec)),
        fmt::arg("radius", spec.radius),
        fmt::arg("shape", "STENCILC_" + upper(keyword(spec.shape))),
        fmt::arg("precision", "STENCILC_" + upper(keyword(spec.precision))),
        fmt::arg("boundary", boundaryEnumerator(spec)),
        fmt::arg("boundary_value", numberLiteral(spec.boundaryValue, false)),
        fmt::arg("backend_enum", "STENCILC_BACKEND_" + upper(keyword(plan.backend()))),
        fmt::arg("fused_steps", plan.schedule.fusedSteps),
        fmt::arg("run_composed", plan.schedule.composed || plan.schedule.rankOne ? 1 : 0),
        fmt::arg("limit_note", notes.limits),
        fmt::arg("fused_note", plan.schedule.fusedSteps == 1 ? std::string() : notes.fusedRun),
        fmt::arg("pass_note", passNote(plan)), fmt::arg("pass_range", passRangeDeclaration(plan)));
    emitDistWrappers(w, plan);
  }
  w.line();
  w.fillWith(section("file_tail"), fmt::arg("guard", guard));
  return w.take();
}

std::string blockLimitSentence(std::string_view axis, long long most, std::string_view per) {
  return fmt::format("\n* Also for {} above {} (65535 blocks of {}: CUDA's launch limit).", axis,
                     most, per);
}

std::string boundaryEnumerator(const StencilSpec &spec) {
  return "STENCILC_BOUNDARY_" + upper(keyword(spec.boundary));
}

} // namespace stencilc
