//===- FieldsInterpreter.cpp - A stencil of fields, evaluated directly ----===//
//
// The meaning of the text, from docs/language.md alone: at every point the
// boundary rule updates (the interior at least the radius from every edge
// for `fixed`, every point otherwise), evaluate the update in float64, a
// read of a field at the point plus its offset; outside the grid a read
// sees the constant (`constant V`), or the point the rule folds it to, axis
// by axis: periodic wraps, clamp takes the nearest edge, mirror reflects
// with the edge repeated (-1 is 0), reflect without it (-1 is 1). It shares
// no code with the compiler: that independence is what it is for.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <map>

#include "FieldsStencil.h"

namespace stencilc::fuzzdiff {
namespace {

struct Evaluator {
  const FieldsStencil &s;
  const std::vector<FGrid> &fields;
  std::map<std::string, double> values, magnitudes; ///< params and lets
  std::array<long long, 3> point{0, 0, 0};

  /// The folded index along one axis, or -1 where the read sees the constant.
  long long fold(long long x, long long n) const {
    if (x >= 0 && x < n) {
      return x;
    }
    switch (s.boundary) {
    case FBoundary::Periodic:
      return ((x % n) + n) % n;
    case FBoundary::Clamp:
      return x < 0 ? 0 : n - 1;
    case FBoundary::Mirror:
      return x < 0 ? -x - 1 : 2 * n - 1 - x;
    case FBoundary::Reflect:
      return x < 0 ? -x : 2 * n - 2 - x;
    default:
      return -1;
    }
  }

  double readAt(const FExpr &e) const {
    const FGrid &g = fields[e.field];
    long long index = 0;
    for (int d = 0; d < 3; ++d) {
      long long x = fold(point[d] + e.offset[d], g.n[d]);
      if (x < 0) {
        return s.boundary == FBoundary::Constant ? s.boundaryValue : NAN;
      }
      index = index * g.n[d] + x;
    }
    return g.values[index];
  }

  /// The value of `e`, and in `magnitude` its value with every operand's
  /// magnitude (divisors' too): how large the roundings can be.
  double eval(const FExpr &e, double &magnitude) const {
    double a = 0, b = 0, ma = 0, mb = 0;
    switch (e.kind) {
    case FExpr::Kind::Number:
      magnitude = std::fabs(e.value);
      return e.value;
    case FExpr::Kind::Param:
    case FExpr::Kind::Let:
      magnitude = magnitudes.at(e.text);
      return values.at(e.text);
    case FExpr::Kind::Read:
      a = readAt(e);
      magnitude = std::fabs(a);
      return a;
    case FExpr::Kind::Neg:
      a = eval(e.args[0], magnitude);
      return -a;
    default:
      break;
    }
    a = eval(e.args[0], ma);
    b = eval(e.args[1], mb);
    switch (e.kind) {
    case FExpr::Kind::Add:
      magnitude = ma + mb;
      return a + b;
    case FExpr::Kind::Sub:
      magnitude = ma + mb;
      return a - b;
    case FExpr::Kind::Mul:
      magnitude = ma * mb;
      return a * b;
    default:
      magnitude = ma / std::fabs(b);
      return a / b;
    }
  }
};

bool updates(const FieldsStencil &s, const std::array<long long, 3> &p, const FGrid &out,
             int radius) {
  if (s.boundary != FBoundary::Fixed) {
    return true;
  }
  for (int d = 0; d < s.dims; ++d) {
    if (p[d] < radius || p[d] >= out.n[d] - radius) {
      return false;
    }
  }
  return true;
}

} // namespace

void interpretStep(const FieldsStencil &s, const std::vector<FGrid> &fields, FGrid &out,
                   std::vector<double> &scale) {
  Evaluator ev{s, fields, {}, {}, {0, 0, 0}};
  for (size_t p = 0; p < s.params.size(); ++p) {
    ev.values[s.params[p]] = s.paramValues[p];
    ev.magnitudes[s.params[p]] = std::fabs(s.paramValues[p]);
  }
  for (const auto &[name, expr] : s.lets) {
    double magnitude = 0;
    ev.values[name] = ev.eval(expr, magnitude);
    ev.magnitudes[name] = magnitude;
  }
  int radius = fieldsRadius(s);
  scale.assign(out.values.size(), 0.0);
  size_t index = 0;
  for (long long a = 0; a < out.n[0]; ++a) {
    for (long long b = 0; b < out.n[1]; ++b) {
      for (long long c = 0; c < out.n[2]; ++c, ++index) {
        ev.point = {a, b, c};
        if (updates(s, ev.point, out, radius)) {
          out.values[index] = ev.eval(s.update, scale[index]);
        }
      }
    }
  }
}

} // namespace stencilc::fuzzdiff
