//===- CNestArrays.cpp - The arrays of a random loop nest ------------------===//
//
// Names, forms and extents of the arrays a generated nest reads and writes.
// A read array has the written array's extents unless drawn off them; its
// extents always hold every element the loops read, so the C program is
// defined whatever stencilc makes of it.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "CNest.h"
#include "Random.h"

namespace stencilc::fuzzdiff {
namespace {

ArrayForm drawForm(Rng &rng, int dims) {
  static const std::vector<ArrayForm> lineForms = {ArrayForm::Constant, ArrayForm::Vla,
                                                   ArrayForm::Flat};
  static const std::vector<ArrayForm> gridForms = {ArrayForm::Constant, ArrayForm::Vla,
                                                   ArrayForm::PointerToArray, ArrayForm::Flat};
  return pick(rng, dims == 1 ? lineForms : gridForms);
}

/// The reach of every access to `array` along each axis: the largest
/// positive offset of its reads (0 for the written array).
std::array<int, 3> reachAbove(const CNest &nest, int array) {
  std::array<int, 3> above{0, 0, 0};
  for (const CTerm &t : nest.terms) {
    for (const ArrayRead *r : {&t.read, t.weighted ? &t.weight : nullptr}) {
      if (r && r->array == array) {
        for (int d = 0; d < 3; ++d) {
          above[d] = std::max(above[d], r->offset[d]);
        }
      }
    }
  }
  return above;
}

/// How the type (or flat index) names extent `d` of `array`: the grid's
/// size parameter where the extent is the grid's, else a parameter of its
/// own or a literal.
std::string extentText(Rng &rng, CNest &nest, const CArray &array, int d) {
  int value = array.extent[d];
  bool literal = array.form == ArrayForm::Constant ||
                 (array.form != ArrayForm::Flat && chance(rng, 0.2)) || chance(rng, 0.03);
  if (literal) {
    return std::to_string(value);
  }
  if (value == nest.sizes[d].value) {
    return nest.sizes[d].name;
  }
  SizeVar own{"m" + array.name + std::to_string(d), value};
  nest.sizes.push_back(own);
  return own.name;
}

/// Elements a flat array's reads reach: its last read index plus one.
int flatReach(const CNest &nest, const CArray &array, const std::array<int, 3> &above) {
  long long index = 0;
  for (int d = 0; d < nest.dims; ++d) {
    const LoopBound &b = nest.bounds[d];
    if (b.upper <= b.lower) {
      return 0;
    }
    index = index * (d == 0 ? 1 : array.extent[d]) + (b.upper - 1 + above[d]);
  }
  return static_cast<int>(index + 1);
}

void finishArray(Rng &rng, CNest &nest, CArray &array, int index) {
  int elements = 1;
  for (int d = 0; d < nest.dims; ++d) {
    elements *= array.extent[d];
    if (!extentUnnamed(array, d)) {
      array.extentText[d] = extentText(rng, nest, array, d);
    }
  }
  // Where the rows are the loop's (gridExtent), the array holds the grid's
  // rows, as the generated function's contract asks of its arrays.
  int grid = gridExtent(nest)[0];
  if (extentUnnamed(array, 0) && grid > array.extent[0]) {
    elements = elements / array.extent[0] * grid;
  }
  array.allocated = elements;
  if (array.form == ArrayForm::Flat) {
    array.allocated = std::max(elements, flatReach(nest, array, reachAbove(nest, index)));
  }
}

} // namespace

void drawWrittenArray(Rng &rng, CNest &nest, int others) {
  static const std::vector<std::string> names = {"out", "b", "dst", "v_next"};
  nest.arrays.assign(1 + others, CArray{});
  nest.arrays[0].name = pick(rng, names);
  nest.arrays[0].form = drawForm(rng, nest.dims);
  for (int d = 0; d < nest.dims; ++d) {
    nest.arrays[0].extent[d] = nest.sizes[d].value;
  }
}

void drawReadArrays(Rng &rng, CNest &nest, const GenOptions &options) {
  std::vector<std::string> names = {"u", "in", "src", "a", "phi", "w_prev", "kd", "c2", "kappa"};
  std::shuffle(names.begin(), names.end(), rng);
  for (size_t a = 1; a < nest.arrays.size(); ++a) {
    CArray &array = nest.arrays[a];
    array.name = names[a - 1];
    // Flat and indexed arrays mixed in one nest are refused (c-frontend.md):
    // mostly keep to the written array's kind, to reach the translation.
    bool flat = nest.arrays[0].form == ArrayForm::Flat;
    array.form = drawForm(rng, nest.dims);
    if (nest.dims > 1 && (array.form == ArrayForm::Flat) != flat && chance(rng, 0.9)) {
      array.form = flat ? ArrayForm::Flat : nest.arrays[0].form;
    }
    array.extent = nest.arrays[0].extent;
    std::array<int, 3> above = reachAbove(nest, static_cast<int>(a));
    if (chance(rng, options.offCanonical)) {
      int d = uniform(rng, 0, nest.dims - 1);
      const LoopBound &b = nest.bounds[d];
      int least = std::max(1, b.upper > b.lower ? b.upper + above[d] : 1);
      array.extent[d] = std::max(least, array.extent[d] + uniform(rng, -2, 3));
    }
  }
  for (size_t a = 0; a < nest.arrays.size(); ++a) {
    finishArray(rng, nest, nest.arrays[a], static_cast<int>(a));
  }
}

bool extentUnnamed(const CArray &array, int d) {
  return d == 0 && (array.form == ArrayForm::Flat || array.form == ArrayForm::PointerToArray);
}

std::array<int, 3> gridExtent(const CNest &nest) {
  std::array<int, 3> grid = nest.arrays[0].extent;
  if (!extentUnnamed(nest.arrays[0], 0)) {
    return grid;
  }
  for (const SizeVar &size : nest.sizes) {
    if (size.name == nest.bounds[0].endVariable) {
      grid[0] = size.value;
    }
  }
  return grid;
}

std::string knownClass(const CNest &nest) {
  const CArray &written = nest.arrays[0];
  const std::array<int, 3> grid = gridExtent(nest);
  for (const CArray &array : nest.arrays) {
    for (int d = 1; d < nest.dims; ++d) {
      if (array.extent[d] != written.extent[d]) {
        return "stride";
      }
    }
  }
  int radius = nestRadius(nest);
  for (int d = 0; d < nest.dims; ++d) {
    const LoopBound &b = nest.bounds[d];
    if (b.lower != radius || b.upper != grid[d] - radius) {
      return "bounds";
    }
  }
  return "";
}

} // namespace stencilc::fuzzdiff
