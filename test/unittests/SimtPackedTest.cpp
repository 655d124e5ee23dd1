//===- SimtPackedTest.cpp - packed 16-bit arithmetic on CUDA cores, on the CPU ===//
//
// --plan-option arith=packed (issue 35 item 4): the emulated packed FMA
// (one rounding to fp16 or bf16) against known values and APFloat's, the
// planner's decision, and the emulated kernels: one step against the
// float64 reference within the bound docs/generated-code.md states
// ("Packed 16-bit arithmetic"), NAME_run's fused passes bit for bit the
// single steps. The docs' measured errors come from the disabled test at
// the end (SimtTests --gtest_also_run_disabled_tests
// --gtest_filter='*PackedMeasuredError*').
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "llvm/ADT/APFloat.h"

#include "Backends/Simt/FusedEmulator.h"
#include "Backends/Simt/SimtPlanner.h"
#include "StencilFixtures.h"

using namespace stencilc;
using stencilc::testing::expectFusedRunsEqualSingleSteps;
using stencilc::testing::onSm90;
using stencilc::testing::randomGridND;
using stencilc::testing::sameBits;

namespace {

constexpr BoundaryKind Fixed = BoundaryKind::Fixed;

/// The suite's 2D stencils (examples/suite/make_suite.py): the centre 0.5,
/// the other points 0.5 / (n - 1); a star or a box of radius r.
StencilSpec suiteStencil(Shape shape, int r, Precision p, BoundaryKind b) {
  StencilSpec spec;
  spec.dims = 2;
  spec.radius = r;
  spec.shape = shape;
  spec.precision = p;
  spec.boundary = b;
  spec.boundaryValue = 0.75;
  const int points = shape == Shape::Star ? 4 * r + 1 : (2 * r + 1) * (2 * r + 1);
  spec.name = fmt::format("{}2d{}p_{}", keyword(shape), points, keyword(p));
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      if (shape == Shape::Star && dy != 0 && dx != 0) {
        continue;
      }
      spec.terms.push_back(
          Term{Offset{{dy, dx, 0}}, dy == 0 && dx == 0 ? 0.5 : 0.5 / (points - 1)});
    }
  }
  return spec;
}

Plan planWith(const StencilSpec &spec, ArithRequest arith, int fuse = 0) {
  PlanOptions options = onSm90(fuse);
  options.arith = arith;
  return planSimt(spec, options);
}

/// APFloat's fused multiply-add of three values of `p`, rounded once.
double apfloatFma(double c, double v, double acc, Precision p) {
  bool lost = false;
  const auto in = [&](double x) {
    llvm::APFloat f(x);
    f.convert(storageSemantics(p), llvm::RoundingMode::NearestTiesToEven, &lost);
    return f;
  };
  llvm::APFloat r = in(c);
  r.fusedMultiplyAdd(in(v), in(acc), llvm::RoundingMode::NearestTiesToEven);
  r.convert(llvm::APFloat::IEEEdouble(), llvm::RoundingMode::NearestTiesToEven, &lost);
  return r.convertToDouble();
}

} // namespace

TEST(SimtPackedFma, KnownValuesRoundOnce) {
  const Precision h = Precision::FP16, b = Precision::BF16;
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: the 2^-20 is lost.
  EXPECT_EQ(packedMultiplyAdd(1 + 0x1p-10, 1 + 0x1p-10, 0.0, h), 1 + 0x1p-9);
  // Ties go to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(packedMultiplyAdd(1.0, 1.0, 0x1p-11, h), 1.0);
  EXPECT_EQ(packedMultiplyAdd(1 + 0x1p-10, 1.0, 0x1p-11, h), 1 + 0x1p-9);
  // One rounding, not two: 0.1 (fp16) * 3 + 2^-24 rounds as the exact sum.
  const double tenth = roundToStorage(0.1, h);
  EXPECT_EQ(packedMultiplyAdd(tenth, 3.0, 0x1p-24, h), roundToStorage(tenth * 3 + 0x1p-24, h));
  // Subnormals are kept (gradual underflow), overflow goes to infinity.
  EXPECT_EQ(packedMultiplyAdd(0x1p-12, 0x1p-12, 0.0, h), 0x1p-24);
  EXPECT_EQ(packedMultiplyAdd(256.0, 256.0, 0.0, h), INFINITY);
  EXPECT_EQ(packedMultiplyAdd(255.0, 256.0, 32.0, h), 65280.0 + 32.0);
  // A product on a bf16 midpoint and an addend 2^160 times smaller: a sum
  // rounded to double first would lose the addend and tie to even (down);
  // the exact sum is past the midpoint, so it rounds up.
  const double c = 1 + 0x1p-4, v = (1 + 0x1p-4) * 0x1p60;
  EXPECT_EQ(c * v + 0x1p-100, c * v); // the double sum loses it
  EXPECT_EQ(packedMultiplyAdd(c, v, 0x1p-100, b), (1.125 + 0x1p-7) * 0x1p60);
  EXPECT_EQ(packedMultiplyAdd(c, v, -0x1p-100, b), 1.125 * 0x1p60);
  // Signed zeros as IEEE fma: (-0) + (+0) is +0.
  EXPECT_FALSE(std::signbit(packedMultiplyAdd(-1.0, 0.0, 0.0, h)));
  EXPECT_TRUE(std::signbit(packedMultiplyAdd(-1.0, 0.0, -0.0, h)));
}

