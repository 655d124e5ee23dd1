//===- HostApi.cpp - The C entry points every generated stencil shares ------===//
#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "llvm/ADT/APFloat.h"

#include "Backends/Common/Backend.h"
#include "Backends/Common/CodeGen.h"
#include "Backends/Common/EmitterParts.h"

namespace stencilc {

namespace {

/// The extents' names in index order.
std::vector<std::string_view> sizeNames(int dims) {
  switch (dims) {
  case 1:
    return {"nx"};
  case 2:
    return {"ny", "nx"};
  default:
    return {"nz", "ny", "nx"};
  }
}

std::string joined(int dims, std::string_view pattern, std::string_view separator) {
  std::string text;
  for (std::string_view n : sizeNames(dims)) {
    text += (text.empty() ? "" : std::string(separator)) +
            fmt::format(fmt::runtime(pattern), fmt::arg("n", n));
  }
  return text;
}

} // namespace

unsigned sixteenBits(double value, Precision element) {
  llvm::APFloat bits(value);
  bool losesInfo = false;
  bits.convert(storageSemantics(element), llvm::RoundingMode::NearestTiesToEven, &losesInfo);
  return static_cast<unsigned>(bits.bitcastToAPInt().getZExtValue());
}

std::string sizeParameters(int dims) { return joined(dims, "int {n}", ", "); }

std::string sizeArguments(int dims) { return joined(dims, "{n}", ", "); }

std::string_view fusedKernelNamespace(int dims) {
  return dims == 1 ? "fused1d" : dims == 2 ? "fused" : "fused3d";
}

std::string stencilNamespace(const Plan &plan) { return "stencilc_gen_" + plan.spec.name; }

bool passTakesRange(const Plan &plan) {
  // A pass followed by a band (composed, or fused under a folding rule)
  // stores the band's points whatever the range.
  return plan.spec.dims >= 2 && !plan.schedule.composed && !plan.schedule.rankOne &&
         !plan.schedule.fused.band &&
         (plan.schedule.fusedSteps > 1 || backendFor(plan).stepKernelTakesRange());
}

namespace {

/// NAME_pass_range (passTakesRange): the fused kernel's ranged pass, or the
/// step kernel's ranged launch (simt::launchRange, on the step kernel's
/// view: rows of ny x 1 x nx in 2D, planes in 3D), which leaves a fixed
/// boundary's ring of out as it was (the caller gives out in's ring).
std::string passRangeFunction(const Plan &plan, std::string_view ns) {
  if (!passTakesRange(plan)) {
    return {};
  }
  const StencilSpec &spec = plan.spec;
  const int dims = spec.dims;
  const std::string element(elementTypeName(spec.precision));
  const std::string_view outer = dims == 2 ? "rows" : "planes";
  std::string body;
  if (plan.schedule.fusedSteps > 1) {
    body = CodeWriter::filled(templateSection("host_api.cu.tpl", "pass_range_fused"),
                              fmt::arg("kernel", fusedKernelNamespace(dims)),
                              fmt::arg("size_args", sizeArguments(dims)), fmt::arg("outer", outer));
  } else {
    const std::string_view ringNote =
        spec.boundary == BoundaryKind::Fixed
            ? "; out's fixed ring is left as it was (the caller gives it in's)"
            : "";
    body = CodeWriter::filled(templateSection("host_api.cu.tpl", "pass_range_steps"),
                              fmt::arg("outer", outer), fmt::arg("ring_note", ringNote),
                              fmt::arg("view", dims == 2 ? "ny, 1, nx" : "nz, ny, nx"));
  }
  return std::string(1, '\n') +
         CodeWriter::filled(
             templateSection("host_api.cu.tpl", "pass_range"), fmt::arg("name", spec.name),
             fmt::arg("namespace", ns), fmt::arg("element", element),
             fmt::arg("size_params", sizeParameters(dims)),
             fmt::arg("size_too_small", joined(dims, "{n} < kMinSize", " || ")),
             fmt::arg("outer", outer), fmt::arg("extent", dims == 2 ? "ny" : "nz"),
             fmt::arg("size_product", joined(dims, "static_cast<size_t>({n})", " * ")),
             fmt::arg("body", body));
}

} // namespace

void writeEntryPoints(CodeWriter &w, const Plan &plan, std::string_view ns, std::string_view launch,
                      const PassBodies *fused) {
  const StencilSpec &spec = plan.spec;
  const int dims = spec.dims;
  const std::string sizeArgs = sizeArguments(dims);
  const std::string sizeProduct = joined(dims, "static_cast<size_t>({n})", " * ");
  std::string run, pass;
  if (fused) {
    run = fused->run;
    pass = fused->pass;
  } else if (plan.schedule.fusedSteps > 1) {
    const bool band = plan.schedule.fused.band.has_value();
    for (auto [body, section] : {std::pair{&run, band ? "run_fused_band" : "run_fused"},
                                 {&pass, band ? "pass_fused_band" : "pass_fused"}}) {
      *body = CodeWriter::filled(
          templateSection("host_api.cu.tpl", section), fmt::arg("steps", plan.schedule.fusedSteps),
          fmt::arg("kernel", fusedKernelNamespace(dims)), fmt::arg("size_args", sizeArgs));
    }
  } else {
    const bool fixed = spec.boundary == BoundaryKind::Fixed;
    const std::string element(elementTypeName(spec.precision));
    for (auto [body, section, ringSection] : {std::tuple{&run, "run_steps", "ring_copy_fixed"},
                                              {&pass, "pass_steps", "ring_copy_pass"}}) {
      const std::string ringCopy =
          fixed ? CodeWriter::filled(templateSection("host_api.cu.tpl", ringSection),
                                     fmt::arg("size_product", sizeProduct),
                                     fmt::arg("element", element))
                : "";
      *body = CodeWriter::filled(
          templateSection("host_api.cu.tpl", section), fmt::arg("name", spec.name),
          fmt::arg("element", element), fmt::arg("size_args", sizeArgs),
          fmt::arg("size_product", sizeProduct), fmt::arg("ring_copy", ringCopy));
    }
  }
  w.fillWith(templateSection("host_api.cu.tpl", "host_api"), fmt::arg("namespace", ns),
             fmt::arg("name", spec.name), fmt::arg("element", elementTypeName(spec.precision)),
             fmt::arg("size_params", sizeParameters(dims)),
             fmt::arg("size_too_small", joined(dims, "{n} < kMinSize", " || ")),
             fmt::arg("size_product", sizeProduct), fmt::arg("launch", launch),
             fmt::arg("run", run), fmt::arg("pass", pass),
             fmt::arg("pass_range", passRangeFunction(plan, ns)));
}

std::string bandTraits(const StencilSpec &spec, std::string_view name, int steps,
                       std::string_view boundary, std::string_view members) {
  const bool asFloat = spec.precision != Precision::FP64;
  std::string points;
  for (const Term &t : spec.terms) {
    const double c = asFloat ? double(float(t.coefficient)) : t.coefficient;
    points += fmt::format("{}    f({}, {}, {});", points.empty() ? "" : "\n", t.offset.d[0],
                          t.offset.d[1], numberLiteral(c, asFloat));
  }
  return CodeWriter::filled(
      templateSection("host_api.cu.tpl", "band_traits"), fmt::arg("band", name),
      fmt::arg("element", elementTypeName(spec.precision)),
      fmt::arg("compute", asFloat ? "float" : "double"), fmt::arg("boundary", boundary),
      fmt::arg("boundary_kind", boundaryEnumerator(spec)), fmt::arg("radius", spec.radius),
      fmt::arg("steps", steps), fmt::arg("ring", spec.ring()), fmt::arg("points", points),
      fmt::arg("members", members));
}

BoundaryPolicy boundaryPolicy(const StencilSpec &spec) {
  if (outsideRead(spec.boundary) != OutsideRead::Value) {
    return {std::string(boundaryPolicyType(spec.boundary)), ""};
  }
  // V is rounded to the element type, as a read of the grid would be; its
  // literal is a float (a double for fp64), converted as Element(literal).
  const bool asFloat = spec.precision != Precision::FP64;
  return {std::string(boundaryPolicyType(spec.boundary)),
          CodeWriter::filled(
              templateSection("host_api.cu.tpl", "boundary_value"),
              fmt::arg("value_text", formatExact(spec.boundaryValue)),
              fmt::arg("type", asFloat ? "float" : "double"),
              fmt::arg("literal", numberLiteral(roundToStorage(spec.boundaryValue, spec.precision),
                                                asFloat)))};
}

std::string alignedTable(const std::vector<std::string> &cells, std::size_t perLine) {
  std::size_t width = 0;
  for (const std::string &cell : cells) {
    width = std::max(width, cell.size());
  }
  std::string text;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    text += fmt::format("{:>{}},", cells[i], width);
    const bool lineEnds = (i + 1) % perLine == 0 || i + 1 == cells.size();
    text += lineEnds ? (i + 1 == cells.size() ? "" : "\n") : " ";
  }
  return text;
}

} // namespace stencilc
