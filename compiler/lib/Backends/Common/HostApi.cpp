//===- HostApi.cpp - The C entry points every generated stencil shares ------===//
#include <fmt/format.h>

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

std::string sizeParameters(int dims) { return joined(dims, "int {n}", ", "); }

std::string sizeArguments(int dims) { return joined(dims, "{n}", ", "); }

std::string stencilNamespace(const Plan &plan) { return "stencilc_gen_" + plan.spec.name; }

void writeHostApi(CodeWriter &w, const Plan &plan, std::string_view ns, std::string_view launch) {
  const StencilSpec &spec = plan.spec;
  const int dims = spec.dims;
  std::string ringCopy;
  if (spec.boundary == BoundaryKind::Fixed) {
    ringCopy = CodeWriter::filled(templateSection("host_api.cu.tpl", "ring_copy_fixed"));
  }
  w.fillWith(templateSection("host_api.cu.tpl", "host_api"), fmt::arg("namespace", ns),
             fmt::arg("name", spec.name), fmt::arg("element", elementTypeName(spec.precision)),
             fmt::arg("size_params", sizeParameters(dims)),
             fmt::arg("size_args", sizeArguments(dims)),
             fmt::arg("size_too_small", joined(dims, "{n} < kMinSize", " || ")),
             fmt::arg("size_product", joined(dims, "static_cast<size_t>({n})", " * ")),
             fmt::arg("launch", launch), fmt::arg("ring_copy", ringCopy));
}

std::string writeVectorLoad(CodeWriter &w, int prefetchBytes, std::string_view address) {
  if (!prefetchBytes) {
    return fmt::format("__ldg(reinterpret_cast<const uint4*>({}))", address);
  }
  w.fillWith(templateSection("simt.cu.tpl", "load_prefetching"), fmt::arg("bytes", prefetchBytes));
  w.line();
  return fmt::format("loadPrefetching({})", address);
}

void writeBoundaryRead(CodeWriter &w, const StencilSpec &spec, std::string_view kernelTemplate) {
  switch (spec.boundary) {
  case BoundaryKind::Fixed:
    w.fillWith(templateSection(kernelTemplate, "read_fixed"));
    return;
  case BoundaryKind::Constant:
    // V is rounded to the element type, as a read of the grid would be.
    w.fillWith(
        templateSection(kernelTemplate, "read_constant"),
        fmt::arg("value_text", formatExact(spec.boundaryValue)),
        fmt::arg("value_literal", numberLiteral(roundToStorage(spec.boundaryValue, spec.precision),
                                                spec.precision != Precision::FP64)));
    return;
  case BoundaryKind::Periodic:
    w.fillWith(templateSection(kernelTemplate, "read_periodic"));
    return;
  }
}

} // namespace stencilc
