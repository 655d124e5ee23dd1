//===- Emulation.cpp - The emulators' grids, boundary reads and reference --===//
#include "Backends/Common/Emulation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "llvm/Support/ErrorHandling.h"

#include "Backends/Common/Backend.h"
#include "stencilc/Plan.h"
#include "stencilc/runtime/boundary_index.h"

namespace stencilc {

double multiplyAdd(double c, double v, double acc, Precision compute) {
  if (compute == Precision::FP64) {
    return std::fma(c, v, acc);
  }
  return static_cast<double>(
      std::fma(static_cast<float>(c), static_cast<float>(v), static_cast<float>(acc)));
}

double roundToSixteenBit(double value, Precision element) {
  // fp16: 11 significant bits, normal exponents from -14, largest 65504;
  // bf16: 8 bits, from -126, largest (2 - 2^-7) 2^127.
  const bool bf16 = element == Precision::BF16;
  const int bits = bf16 ? 8 : 11, minExponent = bf16 ? -126 : -14;
  const double largest = bf16 ? std::ldexp(2.0 - std::ldexp(1.0, -7), 127) : 65504.0;
  if (value == 0.0 || !std::isfinite(value)) {
    return value;
  }
  // The spacing of the format at |value| (subnormals share the smallest
  // normal binade's); value / ulp is exact (a power of two), and nearbyint
  // rounds it to nearest even in the default rounding mode.
  const int exponent = std::max(std::ilogb(value), minExponent);
  const double ulp = std::ldexp(1.0, exponent - (bits - 1));
  const double rounded = std::nearbyint(value / ulp) * ulp;
  if (std::fabs(rounded) > largest) {
    return std::copysign(std::numeric_limits<double>::infinity(), value);
  }
  return rounded;
}

double packedMultiplyAdd(double c, double v, double acc, Precision element) {
  // c and v have at most 11 significant bits, so c * v (22 bits, exponent
  // far inside double's range) is exact. The sum with acc is rounded to
  // double; TwoSum gives its error exactly. Where the sum is inexact, the
  // double of the two around it with an odd last bit is the exact sum
  // rounded to odd, and rounding to odd at 53 bits, then to nearest at 11
  // (or 8) bits, gives the exact sum rounded once to nearest (Boldo and
  // Melquiond, "Emulation of FMA and correctly rounded sums", 2008: it
  // needs two bits more, 53 >= 13).
  const double product = c * v;
  const double sum = product + acc;
  const double back = sum - product;
  const double error = (product - (sum - back)) + (acc - back);
  double odd = sum;
  if (error != 0.0 && std::isfinite(sum)) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &sum, sizeof bits);
    if ((bits & 1u) == 0) {
      odd = std::nextafter(sum, error > 0.0 ? std::numeric_limits<double>::infinity()
                                            : -std::numeric_limits<double>::infinity());
    }
  }
  return roundToSixteenBit(odd, element);
}

long long foldIndex(const StencilSpec &spec, long long index, long long size) {
  // BoundaryKind and stencilc_boundary are both in Boundaries.def's order
  // (the runtime's element.cpp checks the C enum at compile time).
  return stencilc_fold_index(static_cast<stencilc_boundary>(spec.boundary), index, size);
}

double readOutside(const StencilSpec &spec, llvm::function_ref<double()> folded) {
  switch (outsideRead(spec.boundary)) {
  case OutsideRead::Zero:
    return 0.0;
  case OutsideRead::Value:
    return roundToStorage(spec.boundaryValue, spec.precision);
  case OutsideRead::Fold:
    return folded();
  }
  llvm_unreachable("unknown boundary kind");
}

double boundaryReadND(const StencilSpec &spec, const GridND &in, std::array<long long, 3> i) {
  bool inside = true;
  for (int a = 0; a < in.dims; ++a) {
    inside = inside && i[a] >= 0 && i[a] < in.n[a];
  }
  if (inside) {
    return in.at(i);
  }
  return readOutside(spec, [&] {
    for (int a = 0; a < in.dims; ++a) {
      i[a] = foldIndex(spec, i[a], in.n[a]);
    }
    return in.at(i);
  });
}

GridND::GridND(int dims, std::array<int, 3> extents, double fill) : dims(dims), n(extents) {
  for (int a = dims; a < 3; ++a) {
    n[a] = 1;
  }
  values.assign(std::size_t(n[0]) * n[1] * n[2], fill);
}

std::size_t GridND::index(const std::array<long long, 3> &i) const {
  return std::size_t((i[0] * n[1] + i[1]) * n[2] + i[2]);
}

bool stepWritesPointND(const StencilSpec &spec, const GridND &grid,
                       const std::array<long long, 3> &i) {
  const long long ring = spec.ring();
  for (int a = 0; a < grid.dims; ++a) {
    if (i[a] < ring || i[a] >= grid.n[a] - ring) {
      return false;
    }
  }
  return true;
}

void referenceStepND(const StencilSpec &spec, const GridND &in, GridND &out) {
  for (long long a = 0; a < in.n[0]; ++a) {
    for (long long b = 0; b < in.n[1]; ++b) {
      for (long long c = 0; c < in.n[2]; ++c) {
        const std::array<long long, 3> i{a, b, c};
        if (!stepWritesPointND(spec, in, i)) {
          continue;
        }
        double sum = 0.0;
        for (const Term &t : spec.terms) {
          sum +=
              t.coefficient *
              boundaryReadND(spec, in, {a + t.offset.d[0], b + t.offset.d[1], c + t.offset.d[2]});
        }
        out.at(i) = sum;
      }
    }
  }
}