TEST(SimtPackedFma, AgreesWithAPFloatOnRandomOperands) {
  std::mt19937 rng(35);
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    // Exponents across the format's range, so that sums cancel, underflow
    // and overflow.
    std::uniform_real_distribution<double> mantissa(-2.0, 2.0);
    std::uniform_int_distribution<int> exponent(p == Precision::FP16 ? -26 : -140,
                                                p == Precision::FP16 ? 16 : 127);
    const auto draw = [&] {
      return roundToStorage(std::ldexp(mantissa(rng), exponent(rng) / 2), p);
    };
    for (int i = 0; i < 200000; ++i) {
      const double c = draw(), v = draw(), acc = draw();
      const double got = packedMultiplyAdd(c, v, acc, p), want = apfloatFma(c, v, acc, p);
      ASSERT_TRUE(got == want || (std::isnan(got) && std::isnan(want)))
          << keyword(p) << " fma(" << c << ", " << v << ", " << acc << "): " << got << " not "
          << want;
    }
    for (int i = 0; i < 100000; ++i) {
      const double x = std::ldexp(mantissa(rng), exponent(rng));
      ASSERT_EQ(roundToSixteenBit(x, p), roundToStorage(x, p)) << keyword(p) << " " << x;
    }
  }
}

TEST(SimtPackedPlan, OnlyWhereAskedWithPairsAndSixteenBitCoefficients) {
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    StencilSpec spec = suiteStencil(Shape::Box, 1, p, Fixed);
    spec.terms[0].coefficient = 0.1; // not a 16-bit number
    const Plan widened = planWith(spec, ArithRequest::Widened);
    EXPECT_FALSE(widened.simt().packed);
    EXPECT_EQ(widened.simt().slices[0].terms[0].coefficient, roundToStorage(0.1, Precision::FP32));
    const Plan packed = planWith(spec, ArithRequest::Packed);
    ASSERT_TRUE(packed.simt().packed);
    EXPECT_EQ(packed.simt().slices[0].terms[0].coefficient, roundToStorage(0.1, p));
    EXPECT_EQ(packed.simt().outputsX % 2, 0);
    EXPECT_NE(packed.choice.find("packed"), std::string::npos) << packed.choice;
    // The low-rank form is off: packed FMAs take the terms directly.
    const Plan uniform = planWith(suiteStencil(Shape::Box, 3, p, Fixed), ArithRequest::Packed);
    EXPECT_FALSE(uniform.simt().lowRank.form);
    EXPECT_NE(uniform.simt().lowRank.why.find("arith=packed"), std::string::npos);
  }
  // A queue too large for the registers keeps its pairs of outputs.
  PlanOptions tight;
  tight.arith = ArithRequest::Packed;
  tight.queueRegisterBudget = 8;
  const Plan wide = planSimt(suiteStencil(Shape::Star, 4, Precision::FP16, Fixed), tight);
  EXPECT_TRUE(wide.simt().packed);
  EXPECT_GE(wide.simt().outputsX, 2);
  // Elsewhere the planner keeps the widened form (the pipeline refuses the
  // option there first).
  EXPECT_FALSE(planWith(suiteStencil(Shape::Box, 1, Precision::FP32, Fixed), ArithRequest::Packed)
                   .simt()
                   .packed);
}

namespace {

/// The bound of docs/generated-code.md ("Packed 16-bit arithmetic") on one
/// step at a point: gamma(n + 1) sum |c| max |in|, n the terms, u the
/// element type's unit roundoff, gamma(k) = k u / (1 - k u): n FMAs each
/// rounded to the element type, and the coefficients rounded to it once.
double packedStepBound(const StencilSpec &spec, const GridND &in) {
  const double u = spec.precision == Precision::FP16 ? 0x1p-11 : 0x1p-8;
  const double k = static_cast<double>(spec.points()) + 1;
  double sumAbs = 0.0, maxIn = 0.0;
  for (const Term &t : spec.terms) {
    sumAbs += std::fabs(t.coefficient);
  }
  for (double v : in.values) {
    maxIn = std::max(maxIn, std::fabs(v));
  }
  return k * u / (1 - k * u) * sumAbs * maxIn;
}

} // namespace

