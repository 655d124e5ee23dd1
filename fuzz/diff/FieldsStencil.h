//===- FieldsStencil.h - A random stencil of fields and its meaning -*- C++ -*-===//
//
// Internal to the fields differential fuzzer: the stencil as the generator
// holds it (its own expression tree, from which it prints the text), and
// the direct float64 interpretation of that tree on a grid, written from
// docs/language.md without the compiler's code.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace stencilc::fuzzdiff {

/// An expression of the update or of a `let`.
struct FExpr {
  enum class Kind { Number, Param, Let, Read, Add, Sub, Mul, Div, Neg };
  Kind kind = Kind::Number;
  std::string text; ///< Number: the literal; Param, Let: the name
  double value = 0; ///< Number: its value
  int field = 0;    ///< Read: index into FieldsStencil::fields
  std::array<int, 3> offset{0, 0, 0};
  std::vector<FExpr> args;
};

enum class FBoundary { Fixed, Constant, Periodic, Clamp, Mirror, Reflect };

struct FField {
  std::string name;
  bool coefficient = false;
};

struct FieldsStencil {
  std::string name;
  int dims = 2;
  std::string precision = "fp64";
  FBoundary boundary = FBoundary::Fixed;
  std::string boundaryText; ///< the constant's literal
  double boundaryValue = 0;
  std::vector<FField> fields; ///< declaration order; "in" where none is declared
  bool declaresFields = true;
  bool annotated = false;    ///< `field u, v: fp32;`
  bool declaresDims = false; ///< `dims 2;`
  std::vector<std::string> params;
  std::vector<double> paramValues;
  std::vector<std::pair<std::string, FExpr>> lets;
  int timePrevious = -1, timeCurrent = -1;
  FExpr update;
};

/// A random stencil of fields (`seed` picks everything).
FieldsStencil generateFieldsStencil(uint64_t seed);

/// Its .stencil text.
std::string fieldsText(const FieldsStencil &stencil);

/// The largest offset of any read: the width of a fixed boundary's ring.
int fieldsRadius(const FieldsStencil &stencil);

/// Grids of the interpretation: extents in index order, values row-major.
struct FGrid {
  std::array<int, 3> n{1, 1, 1};
  std::vector<double> values;
};

/// One step, interpreted: every point the boundary rule updates gets the
/// update's value at it (reads outside the grid as the rule says), the
/// others keep `out`'s value. `scale` receives, per point, the value of
/// the update with every operand's magnitude (the size of its roundings).
void interpretStep(const FieldsStencil &stencil, const std::vector<FGrid> &fields, FGrid &out,
                   std::vector<double> &scale);

} // namespace stencilc::fuzzdiff
