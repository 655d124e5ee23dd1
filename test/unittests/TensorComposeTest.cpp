//===- TensorComposeTest.cpp - T steps composed into one stencil -----------===//
//
// composeSteps (Backends/Tensor/TensorCompose.h): the known composition of
// the 5-point star, exactness where the answer is one rounding of a product,
// exact cancellation, and, for stars and boxes in 1D, 2D and 3D, one composed
// step equal to T float64 single steps on a periodic grid.
//
//===----------------------------------------------------------------------===//
#include "Backends/Tensor/TensorCompose.h"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "StencilFixtures.h"

namespace stencilc {
namespace {

StencilSpec lineStencil(std::vector<std::pair<int, double>> terms) {
  StencilSpec spec;
  spec.name = "line";
  spec.dims = 1;
  spec.radius = 0;
  for (auto [dx, c] : terms) {
    spec.terms.push_back({Offset{{dx, 0, 0}}, c});
    spec.radius = std::max(spec.radius, std::abs(dx));
  }
  return spec;
}

TEST(TensorCompose, StarOfFivePointsTwice) {
  StencilSpec star;
  star.dims = 2;
  star.radius = 1;
  star.shape = Shape::Star;
  star.terms = {{Offset{{-1, 0, 0}}, 0.125},
                {Offset{{0, -1, 0}}, 0.125},
                {Offset{{0, 0, 0}}, 0.5},
                {Offset{{0, 1, 0}}, 0.125},
                {Offset{{1, 0, 0}}, 0.125}};
  const StencilSpec two = composeSteps(star, 2);
  EXPECT_EQ(two.radius, 2);
  EXPECT_EQ(two.shape, Shape::Box);
  EXPECT_EQ(two.points(), 13u);
  EXPECT_EQ(two.coefficient(Offset{{0, 0, 0}}), 5.0 / 16);
  EXPECT_EQ(two.coefficient(Offset{{-1, 0, 0}}), 1.0 / 8);
  EXPECT_EQ(two.coefficient(Offset{{1, 1, 0}}), 1.0 / 32);
  EXPECT_EQ(two.coefficient(Offset{{0, -2, 0}}), 1.0 / 64);
  EXPECT_EQ(two.coefficient(Offset{{2, 1, 0}}), 0.0);
  EXPECT_EQ(composeSteps(star, 1).terms.size(), star.terms.size());
}

// (a·x⁻¹ + b·x)² = a²·x⁻² + 2ab + b²·x²: each coefficient is one product of
// two doubles, so its one rounding is the double product, bit for bit, even
// for coefficients with no short binary form and of either sign.
TEST(TensorCompose, OneRoundingOfTheExactValue) {
  const double a = 0.1, b = -0.3;
  const StencilSpec two = composeSteps(lineStencil({{-1, a}, {1, b}}), 2);
  ASSERT_EQ(two.points(), 3u);
  EXPECT_EQ(two.coefficient(Offset{{-2, 0, 0}}), a * a);
  EXPECT_EQ(two.coefficient(Offset{{0, 0, 0}}), 2 * (a * b));
  EXPECT_EQ(two.coefficient(Offset{{2, 0, 0}}), b * b);
}

// (1·x⁻¹ + 1 − 0.5·x)²: the centre is 2·(1·−0.5) + 1·1 = 0, and is left out.
TEST(TensorCompose, ExactCancellationIsLeftOut) {
  const StencilSpec two = composeSteps(lineStencil({{-1, 1.0}, {0, 1.0}, {1, -0.5}}), 2);
  EXPECT_EQ(two.points(), 4u);
  EXPECT_EQ(two.coefficient(Offset{{0, 0, 0}}), 0.0);
  EXPECT_EQ(two.radius, 2);
  // Coefficients far apart in size still compose exactly: 2^-600 · 2^-600
  // is below the smallest double, and is left out.
  const StencilSpec spread = composeSteps(lineStencil({{0, std::ldexp(1.0, -600)}, {1, 1.0}}), 2);
  EXPECT_EQ(spread.coefficient(Offset{{1, 0, 0}}), std::ldexp(1.0, -599));
  EXPECT_EQ(spread.coefficient(Offset{{2, 0, 0}}), 1.0);
  EXPECT_EQ(spread.points(), 2u);
}

/// One step of `spec` on a periodic grid of doubles (any dims; z, y, x).
std::vector<double> periodicStep(const StencilSpec &spec, const std::array<int, 3> &n,
                                 const std::vector<double> &in) {
  std::vector<double> out(in.size());
  auto wrap = [](int i, int m) { return ((i % m) + m) % m; };
  const int off = 3 - spec.dims;
  for (int z = 0; z < n[0]; ++z)
    for (int y = 0; y < n[1]; ++y)
      for (int x = 0; x < n[2]; ++x) {
        double sum = 0;
        for (const Term &t : spec.terms) {
          std::array<int, 3> d{0, 0, 0};
          for (int k = 0; k < spec.dims; ++k)
            d[off + k] = t.offset.d[k];
          sum += t.coefficient *
                 in[(std::size_t(wrap(z + d[0], n[0])) * n[1] + wrap(y + d[1], n[1])) * n[2] +
                    wrap(x + d[2], n[2])];
        }
        out[(std::size_t(z) * n[1] + y) * n[2] + x] = sum;
      }
  return out;
}

void expectComposedEqualsSteps(const StencilSpec &spec, int steps, const std::array<int, 3> &n) {
  std::mt19937 rng(1234 + steps);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> grid(std::size_t(n[0]) * n[1] * n[2]);
  for (double &v : grid)
    v = u(rng);
  std::vector<double> stepped = grid;
  for (int s = 0; s < steps; ++s)
    stepped = periodicStep(spec, n, stepped);
  const StencilSpec composed = composeSteps(spec, steps);
  EXPECT_EQ(composed.radius, steps * spec.radius) << spec.name;
  const std::vector<double> once = periodicStep(composed, n, grid);
  double err = 0, norm = 0;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    err += (once[i] - stepped[i]) * (once[i] - stepped[i]);
    norm += stepped[i] * stepped[i];
  }
  EXPECT_LT(std::sqrt(err / norm), 1e-14) << spec.name << " T=" << steps;
}

TEST(TensorCompose, OneComposedStepIsTSteps1D2D) {
  for (int dims : {1, 2})
    for (Shape shape : {Shape::Star, Shape::Box})
      for (int r : {1, 2})
        for (int steps : {2, 3, 5}) {
          const StencilSpec spec = testing::makeRandomStencil(
              dims, shape, r, Precision::FP64, BoundaryKind::Periodic, 7 * r + steps, 0.0);
          const std::array<int, 3> n =
              dims == 1 ? std::array<int, 3>{1, 1, 37} : std::array<int, 3>{1, 23, 19};
          expectComposedEqualsSteps(spec, steps, n);
        }
}

TEST(TensorCompose, OneComposedStepIsTSteps3D) {
  StencilSpec star;
  star.name = "star3d";
  star.dims = 3;
  star.radius = 1;
  const double c[] = {0.3, 0.1, 0.15, -0.05, 0.2, 0.12, 0.18};
  const Offset offsets[] = {{{0, 0, 0}}, {{-1, 0, 0}}, {{1, 0, 0}}, {{0, -1, 0}},
                            {{0, 1, 0}}, {{0, 0, -1}}, {{0, 0, 1}}};
  for (int k = 0; k < 7; ++k)
    star.terms.push_back({offsets[k], c[k]});
  std::sort(star.terms.begin(), star.terms.end(),
            [](const Term &a, const Term &b) { return a.offset < b.offset; });
  expectComposedEqualsSteps(star, 3, {11, 9, 13});
  EXPECT_EQ(composeSteps(star, 3).shape, Shape::Box);
}

} // namespace
} // namespace stencilc
