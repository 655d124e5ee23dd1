//===- CNestRender.cpp - The C text of a generated nest and its harness ---===//
//
// A batch is one C translation unit: a few helpers, then for each nest a
// `// nest NAME` marker, its constants and its function, then a runner per
// nest and `main`. The runner fills the arrays with short binary fractions
// in [-1, 1] (exact in every precision), dumps them, calls the nest and
// dumps the written array again; CDiff.cpp reads that dump.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <sstream>

#include "CNest.h"

namespace stencilc::fuzzdiff {
namespace {

const char *elementType(const CNest &nest) { return nest.isFloat ? "float" : "double"; }

std::string indexText(const std::string &var, int offset) {
  if (offset == 0) {
    return var;
  }
  return var + (offset > 0 ? " + " : " - ") + std::to_string(offset < 0 ? -offset : offset);
}

/// `a[i - 1][j]`, or for a flat array `a[(i - 1) * nx + j]`.
std::string accessText(const CNest &nest, const ArrayRead &read) {
  const CArray &array = nest.arrays[read.array];
  if (array.form != ArrayForm::Flat || nest.dims == 1) {
    std::string text = array.name;
    for (int d = 0; d < nest.dims; ++d) {
      text += "[" + indexText(nest.loopVar[d], read.offset[d]) + "]";
    }
    return text;
  }
  std::string index = indexText(nest.loopVar[0], read.offset[0]);
  for (int d = 1; d < nest.dims; ++d) {
    if (index.find(' ') != std::string::npos) {
      index = "(" + index + ")";
    }
    index += " * " + array.extentText[d] + " + " + indexText(nest.loopVar[d], read.offset[d]);
  }
  return array.name + "[" + index + "]";
}

std::string termText(const CNest &nest, const CTerm &term, bool first) {
  std::string text = term.negated ? "- " : (first ? "" : "+ ");
  std::string product;
  if (term.coefficient != "1") {
    product = term.coefficient + " * ";
  }
  if (term.weighted) {
    product += accessText(nest, term.weight) + " * ";
  }
  product += accessText(nest, term.read);
  return text + product;
}

std::string rightHandSide(const CNest &nest) {
  size_t split = nest.grouping == Grouping::Scaled ? (nest.terms.size() + 1) / 2 : 0;
  std::string sum;
  for (size_t t = 0; t < nest.terms.size(); ++t) {
    if (t == 0 && split > 0) {
      sum += nest.groupText + " * (";
    }
    sum += (t > 0 ? " " : "") + termText(nest, nest.terms[t], t == 0);
    if (t + 1 == split) {
      sum += ")";
    }
  }
  if (nest.grouping == Grouping::Divided) {
    return "(" + sum + ") / " + nest.groupText;
  }
  return sum;
}

std::string arrayParameter(const CNest &nest, const CArray &array, bool written) {
  std::string text = std::string(written ? "" : "const ") + elementType(nest) + " ";
  if (array.form == ArrayForm::Flat) {
    return text + "*" + array.name;
  }
  text += array.form == ArrayForm::PointerToArray ? "(*" + array.name + ")" : array.name;
  for (int d = array.form == ArrayForm::PointerToArray ? 1 : 0; d < nest.dims; ++d) {
    text += "[" + array.extentText[d] + "]";
  }
  return text;
}

std::string signature(const CNest &nest) {
  std::vector<std::string> parameters;
  for (const SizeVar &size : nest.sizes) {
    parameters.push_back("int " + size.name);
  }
  for (size_t a = 1; a <= nest.arrays.size(); ++a) {
    size_t index = a % nest.arrays.size(); // the inputs, then the written array
    parameters.push_back(arrayParameter(nest, nest.arrays[index], index == 0));
  }
  for (const ScalarParam &param : nest.params) {
    parameters.push_back(std::string(elementType(nest)) + " " + param.name);
  }
  std::string text = "void " + nest.name + "(";
  for (size_t p = 0; p < parameters.size(); ++p) {
    text += (p ? ", " : "") + parameters[p];
  }
  return text + ")";
}

std::string exactLiteral(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  std::string text = buffer;
  // A double literal, also where the value is whole: printf's %a needs one.
  return text.find_first_of(".en") == std::string::npos ? text + ".0" : text;
}

} // namespace

std::string renderNest(const CNest &nest) {
  std::ostringstream os;
  os << "// nest " << nest.name << "\n";
  for (const std::string &constant : nest.constants) {
    os << constant << "\n";
  }
  os << signature(nest) << " {\n#pragma stencil name(" << nest.name << ")\n";
  std::string indent = "  ";
  for (int level = 0; level < nest.dims; ++level) {
    int d = nest.loopOrder[level];
    const LoopBound &b = nest.bounds[d];
    const std::string &v = nest.loopVar[d];
    os << indent << "for (int " << v << " = " << b.lowerText << "; " << v
       << (b.inclusive ? " <= " : " < ") << b.upperText << "; ++" << v << ")\n";
    indent += "  ";
  }
  ArrayRead write;
  os << indent << accessText(nest, write) << " = " << rightHandSide(nest) << ";\n}\n";
  return os.str();
}

std::string renderRunner(const CNest &nest, uint64_t seed) {
  // Four lines a nest: the dump's header, the arrays (filled and dumped)
  // and scalars, the call, and the written array dumped again.
  std::ostringstream os;
  const char *kind = nest.isFloat ? "f" : "d";
  const CArray &out = nest.arrays[0];
  const std::array<int, 3> grid = gridExtent(nest);
  os << "static void run_" << nest.name << "(FILE *dump) {\n  fprintf(dump, \"nest " << nest.name
     << " " << nest.dims << " " << grid[0] << " " << grid[1] << " " << grid[2] << " " << out.name
     << "\\n\");\n ";
  for (size_t a = 0; a < nest.arrays.size(); ++a) {
    os << (a ? ", *a" : " void *a") << a << " = fz_array_" << kind << "(dump, \""
       << nest.arrays[a].name << "\", " << nest.arrays[a].allocated << ", " << seed + a << "ULL)";
  }
  for (const ScalarParam &param : nest.params) {
    os << "; fprintf(dump, \"param " << param.name << " %a\\n\", " << exactLiteral(param.value)
       << ")";
  }
  os << ";\n  " << nest.name << "(";
  for (const SizeVar &size : nest.sizes) {
    os << size.value << ", ";
  }
  for (size_t a = 1; a <= nest.arrays.size(); ++a) {
    os << "a" << a % nest.arrays.size()
       << (a < nest.arrays.size() || !nest.params.empty() ? ", " : "");
  }
  for (size_t p = 0; p < nest.params.size(); ++p) {
    os << exactLiteral(nest.params[p].value) << (p + 1 < nest.params.size() ? ", " : "");
  }
  os << ");\n  fz_after_" << kind << "(dump, a0, " << out.allocated << ");\n}\n";
  return os.str();
}

} // namespace stencilc::fuzzdiff

