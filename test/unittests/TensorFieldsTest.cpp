//===- TensorFieldsTest.cpp - Stencils of fields on tensor cores -----------===//
//
// Plans stencils of fields on tensor cores (TensorFields.h) and runs the
// plan's CPU model (the GEMM groups through the MMA model, then the
// epilogue) for every precision the tensor cores take and every boundary, on
// fresh random fields at odd sizes and the smallest legal one, against the
// float64 reference; says which forms the tensor cores refuse and why; and
// checks that the parameter matrices follow the parameters' values. Where
// several fields are read at neighbours: the windows and groups planned, a
// group run over the wrong window caught, and what does not fit refused. In
// 3D (a ring of slabs of each such field): the wave equation of radius 1 and
// 4, a variable-coefficient heat step and two fields at neighbours, and a
// slice GEMM over the wrong plane caught.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Simt/FieldsEmulator.h"
#include "Backends/Tensor/TensorEmulator.h"
#include "Backends/Tensor/TensorFields.h"
#include "FieldsStepCheck.h"

using namespace stencilc;
using stencilc::testing::randomGridND;

namespace {

/// The stencils the tensor cores take, each with PRECISION and BOUNDARY.
const char *const Stencils[] = {
    // The wave equation: a coefficient field multiplies the Laplacian.
    stencilc::testing::WaveFieldsText,
    // Variable conductivity read at the output point, two parameters.
    R"(stencil varheat { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
       param dt, h;
       out[i, j] = u[i, j] + dt / (h * h) * k[i, j] *
                   (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j]); })",
    // A Jacobi step with a source term, constants only.
    R"(stencil poisson2d { precision PRECISION; boundary BOUNDARY; field u, f;
       out[i, j] = (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] + 0.01 * f[i, j]) / 4; })",
    // The wave equation of radius 4 (the seismic order), a constant velocity
    // in a parameter, no coefficient field.
    R"(stencil wave2d_r4 { precision PRECISION; boundary BOUNDARY; field u, u_prev;
       param cdt; time u_prev, u;
       out[i, j] = 2 * u[i, j] - u_prev[i, j] + cdt * cdt * (
                   -0.0017857142857142857 * (u[i-4, j] + u[i+4, j] + u[i, j-4] + u[i, j+4])
                   + 0.025396825396825397 * (u[i-3, j] + u[i+3, j] + u[i, j-3] + u[i, j+3])
                   - 0.2 * (u[i-2, j] + u[i+2, j] + u[i, j-2] + u[i, j+2])
                   + 1.6 * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1])
                   - 5.694444444444445 * u[i, j]); })",
    // Two accumulator groups: one with a coefficient field, one without, a
    // box of radius 1.
    R"(stencil twogroups { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
       param w;
       out[i, j] = k[i, j] * (u[i-1, j-1] + u[i+1, j+1] - 2 * u[i, j])
                 + w * (u[i-1, j] + u[i+1, j]); })",
    // From here on, several fields read at neighbours: a window and
    // accumulator groups for each.
    // Two Laplacians, one times a parameter, one times a coefficient field.
    R"(stencil uv { precision PRECISION; boundary BOUNDARY; field u, v; coefficient k;
       param w;
       out[i, j] = w * (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j])
                 + k[i, j] * (v[i-1, j] + v[i+1, j] + v[i, j-1] + v[i, j+1] - 4 * v[i, j])
                 + 0.5 * u[i, j]; })",
    // The damped wave equation: u_prev is read at neighbours too.
    R"(stencil dampedwave { precision PRECISION; boundary BOUNDARY; field u, u_prev;
       coefficient c2; param dt; time u_prev, u;
       out[i, j] = 2 * u[i, j] - u_prev[i, j] + dt * dt * c2[i, j] *
                   (u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1] - 4 * u[i, j])
                 - 0.05 * (u_prev[i-1, j] + u_prev[i+1, j] + u_prev[i, j-1] + u_prev[i, j+1]
                           - 4 * u_prev[i, j]); })",
    // Three fields of different shapes and radii (a box of u, a radius-2
    // star of v, a row of w), a coefficient field and point terms.
    R"(stencil three { precision PRECISION; boundary BOUNDARY; field u, v, w; coefficient k;
       param s;
       out[i, j] = k[i, j] * (u[i-1, j-1] + u[i+1, j+1] + u[i-1, j+1] + u[i+1, j-1] - 4 * u[i, j])
                 + s * (v[i-2, j] + v[i+2, j] + v[i, j-2] + v[i, j+2] - 4 * v[i, j])
                 + 0.25 * (w[i, j-1] + w[i, j+1]) + 0.5 * k[i, j] * w[i, j] + v[i, j]; })",
    // 1D lines: a heat step with a coefficient field, and two fields read at
    // neighbours (a source smoothed over radius 2).
    R"(stencil heat1d { precision PRECISION; boundary BOUNDARY; field u; coefficient k; param dt;
       out[i] = u[i] + dt * k[i] * (u[i-1] - 2 * u[i] + u[i+1]); })",
    R"(stencil source1d { precision PRECISION; boundary BOUNDARY; field u, f; coefficient k;
       param dt;
       out[i] = u[i] + dt * k[i] * (u[i-1] - 2 * u[i] + u[i+1]) + 0.1 * (f[i-2] + f[i+2]) + f[i]; })",
};

