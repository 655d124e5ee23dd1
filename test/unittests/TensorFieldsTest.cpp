//===- TensorFieldsTest.cpp - Stencils of fields on tensor cores -----------===//
//
// Plans stencils of fields on tensor cores (TensorFields.h) and runs the
// plan's CPU model (the GEMM groups through the MMA model, then the
// epilogue) for every precision the tensor cores take and every boundary, on
// fresh random fields at odd sizes and the smallest legal one, against the
// float64 reference; says which forms the tensor cores refuse and why; and
// checks that the parameter matrices follow the parameters' values.
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
};

const char *const Precisions[] = {"fp16", "bf16", "tf32", "fp64"};

StencilSpec compile(const char *text, const char *precision, const char *boundary) {
  return stencilc::testing::compileFilled(text, precision, boundary);
}

/// Emulates and references one step on ny x nx; returns the relative L2
/// error and counts the points written that must not be, or missed.
double runOne(const Plan &plan, int ny, int nx, unsigned seed, int &wrongWrites) {
  return stencilc::testing::fieldsStepError(plan, {ny, nx, 1}, seed,
                                            stencilc::testing::FieldsPoison,
                                            emulateTensorFieldsStep, wrongWrites);
}

TEST(TensorFields, EveryPrecisionAndBoundaryMatchesTheReference) {
  stencilc::testing::expectFieldsStepsMatchReference(
      Stencils, Precisions, [](const StencilSpec &spec) { return planTensorFields(spec); },
      emulateTensorFieldsStep,
      [](const StencilSpec &spec) {
        const int smallest = spec.boundary == BoundaryKind::Fixed ? 2 * spec.radius + 1 : 1;
        return std::vector<std::array<int, 3>>{{smallest, smallest, 1}, {17, 19, 1}, {67, 133, 1}};
      });
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
  EXPECT_GT(runOne(*plan, 17, 19, 5, wrongWrites), relativeTolerance(Precision::FP64));
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

  const char *twoNeighbours = R"(stencil uv { precision PRECISION; boundary BOUNDARY; field u, v;
      out[i, j] = u[i-1, j] + v[i+1, j]; })";
  PlanOrRefusal uv = planTensorFields(compile(twoNeighbours, "fp16", "fixed"));
  ASSERT_FALSE(uv);
  EXPECT_NE(uv.reason().find("two fields at neighbours"), std::string::npos) << uv.reason();

  const char *wave3d =
      R"(stencil w3 { precision PRECISION; boundary BOUNDARY; field u, u_prev; time u_prev, u;
      out[i, j, k] = 2 * u[i, j, k] - u_prev[i, j, k] + 0.1 * (u[i-1, j, k] + u[i+1, j, k]); })";
  PlanOrRefusal w3 = planTensorFields(compile(wave3d, "fp16", "fixed"));
  ASSERT_FALSE(w3);
  EXPECT_NE(w3.reason().find("3D"), std::string::npos) << w3.reason();
}

} // namespace
