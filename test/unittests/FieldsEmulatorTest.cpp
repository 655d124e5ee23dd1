//===- FieldsEmulatorTest.cpp - Stencils of fields on the CPU ---------------===//
//
// Compiles stencils of fields (time levels, coefficient fields at the
// output point and at neighbours, source terms, parameters) from text, and
// for every precision and boundary runs the plan's CPU model
// (FieldsEmulator.h, the kernel of stencilc/device/fields.cuh) on fresh
// random fields at odd sizes and the smallest legal one, against the float64
// reference: the relative L2 error within the precision's tolerance, and
// exactly the points a step writes written. A mutated term must fail.
//
//===----------------------------------------------------------------------===//
#include <array>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "Backends/Simt/FieldsEmulator.h"
#include "Backends/Simt/SimtPlanner.h"
#include "Backends/Tensor/TensorEmulator.h"
#include "FieldsStepCheck.h"

using namespace stencilc;
using stencilc::testing::randomGridND;

namespace {

/// The stencils, each with PRECISION and BOUNDARY to fill in.
const char *const Stencils[] = {
    stencilc::testing::WaveFieldsText,
    R"(stencil varheat { precision PRECISION; boundary BOUNDARY; field u; coefficient k;
       param dt, h;
       out[i, j] = u[i, j] + dt / (h * h) * (k[i+1, j] * (u[i+1, j] - u[i, j])
                 - k[i-1, j] * (u[i, j] - u[i-1, j]) + k[i, j+1] * (u[i, j+1] - u[i, j])
                 - k[i, j-1] * (u[i, j] - u[i, j-1])); })",
    R"(stencil poisson3d { precision PRECISION; boundary BOUNDARY; field u, f;
       out[i, j, k] = (u[i-1, j, k] + u[i+1, j, k] + u[i, j-1, k] + u[i, j+1, k]
                      + u[i, j, k-1] + u[i, j, k+1] + 0.01 * f[i, j, k]) / 6; })",
    R"(stencil heat1d { precision PRECISION; boundary BOUNDARY; param alpha;
       out[i] = in[i] + alpha * (in[i-2] - 2 * in[i] + in[i+2]); })",
};

const char *const Precisions[] = {"fp16", "bf16", "tf32", "fp32", "fp64"};

StencilSpec compile(const char *text, const char *precision, const char *boundary) {
  return stencilc::testing::compileFilled(text, precision, boundary);
}

std::vector<std::array<int, 3>> sizesFor(const StencilSpec &spec) {
  const int smallest = spec.boundary == BoundaryKind::Fixed ? 2 * spec.radius + 1 : 1;
  switch (spec.dims) {
  case 1:
    return {{smallest, 1, 1}, {1001, 1, 1}};
  case 2:
    return {{smallest, smallest, 1}, {17, 19, 1}, {33, 70, 1}};
  default:
    return {{smallest, smallest, smallest}, {9, 11, 13}};
  }
}

TEST(FieldsEmulator, EveryFormPrecisionAndBoundaryMatchesTheReference) {
  stencilc::testing::expectFieldsStepsMatchReference(
      Stencils, Precisions, [](const StencilSpec &spec) { return planFields(spec); },
      emulateFieldsStep, sizesFor);
}

TEST(FieldsEmulator, AWrongTermIsCaught) {
  StencilSpec spec = compile(Stencils[0], "fp64", "periodic");
  ASSERT_TRUE(spec.hasFields());
  Plan plan = *planFields(spec);
  plan.spec.fieldTerms[2].coefficient *= 1.001; // 2 u[i, j] becomes 2.002 u[i, j]
  // Against the reference of the right spec.
  std::vector<GridND> fields;
  for (std::size_t f = 0; f < spec.fields.size(); ++f) {
    fields.push_back(randomGridND(2, {17, 19, 1}, Precision::FP64, 7 + unsigned(f)));
  }
  GridND emulated(2, {17, 19, 1}), reference(2, {17, 19, 1});
  emulateFieldsStep(plan, fields, {0.1}, emulated);
  referenceFieldsStepND(spec, fields, {0.1}, reference);
  EXPECT_GT(relativeL2ErrorND(spec, emulated, reference), relativeTolerance(Precision::FP64));
}

/// One fp32 step of a 1D periodic stencil of `u` and a coefficient field `c`
/// on n = 257 random points: `at(f, i)` reads field f (0 u, 1 c) at i,
/// wrapped, as a float, and `out(i)` the emulated output.
struct OneDimStep {
  static constexpr int n = 257;
  std::vector<GridND> fields;
  GridND emulated{1, {n, 1, 1}};
  OneDimStep(const char *text, unsigned seed) {
    const Plan plan = *planFields(compile(text, "fp32", "periodic"));
    for (unsigned f = 0; f < 2; ++f) {
      fields.push_back(randomGridND(1, {n, 1, 1}, Precision::FP32, seed + f));
    }
    emulateFieldsStep(plan, fields, {}, emulated);
  }
  float at(int f, int i) const { return float(fields[f].at({(i + n) % n, 0, 0})); }
  float out(int i) const { return float(emulated.at({i, 0, 0})); }
};