const char *const Precisions[] = {"fp16", "bf16", "tf32", "fp64"};

/// 3D stencils of fields, each with PRECISION and BOUNDARY: a ring of
/// slabs of each field read at neighbours, streamed along z.
const char *const Stencils3D[] = {
    // The wave equation: a coefficient field times the 7-point Laplacian.
    R"(stencil wave3d { precision PRECISION; boundary BOUNDARY; field u, u_prev; coefficient c2;
       param dt; time u_prev, u;
       out[i, j, k] = 2 * u[i, j, k] - u_prev[i, j, k] + dt * dt * c2[i, j, k] *
           (u[i-1, j, k] + u[i+1, j, k] + u[i, j-1, k] + u[i, j+1, k] + u[i, j, k-1]
            + u[i, j, k+1] - 6 * u[i, j, k]); })",
    // The wave equation of radius 4 (the seismic order), the velocity in a
    // parameter.
    R"(stencil wave3d_r4 { precision PRECISION; boundary BOUNDARY; field u, u_prev; param cdt;
       time u_prev, u;
       out[i, j, k] = 2 * u[i, j, k] - u_prev[i, j, k] + cdt * cdt * (
           -0.0017857142857142857 * (u[i-4, j, k] + u[i+4, j, k] + u[i, j-4, k] + u[i, j+4, k]
                                     + u[i, j, k-4] + u[i, j, k+4])
           + 0.025396825396825397 * (u[i-3, j, k] + u[i+3, j, k] + u[i, j-3, k] + u[i, j+3, k]
                                     + u[i, j, k-3] + u[i, j, k+3])
           - 0.2 * (u[i-2, j, k] + u[i+2, j, k] + u[i, j-2, k] + u[i, j+2, k] + u[i, j, k-2]
                    + u[i, j, k+2])
           + 1.6 * (u[i-1, j, k] + u[i+1, j, k] + u[i, j-1, k] + u[i, j+1, k] + u[i, j, k-1]
                    + u[i, j, k+1])
           - 8.541666666666667 * u[i, j, k]); })",
    // A variable-coefficient heat step: the conductivity at the output point,
    // two parameters.
    R"(stencil varheat3d { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
       param dt, h;
       out[i, j, l] = u[i, j, l] + dt / (h * h) * k[i, j, l] *
           (u[i-1, j, l] + u[i+1, j, l] + u[i, j-1, l] + u[i, j+1, l] + u[i, j, l-1]
            + u[i, j, l+1] - 6 * u[i, j, l]); })",
    // Two fields read at neighbours (the damped wave equation), and a box of
    // u's other planes: a ring of slabs of each field, three groups.
    R"(stencil damped3d { precision PRECISION; boundary BOUNDARY; field u, u_prev;
       coefficient c2; param dt; time u_prev, u;
       out[i, j, k] = 2 * u[i, j, k] - u_prev[i, j, k] + dt * dt * c2[i, j, k] *
           (u[i-1, j, k] + u[i+1, j, k] + u[i, j-1, k] + u[i, j+1, k] + u[i, j, k-1]
            + u[i, j, k+1] - 6 * u[i, j, k])
         - 0.05 * (u_prev[i-1, j, k] + u_prev[i+1, j, k] + u_prev[i, j, k-1] + u_prev[i, j, k+1]
                   - 4 * u_prev[i, j, k])
         + 0.01 * (u[i-1, j-1, k-1] + u[i+1, j+1, k+1]); })",
};

