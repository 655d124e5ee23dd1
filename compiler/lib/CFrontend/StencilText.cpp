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

std::string withoutReservedPrefix(std::string name) {
  if (name.starts_with("__")) {
    name.erase(0, name.find_first_not_of('_'));
  }
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ||
      hasReservedPrefix(name)) {
    name.insert(0, "c_");
  }
  return name;
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

std::string readText(const std::string &array, const Offset &offset,
                     const std::array<std::string, 3> &names, int dims) {
  std::string text = array + "[";
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

/// The declarations of a stencil of fields, one a line: its fields in the
/// order of the C update's first reads, then its parameters (each one per
/// step in a statement of its own), then a time loop's levels, sources and
/// receivers.
std::vector<std::string> declarations(const StencilSpec &spec) {
  std::vector<std::string> lines;
  for (const FieldDecl &field : spec.fields) {
    lines.push_back((field.role == FieldRole::Input ? "field " : "coefficient ") + field.name +
                    ";");
  }
  for (size_t p = 0; p < spec.params.size(); ++p) {
    lines.push_back("param " + spec.params[p] + (spec.isPerStep(p) ? " per step;" : ";"));
  }
  if (spec.previousField >= 0) {
    lines.push_back("time " + spec.fields[spec.previousField].name + ", " +
                    spec.fields[spec.steppedField].name + ";");
  }
  const std::string stepped = spec.hasFields() ? spec.fields[spec.steppedField].name : "in";
  if (spec.injectsSources) {
    lines.push_back("source " + stepped + ";");
  }
  if (spec.recordsReceivers) {
    lines.push_back("record " + stepped + ";");
  }
  return lines;
}

/// One term per line: the coefficient (a number, or an expression of the
/// parameters, which the .stencil language rebuilds as the same expression),
/// the coefficient field's read, the input field's read.
std::vector<std::string> termTexts(const StencilSpec &spec,
                                   const std::array<std::string, 3> &names) {
  std::vector<std::string> texts;
  if (!spec.hasFields()) {
    for (const Term &term : spec.terms) {
      texts.push_back(formatExact(term.coefficient) + " * " +
                      readText("in", term.offset, names, spec.dims));
    }
    return texts;
  }
  for (const FieldTerm &term : spec.fieldTerms) {
    std::string text = term.paramCoefficient ? term.paramCoefficient->cText(spec.params)
                                             : formatExact(term.coefficient);
    if (term.coefficientField >= 0) {
      text += " * " + readText(spec.fields[term.coefficientField].name, term.coefficientOffset,
                               names, spec.dims);
    }
    texts.push_back(text + " * " +
                    readText(spec.fields[term.field].name, term.offset, names, spec.dims));
  }
  return texts;
}

/// Prints one stencil; `headerLines` and `updateLines` receive how many lines
/// the header (the comment, the name, the statements) and the update take.
void printStencil(const TranslatedStencil &stencil, llvm::raw_ostream &os, size_t &headerLines,
                  size_t &updateLines) {
  const StencilSpec &spec = stencil.spec;
  std::array<std::string, 3> names = indexNames(stencil);
  os << "// " << printableText(stencil.origin) << ": ";
  if (!stencil.functionName.empty()) {
    os << (stencil.timeLoop ? "the time loop in " : "the loop nest in ") << stencil.functionName
       << "() ";
  }
  os << "writing '" << stencil.outputArray << "' from ";
  for (size_t a = 0; a < stencil.inputArrays.size(); ++a) {
    os << (a ? ", '" : "'") << stencil.inputArrays[a] << "'";
  }
  os << "\n";
  os << "stencil " << spec.name << " {\n";
  os << "  precision " << keyword(spec.precision) << ";\n";
  os << "  boundary " << keyword(spec.boundary);
  if (spec.boundary == BoundaryKind::Constant) {
    os << " " << formatExact(spec.boundaryValue);
  }
  os << ";\n";
  std::vector<std::string> statements = declarations(spec);
  for (const std::string &line : statements) {
    os << "  " << line << "\n";
  }
  headerLines = 4 + statements.size();

  std::string lhs = "  out[";
  for (int a = 0; a < spec.dims; ++a) {
    lhs += (a ? ", " : "") + names[a];
  }
  lhs += "] = ";
  os << lhs;
  const std::string continuation(lhs.size() - 2, ' ');
  std::vector<std::string> texts = termTexts(spec, names);
  updateLines = std::max<size_t>(texts.size(), 1);
  for (size_t t = 0; t < texts.size(); ++t) {
    if (t) {
      // A negative number loses its sign to the operator; an expression of
      // parameters keeps its own.
      bool negative = texts[t][0] == '-';
      os << "\n"
         << continuation << (negative ? "- " : "+ ")
         << std::string_view(texts[t]).substr(negative ? 1 : 0);
    } else {
      os << texts[t];
    }
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
    size_t headerLines = 0, updateLines = 0;
    printStencil(stencil, os, headerLines, updateLines);
    origins.emplace_back();                                       // the blank line
    origins.insert(origins.end(), headerLines, stencil.pragmaAt); // comment, name, statements
    origins.insert(origins.end(), updateLines, stencil.updateAt);
    origins.push_back(stencil.pragmaAt); // '}'
  }
  if (lineOrigins) {
    *lineOrigins = std::move(origins);
  }
}

} // namespace stencilc::cfront
