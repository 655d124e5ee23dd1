//===- StencilFixtures.h - Specs built in code for the analysis tests ------===//
//
// Star and box stencils of any dimension and radius with random convex coefficients (as
// docs/generated-code.md's tolerances assume), and random grids of element-type
// values, so the planner and emulator tests need no front end.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Simt/FieldsEmulator.h"
#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtEmulator.h"
#include "Backends/Tensor/TensorEmulator.h"
#include "Backends/Tensor/TensorPlanner.h"
#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

namespace stencilc::testing {

/// Every boundary rule of the language (Boundaries.def).
inline constexpr BoundaryKind AllBoundaries[] = {
#define STENCILC_BOUNDARY(Enumerator, ...) BoundaryKind::Enumerator,
#include "stencilc/Boundaries.def"
};

/// A 1D or 2D star or box of radius r with positive random coefficients
/// summing to 1.
inline StencilSpec makeRandomStencil(int dims, Shape shape, int r, Precision precision,
                                     BoundaryKind boundary, unsigned seed, double boundaryValue) {
  StencilSpec spec;
  spec.name = dims == 1 ? fmt::format("line1d_r{}_{}", r, keyword(precision))
                        : fmt::format("{}2d_r{}_{}", keyword(shape), r, keyword(precision));
  spec.dims = dims;
  spec.radius = r;
  spec.shape = shape;
  spec.precision = precision;
  spec.boundary = boundary;
  spec.boundaryValue = boundaryValue;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> weight(0.1, 1.0);
  double total = 0.0;
  const int rows = dims == 1 ? 0 : r;
  for (int dy = -rows; dy <= rows; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      if (shape == Shape::Star && dy != 0 && dx != 0) {
        continue;
      }
      Term t;
      t.offset.d = dims == 1 ? std::array<int, 3>{dx, 0, 0} : std::array<int, 3>{dy, dx, 0};
      t.coefficient = weight(rng);
      total += t.coefficient;
      spec.terms.push_back(t);
    }
  }
  for (Term &t : spec.terms) {
    t.coefficient /= total;
  }
  return spec;
}

/// A 2D star or box of radius r with positive coefficients summing to 1.
inline StencilSpec makeStencil2D(Shape shape, int r, Precision precision, BoundaryKind boundary,
                                 unsigned seed, double boundaryValue = 0.75) {
  return makeRandomStencil(2, shape, r, precision, boundary, seed, boundaryValue);
}

/// A 1D stencil of radius r (offsets -r..r) with positive coefficients
/// summing to 1.
inline StencilSpec makeStencil1D(int r, Precision precision, BoundaryKind boundary, unsigned seed,
                                 double boundaryValue = 0.75) {
  return makeRandomStencil(1, Shape::Star, r, precision, boundary, seed, boundaryValue);
}

/// Values uniform in [0, 1), rounded to the element type.
inline void fillRandom(std::vector<double> &values, Precision precision, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(0.0, 1.0);
  for (double &v : values) {
    v = roundToStorage(value(rng), precision);
  }
}

/// A 2D grid of random values of the element type.
inline Grid2D randomGrid(int ny, int nx, Precision precision, unsigned seed) {
  Grid2D grid(ny, nx);
  fillRandom(grid.values, precision, seed);
  return grid;
}

/// A star or box of `dims` dimensions and radius r, positive coefficients
/// summing to 1 (a convex combination, as the tolerances assume).
inline StencilSpec makeStencil(int dims, Shape shape, int r, Precision precision,
                               BoundaryKind boundary, unsigned seed) {
  StencilSpec spec;
  spec.name = fmt::format("{}{}d_r{}_{}", keyword(shape), dims, r, keyword(precision));
  spec.dims = dims;
  spec.radius = r;
  spec.shape = dims == 1 ? Shape::Star : shape;
  spec.precision = precision;
  spec.boundary = boundary;
  spec.boundaryValue = 0.75;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> weight(0.1, 1.0);
  const int lo0 = dims >= 1 ? -r : 0, lo1 = dims >= 2 ? -r : 0, lo2 = dims >= 3 ? -r : 0;
  double total = 0.0;
  for (int a = lo0; a <= -lo0; ++a) {
    for (int b = lo1; b <= -lo1; ++b) {
      for (int c = lo2; c <= -lo2; ++c) {
        Offset o{{a, b, c}};
        if (spec.shape == Shape::Star && o.nonZeroAxes() > 1) {
          continue;
        }
        Term t{o, weight(rng)};
        total += t.coefficient;
        spec.terms.push_back(t);
      }
    }
  }
  for (Term &t : spec.terms) {
    t.coefficient /= total;
  }
  return spec;
}

/// Whether two grids hold the same values bit for bit (NaNs and signed
/// zeros included).
inline bool sameBits(const GridND &a, const GridND &b) {
  return a.values.size() == b.values.size() &&
         std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)) == 0;
}

