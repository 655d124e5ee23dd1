//===- FieldsRunSourcesTest.cpp - NAME_run's point sources on the CPU -----===//
//
// NAME_run's model (emulateFieldsRun, Common/Emulation.h) of a stencil with
// point sources (`source u;`): each step adds its row of amplitudes to the
// level it wrote, at the sources' points only, after its terms, rounded as
// the kernels round (sources.cuh's withSource), sources at one point in the
// list's order; the receivers read the level with its sources.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "Backends/Common/Emulation.h"
#include "Backends/Simt/SimtPlanner.h"
#include "FieldsRunFixtures.h"
#include "FrontendTestUtil.h"

using namespace stencilc;
using stencilc::testing::compileFilled;
using stencilc::testing::randomRunFields;
using stencilc::testing::runGridSize;

namespace {

/// The wave equation with time levels and point sources.
const char *const WaveSources =
    R"(stencil wave { precision PRECISION; boundary BOUNDARY; field u, u_prev;
       coefficient c2; param dt; time u_prev, u; source u; record u;
       out[i, j] = 2 * u[i, j] - u_prev[i, j] + dt * dt * c2[i, j] *
                   (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j]); })";

/// A stencil of `in` alone with point sources.
const char *const HeatSources =
    R"(stencil heat { precision PRECISION; boundary BOUNDARY; param alpha; source in;
       out[i] = in[i] + alpha * (in[i-1] - 2 * in[i] + in[i+1]); })";

/// Three sources: the centre twice (two additions at one point) and a point
/// beside the first written corner; amplitudes a new value every step.
RunSources sourcesFor(const StencilSpec &spec, int steps) {
  const std::array<int, 3> n = runGridSize(spec);
  const int r = spec.boundary == BoundaryKind::Fixed ? spec.radius : 0;
  const int points[3][3] = {
      {n[0] / 2, n[1] / 2, n[2] / 2}, {r + 1, r, r}, {n[0] / 2, n[1] / 2, n[2] / 2}};
  RunSources sources;
  for (const auto &p : points) {
    sources.points.insert(sources.points.end(), p, p + spec.dims);
  }
  for (int s = 0; s < steps; ++s) {
    for (double a : {0.375, -0.0625, 1e-3}) {
      sources.amplitudes.push_back(a * (1 + s));
    }
  }
  return sources;
}

/// v after a source of amplitude a, in precision p's arithmetic.
double withSource(double v, double a, Precision p) {
  const double sum = p == Precision::FP64
                         ? v + a
                         : static_cast<double>(static_cast<float>(v) + static_cast<float>(a));
  return roundToStorage(sum, p);
}

std::array<long long, 3> pointAt(const StencilSpec &spec, const RunSources &s, std::size_t k) {
  std::array<long long, 3> i{0, 0, 0};
  for (int a = 0; a < spec.dims; ++a) {
    i[a] = s.points[k * spec.dims + a];
  }
  return i;
}

/// A run of `steps` with sources is, step by step, a run of one step
/// without them and then that step's amplitudes added at their points in
/// order, bit for bit; no other point differs from the step's value.
TEST(FieldsRunSources, EachStepAddsItsAmplitudesAfterItsTerms) {
  for (const char *text : {WaveSources, HeatSources}) {
    for (const char *precision : {"fp16", "fp32", "fp64"}) {
      for (const char *boundary : {"fixed", "periodic"}) {
        const StencilSpec spec = compileFilled(text, precision, boundary);
        ASSERT_TRUE(spec.injectsSources);
        const Plan plan = *planFields(spec);
        const int steps = 4;
        const RunSources sources = sourcesFor(spec, steps);
        const std::size_t count = sources.points.size() / spec.dims;
        std::vector<GridND> run = randomRunFields(spec, 5), byHand = run;
        emulateFieldsRun(plan, run, {{0.1}}, steps, nullptr, &sources);
        for (int s = 0; s < steps; ++s) {
          emulateFieldsRun(plan, byHand, {{0.1}}, 1);
          GridND &level = byHand[spec.steppedField];
          for (std::size_t k = 0; k < count; ++k) {
            const std::array<long long, 3> i = pointAt(spec, sources, k);
            level.at(i) =
                withSource(level.at(i), sources.amplitudes[s * count + k], spec.precision);
          }
        }
        for (std::size_t f = 0; f < run.size(); ++f) {
          EXPECT_EQ(run[f].values, byHand[f].values)
              << spec.name << " " << precision << " " << boundary << " field " << f;
        }
      }
    }
  }
}

/// The receivers record the level after the sources were added.
TEST(FieldsRunSources, ReceiversSeeTheSources) {
  const StencilSpec spec = compileFilled(WaveSources, "fp32", "fixed");
  const Plan plan = *planFields(spec);
  const RunSources sources = sourcesFor(spec, 3);
  std::vector<GridND> fields = randomRunFields(spec, 9);
  RunReceivers receivers{{sources.points.begin(), sources.points.begin() + spec.dims}, {}};
  emulateFieldsRun(plan, fields, {{0.1}}, 3, &receivers, &sources);
  ASSERT_EQ(receivers.records.size(), 3u);
  EXPECT_EQ(receivers.records[2], fields[spec.steppedField].at(pointAt(spec, sources, 0)));
}

/// Zero amplitudes change nothing: a run with them is a run without sources.
TEST(FieldsRunSources, ZeroAmplitudesChangeNothing) {
  for (const char *text : {WaveSources, HeatSources}) {
    const StencilSpec spec = compileFilled(text, "fp32", "periodic");
    const Plan plan = *planFields(spec);
    RunSources sources = sourcesFor(spec, 5);
    std::fill(sources.amplitudes.begin(), sources.amplitudes.end(), 0.0);
    std::vector<GridND> with = randomRunFields(spec, 21), without = with;
    emulateFieldsRun(plan, with, {{0.1}}, 5, nullptr, &sources);
    emulateFieldsRun(plan, without, {{0.1}}, 5);
    for (std::size_t f = 0; f < with.size(); ++f) {
      EXPECT_EQ(with[f].values, without[f].values) << spec.name << " field " << f;
    }
  }
}

} // namespace
