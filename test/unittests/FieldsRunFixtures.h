//===- FieldsRunFixtures.h - Grids for the tests of NAME_run's model ------===//
//
// The grids the tests of emulateFieldsRun with point lists (receivers,
// sources) run on: 301 points in 1D, 17 x 23 in 2D, every field random.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <vector>

#include "StencilFixtures.h"
#include "stencilc/Spec.h"

namespace stencilc::testing {

inline std::array<int, 3> runGridSize(const StencilSpec &spec) {
  return spec.dims == 1 ? std::array<int, 3>{301, 1, 1} : std::array<int, 3>{17, 23, 1};
}

inline std::vector<GridND> randomRunFields(const StencilSpec &spec, unsigned seed) {
  std::vector<GridND> fields;
  for (std::size_t f = 0; f < spec.fields.size(); ++f) {
    fields.push_back(
        randomGridND(spec.dims, runGridSize(spec), spec.precision, seed + 7 * unsigned(f)));
  }
  return fields;
}

} // namespace stencilc::testing
