//===- SemaFields.cpp - Fields, coefficient fields, parameters, time levels ===//
//
// A stencil of fields (issue 20) declares the grids it reads (`field u,
// u_prev;`, `coefficient k;`), its run-time parameters (`param dt;`) and, for
// a step in time, its levels (`time u_prev, u;`). Each input field is linear
// in its reads; a coefficient field read (at the output point or at a
// neighbour) multiplies reads of input fields; a parameter makes a
// coefficient an expression the host evaluates per call. Also here: the
// functions sqrt and pow, and the constant pi.
//
//===----------------------------------------------------------------------===//
#include "SemaChecker.h"

#include <cmath>

#include <fmt/format.h>

#include "llvm/Support/Casting.h"
#include "llvm/Support/Error.h"

#include "stencilc/Suggest.h"

namespace stencilc::sema {

using llvm::APFloat;
using llvm::SMLoc;

namespace {

const char *const PiDigits = "3.14159265358979323846264338327950288419716939937510582097494459";

} // namespace

std::string StencilChecker::inputWord() const { return general ? "an input field" : "'in'"; }

std::string StencilChecker::fieldReadText(int field, const Offset &offset) const {
  std::string text = fields[field].decl.name + "[";
  for (int a = 0; a < static_cast<int>(indexNames.size()); ++a) {
    text += (a ? ", " : "") + indexNames[a].name;
    if (offset.d[a] != 0) {
      text += fmt::format("{:+}", offset.d[a]);
    }
  }
  return text + "]";
}

bool StencilChecker::checkDeclaredName(const Identifier &name, std::string_view what) {
  if (isReservedInApi(name.name)) {
    diags.error(
        name.range.Start,
        fmt::format("'{}' cannot name a {}: the generated C API uses that name", name.name, what));
    return false;
  }
  auto previous = [&]() -> std::optional<SMLoc> {
    if (auto it = fieldIndex.find(name.name); it != fieldIndex.end()) {
      return fields[it->second].loc;
    }
    if (auto it = paramIndex.find(name.name); it != paramIndex.end()) {
      return params[it->second].loc;
    }
    if (auto it = lets.find(name.name); it != lets.end()) {
      return it->second.loc; // a constant of the file
    }
    return std::nullopt;
  }();
  if (previous) {
    diags.error(name.range.Start, fmt::format("redefinition of '{}'", name.name));
    diags.note(*previous, "the first definition is here");
    return false;
  }
  return true;
}

bool StencilChecker::checkPerStep(const DeclStmt &stmt, const DeclaredName &d) {
  if (d.perStep.empty()) {
    return false;
  }
  const SMLoc per = d.perStep.front().Start;
  if (stmt.getKind() != Stmt::Kind::Param) {
    diags.error(per, "only a parameter can be 'per step'; a field is a grid NAME_run steps or "
                     "reads, not a value of each step");
    return false;
  }
  if (d.perStep.size() > 1) {
    diags.error(d.perStep[1].Start, fmt::format("'per step' is given twice for '{}'", d.name.name));
    diags.note(per, "the first one is here");
    return false;
  }
  if (stmt.getNames().size() > 1) {
    // `param dt, amp per step;` might mean either; one name a statement
    // leaves no doubt which parameters change every step.
    diags.error(per, fmt::format("'per step' declares one parameter alone; declare '{}' in a "
                                 "statement of its own, 'param {} per step;'",
                                 d.name.name, d.name.name));
    return false;
  }
  return true;
}

void StencilChecker::declareNames(const DeclStmt &stmt) {
  const bool isParam = stmt.getKind() == Stmt::Kind::Param;
  const bool isCoefficient = stmt.getKind() == Stmt::Kind::Coefficient;
  for (const DeclaredName &d : stmt.getNames()) {
    const bool perStep = checkPerStep(stmt, d);
    if (!checkDeclaredName(d.name, isParam ? "parameter" : "field")) {
      continue;
    }
    if (isParam) {
      if (d.precision) {
        diags.error(d.precision->range.Start,
                    "a parameter takes no precision: it is passed as a double");
      }
      paramIndex[d.name.name] = static_cast<int>(params.size());
      params.push_back({d.name.name, d.name.range.Start, false, perStep});
      continue;
    }
    if (d.precision) {
      std::optional<Precision> p = parsePrecision(d.precision->name);
      if (!p) {
        diags.error(d.precision->range.Start,
                    fmt::format("unknown precision '{}'; expected {}", d.precision->name,
                                joinList(precisionKeywords(), " or ")));
        continue;
      }
      fieldPrecisions.push_back({static_cast<int>(fields.size()), *p, d.precision->range.Start});
    }
    fieldIndex[d.name.name] = static_cast<int>(fields.size());
    fields.push_back(
        {FieldDecl{d.name.name, isCoefficient ? FieldRole::Coefficient : FieldRole::Input},
         d.name.range.Start});
  }
}

bool StencilChecker::declareOnce(const DeclStmt &stmt, SMLoc &first, std::string_view word) {
  if (first.isValid()) {
    diags.error(stmt.getLoc(), fmt::format("duplicate '{}' statement", word));
    diags.note(first, "the first one is here");
    return false;
  }
  first = stmt.getLoc();
  for (const DeclaredName &d : stmt.getNames()) {
    checkPerStep(stmt, d);
  }
  return true;
}

void StencilChecker::declareTime(const DeclStmt &stmt) {
  if (!declareOnce(stmt, timeLoc, "time")) {
    return;
  }
  const auto &names = stmt.getNames();
  if (names.size() != 2) {
    diags.error(stmt.getLoc(), fmt::format("'time' names two input fields, the previous level "
                                           "and the current one ('time u_prev, u;'), found {}",
                                           names.size()));
    return;
  }
  int levels[2] = {-1, -1};
  for (int k = 0; k < 2; ++k) {
    const Identifier &name = names[k].name;
    auto it = fieldIndex.find(name.name);
    if (it == fieldIndex.end() || fields[it->second].decl.role != FieldRole::Input) {
      diags.error(name.range.Start,
                  fmt::format("'{}' is not an input field; 'time' names fields declared with "
                              "'field'",
                              name.name));
      return;
    }
    levels[k] = it->second;
  }
  if (levels[0] == levels[1]) {
    diags.error(names[1].name.range.Start, "the two time levels must be different fields");
    return;
  }
  timeLevels = {levels[0], levels[1]};
}

void StencilChecker::declareFields() {
  bool declaresInputs = false;
  for (const StmtPtr &stmt : decl.body) {
    const auto *d = llvm::dyn_cast<DeclStmt>(stmt.get());
    if (!d) {
      continue;
    }
    general = true;
    declaresInputs |= d->getKind() == Stmt::Kind::Field;
  }
  if (!general) {
    return;
  }
  if (!declaresInputs) { // parameters or coefficient fields beside the one input `in`
    fieldIndex["in"] = 0;
    fields.push_back({FieldDecl{"in", FieldRole::Input}, decl.name.range.Start});
  }
  for (const StmtPtr &stmt : decl.body) {
    const auto *d = llvm::dyn_cast<DeclStmt>(stmt.get());
    if (d && d->getKind() != Stmt::Kind::Time && d->getKind() != Stmt::Kind::Record &&
        d->getKind() != Stmt::Kind::Source) {
      declareNames(*d);
    }
  }
  for (const StmtPtr &stmt : decl.body) {
    const auto *d = llvm::dyn_cast<DeclStmt>(stmt.get());
    if (d && d->getKind() == Stmt::Kind::Time) {
      declareTime(*d);
    }
    if (d && d->getKind() == Stmt::Kind::Record) {
      declareSteppedName(*d, recorded);
    }
    if (d && d->getKind() == Stmt::Kind::Source) {
      declareSteppedName(*d, sourced);
    }
  }
}

namespace {

/// What `record u;` and `source u;` give NAME_run: the parameters it then
/// takes (which no field or parameter may be named), and how the
/// statement's example and messages say it (`noPrecision`: why it takes
/// no precision).
struct SteppedNameWord {
  std::string_view word, example, what, noPrecision;
  PointListNames api;
};
constexpr SteppedNameWord RecordWord{"record", "record u;", "records receivers",
                                     "the records have the field's", ReceiverListNames};
constexpr SteppedNameWord SourceWord{"source", "source u;", "injects point sources",
                                     "amplitudes are doubles, added in the field's arithmetic",
                                     SourceListNames};

const SteppedNameWord &steppedNameWord(std::string_view word) {
  return word == RecordWord.word ? RecordWord : SourceWord;
}

} // namespace

void StencilChecker::declareSteppedName(const DeclStmt &stmt, SteppedName &into) {
  const SteppedNameWord &word = steppedNameWord(declarationWord(stmt.getKind())->word);
  if (!declareOnce(stmt, into.loc, word.word)) {
    return;
  }
  const auto &names = stmt.getNames();
  if (names.size() != 1) {
    diags.error(names[1].name.range.Start,
                fmt::format("'{}' names one field, the one NAME_run steps ('{}'), found {}",
                            word.word, word.example, names.size()));
    return;
  }
  if (names[0].precision) {
    diags.error(names[0].precision->range.Start,
                fmt::format("'{}' takes no precision: {}", word.word, word.noPrecision));
    return;
  }
  into.name = names[0].name;
}

/// Whether `given` (`record`, `source`) names the stepped field and no
/// field or parameter takes a name its NAME_run arguments take; an error
/// where not.
bool StencilChecker::finishSteppedName(const SteppedName &given, std::string_view wordText) {
  const SteppedNameWord &word = steppedNameWord(wordText);
  const std::string &stepped = fields[spec.steppedField].decl.name;
  if (given.name->name != stepped) {
    // Receivers read, and sources add to, the level each step writes; any
    // other field is the same at every step (or, for the previous level,
    // the step before's).
    diags.error(given.name->range.Start,
                fmt::format("'{}' names the field NAME_run steps, '{}'; '{}' is not it", word.word,
                            stepped, given.name->name));
    diags.note(fields[spec.steppedField].loc,
               fmt::format("'{}' is the field each step writes", stepped));
    return false;
  }
  // A field or parameter named as one of NAME_run's arguments would be a
  // second parameter of that name.
  for (std::string_view api : {word.api.points, word.api.count, word.api.values}) {
    std::optional<SMLoc> clash;
    if (auto it = fieldIndex.find(api); it != fieldIndex.end()) {
      clash = fields[it->second].loc;
    } else if (auto it = paramIndex.find(api); it != paramIndex.end()) {
      clash = params[it->second].loc;
    }
    if (clash) {
      diags.error(*clash, fmt::format("'{}' cannot name a field or parameter of a stencil that "
                                      "{}: its NAME_run takes a parameter of that name",
                                      api, word.what));
      return false;
    }
  }
  return true;
}

void StencilChecker::finishSteppedNames() {
  if (spec.steppedField < 0) {
    return;
  }
  if (recorded.name) {
    spec.recordsReceivers = finishSteppedName(recorded, RecordWord.word);
  }
  if (sourced.name) {
    spec.injectsSources = finishSteppedName(sourced, SourceWord.word);
  }
}

std::optional<LinearValue> StencilChecker::evalParam(const NameExpr &expr) {
  const int index = paramIndex.lookup(expr.getName());
  if (!paramsAllowed) {
    diags.error(expr.getLoc(),
                fmt::format("{} must be a constant; it cannot use the run-time parameter '{}'",
                            constantContext.empty() ? std::string("this value") : constantContext,
                            std::string_view(expr.getName())));
    return std::nullopt;
  }
  params[index].used = true;
  LinearValue v;
  v.constant = Coef::parameter(index);
  v.loc = expr.getLoc();
  return v;
}

std::optional<LinearValue> StencilChecker::evalFieldRead(const ReadExpr &expr) {
  llvm::StringRef array = expr.getArray();
  auto it = fieldIndex.find(array);
  if (it == fieldIndex.end()) {
    if (array == "out") {
      diags.error(expr.getLoc(), "'out' cannot be read: a step reads only its input and "
                                 "coefficient fields, never the grid it writes");
      return std::nullopt;
    }
    if (!unknownNamesReported.insert(array.str()).second) {
      return std::nullopt;
    }
    std::vector<std::string_view> known;
    for (const DeclaredField &f : fields) {
      known.push_back(f.decl.name);
    }
    if (auto match = closestMatch(array, known)) {
      diags.error(expr.getLoc(),
                  fmt::format("unknown field '{}'; did you mean '{}'?", array.str(), *match),
                  {expr.getArrayRange()}, llvm::SMFixIt(expr.getArrayRange(), *match));
    } else {
      diags.error(expr.getLoc(),
                  fmt::format("unknown field '{}'; declare it with 'field {};' (an input) or "
                              "'coefficient {};'",
                              array.str(), array.str(), array.str()));
    }
    return std::nullopt;
  }
  const int field = it->second;
  std::optional<Offset> read = readOffset(expr, array);
  if (!read) {
    return std::nullopt;
  }
  const Offset offset = *read;
  LinearValue v;
  v.loc = expr.getLoc();
  TermKey key;
  if (fields[field].decl.role == FieldRole::Input) {
    key.field = field;
    key.offset = offset;
  } else {
    key.field = -1;
    key.coefField = field;
    key.coefOffset = offset;
  }
  v.reads.emplace(key, Read{APFloat::getOne(quad()), expr.getLoc()});
  return v;
}

/// acc * rhs where both have reads and at most one reads input fields: every
/// pair of terms, the constants times the other side's terms.
bool StencilChecker::multiplyReads(LinearValue &acc, LinearValue &rhs, SMLoc opLoc) {
  const auto rm = APFloat::rmNearestTiesToEven;
  LinearValue product;
  product.loc = acc.loc;
  // Beside reads, a zero constant is no term: it stays zero.
  if (!acc.constant.isZero() && !rhs.constant.isZero()) {
    product.constant = acc.constant;
    product.constant.multiply(rhs.constant, rm);
  }
  auto addTerm = [&](const TermKey &key, Coef coefficient, SMLoc loc) {
    auto [it, inserted] = product.reads.emplace(key, Read{coefficient, loc});
    if (!inserted) {
      it->second.coefficient.add(coefficient, rm);
    }
  };
  auto scaleInto = [&](const LinearValue &terms, const Coef &factor) {
    if (factor.isZero()) {
      return;
    }
    for (const auto &[key, read] : terms.reads) {
      Coef c = read.coefficient;
      c.multiply(factor, rm);
      addTerm(key, c, read.loc);
    }
  };
  scaleInto(acc, rhs.constant);
  scaleInto(rhs, acc.constant);
  if (!chargeScaling(acc.reads.size() * rhs.reads.size(), opLoc)) {
    return false;
  }
  for (const auto &[a, ra] : acc.reads) {
    for (const auto &[b, rb] : rhs.reads) {
      if (a.coefField >= 0 && b.coefField >= 0) {
        diags.error(opLoc,
                    fmt::format("a product of two coefficient fields ('{}' and '{}') is "
                                "not supported; declare their product as one field",
                                fields[a.coefField].decl.name, fields[b.coefField].decl.name));
        return false;
      }
      TermKey key = a.field >= 0 ? a : b;
      const TermKey &coef = a.coefField >= 0 ? a : b;
      key.coefField = coef.coefField;
      key.coefOffset = coef.coefOffset;
      Coef c = ra.coefficient;
      c.multiply(rb.coefficient, rm);
      addTerm(key, c, a.field >= 0 ? ra.loc : rb.loc);
    }
  }
  acc = std::move(product);
  return checkExpressionSize(acc, opLoc);
}

/// sqrt(x) in quad precision: Newton's iteration from the double root (each
/// step doubles the correct bits: 53, 106, 212).
static APFloat quadSqrt(const APFloat &x) {
  const auto rm = APFloat::rmNearestTiesToEven;
  if (x.isZero()) {
    return x;
  }
  APFloat r(std::sqrt(toDouble(x)));
  bool losesInfo = false;
  r.convert(quad(), rm, &losesInfo);
  const APFloat half(quad(), "0.5");
  for (int k = 0; k < 3; ++k) {
    APFloat q = x;
    q.divide(r, rm);
    r.add(q, rm);
    r.multiply(half, rm);
  }
  return r;
}

/// pow(base, exponent) in quad: exact for integer exponents up to 64 in
/// magnitude (repeated multiplication), through sqrt for halves; otherwise
/// computed in long double and rounded from there. Nothing, reported, where
/// it has no finite value.
std::optional<APFloat> StencilChecker::evalPow(const CallExpr &expr, const APFloat &base,
                                               const APFloat &exponent) {
  const auto rm = APFloat::rmNearestTiesToEven;
  const double e = toDouble(exponent);
  APFloat twice = exponent;
  twice.add(exponent, rm);
  if (twice.isInteger() && std::abs(e) <= 64) {
    const bool halfPower = !exponent.isInteger();
    if (halfPower && base.isNegative() && !base.isZero()) {
      diags.error(expr.getArgs()[0]->getLoc(), "pow of a negative number to a fractional power");
      return std::nullopt;
    }
    APFloat power = APFloat::getOne(quad());
    const long whole = static_cast<long>(std::abs(std::trunc(e)));
    for (long k = 0; k < whole; ++k) {
      power.multiply(base, rm);
    }
    if (halfPower) {
      power.multiply(quadSqrt(base), rm);
    }
    if (e < 0) {
      if (power.isZero()) {
        diags.error(expr.getLoc(), "pow of zero to a negative power divides by zero");
        return std::nullopt;
      }
      APFloat one = APFloat::getOne(quad());
      one.divide(power, rm);
      power = one;
    }
    return power;
  }
  const long double p =
      std::pow(static_cast<long double>(toDouble(base)), static_cast<long double>(e));
  if (!std::isfinite(static_cast<double>(p))) {
    diags.error(expr.getLoc(), "pow gives no finite number here");
    return std::nullopt;
  }
  APFloat value(static_cast<double>(p));
  bool losesInfo = false;
  value.convert(quad(), rm, &losesInfo);
  return value;
}

std::optional<LinearValue> StencilChecker::evalCall(const CallExpr &expr) {
  llvm::StringRef callee = expr.getCallee();
  const auto &args = expr.getArgs();
  const size_t arity = callee == "sqrt" ? 1 : callee == "pow" ? 2 : 0;
  if (arity == 0) {
    diags.error(expr.getLoc(),
                fmt::format("unknown function '{}'; the functions of the .stencil language are "
                            "sqrt(x) and pow(x, y), of constants",
                            callee.str()),
                {expr.getCalleeRange()});
    return std::nullopt;
  }
  if (args.size() != arity) {
    diags.error(expr.getLoc(), fmt::format("'{}' takes {} {}, found {}", callee.str(), arity,
                                           arity == 1 ? "argument" : "arguments", args.size()));
    return std::nullopt;
  }
  std::vector<APFloat> values;
  for (const ExprPtr &arg : args) {
    auto v = evalConstantOnly(*arg, fmt::format("the argument of '{}'", callee.str()));
    if (!v) {
      return std::nullopt;
    }
    values.push_back(v->constant.exact());
  }
  LinearValue result;
  result.loc = expr.getLoc();
  if (callee == "sqrt") {
    if (values[0].isNegative() && !values[0].isZero()) {
      diags.error(args[0]->getLoc(),
                  fmt::format("sqrt of a negative number, '{}'", valueText(values[0])));
      return std::nullopt;
    }
    result.constant = quadSqrt(values[0]);
    return result;
  }
  std::optional<APFloat> power = evalPow(expr, values[0], values[1]);
  if (!power) {
    return std::nullopt;
  }
  result.constant = *power;
  if (!checkFinite(result.constant.exact(), expr.getLoc())) {
    return std::nullopt;
  }
  return result;
}

void StencilChecker::finishFieldTerms() {
  for (const auto &[key, read] : coefficients) {
    if (read.coefficient.isZero()) {
      continue; // reads that cancel out are not reads
    }
    FieldTerm term;
    term.field = key.field;
    term.offset = key.offset;
    term.coefficientField = key.coefField;
    term.coefficientOffset = key.coefOffset;
    if (read.coefficient.isExact()) {
      std::string text = fieldReadText(key.field, key.offset);
      if (key.coefField >= 0) {
        text += " * " + fieldReadText(key.coefField, key.coefOffset);
      }
      auto value = finishCoefficient(read.coefficient.exact(), read.loc, text);
      if (!value) {
        continue;
      }
      term.coefficient = *value;
    } else {
      term.paramCoefficient = read.coefficient.toExpr();
    }
    spec.fieldTerms.push_back(std::move(term));
  }
}

void StencilChecker::finishFields() {
  for (const auto &[field, precision, loc] : fieldPrecisions) {
    if (precision != spec.precision) {
      diags.error(loc, fmt::format("field '{}' is {}, but the stencil's precision is {}: every "
                                   "field of a stencil has its precision (mixed precisions are "
                                   "not supported)",
                                   fields[field].decl.name, keyword(precision),
                                   keyword(spec.precision)));
    }
  }
  for (const DeclaredParam &p : params) {
    if (!p.used) {
      diags.warning(Warning::UnusedParam, p.loc,
                    fmt::format("parameter '{}' is never used", p.name));
    }
  }
  for (const DeclaredField &f : fields) {
    spec.fields.push_back(f.decl);
  }
  for (const DeclaredParam &p : params) {
    spec.params.push_back(p.name);
    spec.paramPerStep.push_back(p.perStep);
  }
  spec.steppedField = -1;
  if (timeLevels) {
    spec.previousField = timeLevels->first;
    spec.steppedField = timeLevels->second;
  } else {
    for (std::size_t f = 0; f < fields.size(); ++f) {
      if (fields[f].decl.role == FieldRole::Input) {
        spec.steppedField = static_cast<int>(f);
        break;
      }
    }
  }
  if (spec.steppedField < 0) {
    diags.error(decl.name.range.Start,
                fmt::format("stencil '{}' declares no input field ('field NAME;')", spec.name));
  }
  finishSteppedNames();
}

APFloat piConstant() {
  APFloat pi(quad());
  auto status = pi.convertFromString(PiDigits, APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
  }
  return pi;
}

} // namespace stencilc::sema
