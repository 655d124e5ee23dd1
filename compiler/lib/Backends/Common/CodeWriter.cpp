//===- CodeWriter.cpp - Indentation, scopes and template filling -----------===//
#include "Backends/Common/CodeWriter.h"

#include <cassert>

namespace stencilc {

namespace {

bool isBlank(std::string_view text) {
  return text.find_first_not_of(" \t") == std::string_view::npos;
}

} // namespace

void CodeWriter::line(std::string_view text) {
  if (!isBlank(text)) {
    out.append(std::size_t(level * indentWidth), ' ');
    out.append(text);
  }
  out.push_back('\n');
}

void CodeWriter::openScope(std::string_view head) {
  line(head.empty() ? std::string("{") : fmt::format("{} {{", head));
  ++level;
}

void CodeWriter::closeScope(std::string_view trailer, std::string_view comment) {
  dedent();
  std::string text = fmt::format("}}{}", trailer);
  if (!comment.empty()) {
    text += fmt::format(" // {}", comment);
  }
  line(text);
}

void CodeWriter::dedent() {
  assert(level > 0 && "closing a scope that was never opened");
  --level;
}

void CodeWriter::fill(std::string_view templateText, fmt::format_args args) {
  // Lines are filled one by one: a template line is a complete fmt format
  // string (braces of the generated code are doubled), and a hole may expand
  // to several lines.
  std::size_t start = 0;
  while (start < templateText.size()) {
    std::size_t end = templateText.find('\n', start);
    if (end == std::string_view::npos) {
      end = templateText.size();
    }
    std::string_view source = templateText.substr(start, end - start);
    start = end + 1;
    std::string filled = fmt::vformat(source, args);
    if (isBlank(filled)) {
      if (isBlank(source)) {
        line();
      }
      continue;
    }
    // The hole's own lines keep the indentation of the template line.
    std::string_view pad = source.substr(0, source.find_first_not_of(' '));
    std::size_t pos = 0;
    while (pos <= filled.size()) {
      std::size_t nl = filled.find('\n', pos);
      std::string_view piece(filled.data() + pos,
                             (nl == std::string::npos ? filled.size() : nl) - pos);
      if (pos == 0) {
        line(piece);
      } else {
        line(isBlank(piece) ? std::string() : std::string(pad) + std::string(piece));
      }
      if (nl == std::string::npos) {
        break;
      }
      pos = nl + 1;
    }
  }
}

} // namespace stencilc
