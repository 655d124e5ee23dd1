//===- FieldForm.cpp - Several arrays, coefficient arrays, parameters -----===//
//
// The operators of the update on analysed operands, and the terms they end
// up as. An update may read several arrays: an array read alone in some term
// is an input field; an array that only multiplies reads of another is a
// coefficient field (`k[i][j] * u[i+1][j]`). A floating-point scalar variable
// that is not a constant is a run-time parameter (`param`), and a coefficient
// that uses one is an expression the host evaluates per call.
//
// One array, no coefficient array and no parameter is the classic stencil of
// `in`, printed as before; anything more is printed as a stencil of fields.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <set>

#include "CDiagnostics.h"
#include "NestRecogniser.h"

namespace stencilc::cfront::detail {

using namespace clang;

// --- Coefficients -------------------------------------------------------------

void Coefficient::negate() {
  if (expr) {
    expr = ParamExpr::apply(ParamExpr::Op::Neg, std::move(*expr), {});
  } else {
    value = -value;
  }
}

void Coefficient::add(const Coefficient &other) {
  if (!expr && !other.expr) {
    value += other.value;
  } else if (other.isZero()) {
    return;
  } else if (isZero()) {
    *this = other;
  } else {
    expr = ParamExpr::apply(ParamExpr::Op::Add, toExpr(), other.toExpr());
  }
}

/// 1 * p and p * 1 stay p; 0 * p stays a product, which is not 0 for an
/// infinite or NaN p: a term of a parameter is never dropped by value.
void Coefficient::multiply(const Coefficient &other) {
  if (!expr && !other.expr) {
    value *= other.value;
  } else if (!other.expr && other.value == 1.0) {
    return;
  } else if (!expr && value == 1.0) {
    *this = other;
  } else {
    expr = ParamExpr::apply(ParamExpr::Op::Mul, toExpr(), other.toExpr());
  }
}

void Coefficient::divide(const Coefficient &other) {
  if (!expr && !other.expr) {
    value /= other.value;
  } else {
    expr = ParamExpr::apply(ParamExpr::Op::Div, toExpr(), other.toExpr()); // 0 / p too
  }
}

static Form scalarForm(const Coefficient &c) {
  Form form;
  if (c.expr) {
    form.parameter = c.expr;
  } else {
    form.constant = CValue{true, llvm::APSInt(), llvm::APFloat(c.value)};
  }
  return form;
}

// --- Operators -----------------------------------------------------------------

std::string NestRecogniser::firstArrayName(const Form &form) const {
  for (const auto &[reads, c] : form.terms) {
    if (reads.first.array >= 0) {
      return arrays[reads.first.array]->getName().str();
    }
  }
  return "an array";
}

std::optional<Form> NestRecogniser::analyseParameter(const VarDecl *var) {
  auto it = std::find(params.begin(), params.end(), var);
  int index = static_cast<int>(it - params.begin());
  if (it == params.end()) {
    params.push_back(var);
  }
  Form form;
  form.parameter = ParamExpr::parameter(index);
  return form;
}

/// One operator of the update on its analysed operands.
std::optional<Form> NestRecogniser::combine(const BinaryOperator *op, Form lhs, Form rhs) {
  BinaryOperatorKind opcode = op->getOpcode();
  if (lhs.isConstant() && rhs.isConstant()) {
    Form result;
    result.constant = arithmetic(opcode, *lhs.constant, *rhs.constant, op->getOperatorLoc());
    return result.constant ? std::optional<Form>(result) : std::nullopt;
  }
  if (opcode == BO_Mul) {
    return multiply(op, std::move(lhs), std::move(rhs));
  }
  if (opcode == BO_Div) {
    if (!rhs.isScalar()) {
      if (!quiet) {
        reportError(diags, op->getOperatorLoc(), "division by a read of '%0' is not linear")
            << firstArrayName(rhs) << op->getSourceRange();
      }
      return std::nullopt;
    }
    Coefficient divisor = rhs.scalar();
    if (divisor.isZero()) {
      if (!quiet) {
        reportError(diags, op->getOperatorLoc(), "division by zero");
      }
      return std::nullopt;
    }
    if (lhs.isScalar()) {
      Coefficient c = lhs.scalar();
      c.divide(divisor);
      return scalarForm(c);
    }
    for (auto &[reads, coefficient] : lhs.terms) {
      coefficient.divide(divisor);
    }
    return lhs;
  }
  // + and -: a scalar beside reads is a term without a read, which a
  // product may yet give reads (`(k[i] + 1.0) * u[i-1]`).
  for (auto [side, at] : {std::pair(&lhs, op->getLHS()), std::pair(&rhs, op->getRHS())}) {
    if (side->isScalar() && !(lhs.isScalar() && rhs.isScalar())) {
      Form term;
      term.terms.emplace(TermReads{}, side->scalar());
      term.scalarAddedAt = at;
      *side = std::move(term);
    }
  }
  if (lhs.isScalar()) {
    Coefficient c = lhs.scalar(), right = rhs.scalar();
    if (opcode == BO_Sub) {
      right.negate();
    }
    c.add(right);
    return scalarForm(c);
  }
  for (auto &[reads, coefficient] : rhs.terms) {
    if (opcode == BO_Sub) {
      coefficient.negate();
    }
    auto [it, inserted] = lhs.terms.emplace(reads, coefficient);
    if (!inserted) {
      it->second.add(coefficient);
    }
  }
  lhs.scalarAddedAt = lhs.scalarAddedAt ? lhs.scalarAddedAt : rhs.scalarAddedAt;
  return lhs;
}

/// A product: scalars multiply every term; two linear forms multiply term by
/// term, as long as no term ends up with more than two reads or two reads of
/// one array.
std::optional<Form> NestRecogniser::multiply(const BinaryOperator *op, Form lhs, Form rhs) {
  if (lhs.isScalar() && rhs.isScalar()) {
    Coefficient c = lhs.scalar();
    c.multiply(rhs.scalar());
    return scalarForm(c);
  }
  if (lhs.isScalar() || rhs.isScalar()) {
    Coefficient factor = lhs.isScalar() ? lhs.scalar() : rhs.scalar();
    Form result = std::move(lhs.isScalar() ? rhs : lhs);
    for (auto &[reads, coefficient] : result.terms) {
      coefficient.multiply(factor);
    }
    return result;
  }
  Form result;
  for (const auto &[a, ca] : lhs.terms) {
    for (const auto &[b, cb] : rhs.terms) {
      if (a.first.array < 0 || b.first.array < 0) { // a scalar of a sum times reads
        Coefficient c = ca;
        c.multiply(cb);
        auto [it, inserted] = result.terms.emplace(a.first.array < 0 ? b : a, c);
        if (!inserted) {
          it->second.add(c);
        }
        continue;
      }
      if (a.second.array >= 0 || b.second.array >= 0) {
        if (!quiet) {
          reportError(diags, op->getOperatorLoc(),
                      "a product of more than two reads of arrays is not linear; a term is "
                      "a read of an input array, times at most one read of a coefficient array")
              << op->getSourceRange();
        }
        return std::nullopt;
      }
      if (a.first.array == b.first.array) {
        if (!quiet) {
          reportError(diags, op->getOperatorLoc(), "a product of two reads of '%0' is not linear")
              << arrays[a.first.array]->getName() << op->getSourceRange();
        }
        return std::nullopt;
      }
      TermReads reads{std::min(a.first, b.first), std::max(a.first, b.first)};
      Coefficient c = ca;
      c.multiply(cb);
      auto [it, inserted] = result.terms.emplace(reads, c);
      if (!inserted) {
        it->second.add(c);
      }
    }
  }
  if (result.terms.contains(TermReads{})) { // a scalar of each side multiplied
    result.scalarAddedAt = lhs.scalarAddedAt;
  }
  return result;
}

// --- The terms --------------------------------------------------------------------

/// Whether each array is an input (0) or a coefficient array (1): an input
/// where some term reads it alone; of two arrays that only meet in products,
/// the one read at more points. Empty after an error.
std::vector<int> NestRecogniser::arrayRoles(const Form &rhs) {
  std::vector<int> roles(arrays.size(), 1);
  std::vector<std::set<Offset>> points(arrays.size());
  for (const auto &[reads, c] : rhs.terms) {
    points[reads.first.array].insert(reads.first.offset);
    if (reads.second.array < 0) {
      roles[reads.first.array] = 0;
    } else {
      points[reads.second.array].insert(reads.second.offset);
    }
  }
  const Expr *where = assignment->getRHS();
  for (const auto &[reads, c] : rhs.terms) {
    int a = reads.first.array, b = reads.second.array;
    if (b < 0 || roles[a] == 0 || roles[b] == 0) {
      continue;
    }
    if (points[a].size() == points[b].size()) {
      reportError(diags, where->getBeginLoc(),
                  "'%0' and '%1' are only read in products with each other: it is not clear "
                  "which is the coefficient array; read the input array alone in some term, "
                  "or the coefficient array at fewer points")
          << arrays[a]->getName() << arrays[b]->getName() << where->getSourceRange();
      return {};
    }
    roles[points[a].size() > points[b].size() ? a : b] = 0;
  }
  for (const auto &[reads, c] : rhs.terms) {
    int a = reads.first.array, b = reads.second.array;
    if (b < 0 || roles[a] != roles[b]) {
      continue;
    }
    const Expr *read = readAt.at(std::max(reads.first, reads.second));
    if (roles[a] == 0) {
      reportError(diags, read->getBeginLoc(),
                  "a product of reads of two input arrays, '%0' and '%1', is not linear")
          << arrays[a]->getName() << arrays[b]->getName() << read->getSourceRange();
    } else {
      reportError(diags, read->getBeginLoc(),
                  "a product of two coefficient arrays ('%0' and '%1') is not supported; "
                  "make their product one array")
          << arrays[a]->getName() << arrays[b]->getName() << read->getSourceRange();
    }
    return {};
  }
  return roles;
}

/// The name an array or a parameter takes in the .stencil text: its C name,
/// with '_' appended while the language or the generated API reserves it or
/// an earlier name has it. Appending never frees a reserved prefix, so such
/// a name is first changed (withoutReservedPrefix).
/// In a time loop, NAME_run may also take sources and receivers, whose
/// parameters' names are reserved then.
static std::string stencilName(std::string name, const std::vector<std::string> &taken,
                               bool timeLoop) {
  static const char *const words[] = {"field", "coefficient", "param", "time", "pi", "sqrt", "pow"};
  name = withoutReservedPrefix(std::move(name));
  auto reserved = [&](const std::string &n) {
    return isReservedStencilWord(n) || isReservedInApi(n) ||
           std::find(std::begin(words), std::end(words), n) != std::end(words) ||
           (timeLoop && isPointListName(n)) ||
           std::find(taken.begin(), taken.end(), n) != taken.end();
  };
  while (reserved(name)) {
    name += '_';
  }
  return name;
}

/// Declares the spec's fields (for a general stencil: several arrays or
/// run-time parameters) and parameters under their .stencil names, and
/// records the C names of the input arrays.
void NestRecogniser::declareNames(const std::vector<int> &roles, bool general,
                                  TranslatedStencil &stencil) {
  StencilSpec &spec = stencil.spec;
  std::vector<std::string> taken;
  for (const VarDecl *var : axisVars) {
    taken.push_back(var->getName().str());
  }
  for (unsigned a = 0; a < arrays.size() && general; ++a) {
    std::string name = stencilName(arrays[a]->getName().str(), taken, timeLoop.stmt);
    taken.push_back(name);
    spec.fields.push_back(FieldDecl{name, roles[a] ? FieldRole::Coefficient : FieldRole::Input});
  }
  for (const VarDecl *param : params) {
    spec.params.push_back(stencilName(param->getName().str(), taken, timeLoop.stmt));
    taken.push_back(spec.params.back());
    if (!perStepArrays.empty()) {
      spec.paramPerStep.push_back(perStepArrays.count(param) > 0);
    }
  }
  for (const VarDecl *array : arrays) {
    stencil.inputArrays.push_back(array->getName().str());
  }
}

/// Whether a term's coefficient can be carried: a finite double, or a
/// parameter expression within the language's limits; an error otherwise.
bool NestRecogniser::checkCoefficient(const ArrayRead &first, const Coefficient &c) {
  if (!c.expr && !std::isfinite(c.value)) {
    const Expr *read = readAt.at(first);
    reportError(diags, read->getBeginLoc(), "the coefficient of this read overflows a double")
        << read->getSourceRange();
    return false;
  }
  if (c.expr && (c.expr->nodes > MaxExprNodes || c.expr->depth > MaxExprDepth)) {
    const Expr *read = readAt.at(first);
    reportError(diags, read->getBeginLoc(),
                "the coefficient of this read is an expression of run-time parameters with "
                "more than %0 operations or nested more than %1 deep (an implementation "
                "limit)")
        << str(MaxExprNodes) << str(MaxExprDepth) << read->getSourceRange();
    return false;
  }
  return true;
}

/// The field term of a general stencil: the input read, times its
/// coefficient and the coefficient array's read if there is one.
static FieldTerm fieldTerm(const TermReads &reads, const Coefficient &c,
                           const std::vector<int> &roles) {
  const bool firstIsInput = roles[reads.first.array] == 0;
  const ArrayRead &input = firstIsInput ? reads.first : reads.second;
  const ArrayRead &weight = firstIsInput ? reads.second : reads.first;
  FieldTerm term;
  term.field = input.array;
  term.offset = input.offset;
  term.coefficientField = weight.array;
  term.coefficientOffset = weight.array >= 0 ? weight.offset : Offset{};
  term.coefficient = c.value;
  term.paramCoefficient = c.expr;
  return term;
}

/// The spec's radius and shape from the reads kept; an error when they
/// reach no neighbour.
bool NestRecogniser::measureReach(const std::vector<ArrayRead> &kept, StencilSpec &spec) {
  spec.radius = 0;
  spec.shape = Shape::Star;
  for (const ArrayRead &read : kept) {
    spec.radius = std::max(spec.radius, read.offset.chebyshevNorm());
    if (read.offset.nonZeroAxes() > 1) {
      spec.shape = Shape::Box;
    }
  }
  if (spec.radius == 0) {
    reportError(diags, assignment->getRHS()->getBeginLoc(),
                "the update reads only the centre point of '%0'; a stencil reads "
                "neighbours")
        << arrays[kept.front().array]->getName() << assignment->getRHS()->getSourceRange();
    return false;
  }
  return true;
}

void sortFieldTerms(std::vector<FieldTerm> &terms) {
  std::sort(terms.begin(), terms.end(), [](const FieldTerm &x, const FieldTerm &y) {
    return std::tie(x.field, x.offset, x.coefficientField, x.coefficientOffset) <
           std::tie(y.field, y.offset, y.coefficientField, y.coefficientOffset);
  });
}

bool NestRecogniser::assembleTerms(const Form &update, TranslatedStencil &stencil) {
  StencilSpec &spec = stencil.spec;
  // A scalar added to the reads that no product turned into reads.
  Form rhs = update;
  if (auto it = rhs.terms.find(TermReads{}); it != rhs.terms.end()) {
    if (!it->second.isZero()) {
      reportTermWithoutRead(rhs.scalarAddedAt);
      return false;
    }
    rhs.terms.erase(it);
  }
  std::vector<int> roles = arrayRoles(rhs);
  if (roles.empty()) {
    return false;
  }
  const bool general = arrays.size() > 1 || !params.empty();
  declareNames(roles, general, stencil);

  bool ok = true;
  std::vector<ArrayRead> kept;
  for (const auto &[reads, c] : rhs.terms) {
    if (!checkCoefficient(reads.first, c)) {
      ok = false;
      continue;
    }
    if (c.isZero()) {
      continue; // reads that cancel out are not reads
    }
    kept.push_back(reads.first);
    if (reads.second.array >= 0) {
      kept.push_back(reads.second);
    }
    if (!general) {
      spec.terms.push_back(Term{reads.first.offset, c.value});
      continue;
    }
    spec.fieldTerms.push_back(fieldTerm(reads, c, roles));
  }
  if (!ok) {
    return false;
  }
  if (kept.empty()) {
    reportError(diags, assignment->getRHS()->getBeginLoc(),
                "the update has no non-zero coefficient: its terms cancel")
        << assignment->getRHS()->getSourceRange();
    return false;
  }
  sortFieldTerms(spec.fieldTerms);
  return measureReach(kept, spec);
}

} // namespace stencilc::cfront::detail