/// `steps` float64 steps of the spec from `a` (referenceStepND: the ring of
/// a fixed grid kept).
inline GridND referenceRunND(const StencilSpec &spec, GridND a, int steps) {
  for (int s = 0; s < steps; ++s) {
    GridND b = a;
    referenceStepND(spec, a, b);
    a = std::move(b);
  }
  return a;
}

/// A grid of 1-3 dimensions of random values of the element type.
inline GridND randomGridND(int dims, std::array<int, 3> n, Precision precision, unsigned seed) {
  GridND grid(dims, n);
  fillRandom(grid.values, precision, seed);
  return grid;
}

/// Plan options for sm_90, fusing `fuse` steps (0: the planner's choice).
inline PlanOptions onSm90(int fuse = 0) {
  PlanOptions o;
  o.target = Arch::Sm90;
  o.fusedSteps = fuse;
  return o;
}

/// Options asking for the dense tensor-core form (TCStencil's GEMM a row),
/// which a 16-bit 2D stencil does not take unasked: for the tests of its
/// slice GEMMs and tuned blocks. `base`: the target and steps.
inline PlanOptions dense(PlanOptions base = {}) {
  base.mma = MmaRequest::Dense;
  return base;
}
inline PlanOptions denseOnSm90(int fuse = 0) { return dense(onSm90(fuse)); }

/// A 2D box of radius r with the coefficient table weight(dy, dx).
inline StencilSpec tableStencil(const std::string &name, int r, Precision precision,
                                BoundaryKind boundary,
                                const std::function<double(int, int)> &weight) {
  StencilSpec spec;
  spec.name = fmt::format("{}_{}", name, keyword(precision));
  spec.dims = 2;
  spec.radius = r;
  spec.shape = Shape::Box;
  spec.precision = precision;
  spec.boundary = boundary;
  spec.boundaryValue = 0.75;
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      if (const double c = weight(dy, dx); c != 0.0) {
        spec.terms.push_back(Term{Offset{{dy, dx, 0}}, c});
      }
    }
  }
  return spec;
}

/// The largest difference, after `steps` steps of the emulated NAME_run of
/// `plan`, from as many steps of the float64 reference (its coefficients
/// rounded once, its terms in order), on a grid of n random values of the
/// element type (n[2] 1 in 2D, n[1] and n[2] 1 in 1D).
inline double runError(const Plan &plan, std::array<int, 3> n, int steps, unsigned seed) {
  GridND run = randomGridND(plan.spec.dims, n, plan.spec.precision, seed), reference = run;
  emulateRun(plan, run, steps);
  for (int s = 0; s < steps; ++s) {
    GridND next = reference;
    referenceStepND(plan.spec, reference, next);
    reference = std::move(next);
  }
  double worst = 0.0;
  for (std::size_t i = 0; i < run.points(); ++i) {
    worst = std::max(worst, std::fabs(run.values[i] - reference.values[i]));
  }
  return worst;
}

/// Expects emulated fused runs of the 2D plan `plan` (as planned, and with a
/// strip of 8 stored columns and chunks of 3 rows, so that the small grids
/// have many strips and chunks) to equal as many single steps bit for bit,
/// on 7 x 7 and 23 x 41 grids at step counts 1, 2, 3, 4 and 11.
inline void expectFusedRunsEqualSingleSteps(const Plan &plan) {
  Plan narrow = plan;
  narrow.schedule.fused.width = 2 * narrow.schedule.fused.halo + 8;
  narrow.schedule.fused.chunkRows = 3;
  Plan single = plan;
  single.schedule = Schedule{};
  for (const Plan *fused : {&plan, static_cast<const Plan *>(&narrow)}) {
    for (std::array<int, 3> n : {std::array<int, 3>{7, 7, 1}, {23, 41, 1}}) {
      for (int steps : {1, 2, 3, 4, 11}) {
        SCOPED_TRACE(fmt::format("{} {}x{} steps {} width {}", plan.spec.name, n[0], n[1], steps,
                                 fused->schedule.fused.width));
        GridND a = randomGridND(2, n, plan.spec.precision, 5u + steps), c = a;
        emulateRun(*fused, a, steps);
        emulateRun(single, c, steps);
        EXPECT_TRUE(sameBits(a, c));
      }
    }
  }
}

