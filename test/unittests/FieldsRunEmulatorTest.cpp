//===- FieldsRunEmulatorTest.cpp - NAME_run of a stencil of fields on the CPU ===//
//
// NAME_run's model (emulateFieldsRun, Common/Emulation.h) with a parameter
// that changes every step (`param amp per step;`, a Ricker source's
// amplitude): against `steps` float64 reference steps, each with its step's
// value, within the precision's tolerance; bit for bit `steps` emulated
// NAME_step calls, each with its step's value; and not what one value for
// every step gives, so the test tells the two apart. With time levels (the
// wave equation and its source field) and without (a stencil of `in`).
//
//===----------------------------------------------------------------------===//
#include <array>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "Backends/Common/Emulation.h"
#include "Backends/Simt/FieldsEmulator.h"
#include "Backends/Simt/SimtPlanner.h"
#include "FrontendTestUtil.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::compileFilled;
using stencilc::testing::randomGridND;

namespace {

/// The wave equation with a source field `f` times a per-step amplitude.
const char *const WaveWithSource =
    R"(stencil wave { precision PRECISION; boundary BOUNDARY; field u, u_prev, f;
       coefficient c2; param dt; param amp per step; time u_prev, u;
       out[i, j] = 2 * u[i, j] - u_prev[i, j] + dt * dt * c2[i, j] *
                   (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j])
                 + amp * f[i, j]; })";

/// A stencil of `in` alone whose one parameter changes every step.
const char *const HeatPerStep =
    R"(stencil heat { precision PRECISION; boundary BOUNDARY; param alpha per step;
       out[i] = in[i] + alpha * (in[i-1] - 2 * in[i] + in[i+1]); })";

/// Samples of a Ricker wavelet of peak frequency 0.2 a step, centred on
/// step 3: a value that differs every step.
std::vector<double> ricker(int steps) {
  std::vector<double> values;
  for (int s = 0; s < steps; ++s) {
    const double a = M_PI * 0.2 * (s - 3);
    values.push_back((1 - 2 * a * a) * std::exp(-a * a) * 0.25);
  }
  return values;
}

/// The run's parameters: dt = 0.1 beside the wave's amplitudes; the heat
/// stencil's alpha the amplitudes scaled into its stable range.
RunParams runParams(const StencilSpec &spec, int steps) {
  std::vector<double> amp = ricker(steps);
  if (spec.params.size() == 1) {
    return {amp};
  }
  return {{0.1}, amp};
}

std::vector<GridND> randomFields(const StencilSpec &spec, std::array<int, 3> n, unsigned seed) {
  std::vector<GridND> fields;
  for (std::size_t f = 0; f < spec.fields.size(); ++f) {
    fields.push_back(randomGridND(spec.dims, n, spec.precision, seed + 31 * unsigned(f)));
  }
  return fields;
}

/// `steps` steps by `step(fields, params of the step, out)`, each as if
/// taken in place: out starts as the stepped field (the ring of boundary
/// fixed is kept), then the levels move down.
template <class Step>
std::vector<GridND> singleSteps(const StencilSpec &spec, std::vector<GridND> fields,
                                const RunParams &params, int steps, Step &&step) {
  for (int s = 0; s < steps; ++s) {
    std::vector<double> values;
    for (std::size_t p = 0; p < params.size(); ++p) {
      values.push_back(params[p].size() == 1 ? params[p][0] : params[p][s]);
    }
    GridND out = fields[spec.steppedField];
    step(fields, values, out);
    if (spec.previousField >= 0) {
      fields[spec.previousField] = fields[spec.steppedField];
    }
    fields[spec.steppedField] = out;
  }
  return fields;
}

std::array<int, 3> sizeFor(const StencilSpec &spec) {
  return spec.dims == 1 ? std::array<int, 3>{301, 1, 1} : std::array<int, 3>{17, 23, 1};
}

/// From random fields, `steps` steps with the Ricker amplitudes: by NAME_run's
/// model, by the float64 reference step by step, and by the emulated
/// NAME_step step by step.
struct RunAndSingleSteps {
  RunParams params;
  std::vector<GridND> run, reference, emulated;