/// The sizes a 3D test runs: the smallest legal one, odd sizes, and one of
/// several block columns across and down.
std::vector<std::array<int, 3>> sizes3D(const StencilSpec &spec) {
  const int smallest = spec.boundary == BoundaryKind::Fixed ? 2 * spec.radius + 1 : 1;
  return {{smallest, smallest, smallest}, {9, 11, 13}, {5, 37, 70}};
}

StencilSpec compile(const char *text, const char *precision, const char *boundary) {
  return stencilc::testing::compileFilled(text, precision, boundary);
}

/// Emulates and references one step on a grid of extents `n` (as
/// fieldsStepError takes them: a 2D grid ny x nx is {ny, nx, 1}); returns the
/// relative L2 error and counts the points written that must not be, or
/// missed.
double runOne(const Plan &plan, std::array<int, 3> n, unsigned seed, int &wrongWrites) {
  return stencilc::testing::fieldsStepError(plan, n, seed, stencilc::testing::FieldsPoison,
                                            emulateTensorFieldsStep, wrongWrites);
}

TEST(TensorFields, EveryPrecisionAndBoundaryMatchesTheReference) {
  stencilc::testing::expectFieldsStepsMatchReference(
      Stencils, Precisions, [](const StencilSpec &spec) { return planTensorFields(spec); },
      emulateTensorFieldsStep,
      [](const StencilSpec &spec) {
        const int smallest = spec.boundary == BoundaryKind::Fixed ? 2 * spec.radius + 1 : 1;
        // A line: several rows of the block and several block tiles.
        if (spec.dims == 1) {
          return std::vector<std::array<int, 3>>{{smallest, 1, 1}, {19, 1, 1}, {9001, 1, 1}};
        }
        return std::vector<std::array<int, 3>>{{smallest, smallest, 1}, {17, 19, 1}, {67, 133, 1}};
      });
}

TEST(TensorFields, ThreeDEveryPrecisionAndBoundaryMatchesTheReference) {
  stencilc::testing::expectFieldsStepsMatchReference(
      Stencils3D, Precisions,
      [](const StencilSpec &spec) {
        EXPECT_EQ(spec.dims, 3);
        PlanOrRefusal plan = planTensorFields(spec);
        // A ring of 2r+1 slabs of each field read at neighbours.
        if (plan) {
          EXPECT_EQ(plan->tensor().planes, 2 * spec.radius + 1) << spec.name;
        }
        return plan;
      },
      emulateTensorFieldsStep, sizes3D);
}

TEST(TensorFields, ThreeDAGroupOverTheWrongPlanesIsCaught) {
  PlanOrRefusal plan = planTensorFields(compile(Stencils3D[3], "fp64", "periodic"));
  ASSERT_TRUE(plan) << plan.reason();
  const TensorFieldsPlan &f = *plan->tensor().fields;
  EXPECT_EQ(f.windowFields, (std::vector<int>{0, 1})); // u, u_prev: a ring of slabs each
  int wrongWrites = 0;
  EXPECT_LE(runOne(*plan, {9, 11, 13}, 3, wrongWrites), 2 * relativeTolerance(Precision::FP64));
  // A slice GEMM of plane dz = -1 made to read plane dz = +1.
  std::vector<SliceGemm> &gemms = std::get<TensorPlan>(plan->kernel).gemms;
  auto below =
      std::find_if(gemms.begin(), gemms.end(), [](const SliceGemm &g) { return g.dz < 0; });
  ASSERT_NE(below, gemms.end());
  below->dz = -below->dz;
  EXPECT_GT(runOne(*plan, {9, 11, 13}, 3, wrongWrites), 1e-6);
}

