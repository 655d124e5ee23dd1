//===- PrintableText.h - Names made safe to print or to quote --*- C++ -*-===//
//
// File and stencil names come from the user and may hold any byte. Printed
// on a terminal, an ESC could drive it; written into generated code, a
// newline or a "*/" would end the comment that quotes the name. These
// helpers escape what could do harm. Header-only: the C front end, which
// cannot link stencilc's libraries, uses them too.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

#include "llvm/ADT/StringRef.h"

namespace stencilc {

/// C0 control characters other than tab, and DEL: bytes a terminal may act
/// on, or that end a line.
inline bool isControlByte(char c) {
  auto byte = static_cast<unsigned char>(c);
  return (byte < 0x20 && byte != '\t') || byte == 0x7f;
}

/// Appends `c`, or `<U+001B>` for a control byte.
inline void appendPrintable(std::string &out, char c) {
  if (!isControlByte(c)) {
    out += c;
    return;
  }
  static const char hex[] = "0123456789ABCDEF";
  auto byte = static_cast<unsigned char>(c);
  out += "<U+00";
  out += hex[byte >> 4];
  out += hex[byte & 15];
  out += '>';
}

/// `text` with every control byte escaped: one line, safe on a terminal
/// and inside a `//` comment.
inline std::string printableText(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    appendPrintable(out, c);
  }
  return out;
}

/// `text` as it may stand inside a `/* ... */` comment as well: printable,
/// and with every "*/" broken as "*\/".
inline std::string commentText(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    appendPrintable(out, text[i]);
    if (text[i] == '*' && i + 1 < text.size() && text[i + 1] == '/') {
      out += '\\';
    }
  }
  return out;
}

} // namespace stencilc
