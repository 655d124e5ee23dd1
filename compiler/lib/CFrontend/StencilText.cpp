//===- StencilText.cpp - Printing translated nests as .stencil text --------===//
//
// The text is what a user would write by hand: the C loop variables as index
// names, one term a line, and each coefficient as the shortest decimal that
// reads back as exactly the double the C code multiplies by (.stencil folds
// decimals exactly, so the spec is the same bit for bit).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cctype>

#include "llvm/Support/raw_ostream.h"

#include "stencilc/CFrontend.h"
#include "stencilc/PrintableText.h"

namespace stencilc::cfront {

bool isReservedStencilWord(const std::string &word) {
  static const char *const reserved[] = {"stencil", "precision", "boundary", "let", "shape",
                                         "radius",  "dims",      "weights",  "in",  "out"};
  for (const char *r : reserved) {
    if (word == r) {
      return true;
    }
  }
  return false;
}

bool isStencilIdentifier(const std::string &word) {
  if (word.empty() || !(std::isalpha(static_cast<unsigned char>(word[0])) || word[0] == '_')) {
    return false;
  }
  for (char c : word) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) {
      return false;
    }
  }
  return !isReservedStencilWord(word);
}

namespace {

/// The C loop variables where the .stencil language accepts them as index
/// names, otherwise the first unused of i, j, k, x, y, z.
std::array<std::string, 3> indexNames(const TranslatedStencil &stencil) {
  std::array<std::string, 3> names = stencil.indexNames;
  auto used = [&](const std::string &name) {
    for (int a = 0; a < stencil.spec.dims; ++a) {
      if (names[a] == name) {
        return true;
      }
    }
    return false;
  };
  for (int a = 0; a < stencil.spec.dims; ++a) {
    if (!isStencilIdentifier(names[a])) {
      names[a].clear();
      for (const char *fallback : {"i", "j", "k", "x", "y", "z"}) {
        if (!used(fallback)) {
          names[a] = fallback;
          break;
        }
      }
    }
  }
  return names;
}

std::string readText(const Offset &offset, const std::array<std::string, 3> &names, int dims) {
  std::string text = "in[";
  for (int a = 0; a < dims; ++a) {
    if (a) {
      text += ", ";
    }
    text += names[a];
    if (offset.d[a] > 0) {
      text += '+';
      text += std::to_string(offset.d[a]);
    } else if (offset.d[a] < 0) {
      text += std::to_string(offset.d[a]);
    }
  }
  return text + "]";
}

/// Prints one stencil; `updateLines` receives how many lines the update
/// takes (the text is 4 header lines, the update, and the closing brace).
void printStencil(const TranslatedStencil &stencil, llvm::raw_ostream &os, size_t &updateLines) {
  const StencilSpec &spec = stencil.spec;
  std::array<std::string, 3> names = indexNames(stencil);
  os << "// " << printableText(stencil.origin) << ": ";
  if (!stencil.functionName.empty()) {
    os << "the loop nest in " << stencil.functionName << "() ";
  }
  os << "writing '" << stencil.outputArray << "' from '" << stencil.inputArray << "'\n";
  os << "stencil " << spec.name << " {\n";
  os << "  precision " << keyword(spec.precision) << ";\n";
  os << "  boundary " << keyword(spec.boundary);
  if (spec.boundary == BoundaryKind::Constant) {
    os << " " << formatExact(spec.boundaryValue);
  }
  os << ";\n";

  std::string lhs = "  out[";
  for (int a = 0; a < spec.dims; ++a) {
    lhs += (a ? ", " : "") + names[a];
  }
  lhs += "] = ";
  os << lhs;
  const std::string continuation(lhs.size() - 2, ' ');
  bool first = true;
  updateLines = std::max<size_t>(spec.terms.size(), 1);
  for (const Term &term : spec.terms) {
    double coefficient = term.coefficient;
    if (!first) {
      os << "\n" << continuation << (coefficient < 0 ? "- " : "+ ");
      coefficient = coefficient < 0 ? -coefficient : coefficient;
    }
    os << formatExact(coefficient) << " * " << readText(term.offset, names, spec.dims);
    first = false;
  }
  os << ";\n}\n";
}

} // namespace

void printStencilText(const std::vector<TranslatedStencil> &stencils, const std::string &sourcePath,
                      llvm::raw_ostream &os, std::vector<SourcePoint> *lineOrigins) {
  os << "// Translated by stencilc-cfront from " << printableText(sourcePath)
     << ": one stencil per '#pragma stencil' loop nest.\n";
  std::vector<SourcePoint> origins(1); // the line above
  for (const TranslatedStencil &stencil : stencils) {
    os << "\n";
    size_t updateLines = 0;
    printStencil(stencil, os, updateLines);
    origins.emplace_back();                             // the blank line
    origins.insert(origins.end(), 4, stencil.pragmaAt); // comment, name, precision, boundary
    origins.insert(origins.end(), updateLines, stencil.updateAt);
    origins.push_back(stencil.pragmaAt); // '}'
  }
  if (lineOrigins) {
    *lineOrigins = std::move(origins);
  }
}

} // namespace stencilc::cfront
