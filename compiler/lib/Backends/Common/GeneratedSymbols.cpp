//===- GeneratedSymbols.cpp - The names the generated files define --------===//
//
// Every name a stencil's generated code defines is made from the stencil's
// name (`NAME_step`, `NAME_fields_info`, `namespace stencilc_gen_NAME`), so
// two stencils of one file can define one name (`a` with fields and
// `a_fields`). The emitters are the one place that knows those names: the
// code is generated for a stencil named by a marker that appears nowhere
// else, and each identifier holding the marker is a name to spell with the
// stencil's own name. No list to keep in step with the templates.
//
//===----------------------------------------------------------------------===//
#include <cctype>
#include <set>
#include <string>
#include <string_view>

#include "CodeGen.h"

namespace stencilc {

namespace {

/// A name no stencil of a file can have: the language reserves `stencilc`.
constexpr std::string_view Marker = "stencilcGeneratedNameMarker";

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The identifiers of C or C++ `text`, outside comments and literals.
std::set<std::string> identifiers(std::string_view text) {
  std::set<std::string> names;
  std::size_t i = 0;
  auto skipPast = [&](std::string_view end) {
    std::size_t at = text.find(end, i);
    i = at == std::string_view::npos ? text.size() : at + end.size();
  };
  while (i < text.size()) {
    const char c = text[i];
    if (text.substr(i, 2) == "//") {
      skipPast("\n");
    } else if (text.substr(i, 2) == "/*") {
      i += 2;
      skipPast("*/");
    } else if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i) {
        i += text[i] == '\\'; // an escaped quote does not end the literal
      }
      ++i;
    } else if (isIdentifierChar(c)) {
      const std::size_t start = i;
      while (i < text.size() && (isIdentifierChar(text[i]) || text[i] == '.')) {
        ++i; // a number's digits, exponent and suffix are one token
      }
      if (!std::isdigit(static_cast<unsigned char>(c))) {
        names.emplace(text.substr(start, i - start));
      }
    } else {
      ++i;
    }
  }
  return names;
}

/// The names of generated `text` made from the marker, spelled with `name`.
std::set<std::string> markedNames(std::string_view text, const std::string &name) {
  std::set<std::string> symbols;
  for (std::string identifier : identifiers(text)) {
    if (identifier.find(Marker) == std::string::npos) {
      continue; // the runtime's, CUDA's, the fields' and parameters' names
    }
    for (std::size_t at; (at = identifier.find(Marker)) != std::string::npos;) {
      identifier.replace(at, Marker.size(), name);
    }
    symbols.insert(std::move(identifier));
  }
  return symbols;
}

} // namespace

std::set<std::string> generatedSymbols(const Plan &plan, const CodeGenOptions &options) {
  Plan marked = plan;
  marked.spec.name = Marker;
  return markedNames(emitCudaSource({marked}, options) + emitHeader({marked}, options),
                     plan.spec.name);
}

std::set<std::string> generatedSymbols(llvm::ArrayRef<Plan> perArch, llvm::ArrayRef<Arch> archs,
                                       const CodeGenOptions &options) {
  std::vector<std::vector<Plan>> marked;
  for (const Plan &plan : perArch) {
    marked.push_back({plan});
    marked.back().front().spec.name = Marker;
  }
  const MultiArchParts parts = multiArchParts(marked, archs, options);
  const std::string text = emitMultiArchCuda(parts.renamed, archs, parts.headers, options) +
                           emitMultiArchHeader(parts.headers, archs, {std::string(Marker)});
  return markedNames(text, perArch.front().spec.name);
}

} // namespace stencilc