/// Expects emulated fused runs of the 3D plan `plan` (T = fusedSteps > 1)
/// to equal as many single steps of its step kernel bit for bit, with no
/// NaN stored (a stored point read no value its block does not hold): as
/// planned on grids smaller than the fused halo (the boundary's least and
/// a few points more), and with windows of 2 stored rows and one access of
/// columns and chunks of 3 planes on odd grids of many blocks each way; at
/// step counts 1, T - 1, T, T + 1 and 3T + 2.
inline void expectFused3DRunsEqualSingleSteps(const Plan &plan) {
  const int t = plan.schedule.fusedSteps;
  const int least = plan.spec.boundary == BoundaryKind::Fixed ? 2 * plan.spec.radius + 1 : 1;
  Plan narrow = plan;
  FusedKernel &k = narrow.schedule.fused;
  k.width = 2 * k.halo + 16 / static_cast<int>(elementBytes(plan.spec.precision));
  k.height = 2 * k.haloY + 2;
  k.chunkRows = 3;
  Plan single = plan;
  single.schedule = Schedule{};
  using N = std::array<int, 3>;
  const std::pair<const Plan *, N> runs[] = {{&plan, N{least, least, least}},
                                             {&plan, N{least + 2, least + 1, least + 3}},
                                             {&narrow, N{7, 9, 11}},
                                             {&narrow, N{10, 5, 13}}};
  for (const auto &[fused, n] : runs) {
    for (int steps : {1, t - 1, t, t + 1, 3 * t + 2}) {
      if (steps < 1) {
        continue;
      }
      SCOPED_TRACE(fmt::format("{} {} {}x{}x{} T {} width {} height {} steps {}", plan.spec.name,
                               keyword(plan.spec.boundary), n[0], n[1], n[2], t,
                               fused->schedule.fused.width, fused->schedule.fused.height, steps));
      GridND a = randomGridND(3, n, plan.spec.precision, 5u * n[0] + steps), c = a;
      emulateRun(*fused, a, steps);
      emulateRun(single, c, steps);
      EXPECT_TRUE(sameBits(a, c)) << "the fused passes differ from single steps";
      bool stale = false;
      for (double v : a.values) {
        stale = stale || v != v;
      }
      EXPECT_FALSE(stale) << "a stored point read a value the block does not hold";
    }
  }
}

/// The tensor-core plan of a stencil the tensor cores take. A refusal is a
/// bug in the test: it prints the reason and stops.
inline Plan tensorPlan(const StencilSpec &spec, const PlanOptions &options = {}) {
  PlanOrRefusal planned = planTensor(spec, options);
  if (!planned) {
    std::fprintf(stderr, "the tensor cores refused %s: %s\n", spec.name.c_str(),
                 planned.reason().c_str());
    std::abort();
  }
  return *std::move(planned);
}

/// Why the tensor cores refuse a stencil, or nothing when they plan it.
inline std::optional<std::string> tensorRefusal(const StencilSpec &spec,
                                                const PlanOptions &options = {}) {
  PlanOrRefusal planned = planTensor(spec, options);
  return planned ? std::nullopt : std::optional<std::string>(planned.reason());
}

/// The 2D wave equation as a stencil of fields (time levels, a coefficient
/// field multiplying the Laplacian, a parameter), with PRECISION and
/// BOUNDARY to fill in (compileFilled).
inline constexpr const char *WaveFieldsText =
    R"(stencil wave2d { precision PRECISION; boundary BOUNDARY; field u, u_prev;
       coefficient c2; param dt; time u_prev, u;
       out[i, j] = 2 * u[i, j] - u_prev[i, j] + dt * dt * c2[i, j] *
                   (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j]); })";

/// The points of `grid` whose being written (not `poison`) differs from
/// whether a step writes them: points written that must not be, or missed.
inline int wrongWritesND(const StencilSpec &spec, const GridND &grid, double poison) {
  int wrong = 0;
  for (long long a = 0; a < grid.n[0]; ++a) {
    for (long long b = 0; b < grid.n[1]; ++b) {
      for (long long c = 0; c < grid.n[2]; ++c) {
        const std::array<long long, 3> p{a, b, c};
        wrong += (grid.at(p) != poison) != stepWritesPointND(spec, grid, p);
      }
    }
  }
  return wrong;
}

/// One step of a stencil of fields on grids of `n`, by `emulate` (a backend's
/// emulator: emulateFieldsStep, emulateTensorFieldsStep) and by the float64
/// reference, from fresh random fields and the parameters 0.1, 1.5 (as many as
/// the stencil takes): the relative L2 error. `wrongWrites` counts the points
/// written that must not be, or missed (outputs start as `poison`).
template <class Emulate>
double fieldsStepError(const Plan &plan, std::array<int, 3> n, unsigned seed, double poison,
                       Emulate &&emulate, int &wrongWrites) {
  const StencilSpec &spec = plan.spec;
  std::vector<GridND> fields;
  for (std::size_t f = 0; f < spec.fields.size(); ++f) {
    fields.push_back(randomGridND(spec.dims, n, spec.precision, seed + 17 * unsigned(f)));
  }
  const std::vector<double> values = {0.1, 1.5};
  const std::vector<double> params(values.begin(), values.begin() + spec.params.size());
  GridND emulated(spec.dims, n, poison), reference(spec.dims, n, poison);
  emulate(plan, fields, params, emulated);
  referenceFieldsStepND(spec, fields, params, reference);
  wrongWrites = wrongWritesND(spec, emulated, poison);
  return relativeL2ErrorND(spec, emulated, reference);
}

/// Every boundary rule, as the .stencil language writes it.
inline constexpr const char *FieldBoundaries[] = {"fixed", "constant 0.5", "periodic",
                                                  "clamp", "mirror",       "reflect"};

} // namespace stencilc::testing