double relativeL2ErrorND(const StencilSpec &spec, const GridND &result, const GridND &reference) {
  double diff = 0.0, norm = 0.0;
  for (long long a = 0; a < reference.n[0]; ++a) {
    for (long long b = 0; b < reference.n[1]; ++b) {
      for (long long c = 0; c < reference.n[2]; ++c) {
        const std::array<long long, 3> i{a, b, c};
        if (!stepWritesPointND(spec, reference, i)) {
          continue;
        }
        const double d = result.at(i) - reference.at(i);
        diff += d * d;
        norm += reference.at(i) * reference.at(i);
      }
    }
  }
  if (norm == 0.0) {
    return diff == 0.0 ? 0.0 : INFINITY;
  }
  return std::sqrt(diff / norm);
}

std::vector<double> paramsOfStep(const StencilSpec &spec, const RunParams &params, int step) {
  std::vector<double> values;
  for (std::size_t p = 0; p < params.size(); ++p) {
    values.push_back(params[p].at(spec.isPerStep(p) ? static_cast<std::size_t>(step) : 0));
  }
  return values;
}

namespace {

/// Appends the values of `level` at the receivers' points to their records
/// (one row), as the gather kernel after a step's launch: NaN for a point a
/// step does not write, outside the grid or on the ring of boundary fixed
/// (issue 36: a ring point only repeats its kept value, most likely a point
/// off by the ring).
void recordReceivers(const StencilSpec &spec, const GridND &level, RunReceivers *receivers) {
  if (receivers == nullptr) {
    return;
  }
  const std::size_t dims = static_cast<std::size_t>(level.dims);
  for (std::size_t p = 0; p + dims <= receivers->points.size(); p += dims) {
    std::array<long long, 3> i{0, 0, 0};
    for (std::size_t a = 0; a < dims; ++a) {
      i[a] = receivers->points[p + a];
    }
    receivers->records.push_back(
        stepWritesPointND(spec, level, i) ? level.at(i) : std::numeric_limits<double>::quiet_NaN());
  }
}

/// Adds step `step`'s sources to `level`, the level it wrote (RunSources).
void addSources(const StencilSpec &spec, int step, const RunSources *sources, GridND &level) {
  if (sources == nullptr) {
    return;
  }
  const std::size_t dims = static_cast<std::size_t>(level.dims);
  const std::size_t count = sources->points.size() / dims;
  const bool inDouble = spec.precision == Precision::FP64;
  for (std::size_t k = 0; k < count; ++k) {
    std::array<long long, 3> i{0, 0, 0};
    for (std::size_t a = 0; a < dims; ++a) {
      i[a] = sources->points[k * dims + a];
    }
    if (!stepWritesPointND(spec, level, i)) {
      continue;
    }
    const double a = sources->amplitudes[static_cast<std::size_t>(step) * count + k];
    // In the arithmetic type: double for fp64, float for the others (whose
    // elements widen to float exactly).
    const double sum =
        inDouble ? level.at(i) + a
                 : static_cast<double>(static_cast<float>(level.at(i)) + static_cast<float>(a));
    level.at(i) = roundToStorage(sum, spec.precision);
  }
}

} // namespace

void emulateFieldsRun(const Plan &plan, std::vector<GridND> &fields, const RunParams &params,
                      int steps, RunReceivers *receivers, const RunSources *sources) {
  const StencilSpec &spec = plan.spec;
  const Backend &backend = backendFor(plan);
  const int stepped = spec.steppedField, previous = spec.previousField;
  const bool fixed = spec.boundary == BoundaryKind::Fixed;
  if (receivers != nullptr) {
    receivers->records.clear();
  }
  if (steps <= 0) {
    return;
  }
  // scratch starts as a copy of the stepped field where the ring is kept;
  // elsewhere every point is written before it is read, so NaN shows a
  // point that is not.
  GridND scratch =
      fixed ? fields[stepped]
            : GridND(spec.dims, fields[stepped].n, std::numeric_limits<double>::quiet_NaN());
  std::vector<GridND> read = fields;
  if (previous < 0) {
    // Step s (from 0) reads levels[s % 2] and writes levels[(s + 1) % 2].
    GridND levels[2] = {fields[stepped], scratch};
    for (int s = 0; s < steps; ++s) {
      read[stepped] = levels[s % 2];
      backend.emulateFieldsStep(plan, read, paramsOfStep(spec, params, s), levels[(s + 1) % 2]);
      addSources(spec, s, sources, levels[(s + 1) % 2]);
      recordReceivers(spec, levels[(s + 1) % 2], receivers);
    }
    fields[stepped] = levels[steps % 2];
    return;
  }
  if (fixed) { // the previous level takes the ring of the stepped one (copyRing)
    const GridND &grid = fields[stepped];
    for (long long a = 0; a < grid.n[0]; ++a) {
      for (long long b = 0; b < grid.n[1]; ++b) {
        for (long long c = 0; c < grid.n[2]; ++c) {
          if (!stepWritesPointND(spec, grid, {a, b, c})) {
            fields[previous].at({a, b, c}) = grid.at({a, b, c});
          }
        }
      }
    }
  }
  // Step s (from 1) reads levels[s % 3] and levels[(s - 1) % 3] and writes
  // levels[(s + 1) % 3], as the generated loop does.
  GridND levels[3] = {fields[previous], fields[stepped], scratch};
  for (int s = 1; s <= steps; ++s) {
    read[stepped] = levels[s % 3];
    read[previous] = levels[(s - 1) % 3];
    backend.emulateFieldsStep(plan, read, paramsOfStep(spec, params, s - 1), levels[(s + 1) % 3]);
    addSources(spec, s - 1, sources, levels[(s + 1) % 3]);
    recordReceivers(spec, levels[(s + 1) % 3], receivers);
  }
  fields[stepped] = levels[(steps + 1) % 3];
  fields[previous] = levels[steps % 3];
}

} // namespace stencilc
