// The rounding error of the decomposed order (LowRank.h) against the direct
// one: a few steps of each on random data in fp32 and fp64, against a long
// double reference of the direct form. Prints the measured errors, which
// docs/design.md ("Low-rank structure") quotes:
//   build/test/unittests/FrontendTests --gtest_filter='LowRankError.*'
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <type_traits>

#include "stencilc/LowRank.h"

#include "FrontendTestUtil.h"

using namespace stencilc;
using stencilc::testing::compileText;

namespace {

/// A periodic grid; a 2D stencil runs on a grid of one plane (axis 0 of
/// extent 1) with its axes i, j on the grid's axes 1, 2.
template <typename T> struct Grid {
  std::array<int, 3> n;
  std::vector<T> v;

  explicit Grid(std::array<int, 3> extents)
      : n(extents), v(static_cast<size_t>(extents[0]) * extents[1] * extents[2]) {}
  T &at(std::array<int, 3> p) {
    for (int a = 0; a < 3; ++a) {
      p[a] += p[a] < 0 ? n[a] : p[a] >= n[a] ? -n[a] : 0; // offsets are below the extents
    }
    return v[(static_cast<size_t>(p[0]) * n[1] + p[1]) * n[2] + p[2]];
  }
};

template <typename T> T rounded(const Rational &r) {
  // The numbers here are short: both parts fit in 64 bits.
  return static_cast<T>(static_cast<long double>(static_cast<int64_t>(r.numerator())) /
                        static_cast<long double>(static_cast<int64_t>(r.denominator())));
}

/// One multiply-add per tap, in the order of `taps` (offset, weight).
template <typename T>
void applyTaps(Grid<T> &in, Grid<T> &out, const std::vector<std::pair<std::array<int, 3>, T>> &taps,
               bool accumulate) {
  for (int x = 0; x < in.n[0]; ++x) {
    for (int y = 0; y < in.n[1]; ++y) {
      for (int z = 0; z < in.n[2]; ++z) {
        T acc = accumulate ? out.at({x, y, z}) : T(0);
        for (const auto &[d, w] : taps) {
          const T value = in.at({x + d[0], y + d[1], z + d[2]});
          // The reference multiplies and adds in 64-bit mantissas (fmal is
          // emulated in software, and slow); the others fuse, as kernels do.
          if constexpr (std::is_same_v<T, long double>) {
            acc += w * value;
          } else {
            acc = std::fma(w, value, acc);
          }
        }
        out.at({x, y, z}) = acc;
      }
    }
  }
}

/// The taps of a 1D factor along grid axis `axis`, each weight times `scale`.
template <typename T>
std::vector<std::pair<std::array<int, 3>, T>> factorTaps(const std::vector<Rational> &f, int axis,
                                                         const Rational &scale) {
  std::vector<std::pair<std::array<int, 3>, T>> taps;
  const int r = static_cast<int>(f.size()) / 2;
  for (int d = 0; d < static_cast<int>(f.size()); ++d) {
    if (!f[d].isZero()) {
      std::array<int, 3> offset{0, 0, 0};
      offset[axis] = d - r;
      taps.push_back({offset, rounded<T>(scale * f[d])});
    }
  }
  return taps;
}

/// out += scale * column (along `first`) x row (along `second`) applied to
/// `in`: the row pass into a temporary, then the column pass.
template <typename T>
void applyTerm(Grid<T> &in, Grid<T> &out, const RankOneTerm &t, const Rational &scale, int first,
               int second) {
  Grid<T> tmp(in.n);
  applyTaps(in, tmp, factorTaps<T>(t.row, second, Rational(1)), false);
  applyTaps(tmp, out, factorTaps<T>(t.column, first, scale * t.scale), true);
}

/// One step in the analysis' decomposed order (2D: each term's passes; 3D:
/// each plane direct or as its terms' passes, then the pass along the
/// unfolded axis).
template <typename T> void decomposedStep(const LowRankAnalysis &a, Grid<T> &in, Grid<T> &out) {
  std::fill(out.v.begin(), out.v.end(), T(0));
  if (a.dims == 2) {
    for (const RankOneTerm &t : a.terms) {
      applyTerm(in, out, t, Rational(1), 1, 2);
    }
    return;
  }
  const int first = a.axis == 0 ? 1 : 0, second = a.axis == 2 ? 1 : 2, n = a.size;
  for (size_t t = 0; t < a.terms.size(); ++t) {
    Grid<T> plane(in.n);
    if (a.planeDirect[t]) {
      std::vector<std::pair<std::array<int, 3>, T>> taps;
      for (int at = 0; at < n * n; ++at) {
        if (!a.terms[t].row[at].isZero()) {
          std::array<int, 3> offset{0, 0, 0};
          offset[first] = at / n - n / 2;
          offset[second] = at % n - n / 2;
          taps.push_back({offset, rounded<T>(a.terms[t].row[at])});
        }
      }
      applyTaps(in, plane, taps, false);
    } else {
      for (const RankOneTerm &p : a.planes[t]) {
        applyTerm(in, plane, p, Rational(1), first, second);
      }
    }
    applyTaps(plane, out, factorTaps<T>(a.terms[t].column, a.axis, a.terms[t].scale), true);
  }
}

template <typename T> void directStep(const StencilSpec &spec, Grid<T> &in, Grid<T> &out) {
  std::vector<std::pair<std::array<int, 3>, T>> taps;
  for (const Term &t : spec.terms) {
    std::array<int, 3> offset{0, 0, 0};
    for (int a = 0; a < spec.dims; ++a) {
      offset[a + 3 - spec.dims] = t.offset.d[a];
    }
    taps.push_back({offset, rounded<T>(Rational::simplestRoundingTo(t.coefficient))});
  }
  applyTaps(in, out, taps, false);
}

/// The largest error after `steps` steps relative to the largest value of
/// the reference.
template <typename T>
double stepsError(const StencilSpec &spec, const LowRankAnalysis &a, bool decomposed, int steps,
                  Grid<long double> start) {
  Grid<long double> ref = start, refNext(start.n);
  Grid<T> x(start.n), next(start.n);
  for (size_t k = 0; k < start.v.size(); ++k) {
    x.v[k] = static_cast<T>(start.v[k]);
  }
  for (int s = 0; s < steps; ++s) {
    directStep(spec, ref, refNext);
    std::swap(ref, refNext);
    decomposed ? decomposedStep(a, x, next) : directStep(spec, x, next);
    std::swap(x, next);
  }
  long double worst = 0, scale = 0;
  for (size_t k = 0; k < x.v.size(); ++k) {
    worst = std::max(worst, std::fabs(static_cast<long double>(x.v[k]) - ref.v[k]));
    scale = std::max(scale, std::fabs(ref.v[k]));
  }
  return static_cast<double>(worst / scale);
}

constexpr int Steps = 4;

struct Measured {
  double direct32, decomposed32, direct64, decomposed64;
};

Measured measure(const std::string &name, const std::string &text) {
  auto c = compileText(text);
  EXPECT_EQ(c.specs.size(), 1u) << c.diagnostics;
  const StencilSpec &spec = c.specs.at(0);
  const LowRankAnalysis a = analyseLowRank(spec);
  EXPECT_TRUE(a.analysed() && !a.terms.empty()) << name;
  Grid<long double> start(spec.dims == 2 ? std::array<int, 3>{1, 64, 64}
                                         : std::array<int, 3>{16, 16, 16});
  std::mt19937_64 gen(35);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (long double &v : start.v) {
    v = unit(gen);
  }
  Measured m{stepsError<float>(spec, a, false, Steps, start),
             stepsError<float>(spec, a, true, Steps, start),
             stepsError<double>(spec, a, false, Steps, start),
             stepsError<double>(spec, a, true, Steps, start)};
  std::printf("%-22s fp32 direct %.2e decomposed %.2e | fp64 direct %.2e decomposed %.2e\n",
              name.c_str(), m.direct32, m.decomposed32, m.direct64, m.decomposed64);
  return m;
}

void expectClose(const Measured &m) {
  // The decomposed order rounds each term's intermediate once more, and
  // terms of opposite signs cancel; its error is still held to what the
  // tests hold one step to (Precisions.def), per step.
  EXPECT_LT(m.decomposed32, Steps * relativeTolerance(Precision::FP32));
  EXPECT_LT(m.decomposed64, Steps * relativeTolerance(Precision::FP64));
}

TEST(LowRankError, TwoDimensionalBoxes) {
  expectClose(measure("uniform 7x7", "stencil s { let w = 1 / 49; weights "
                                     "[[w, w, w, w, w, w, w], [w, w, w, w, w, w, w], "
                                     "[w, w, w, w, w, w, w], [w, w, w, w, w, w, w], "
                                     "[w, w, w, w, w, w, w], [w, w, w, w, w, w, w], "
                                     "[w, w, w, w, w, w, w]]; }"));
  expectClose(measure("binomial 5x5", "stencil s { let s = 1 / 256; weights "
                                      "[[s, 4*s, 6*s, 4*s, s], [4*s, 16*s, 24*s, 16*s, 4*s], "
                                      "[6*s, 24*s, 36*s, 24*s, 6*s], "
                                      "[4*s, 16*s, 24*s, 16*s, 4*s], [s, 4*s, 6*s, 4*s, s]]; }"));
  expectClose(measure("box2d9p (suite)", "stencil s { let e = 0.5 / 8; weights "
                                         "[[e, e, e], [e, 0.5, e], [e, e, e]]; }"));
  expectClose(
      measure("ebisu 2d49pt",
              "stencil s { let d = 118; weights "
              "[[1/d, 1/d, 2/d, 3/d, 4/d, 5/d, 5/d], [1/d, 1/d, 2/d, 3/d, 4/d, 5/d, 5/d], "
              "[1/d, 7/d, 7/d, 5/d, 7/d, 6/d, 5/d], [1/d, 8/d, 12/d, 15/d, 12/d, 12/d, 5/d], "
              "[1/d, 9/d, 9/d, 5/d, 7/d, 15/d, 5/d], [1/d, 9/d, 9/d, 5/d, 7/d, 15/d, 5/d], "
              "[1/d, 10/d, 11/d, 12/d, 13/d, 14/d, 5/d]]; }"));
}

TEST(LowRankError, ThreeDimensionalBoxes) {
  expectClose(measure("box3d27p (suite)", "stencil s { let e = 0.5 / 26; weights "
                                          "[[[e, e, e], [e, e, e], [e, e, e]], "
                                          "[[e, e, e], [e, 0.5, e], [e, e, e]], "
                                          "[[e, e, e], [e, e, e], [e, e, e]]]; }"));
  expectClose(measure("ebisu 3d27pt",
                      "stencil s { let d = 159; weights "
                      "[[[0.5/d, 0.7/d, 0.9/d], [1.2/d, 1.5/d, 1.2/d], [0.9/d, 0.7/d, 0.5/d]], "
                      "[[0.51/d, 0.71/d, 0.91/d], [1.21/d, 1.51/d, 1.21/d], "
                      "[0.91/d, 0.71/d, 0.51/d]], "
                      "[[0.52/d, 0.72/d, 0.92/d], [1.22/d, 1.52/d, 1.22/d], "
                      "[0.92/d, 0.72/d, 0.52/d]]]; }"));
  expectClose(measure("27-point Laplacian", "stencil s { let c = 1 / 30; weights "
                                            "[[[c, 3*c, c], [3*c, 14*c, 3*c], [c, 3*c, c]], "
                                            "[[3*c, 14*c, 3*c], [14*c, -128*c, 14*c], "
                                            "[3*c, 14*c, 3*c]], "
                                            "[[c, 3*c, c], [3*c, 14*c, 3*c], [c, 3*c, c]]]; }"));
}

} // namespace
