//===- FieldsText.cpp - The .stencil text of a random stencil of fields ---===//
//
// Prints the generator's tree with the parentheses precedence needs (and
// only those, so that the text also tests the parser's precedence), the
// declarations first.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "FieldsStencil.h"

namespace stencilc::fuzzdiff {
namespace {

int precedence(const FExpr &e) {
  switch (e.kind) {
  case FExpr::Kind::Add:
  case FExpr::Kind::Sub:
    return 1;
  case FExpr::Kind::Mul:
  case FExpr::Kind::Div:
    return 2;
  case FExpr::Kind::Neg:
    return 3;
  default:
    return 4;
  }
}

std::string readText(const FieldsStencil &s, const FExpr &e) {
  static const char *indices[] = {"i", "j", "k"};
  std::string text = s.fields[e.field].name + "[";
  for (int d = 0; d < s.dims; ++d) {
    int o = e.offset[d];
    text += std::string(d ? ", " : "") + indices[d] +
            (o == 0 ? "" : (o > 0 ? "+" : "-") + std::to_string(std::abs(o)));
  }
  return text + "]";
}

std::string exprText(const FieldsStencil &s, const FExpr &e) {
  switch (e.kind) {
  case FExpr::Kind::Number:
  case FExpr::Kind::Param:
  case FExpr::Kind::Let:
    return e.text;
  case FExpr::Kind::Read:
    return readText(s, e);
  case FExpr::Kind::Neg: {
    std::string inner = exprText(s, e.args[0]);
    return precedence(e.args[0]) < 4 ? "-(" + inner + ")" : "-" + inner;
  }
  default:
    break;
  }
  static const char *ops[] = {"", "", "", "", " + ", " - ", " * ", " / "};
  int p = precedence(e);
  std::string lhs = exprText(s, e.args[0]), rhs = exprText(s, e.args[1]);
  if (precedence(e.args[0]) < p) {
    lhs = "(" + lhs + ")";
  }
  bool rightAssociates = e.kind == FExpr::Kind::Sub || e.kind == FExpr::Kind::Div;
  if (precedence(e.args[1]) < p || (rightAssociates && precedence(e.args[1]) == p)) {
    rhs = "(" + rhs + ")";
  }
  return lhs + ops[static_cast<int>(e.kind)] + rhs;
}

std::string boundaryText(const FieldsStencil &s) {
  static const char *names[] = {"fixed", "constant", "periodic", "clamp", "mirror", "reflect"};
  std::string text = names[static_cast<int>(s.boundary)];
  return s.boundary == FBoundary::Constant ? text + " " + s.boundaryText : text;
}

std::string nameList(const FieldsStencil &s, bool coefficients) {
  std::string list;
  for (const FField &f : s.fields) {
    if (f.coefficient == coefficients) {
      list += (list.empty() ? "" : ", ") + f.name;
    }
  }
  return list;
}

} // namespace

std::string fieldsText(const FieldsStencil &s) {
  std::ostringstream os;
  os << "stencil " << s.name << " {\n  precision " << s.precision << ";\n  boundary "
     << boundaryText(s) << ";\n";
  if (s.declaresFields) {
    // A field may state the stencil's precision (docs/language.md).
    os << "  field " << nameList(s, false) << (s.annotated ? ": " + s.precision : "") << ";\n";
  }
  if (s.declaresDims) {
    os << "  dims " << s.dims << ";\n";
  }
  if (!nameList(s, true).empty()) {
    os << "  coefficient " << nameList(s, true) << ";\n";
  }
  for (size_t p = 0; p < s.params.size(); ++p) {
    os << (p == 0 ? "  param " : ", ") << s.params[p] << (p + 1 == s.params.size() ? ";\n" : "");
  }
  if (s.timePrevious >= 0) {
    os << "  time " << s.fields[s.timePrevious].name << ", " << s.fields[s.timeCurrent].name
       << ";\n";
  }
  for (const auto &[name, value] : s.lets) {
    os << "  let " << name << " = " << exprText(s, value) << ";\n";
  }
  static const char *outs[] = {"", "out[i]", "out[i, j]", "out[i, j, k]"};
  os << "  " << outs[s.dims] << " = " << exprText(s, s.update) << ";\n}\n";
  return os.str();
}

int fieldsRadius(const FieldsStencil &s) {
  int radius = 0;
  std::vector<const FExpr *> stack = {&s.update};
  while (!stack.empty()) {
    const FExpr *e = stack.back();
    stack.pop_back();
    for (int d = 0; d < 3 && e->kind == FExpr::Kind::Read; ++d) {
      radius = std::max(radius, std::abs(e->offset[d]));
    }
    for (const FExpr &a : e->args) {
      stack.push_back(&a);
    }
  }
  return radius;
}

} // namespace stencilc::fuzzdiff
