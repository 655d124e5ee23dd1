//===- TensorFusionEmulator.cpp - NAME_run of a tensor plan on the CPU -----===//
//
// Mirrors stencilc/device/composed.cuh's run(): passes of T, then one of
// T / 2 where the plan has a remainder pass and T / 2 or more steps remain,
// then single steps. A pass: the composed stencil's step
// (emulateStep of its own tensor plan) over the grid, then the band: the
// band kernel computes every point within W = T·r of an edge as T single
// steps of the stencil on CUDA cores, each point of a level the FMAs of the
// stencil's terms in order over the previous level (float, or double for
// fp64), rounded to the element type, with the boundary rule applied to each
// level. A block's window gives every point it stores the value the whole
// grid's level has there (its window reaches W past the tile), so the model
// computes the levels on the whole grid.
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorEmulator.h"

#include <utility>

namespace stencilc {

namespace {

/// One level of the band kernel over the whole grid.
Grid2D bandLevel(const StencilSpec &spec, const Grid2D &in) {
  const Precision compute = spec.precision == Precision::FP64 ? Precision::FP64 : Precision::FP32;
  Grid2D out = in;
  for (long long y = 0; y < in.ny; ++y) {
    for (long long x = 0; x < in.nx; ++x) {
      if (!stepWritesPoint(spec, in.ny, in.nx, y, x)) {
        continue; // a fixed ring point keeps its value
      }
      double acc = 0.0;
      for (const Term &t : spec.terms) {
        const double c = compute == Precision::FP64 ? t.coefficient : double(float(t.coefficient));
        acc = multiplyAdd(c, boundaryRead(spec, in, y + t.offset.d[0], x + t.offset.d[1]), acc,
                          compute);
      }
      out.at(y, x) = roundToStorage(acc, spec.precision);
    }
  }
  return out;
}

/// One composed pass (a -> a): the composed step over the grid, then the
/// band's points as `pass.steps` band levels give them.
void emulatePass(const StencilSpec &spec, const ComposedPass &pass, Grid2D &a) {
  const long long w = static_cast<long long>(pass.steps) * spec.radius;
  const bool band = spec.boundary != BoundaryKind::Periodic;
  Grid2D out = a; // b: a copy of a's ring under fixed; every other point is written
  if (!band || (a.ny > 2 * w && a.nx > 2 * w)) {
    emulateStep(*pass.plan, a, out);
  }
  if (band) {
    Grid2D level = a;
    for (int l = 0; l < pass.steps; ++l) {
      level = bandLevel(spec, level);
    }
    for (long long y = 0; y < a.ny; ++y) {
      for (long long x = 0; x < a.nx; ++x) {
        const bool inBand = y < w || y >= a.ny - w || x < w || x >= a.nx - w;
        if (inBand && stepWritesPoint(spec, a.ny, a.nx, y, x)) {
          out.at(y, x) = level.at(y, x);
        }
      }
    }
  }
  a = std::move(out);
}

} // namespace

void emulateRun(const Plan &plan, Grid2D &a, int steps) {
  const Schedule &s = plan.schedule;
  int singles = steps;
  if (s.composed) {
    for (int pass = 0; pass < steps / s.fusedSteps; ++pass) {
      emulatePass(plan.spec, *s.composed, a);
    }
    singles = steps % s.fusedSteps;
    if (s.remainder && singles >= s.remainder->steps) {
      emulatePass(plan.spec, *s.remainder, a);
      singles -= s.remainder->steps;
    }
  }
  for (int step = 0; step < singles; ++step) {
    Grid2D out = a;
    emulateStep(plan, a, out);
    a = std::move(out);
  }
}

} // namespace stencilc
