//===- Spec.cpp - StencilSpec helpers and its printed form -----------------===//
#include "stencilc/Spec.h"

#include <algorithm>

#include <fmt/format.h>

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

namespace stencilc {

std::string_view keyword(Precision p) {
  switch (p) {
  case Precision::FP16:
    return "fp16";
  case Precision::BF16:
    return "bf16";
  case Precision::TF32:
    return "tf32";
  case Precision::FP32:
    return "fp32";
  case Precision::FP64:
    return "fp64";
  }
  llvm_unreachable("unknown precision");
}

std::string_view keyword(Shape s) { return s == Shape::Star ? "star" : "box"; }

std::string_view keyword(BoundaryKind b) {
  switch (b) {
  case BoundaryKind::Fixed:
    return "fixed";
  case BoundaryKind::Constant:
    return "constant";
  case BoundaryKind::Periodic:
    return "periodic";
  case BoundaryKind::Clamp:
    return "clamp";
  case BoundaryKind::Mirror:
    return "mirror";
  }
  llvm_unreachable("unknown boundary kind");
}

namespace {
constexpr Precision AllPrecisions[] = {Precision::FP16, Precision::BF16, Precision::TF32,
                                       Precision::FP32, Precision::FP64};
constexpr BoundaryKind AllBoundaryKinds[] = {BoundaryKind::Fixed, BoundaryKind::Constant,
                                             BoundaryKind::Periodic, BoundaryKind::Clamp,
                                             BoundaryKind::Mirror};
constexpr Shape AllShapes[] = {Shape::Star, Shape::Box};

template <typename Enum, size_t N> std::vector<std::string_view> keywordsOf(const Enum (&all)[N]) {
  std::vector<std::string_view> words;
  for (Enum e : all) {
    words.push_back(keyword(e));
  }
  return words;
}
} // namespace

std::vector<std::string_view> precisionKeywords() { return keywordsOf(AllPrecisions); }
std::vector<std::string_view> boundaryKeywords() { return keywordsOf(AllBoundaryKinds); }
std::vector<std::string_view> shapeKeywords() { return keywordsOf(AllShapes); }

std::optional<Precision> parsePrecision(std::string_view word) {
  for (Precision p : AllPrecisions) {
    if (keyword(p) == word) {
      return p;
    }
  }
  return std::nullopt;
}

std::optional<BoundaryKind> parseBoundaryKind(std::string_view word) {
  for (BoundaryKind b : AllBoundaryKinds) {
    if (keyword(b) == word) {
      return b;
    }
  }
  return std::nullopt;
}

std::optional<Shape> parseShape(std::string_view word) {
  for (Shape s : AllShapes) {
    if (keyword(s) == word) {
      return s;
    }
  }
  return std::nullopt;
}

std::string_view elementTypeName(Precision p) {
  switch (p) {
  case Precision::FP16:
    return "__half";
  case Precision::BF16:
    return "__nv_bfloat16";
  case Precision::TF32:
  case Precision::FP32:
    return "float";
  case Precision::FP64:
    return "double";
  }
  llvm_unreachable("unknown precision");
}

unsigned elementBytes(Precision p) {
  switch (p) {
  case Precision::FP16:
  case Precision::BF16:
    return 2;
  case Precision::TF32:
  case Precision::FP32:
    return 4;
  case Precision::FP64:
    return 8;
  }
  llvm_unreachable("unknown precision");
}

int Offset::nonZeroAxes() const {
  return static_cast<int>(std::count_if(d.begin(), d.end(), [](int v) { return v != 0; }));
}

int Offset::chebyshevNorm() const {
  int m = 0;
  for (int v : d) {
    m = std::max(m, std::abs(v));
  }
  return m;
}

double StencilSpec::coefficient(const Offset &offset) const {
  auto it = std::lower_bound(terms.begin(), terms.end(), offset,
                             [](const Term &t, const Offset &o) { return t.offset < o; });
  return it != terms.end() && it->offset == offset ? it->coefficient : 0.0;
}

std::string formatExact(double value) {
  // fmt prints the shortest decimal that reads back as the same double.
  return fmt::format("{}", value);
}

static std::string offsetText(const Offset &o, int dims) {
  std::string text = "(";
  for (int a = 0; a < dims; ++a) {
    text += fmt::format("{}{}", a ? ", " : "", o.d[a]);
  }
  return text + ")";
}

ParamExpr ParamExpr::constant(double value) {
  ParamExpr e;
  e.value = value;
  return e;
}

ParamExpr ParamExpr::parameter(int index) {
  ParamExpr e;
  e.op = Op::Param;
  e.param = index;
  return e;
}

ParamExpr ParamExpr::apply(Op op, ParamExpr lhs, ParamExpr rhs) {
  ParamExpr e;
  e.op = op;
  e.nodes = 1 + lhs.nodes + (op != Op::Neg ? rhs.nodes : 0);
  e.depth = 1 + std::max(lhs.depth, op != Op::Neg ? rhs.depth : 0);
  e.args.push_back(std::move(lhs));
  if (op != Op::Neg) {
    e.args.push_back(std::move(rhs));
  }
  return e;
}

double ParamExpr::evaluate(const std::vector<double> &params) const {
  switch (op) {
  case Op::Constant:
    return value;
  case Op::Param:
    return params.at(static_cast<std::size_t>(param));
  case Op::Neg:
    return -args[0].evaluate(params);
  case Op::Add:
    return args[0].evaluate(params) + args[1].evaluate(params);
  case Op::Sub:
    return args[0].evaluate(params) - args[1].evaluate(params);
  case Op::Mul:
    return args[0].evaluate(params) * args[1].evaluate(params);
  case Op::Div:
    return args[0].evaluate(params) / args[1].evaluate(params);
  }
  llvm_unreachable("unknown parameter expression");
}

std::string ParamExpr::cText(const std::vector<std::string> &names) const {
  switch (op) {
  case Op::Constant: {
    std::string text = formatExact(value);
    return text.find_first_of(".en") == std::string::npos ? text + ".0" : text;
  }
  case Op::Param:
    return names.at(static_cast<std::size_t>(param));
  case Op::Neg:
    return "(-" + args[0].cText(names) + ")";
  default:
    break;
  }
  const char symbol = op == Op::Add ? '+' : op == Op::Sub ? '-' : op == Op::Mul ? '*' : '/';
  return fmt::format("({} {} {})", args[0].cText(names), symbol, args[1].cText(names));
}

bool ParamExpr::uses(int index) const {
  if (op == Op::Param) {
    return param == index;
  }
  return std::any_of(args.begin(), args.end(),
                     [index](const ParamExpr &a) { return a.uses(index); });
}

/// The fields, parameters and terms of a stencil of fields.
static void printFieldTerms(const StencilSpec &spec, llvm::raw_ostream &os) {
  for (const FieldDecl &f : spec.fields) {
    os << "  field     " << f.name
       << (f.role == FieldRole::Coefficient ? " (coefficient)" : " (input)") << "\n";
  }
  for (const std::string &p : spec.params) {
    os << "  param     " << p << "\n";
  }
  if (spec.previousField >= 0) {
    os << "  time      " << spec.fields[spec.previousField].name << ", "
       << spec.fields[spec.steppedField].name << " -> out\n";
  } else {
    os << "  steps     " << spec.fields[spec.steppedField].name << " -> out\n";
  }
  os << "  terms     " << spec.fieldTerms.size() << "\n";
  for (const FieldTerm &t : spec.fieldTerms) {
    os << "  term " << spec.fields[t.field].name << offsetText(t.offset, spec.dims) << " * "
       << (t.paramCoefficient ? t.paramCoefficient->cText(spec.params)
                              : formatExact(t.coefficient));
    if (t.coefficientField >= 0) {
      os << " * " << spec.fields[t.coefficientField].name
         << offsetText(t.coefficientOffset, spec.dims);
    }
    os << "\n";
  }
}

/// Names the generated C API uses beside the fields and parameters, and the
/// C and C++ keywords a field or parameter name would collide with.
bool isReservedInApi(std::string_view name) {
  static const char *const Reserved[] = {
      "in",       "out",       "nx",       "ny",       "nz",     "stream",   "steps",    "a",
      "b",        "auto",      "bool",     "break",    "case",   "char",     "const",    "continue",
      "default",  "do",        "double",   "else",     "enum",   "extern",   "float",    "for",
      "goto",     "if",        "inline",   "int",      "long",   "register", "restrict", "return",
      "short",    "signed",    "sizeof",   "static",   "struct", "switch",   "typedef",  "union",
      "unsigned", "void",      "volatile", "while",    "class",  "new",      "delete",   "this",
      "template", "namespace", "using",    "true",     "false",  "nullptr",  "operator", "private",
      "public",   "protected", "virtual",  "friend",   "throw",  "try",      "catch",    "typename",
      "scratch",  "size_t",    "dim3",     "kMinSize", "Stencil"};
  for (const char *word : Reserved) {
    if (name == word) {
      return true;
    }
  }
  return name.starts_with("stencilc") || name.starts_with("__") || name.starts_with("cuda");
}

void printSpec(const StencilSpec &spec, llvm::raw_ostream &os) {
  os << "stencil " << spec.name << "\n";
  os << "  dims      " << spec.dims << "\n";
  os << "  radius    " << spec.radius << "\n";
  os << "  shape     " << keyword(spec.shape) << "\n";
  os << "  precision " << keyword(spec.precision) << "\n";
  os << "  boundary  " << keyword(spec.boundary);
  if (spec.boundary == BoundaryKind::Constant) {
    os << " " << formatExact(spec.boundaryValue);
  }
  os << "\n";
  if (spec.hasFields()) {
    printFieldTerms(spec, os);
    return;
  }
  os << "  points    " << spec.points() << "\n";
  for (const Term &t : spec.terms) {
    os << "  coefficient " << offsetText(t.offset, spec.dims) << " = " << formatExact(t.coefficient)
       << "\n";
  }
}

std::string joinList(const std::vector<std::string_view> &items, std::string_view lastJoin) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    text += i == 0 ? "" : i + 1 == items.size() ? std::string(lastJoin) : std::string(", ");
    text += items[i];
  }
  return text;
}

} // namespace stencilc