  RunAndSingleSteps(const Plan &plan, int steps, unsigned seed) {
    const StencilSpec &spec = plan.spec;
    const std::vector<GridND> fields = randomFields(spec, sizeFor(spec), seed);
    params = runParams(spec, steps);
    run = fields;
    emulateFieldsRun(plan, run, params, steps);
    reference = singleSteps(spec, fields, params, steps,
                            [&](const std::vector<GridND> &in, const std::vector<double> &values,
                                GridND &out) { referenceFieldsStepND(spec, in, values, out); });
    emulated = singleSteps(spec, fields, params, steps,
                           [&](const std::vector<GridND> &in, const std::vector<double> &values,
                               GridND &out) { emulateFieldsStep(plan, in, values, out); });
  }
};

TEST(FieldsRunEmulator, PerStepValuesMatchTheReferenceOfSingleSteps) {
  for (const char *text : {WaveWithSource, HeatPerStep}) {
    for (const char *precision : {"fp32", "fp64"}) {
      for (const char *boundary : {"fixed", "periodic", "clamp"}) {
        const StencilSpec spec = compileFilled(text, precision, boundary);
        ASSERT_TRUE(spec.hasPerStepParams());
        const Plan plan = *planFields(spec);
        for (int steps : {1, 2, 3, 4, 7}) {
          SCOPED_TRACE(::testing::Message()
                       << spec.name << " " << precision << " " << boundary << " steps " << steps);
          const RunAndSingleSteps r(plan, steps, 5);
          const std::vector<GridND> &run = r.run, &reference = r.reference;
          const int stepped = spec.steppedField;
          EXPECT_LE(relativeL2ErrorND(spec, run[stepped], reference[stepped]),
                    2 * steps * relativeTolerance(spec.precision));
          if (spec.previousField >= 0) {
            EXPECT_LE(
                relativeL2ErrorND(spec, run[spec.previousField], reference[spec.previousField]),
                2 * steps * relativeTolerance(spec.precision));
          }
        }
      }
    }
  }
}

/// The run is exactly `steps` NAME_step calls, each given its step's value
/// (what the GPU conformance checks of NAME_run hold it to), and one value
/// for every step gives another result.
TEST(FieldsRunEmulator, EachStepTakesItsOwnValue) {
  for (const char *text : {WaveWithSource, HeatPerStep}) {
    for (const char *boundary : {"fixed", "periodic"}) {
      const StencilSpec spec = compileFilled(text, "fp32", boundary);
      const Plan plan = *planFields(spec);
      const int steps = 7;
      const RunAndSingleSteps r(plan, steps, 9);
      const std::vector<GridND> fields = randomFields(spec, sizeFor(spec), 9);
      for (std::size_t f = 0; f < r.run.size(); ++f) {
        EXPECT_EQ(r.run[f].values, r.emulated[f].values)
            << spec.name << " " << boundary << " field " << f;
      }
      RunParams first = r.params;
      first.back().assign(steps, r.params.back().front()); // amp[0] at every step
      std::vector<GridND> constant = fields;
      emulateFieldsRun(plan, constant, first, steps);
      EXPECT_NE(constant[spec.steppedField].values, r.run[spec.steppedField].values) << spec.name;
    }
  }
}

TEST(FieldsRunEmulator, ParamsOfStepPicksEachStepsValue) {
  const StencilSpec spec = compileFilled(WaveWithSource, "fp64", "periodic");
  ASSERT_EQ(spec.params.size(), 2u);
  EXPECT_FALSE(spec.isPerStep(0));
  EXPECT_TRUE(spec.isPerStep(1));
  const RunParams params = {{0.1}, {1.0, 2.0, 3.0}};
  EXPECT_EQ(paramsOfStep(spec, params, 0), (std::vector<double>{0.1, 1.0}));
  EXPECT_EQ(paramsOfStep(spec, params, 2), (std::vector<double>{0.1, 3.0}));
}

} // namespace
