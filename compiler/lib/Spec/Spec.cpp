//===- Spec.cpp - StencilSpec helpers and its printed form -----------------===//
#include "stencilc/Spec.h"

#include <algorithm>

#include <fmt/format.h>

#include "llvm/ADT/APFloat.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

namespace stencilc {

namespace {

/// A row of Precisions.def.
struct PrecisionRow {
  Precision precision;
  std::string_view keyword, elementType;
  unsigned bytes;
  bool sixteenBit;
  double tolerance;
  const llvm::fltSemantics &(*storage)();
  const llvm::fltSemantics &(*operand)();
};
const PrecisionRow Precisions[] = {
#define STENCILC_PRECISION(Enumerator, Keyword, CEnumerator, ElementType, Bytes, SixteenBit,       \
                           Tolerance, Storage, Operand)                                            \
  {Precision::Enumerator,                                                                          \
   Keyword,                                                                                        \
   ElementType,                                                                                    \
   Bytes,                                                                                          \
   SixteenBit,                                                                                     \
   Tolerance,                                                                                      \
   &llvm::APFloat::Storage,                                                                        \
   &llvm::APFloat::Operand},
#include "stencilc/Precisions.def"
};

/// A row of Boundaries.def.
struct BoundaryRow {
  BoundaryKind kind;
  std::string_view keyword, policy;
  OutsideRead outside;
  std::string_view planText, headerText;
};
constexpr BoundaryRow Boundaries[] = {
#define STENCILC_BOUNDARY(Enumerator, Keyword, CEnumerator, Policy, Outside, PlanText, HeaderText) \
  {BoundaryKind::Enumerator, Keyword, Policy, OutsideRead::Outside, PlanText, HeaderText},
#include "stencilc/Boundaries.def"
};

// The tables are in enumerator order, so an enumerator indexes its row.
const PrecisionRow &row(Precision p) { return Precisions[static_cast<int>(p)]; }
const BoundaryRow &row(BoundaryKind b) { return Boundaries[static_cast<int>(b)]; }

constexpr Shape AllShapes[] = {Shape::Star, Shape::Box};

/// The keywords of a table's rows, in order.
template <typename Row, size_t N> std::vector<std::string_view> keywordsOf(const Row (&rows)[N]) {
  std::vector<std::string_view> words;
  for (const Row &r : rows) {
    words.push_back(r.keyword);
  }
  return words;
}

/// The row of a table whose keyword is `word`.
template <typename Row, size_t N> const Row *rowOf(const Row (&rows)[N], std::string_view word) {
  for (const Row &r : rows) {
    if (r.keyword == word) {
      return &r;
    }
  }
  return nullptr;
}

} // namespace

std::string_view keyword(Precision p) { return row(p).keyword; }
std::string_view keyword(Shape s) { return s == Shape::Star ? "star" : "box"; }
std::string_view keyword(BoundaryKind b) { return row(b).keyword; }

std::vector<std::string_view> precisionKeywords() { return keywordsOf(Precisions); }
std::vector<std::string_view> boundaryKeywords() { return keywordsOf(Boundaries); }
std::vector<std::string_view> shapeKeywords() { return {"star", "box"}; }

std::optional<Precision> parsePrecision(std::string_view word) {
  const PrecisionRow *r = rowOf(Precisions, word);
  return r ? std::optional(r->precision) : std::nullopt;
}

std::optional<BoundaryKind> parseBoundaryKind(std::string_view word) {
  const BoundaryRow *r = rowOf(Boundaries, word);
  return r ? std::optional(r->kind) : std::nullopt;
}

std::optional<Shape> parseShape(std::string_view word) {
  for (Shape s : AllShapes) {
    if (keyword(s) == word) {
      return s;
    }
  }
  return std::nullopt;
}

