// element.cpp - names, sizes and tolerances of the precisions, and the names of
// the boundary rules and backends, from the compiler's tables.
#include "stencilc/runtime/element.h"

#include <algorithm>

namespace stencilc {

namespace {

// The rows of the compiler's tables (compiler/include/stencilc/*.def), which
// also fix stencil_info.h's enumerator values: checked here at compile time,
// so the C enums cannot drift from the tables.
struct PrecisionRow {
  const char *name;
  std::size_t bytes;
  double tolerance;
};
constexpr PrecisionRow Precisions[] = {
#define STENCILC_PRECISION(Enumerator, Keyword, CEnumerator, ElementType, Bytes, SixteenBit,       \
                           Tolerance, Storage, Operand)                                            \
  {Keyword, Bytes, Tolerance},
#include "stencilc/Precisions.def"
};
constexpr const char *Boundaries[] = {
#define STENCILC_BOUNDARY(Enumerator, Keyword, ...) Keyword,
#include "stencilc/Boundaries.def"
};
constexpr const char *Backends[] = {
#define STENCILC_BACKEND(Enumerator, Keyword, ...) Keyword,
#include "stencilc/Backends.def"
};

/// Whether each C enumerator's value is its row in the table.
template <typename Enum, std::size_t N> constexpr bool inTableOrder(const Enum (&values)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(values[i]) != i) {
      return false;
    }
  }
  return true;
}
constexpr stencilc_precision PrecisionEnumerators[] = {
#define STENCILC_PRECISION(Enumerator, Keyword, CEnumerator, ...) CEnumerator,
#include "stencilc/Precisions.def"
};
constexpr stencilc_boundary BoundaryEnumerators[] = {
#define STENCILC_BOUNDARY(Enumerator, Keyword, CEnumerator, ...) CEnumerator,
#include "stencilc/Boundaries.def"
};
constexpr stencilc_backend BackendEnumerators[] = {
#define STENCILC_BACKEND(Enumerator, Keyword, CEnumerator, ...) CEnumerator,
#include "stencilc/Backends.def"
};
static_assert(inTableOrder(PrecisionEnumerators), "stencilc_precision is not Precisions.def's");
static_assert(inTableOrder(BoundaryEnumerators), "stencilc_boundary is not Boundaries.def's");
static_assert(inTableOrder(BackendEnumerators), "stencilc_backend is not Backends.def's");

} // namespace

std::size_t elementBytes(stencilc_precision p) { return Precisions[p].bytes; }
const char *precisionName(stencilc_precision p) { return Precisions[p].name; }
const char *boundaryName(stencilc_boundary b) { return Boundaries[b]; }
const char *shapeName(stencilc_shape s) { return s == STENCILC_STAR ? "star" : "box"; }
const char *backendName(stencilc_backend b) { return Backends[b]; }
double tolerance(stencilc_precision p) { return Precisions[p].tolerance; }

double tolerance(const stencilc_stencil_info &info) {
  const double unitRoundoff = info.precision == STENCILC_FP64 ? 0x1p-53 : 0x1p-24;
  return std::max(tolerance(info.precision), (info.num_points + 1) * unitRoundoff);
}

} // namespace stencilc
