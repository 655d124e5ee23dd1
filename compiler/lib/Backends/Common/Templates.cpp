//===- Templates.cpp - The embedded kernel templates, by section ------------===//
#include <algorithm>
#include <utility>
#include <vector>

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include "Backends/Common/CodeGen.h"

namespace stencilc {

namespace {

/// The template files of every registered library: Common's own, then each
/// backend's (registerTemplates, from its initialize function).
std::vector<TemplateFile> &templateFiles() {
  static std::vector<TemplateFile> files = {
#include "CommonTemplates.inc"
  };
  return files;
}

constexpr std::string_view SectionMarker = "//@ section ";

} // namespace

void registerTemplates(llvm::ArrayRef<TemplateFile> files) {
  std::vector<TemplateFile> &known = templateFiles();
  for (const TemplateFile &file : files) {
    if (std::none_of(known.begin(), known.end(),
                     [&](const TemplateFile &k) { return k.name == file.name; })) {
      known.push_back(file);
    }
  }
}

std::string_view templateSection(std::string_view file, std::string_view section) {
  for (const TemplateFile &tf : templateFiles()) {
    if (tf.name != file) {
      continue;
    }
    std::string marker = std::string(SectionMarker) + std::string(section) + "\n";
    std::size_t begin = tf.text.find(marker);
    if (begin == std::string_view::npos) {
      break;
    }
    begin += marker.size();
    std::size_t end = tf.text.find(SectionMarker, begin);
    std::string_view body =
        tf.text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
    // Trailing blank lines separate sections in the file; they are not code.
    while (body.size() >= 2 && body.substr(body.size() - 2) == "\n\n") {
      body.remove_suffix(1);
    }
    return body;
  }
  // A bug in stencilc, never a user error: fail loudly rather than emit half a file.
  llvm::report_fatal_error(llvm::Twine("no template section '") + section + "' in " + file);
}

} // namespace stencilc