TEST(TensorFields, GroupsAndPointTerms) {
  const StencilSpec wave = compile(Stencils[0], "fp16", "fixed");
  PlanOrRefusal plan = planTensorFields(wave);
  ASSERT_TRUE(plan);
  const TensorFieldsPlan &f = *plan->tensor().fields;
  EXPECT_EQ(f.gemmField, 0);                               // u
  EXPECT_EQ(f.groupCoefficientField, std::vector<int>{2}); // c2 x the Laplacian
  ASSERT_EQ(f.pointTerms.size(), 2u);                      // 2 u[i, j] and -u_prev[i, j]
  EXPECT_EQ(wave.fieldTerms[std::size_t(f.pointTerms[1])].field, 1);

  const StencilSpec two = compile(Stencils[4], "fp64", "periodic");
  PlanOrRefusal twoPlan = planTensorFields(two);
  ASSERT_TRUE(twoPlan);
  EXPECT_EQ(twoPlan->tensor().fields->groupCoefficientField, (std::vector<int>{-1, 1}));
  EXPECT_TRUE(twoPlan->tensor().fields->pointTerms.empty());
}

TEST(TensorFields, TheMatricesFollowTheParameters) {
  const StencilSpec spec = compile(Stencils[1], "fp64", "periodic");
  PlanOrRefusal plan = planTensorFields(spec);
  ASSERT_TRUE(plan);
  const std::vector<double> a = fieldsParamMatrices(*plan, {0.1, 1.5});
  const std::vector<double> b = fieldsParamMatrices(*plan, {0.2, 1.5});
  ASSERT_EQ(a.size(), b.size());
  int changed = 0, nonZero = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    nonZero += a[i] != 0.0;
    // Every coefficient is dt / h^2 times a constant: doubling dt doubles it.
    EXPECT_DOUBLE_EQ(b[i], 2 * a[i]);
    changed += a[i] != b[i];
  }
  EXPECT_GT(nonZero, 0);
  EXPECT_EQ(changed, nonZero);
}

TEST(TensorFields, AWrongMatrixElementIsCaught) {
  const StencilSpec spec = compile(Stencils[0], "fp64", "periodic");
  PlanOrRefusal plan = planTensorFields(spec);
  ASSERT_TRUE(plan);
  // Drop the term of one element.
  std::vector<int> &map = std::get<TensorPlan>(plan->kernel).fields->paramTerms[0];
  auto it = std::find_if(map.begin(), map.end(), [](int t) { return t >= 0; });
  ASSERT_NE(it, map.end());
  *it = -1;
  int wrongWrites = 0;
  EXPECT_GT(runOne(*plan, {17, 19, 1}, 5, wrongWrites), relativeTolerance(Precision::FP64));
}

TEST(TensorFields, RefusalsSayWhy) {
  const char *perNeighbour =
      R"(stencil varheat { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
      out[i, j] = u[i, j] + 0.1 * (k[i+1, j] * (u[i+1, j] - u[i, j])
                - k[i-1, j] * (u[i, j] - u[i-1, j])); })";
  PlanOrRefusal p = planTensorFields(compile(perNeighbour, "fp16", "fixed"));
  ASSERT_FALSE(p);
  EXPECT_NE(p.reason().find("per-neighbour varying weight"), std::string::npos) << p.reason();
  EXPECT_NE(p.reason().find("k[i-1, j] * u[i-1, j]"), std::string::npos) << p.reason();

  PlanOrRefusal fp32 = planTensorFields(compile(Stencils[0], "fp32", "fixed"));
  ASSERT_FALSE(fp32);
  EXPECT_NE(fp32.reason().find("fp32"), std::string::npos) << fp32.reason();
}