std::string_view elementTypeName(Precision p) { return row(p).elementType; }
unsigned elementBytes(Precision p) { return row(p).bytes; }
bool isSixteenBit(Precision p) { return row(p).sixteenBit; }
const llvm::fltSemantics &storageSemantics(Precision p) { return row(p).storage(); }
const llvm::fltSemantics &operandSemantics(Precision p) { return row(p).operand(); }
double relativeTolerance(Precision p) { return row(p).tolerance; }

double roundToStorage(double value, Precision p) {
  const llvm::fltSemantics &storage = storageSemantics(p);
  // The formats of C's own types convert directly (the emulators round every
  // operation through here); the 16-bit ones through APFloat.
  if (&storage == &llvm::APFloat::IEEEdouble()) {
    return value;
  }
  if (&storage == &llvm::APFloat::IEEEsingle()) {
    return static_cast<double>(static_cast<float>(value));
  }
  llvm::APFloat number(value);
  bool losesInfo = false;
  number.convert(storage, llvm::RoundingMode::NearestTiesToEven, &losesInfo);
  number.convert(llvm::APFloat::IEEEdouble(), llvm::RoundingMode::NearestTiesToEven, &losesInfo);
  return number.convertToDouble();
}

OutsideRead outsideRead(BoundaryKind b) { return row(b).outside; }
bool foldsAtEdge(BoundaryKind b) {
  return outsideRead(b) == OutsideRead::Fold && b != BoundaryKind::Periodic;
}
std::string_view boundaryPolicyType(BoundaryKind b) { return row(b).policy; }

std::string boundaryPlanText(const StencilSpec &spec) {
  return fmt::format(fmt::runtime(row(spec.boundary).planText),
                     fmt::arg("value", formatExact(spec.boundaryValue)));
}

std::string boundaryHeaderText(const StencilSpec &spec) {
  return fmt::format(fmt::runtime(row(spec.boundary).headerText),
                     fmt::arg("value", formatExact(spec.boundaryValue)),
                     fmt::arg("radius", spec.radius));
}

std::string boundaryChoicesText(std::string_view lastJoin, std::string_view valueForm) {
  std::vector<std::string> words;
  for (const BoundaryRow &r : Boundaries) {
    words.push_back(std::string(r.keyword) +
                    std::string(r.outside == OutsideRead::Value ? valueForm : ""));
  }
  return joinList(std::vector<std::string_view>(words.begin(), words.end()), lastJoin);
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

bool roundsToFiniteOperand(double value, Precision p) {
  llvm::APFloat number(value);
  bool losesInfo = false;
  number.convert(operandSemantics(p), llvm::RoundingMode::NearestTiesToEven, &losesInfo);
  return number.isFinite();
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
  for (std::size_t p = 0; p < spec.params.size(); ++p) {
    os << "  param     " << spec.params[p] << (spec.isPerStep(p) ? " per step" : "") << "\n";
  }
  if (spec.previousField >= 0) {
    os << "  time      " << spec.fields[spec.previousField].name << ", "
       << spec.fields[spec.steppedField].name << " -> out\n";
  } else {
    os << "  steps     " << spec.fields[spec.steppedField].name << " -> out\n";
  }
  if (spec.injectsSources) {
    os << "  source    " << spec.fields[spec.steppedField].name
       << " += amplitudes at source points, every step\n";
  }
  if (spec.recordsReceivers) {
    os << "  record    " << spec.fields[spec.steppedField].name
       << " at receivers, after every step\n";
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
  return hasReservedPrefix(name);
}

std::string reservedPrefixText() {
  return "a name starting '__', 'cuda' or 'stencilc' is reserved (for the C implementation, "
         "CUDA and stencilc's runtime)";
}

bool isPointListName(std::string_view name) {
  for (const PointListNames &list : {SourceListNames, ReceiverListNames}) {
    if (name == list.points || name == list.count || name == list.values) {
      return true;
    }
  }
  return false;
}

bool hasReservedPrefix(std::string_view name) {
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
