//===- Templates.cpp - The embedded kernel templates, by section ------------===//
#include <utility>

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include "Backends/Common/CodeGen.h"

namespace stencilc {

namespace {

struct TemplateFile {
  std::string_view name;
  std::string_view text;
};

const TemplateFile TemplateFiles[] = {
#include "Templates.inc"
};

constexpr std::string_view SectionMarker = "//@ section ";

} // namespace

std::string_view templateSection(std::string_view file, std::string_view section) {
  for (const TemplateFile &tf : TemplateFiles) {
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