/// A coefficient field read at the output point multiplies the sum of its
/// terms once, as `c[i] * (...)` is written: c (k1 u[i-1] + k2 u[i+1]), one
/// FMA a term into the sum, then one FMA with c. The same numbers summed term
/// by term ((k1 c) u[i-1] + (k2 c) u[i+1]) round differently in fp32, so the
/// emulator must give the factored value bit for bit.
TEST(FieldsEmulator, ACoefficientFieldAtThePointMultipliesItsSumOnce) {
  const OneDimStep step(R"(stencil f { precision PRECISION; boundary BOUNDARY;
      field u; coefficient c; out[i] = u[i] + c[i] * (0.3 * u[i-1] + 0.7 * u[i+1]); })",
                        11);
  int termwiseDiffers = 0;
  for (int i = 0; i < step.n; ++i) {
    const float u = step.at(0, i), c = step.at(1, i);
    const float left = step.at(0, i - 1), right = step.at(0, i + 1);
    const float sum = std::fma(0.7f, right, std::fma(0.3f, left, 0.0f));
    const float factored = std::fma(c, sum, std::fma(1.0f, u, 0.0f));
    const float termwise = std::fma(0.7f * c, right, std::fma(0.3f * c, left, u));
    EXPECT_EQ(step.out(i), factored) << "at " << i;
    termwiseDiffers += termwise != factored;
  }
  EXPECT_GT(termwiseDiffers, 0); // the test tells the two orders apart
}

/// A stencil that also reads a coefficient field off the point (varheat's
/// form) keeps every term's product: (0.3 c[i]) u[i-1] + (0.7 c[i+1]) u[i+1],
/// each product rounded once, then one FMA a term.
TEST(FieldsEmulator, ACoefficientFieldOffThePointKeepsEveryProduct) {
  const OneDimStep step(R"(stencil f { precision PRECISION; boundary BOUNDARY;
      field u; coefficient c; out[i] = 0.3 * c[i] * u[i-1] + 0.7 * c[i+1] * u[i+1]; })",
                        13);
  for (int i = 0; i < step.n; ++i) {
    const float expected = std::fma(0.7f * step.at(1, i + 1), step.at(0, i + 1),
                                    std::fma(0.3f * step.at(1, i), step.at(0, i - 1), 0.0f));
    EXPECT_EQ(step.out(i), expected) << "at " << i;
  }
}

TEST(FieldsEmulator, ParametersAreFoldedPerCall) {
  const StencilSpec spec = compile(Stencils[3], "fp64", "periodic");
  ASSERT_EQ(spec.params.size(), 1u);
  ASSERT_EQ(spec.fieldTerms.size(), 3u);
  // in[i] + alpha (in[i-2] - 2 in[i] + in[i+2]): the centre's coefficient is
  // 1 - 2 alpha, evaluated for each alpha.
  EXPECT_DOUBLE_EQ(spec.fieldTerms[1].value({0.25}), 0.5);
  EXPECT_DOUBLE_EQ(spec.fieldTerms[1].value({0.5}), 0.0);
  EXPECT_DOUBLE_EQ(spec.fieldTerms[0].value({0.5}), 0.5);
}

/// The plane kernel: a 3D fp32 or fp64 stencil that reads one field off the
/// output point and the others at it, with the measured blocks and a ring of
/// 2r + 1 planes and those in flight; not 2D, not two fields off the point,
/// not 16-bit elements.
TEST(FieldsPlanner, PlaneKernelWhereOneFieldIsReadOffThePoint) {
  const char *const poisson = Stencils[2]; // u off the point, f at it, radius 1
  const Plan fp32 = *planFields(compile(poisson, "fp32", "periodic"));
  EXPECT_EQ(fp32.simt().planeField, 0);
  EXPECT_EQ(fp32.simt().threads, 256);
  EXPECT_EQ(fp32.simt().buffers, 3 + 2);
  EXPECT_EQ(fp32.simt().tileX * fp32.simt().tileY, 16 * 32);
  const Plan fp64 = *planFields(compile(poisson, "fp64", "fixed"));
  EXPECT_EQ(fp64.simt().planeField, 0);
  EXPECT_EQ(fp64.simt().threads, 256);
  EXPECT_EQ(fp64.simt().buffers, 3 + 1);
  PlanOptions options;
  options.stages = 4;
  EXPECT_EQ(planFields(compile(poisson, "tf32", "clamp"), options)->simt().buffers, 3 + 4);
  for (const char *precision : {"fp16", "bf16"}) {
    EXPECT_EQ(planFields(compile(poisson, precision, "periodic"))->simt().planeField, -1)
        << precision;
  }
  EXPECT_EQ(planFields(compile(Stencils[0], "fp32", "periodic"))->simt().planeField, -1); // 2D
  const char *const twoOff =
      R"(stencil two { precision PRECISION; boundary BOUNDARY; field u, f;
         out[i, j, k] = u[i-1, j, k] + u[i+1, j, k] + f[i, j, k+1]; })";
  EXPECT_EQ(planFields(compile(twoOff, "fp32", "periodic"))->simt().planeField, -1);
}

} // namespace
