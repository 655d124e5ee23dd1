//===- FieldsRunReceiversTest.cpp - NAME_run's receivers on the CPU --------===//
//
// NAME_run's model (emulateFieldsRun, Common/Emulation.h) of a stencil that
// records receivers (`record u;`): after step s, row s of the records holds
// the stepped field's value at each receiver, bit for bit the field a run
// of s + 1 steps leaves (the new level, with time levels); a point outside
// the grid or on the ring of boundary fixed records NaN; recording changes
// no field.
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

/// The wave equation with time levels, recording the new level.
const char *const WaveRecorded =
    R"(stencil wave { precision PRECISION; boundary BOUNDARY; field u, u_prev;
       coefficient c2; param dt; time u_prev, u; record u;
       out[i, j] = 2 * u[i, j] - u_prev[i, j] + dt * dt * c2[i, j] *
                   (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j]); })";

/// A stencil of `in` alone with a per-step parameter, recording `in`.
const char *const HeatRecorded =
    R"(stencil heat { precision PRECISION; boundary BOUNDARY; param alpha per step; record in;
       out[i] = in[i] + alpha * (in[i-1] - 2 * in[i] + in[i+1]); })";

/// A stencil of radius 2: a fixed ring two points wide.
const char *const WideRecorded =
    R"(stencil wide { precision PRECISION; boundary BOUNDARY; field u; param nu; record u;
       out[i, j] = u[i, j] + nu * (u[i-2, j] + u[i+2, j] + u[i, j-2] + u[i, j+2] - 4 * u[i, j]); })";

/// The run's parameters: dt = 0.1, or alpha a new value every step.
RunParams runParams(const StencilSpec &spec, int steps) {
  if (spec.isPerStep(0)) {
    std::vector<double> alpha;
    for (int s = 0; s < steps; ++s) {
      alpha.push_back(0.1 + 0.05 * s);
    }
    return {alpha};
  }
  return {{0.1}};
}

/// The first and last points a step writes (the corners, inside the ring
/// of boundary fixed), a point of the first written row mid-way along the
/// other axes, and the centre, in index order.
std::vector<int> receiverPoints(const StencilSpec &spec) {
  const std::array<int, 3> n = runGridSize(spec);
  const int r = spec.boundary == BoundaryKind::Fixed ? spec.radius : 0;
  const int points[4][3] = {{r, r, r},
                            {n[0] - 1 - r, n[1] - 1 - r, n[2] - 1 - r},
                            {r, n[1] / 2, n[2] / 2},
                            {n[0] / 2, n[1] / 2, n[2] / 2}};
  std::vector<int> list;
  for (const auto &p : points) {
    list.insert(list.end(), p, p + spec.dims);
  }
  return list;
}

TEST(FieldsRunReceivers, EachRowIsTheFieldAfterThatStep) {
  for (const char *text : {WaveRecorded, HeatRecorded}) {
    for (const char *precision : {"fp32", "fp64"}) {
      for (const char *boundary : {"fixed", "periodic"}) {
        const StencilSpec spec = compileFilled(text, precision, boundary);
        ASSERT_TRUE(spec.recordsReceivers);
        const Plan plan = *planFields(spec);
        const int steps = 5;
        const std::vector<GridND> start = randomRunFields(spec, 3);
        const RunParams params = runParams(spec, steps);
        RunReceivers receivers{receiverPoints(spec), {}};
        const std::size_t count = receivers.points.size() / spec.dims;
        std::vector<GridND> run = start;
        emulateFieldsRun(plan, run, params, steps, &receivers);
        ASSERT_EQ(receivers.records.size(), steps * count);
        for (int s = 0; s < steps; ++s) {
          std::vector<GridND> fewer = start;
          emulateFieldsRun(plan, fewer, params, s + 1);
          const GridND &level = fewer[spec.steppedField];
          for (std::size_t k = 0; k < count; ++k) {
            std::array<long long, 3> i{0, 0, 0};
            for (int a = 0; a < spec.dims; ++a) {
              i[a] = receivers.points[k * spec.dims + a];
            }
            EXPECT_EQ(receivers.records[s * count + k], level.at(i))
                << spec.name << " " << precision << " " << boundary << " step " << s << " k " << k;
          }
        }
      }
    }
  }
}

TEST(FieldsRunReceivers, RecordingChangesNoField) {
  for (const char *text : {WaveRecorded, HeatRecorded}) {
    const StencilSpec spec = compileFilled(text, "fp32", "fixed");
    const Plan plan = *planFields(spec);
    const std::vector<GridND> start = randomRunFields(spec, 11);
    const RunParams params = runParams(spec, 4);
    std::vector<GridND> recorded = start, plain = start;
    RunReceivers receivers{receiverPoints(spec), {}};
    emulateFieldsRun(plan, recorded, params, 4, &receivers);
    emulateFieldsRun(plan, plain, params, 4);
    for (std::size_t f = 0; f < start.size(); ++f) {
      EXPECT_EQ(recorded[f].values, plain[f].values) << spec.name << " field " << f;
    }
  }
}

TEST(FieldsRunReceivers, APointOutsideTheGridRecordsNaN) {
  const StencilSpec spec = compileFilled(WaveRecorded, "fp64", "periodic");
  const Plan plan = *planFields(spec);
  std::vector<GridND> fields = randomRunFields(spec, 5);
  const std::array<int, 3> n = runGridSize(spec);
  RunReceivers receivers{{0, 0, n[0], 0, 0, -1}, {}};
  emulateFieldsRun(plan, fields, runParams(spec, 2), 2, &receivers);
  ASSERT_EQ(receivers.records.size(), 6u);
  for (int s = 0; s < 2; ++s) {
    EXPECT_FALSE(std::isnan(receivers.records[s * 3]));
    EXPECT_TRUE(std::isnan(receivers.records[s * 3 + 1]));
    EXPECT_TRUE(std::isnan(receivers.records[s * 3 + 2]));
  }
}

/// A point on the fixed ring is as invalid as one outside the grid (issue
/// 36): a step never writes it, so its records would only repeat the kept
/// value, most likely a point off by the ring. At each end of each axis the
/// ring's innermost point records NaN and the first written point next to
/// it does not.
TEST(FieldsRunReceivers, APointOnTheFixedRingRecordsNaN) {
  for (const char *text : {WaveRecorded, HeatRecorded, WideRecorded}) {
    const StencilSpec spec = compileFilled(text, "fp64", "fixed");
    const Plan plan = *planFields(spec);
    std::vector<GridND> fields = randomRunFields(spec, 13);
    const std::array<int, 3> n = runGridSize(spec);
    const int r = spec.radius;
    RunReceivers receivers;
    for (int a = 0; a < spec.dims; ++a) { // two ring points, then two written ones
      for (int v : {r - 1, n[a] - r, r, n[a] - 1 - r}) {
        std::array<int, 3> p{n[0] / 2, n[1] / 2, n[2] / 2};
        p[a] = v;
        receivers.points.insert(receivers.points.end(), p.begin(), p.begin() + spec.dims);
      }
    }
    emulateFieldsRun(plan, fields, runParams(spec, 2), 2, &receivers);
    const std::size_t count = receivers.points.size() / spec.dims;
    ASSERT_EQ(receivers.records.size(), 2 * count);
    for (std::size_t k = 0; k < receivers.records.size(); ++k) {
      EXPECT_EQ(std::isnan(receivers.records[k]), k % 4 < 2) << spec.name << " record " << k;
    }
  }
}

} // namespace