TEST(TensorFields, AGroupPerFieldAndCoefficientField) {
  PlanOrRefusal uv = planTensorFields(compile(Stencils[5], "fp16", "fixed"));
  ASSERT_TRUE(uv) << uv.reason();
  const TensorFieldsPlan &f = *uv->tensor().fields;
  EXPECT_EQ(f.windowFields, (std::vector<int>{0, 1}));           // u, v
  EXPECT_EQ(f.gemmField, 0);                                     // the first
  EXPECT_EQ(f.groupWindow, (std::vector<int>{0, 1}));            // w x lap u, k x lap v
  EXPECT_EQ(f.groupCoefficientField, (std::vector<int>{-1, 2})); // none, k
  // Several windows: every centre term is a point term, no group holds one.
  const StencilSpec &spec = uv->spec;
  EXPECT_FALSE(f.pointTerms.empty());
  for (std::size_t i = 0; i < spec.fieldTerms.size(); ++i) {
    const bool point =
        std::find(f.pointTerms.begin(), f.pointTerms.end(), int(i)) != f.pointTerms.end();
    EXPECT_EQ(point, spec.fieldTerms[i].offset.isCentre()) << i;
  }
  EXPECT_EQ(uv->tensor().windows(), 2);
  EXPECT_EQ(uv->tensor().sharedBytes(), 2 * uv->tensor().windowBytes + uv->tensor().paramBytes);
  EXPECT_LE(uv->tensor().sharedBytes(), PlanOptions{}.sharedMemoryLimit);

  PlanOrRefusal three = planTensorFields(compile(Stencils[7], "fp64", "periodic"));
  ASSERT_TRUE(three) << three.reason();
  const TensorFieldsPlan &t = *three->tensor().fields;
  EXPECT_EQ(t.windowFields, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.groupWindow, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.groupCoefficientField, (std::vector<int>{3, -1, -1}));
  // k u[i, j], v[i, j] (its two terms as the spec has them) and k w[i, j].
  for (int i : t.pointTerms) {
    EXPECT_TRUE(three->spec.fieldTerms[std::size_t(i)].offset.isCentre()) << i;
  }
  EXPECT_GE(t.pointTerms.size(), 3u);
  // Each group runs only the slice GEMMs of its own field's offsets: u's box
  // rows dy = -1, 1; v's star rows -2, 0, 2; w's row 0 (of rows -2 .. 2).
  const std::vector<std::vector<bool>> runs = {{false, true, false, true, false},
                                               {true, false, true, false, true},
                                               {false, false, true, false, false}};
  EXPECT_EQ(t.groupRunsGemm, runs);
  EXPECT_LE(three->tensor().sharedBytes(), PlanOptions{}.sharedMemoryLimit);
}

TEST(TensorFields, AGroupOverTheWrongWindowIsCaught) {
  PlanOrRefusal plan = planTensorFields(compile(Stencils[6], "fp64", "periodic"));
  ASSERT_TRUE(plan) << plan.reason();
  int wrongWrites = 0;
  EXPECT_LE(runOne(*plan, {17, 19, 1}, 7, wrongWrites), 2 * relativeTolerance(Precision::FP64));
  // u_prev's group over u's window.
  std::vector<int> &groupWindow = std::get<TensorPlan>(plan->kernel).fields->groupWindow;
  ASSERT_EQ(groupWindow.size(), 2u);
  groupWindow[1] = 0;
  EXPECT_GT(runOne(*plan, {17, 19, 1}, 7, wrongWrites), 1e-6);
}

TEST(TensorFields, WhatDoesNotFitIsRefusedWithTheReason) {
  // Five fields each read at every offset of a radius-4 box in fp64: their
  // windows and matrices exceed a block's shared memory.
  auto index = [](const char *axis, int d) {
    return d == 0 ? std::string(axis) : fmt::format("{}{:+d}", axis, d);
  };
  std::string terms;
  for (const char *f : {"ua", "ub", "uc", "ud", "ue"}) {
    for (int dy = -4; dy <= 4; ++dy) {
      for (int dx = -4; dx <= 4; ++dx) {
        terms += fmt::format("{}0.01 * {}[{}, {}]", terms.empty() ? "" : " + ", f, index("i", dy),
                             index("j", dx));
      }
    }
  }
  const std::string text = fmt::format("stencil wide {{ precision PRECISION; boundary BOUNDARY; "
                                       "field ua, ub, uc, ud, ue; out[i, j] = {}; }}",
                                       terms);
  PlanOrRefusal wide = planTensorFields(compile(text.c_str(), "fp64", "fixed"));
  ASSERT_FALSE(wide);
  EXPECT_NE(wide.reason().find("5 fields at neighbours ('ua', 'ub', 'uc', 'ud' and 'ue')"),
            std::string::npos)
      << wide.reason();
  EXPECT_NE(wide.reason().find("shared memory"), std::string::npos) << wide.reason();

  // fp32 is refused for its precision, not for the windows.
  PlanOrRefusal fp32 = planTensorFields(compile(Stencils[5], "fp32", "fixed"));
  ASSERT_FALSE(fp32);
  EXPECT_NE(fp32.reason().find("fp32"), std::string::npos) << fp32.reason();
  EXPECT_EQ(fp32.reason().find("windows"), std::string::npos) << fp32.reason();
}

} // namespace