namespace stencilc::fuzzdiff {

std::string harnessHeader() {
  return R"(// The helpers of stencilc-fuzz-diff's harness: fill an array with short
// binary fractions in [-1, 1] from a seed (the dump names the seed: the
// checker draws the same values, fillFromSeed), and after the call dump
// the written array and free the nest's arrays.
#include <stdio.h>
#include <stdlib.h>
static unsigned long long fz_state;
static void *fz_live[64];
static int fz_count;
static double fz_next(void) {
  fz_state = fz_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)((long long)((fz_state >> 33) % 513u) - 256) / 256.0;
}
static void *fz_array_d(FILE *dump, const char *name, int n, unsigned long long seed) {
  double *a = malloc(sizeof *a * (n > 0 ? n : 1));
  fz_state = seed;
  for (int i = 0; i < n; ++i) a[i] = fz_next();
  fprintf(dump, "array %s %d %llu\n", name, n, seed);
  return fz_live[fz_count++] = a;
}
static void *fz_array_f(FILE *dump, const char *name, int n, unsigned long long seed) {
  float *a = malloc(sizeof *a * (n > 0 ? n : 1));
  fz_state = seed;
  for (int i = 0; i < n; ++i) a[i] = (float)fz_next();
  fprintf(dump, "array %s %d %llu\n", name, n, seed);
  return fz_live[fz_count++] = a;
}
static void fz_end(FILE *dump) {
  fputs("\nend\n", dump);
  while (fz_count > 0) free(fz_live[--fz_count]);
}
static void fz_after_d(FILE *dump, const void *p, int n) {
  const double *a = p;
  fprintf(dump, "after %d", n);
  for (int i = 0; i < n; ++i) fprintf(dump, " %a", a[i]);
  fz_end(dump);
}
static void fz_after_f(FILE *dump, const void *p, int n) {
  const float *a = p;
  fprintf(dump, "after %d", n);
  for (int i = 0; i < n; ++i) fprintf(dump, " %a", (double)a[i]);
  fz_end(dump);
}
)";
}

std::string renderBatch(const std::vector<CNest> &nests, uint64_t seed) {
  std::ostringstream os;
  os << "// Written by stencilc-fuzz-diff: loop nests marked '#pragma stencil' and a\n"
        "// harness that runs each on inputs of short binary fractions, dumping them.\n"
        "#include <stencilc_fuzz_harness.h>\n\n";
  for (const CNest &nest : nests) {
    os << renderNest(nest) << "\n";
  }
  os << "// harness\n";
  for (size_t n = 0; n < nests.size(); ++n) {
    os << renderRunner(nests[n], seed + 16 * n);
  }
  os << "int main(void) {\n";
  for (const CNest &nest : nests) {
    os << "  run_" << nest.name << "(stdout);\n";
  }
  os << "  return 0;\n}\n";
  return os.str();
}

} // namespace stencilc::fuzzdiff
