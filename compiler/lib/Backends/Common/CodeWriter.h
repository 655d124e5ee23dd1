//===- CodeWriter.h - The one writer of generated source text ---*- C++ -*-===//
//
// Every line of generated CUDA and C goes through a CodeWriter: it keeps the
// indentation, opens and closes scopes (a long scope's closing brace carries
// a comment: `} // tile loop`), and fills template sections from templates/
// with fmt named arguments. Nothing else in the code generator concatenates
// source text into files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

namespace stencilc {

class CodeWriter {
public:
  explicit CodeWriter(int indentWidth = 2) : indentWidth(indentWidth) {}

  /// One line at the current indentation (an empty line stays empty). With
  /// arguments the text is an fmt format string; without, it is written as is.
  void line(std::string_view text = {});
  template <typename... Args> void line(fmt::format_string<Args...> format, Args &&...args) {
    line(std::string_view(fmt::format(format, std::forward<Args>(args)...)));
  }

  /// Writes `head {` (or a lone `{` for an empty head) and indents.
  void openScope(std::string_view head = {});
  /// Dedents and writes `}` followed by `trailer` (e.g. ";") and, when
  /// given, ` // comment`.
  void closeScope(std::string_view trailer = {}, std::string_view comment = {});

  void indent() { ++level; }
  void dedent();

  /// Fills a template section with named arguments (fmt::arg) and writes it
  /// line by line at the current indentation, keeping the template's own
  /// relative indentation. A template line whose holes all expand to nothing
  /// is left out, so optional code needs no blank line.
  void fill(std::string_view templateText, fmt::format_args args);
  template <typename... Args>
  void fillWith(std::string_view templateText, const Args &...namedArgs) {
    fill(templateText, fmt::make_format_args(namedArgs...));
  }

  /// A template section filled as by fillWith, as text without its trailing
  /// newlines: the value of another section's hole.
  template <typename... Args>
  static std::string filled(std::string_view templateText, const Args &...namedArgs) {
    CodeWriter w;
    w.fillWith(templateText, namedArgs...);
    return w.takeHole();
  }
  /// The text written, without its trailing newlines: the value of a hole
  /// of another section, which closes what the text sits in.
  std::string takeHole() {
    while (!out.empty() && out.back() == '\n') {
      out.pop_back();
    }
    return take();
  }

  int indentLevel() const { return level; }
  const std::string &text() const { return out; }
  std::string take() { return std::move(out); }

private:
  int indentWidth;
  int level = 0;
  std::string out;
};

} // namespace stencilc