TEST(SimtPackedEmulator, OneStepWithinTheStatedBound) {
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
      for (const StencilSpec &spec :
           {suiteStencil(Shape::Star, 1, p, b), suiteStencil(Shape::Box, 1, p, b),
            suiteStencil(Shape::Star, 2, p, b), suiteStencil(Shape::Box, 2, p, b)}) {
        const Plan plan = planWith(spec, ArithRequest::Packed);
        ASSERT_TRUE(plan.simt().packed);
        for (std::array<int, 3> n : {std::array<int, 3>{7, 9, 1}, {37, 141, 1}}) {
          SCOPED_TRACE(fmt::format("{} {} {}x{}", spec.name, keyword(b), n[0], n[1]));
          const GridND in = randomGridND(2, n, p, 3u * n[0] + n[1]);
          GridND packed = in, widened = in, reference = in;
          emulateSimtStep(plan, in, packed);
          emulateSimtStep(planWith(spec, ArithRequest::Widened), in, widened);
          referenceStepND(spec, in, reference);
          const double bound = packedStepBound(spec, in);
          int over = 0;
          for (std::size_t i = 0; i < in.points(); ++i) {
            over += std::fabs(packed.values[i] - reference.values[i]) > bound;
          }
          EXPECT_EQ(over, 0) << "points past the stated bound " << bound;
          EXPECT_FALSE(sameBits(packed, widened)) << "the packed form rounds otherwise";
        }
      }
    }
  }
}

TEST(SimtPackedEmulator, FusedRunsEqualSingleStepsBitForBit) {
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    for (BoundaryKind b : {Fixed, BoundaryKind::Constant, BoundaryKind::Periodic}) {
      for (const StencilSpec &spec :
           {suiteStencil(Shape::Star, 1, p, b), suiteStencil(Shape::Box, 2, p, b)}) {
        const Plan plan = planWith(spec, ArithRequest::Packed, 3);
        ASSERT_EQ(plan.schedule.fusedSteps, 3);
        SCOPED_TRACE(keyword(b));
        expectFusedRunsEqualSingleSteps(plan);
      }
    }
  }
}

namespace {

/// `steps` steps of `plan` on `grid` point by point, each point's terms in
/// the kernels' order (the slices', which the emulated kernels above are
/// held to bit for bit): the emulators' result without their blocks, fast
/// enough for 1000 steps of 512^2.
void directSteps(const Plan &plan, GridND &grid, int steps) {
  const StencilSpec &spec = plan.spec;
  GridND next = grid;
  for (int s = 0; s < steps; ++s) {
    forEachWrittenPoint(spec, grid, [&](const std::array<long long, 3> &i) {
      double acc = 0.0;
      for (const SimtSlice &slice : plan.simt().slices) {
        for (const SimtTerm &t : slice.terms) {
          acc = termMultiplyAdd(plan, t.coefficient,
                                boundaryReadND(spec, grid, {i[0] + slice.dz, i[1] + t.dx, 0}), acc);
        }
      }
      next.at(i) = roundToStorage(acc, spec.precision);
    });
    std::swap(grid, next);
  }
}

} // namespace

TEST(SimtPackedEmulator, DirectStepsAreTheEmulatedKernels) {
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    for (ArithRequest arith : {ArithRequest::Packed, ArithRequest::Widened}) {
      const Plan plan = planWith(suiteStencil(Shape::Box, 1, p, Fixed), arith);
      GridND a = randomGridND(2, {29, 53, 1}, p, 7), b = a;
      emulateRun(plan, a, 10);
      directSteps(plan, b, 10);
      EXPECT_TRUE(sameBits(a, b)) << keyword(p);
    }
  }
}

// The measured error docs/generated-code.md quotes: the relative L2 error
// against float64 of 100 and 1000 steps on a 512^2 grid of random values
// in [0, 1), fixed boundary, packed and widened (minutes on one core).
TEST(SimtPackedEmulator, DISABLED_PackedMeasuredError) {
  for (Precision p : {Precision::FP16, Precision::BF16}) {
    for (Shape shape : {Shape::Star, Shape::Box}) {
      const StencilSpec spec = suiteStencil(shape, 1, p, Fixed);
      GridND reference = randomGridND(2, {512, 512, 1}, p, 2026);
      GridND packed = reference, widened = reference;
      const Plan packedPlan = planWith(spec, ArithRequest::Packed);
      const Plan widenedPlan = planWith(spec, ArithRequest::Widened);
      int done = 0;
      for (int steps : {100, 1000}) {
        directSteps(packedPlan, packed, steps - done);
        directSteps(widenedPlan, widened, steps - done);
        for (int s = done; s < steps; ++s) {
          GridND next = reference;
          referenceStepND(spec, reference, next);
          reference = std::move(next);
        }
        done = steps;
        std::printf("packed error %-14s %4d steps: packed %.2e, widened %.2e (relative L2)\n",
                    spec.name.c_str(), steps, relativeL2ErrorND(spec, packed, reference),
                    relativeL2ErrorND(spec, widened, reference));
        std::fflush(stdout);
      }
    }
  }
}
