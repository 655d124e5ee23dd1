// reference_test.cpp - CPU checks of the runtime's judge (no GPU needed, so
// CI runs them): the float64 reference's index order and boundaries, the
// comparison's ring / unwritten / error detection, the poison bits, and
// the grids the conformance and sanitizer runs take.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "stencilc/testing/compare.h"
#include "stencilc/testing/fill.h"
#include "stencilc/testing/harness.h"
#include "stencilc/testing/reference.h"

using namespace stencilc;

namespace {

int failures = 0;

void expect(bool ok, const char *what) {
  std::printf("[%s] %s\n", ok ? "PASS" : "FAIL", what);
  if (!ok)
    ++failures;
}

stencilc_stencil_info makeInfo(int dims, int radius, stencilc_boundary boundary, double value,
                               const std::vector<stencilc_point> &points) {
  stencilc_stencil_info info{};
  info.name = "test";
  info.dims = dims;
  info.radius = radius;
  info.shape = STENCILC_BOX;
  info.precision = STENCILC_FP64;
  info.boundary = boundary;
  info.boundary_value = value;
  info.num_points = static_cast<int>(points.size());
  info.points = points.data();
  return info;
}

/// A periodic shift by one along each axis reads the neighbour in index
/// order (last index contiguous).
void shifts() {
  const Extents e = Extents::of3D(3, 4, 5);
  std::vector<double> in(e.points());
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<double>(i);
  for (int axis = 0; axis < 3; ++axis) {
    std::vector<stencilc_point> p = {{{0, 0, 0}, 1.0}};
    p[0].offset[axis] = 1;
    const stencilc_stencil_info info = makeInfo(3, 1, STENCILC_BOUNDARY_PERIODIC, 0, p);
    std::vector<double> out(e.points());
    referenceStep(info, e, in.data(), out.data());
    bool ok = true;
    for (long long z = 0; z < 3; ++z)
      for (long long y = 0; y < 4; ++y)
        for (long long x = 0; x < 5; ++x) {
          long long c[3] = {z, y, x};
          const long long n[3] = {3, 4, 5};
          c[axis] = (c[axis] + 1) % n[axis];
          ok &= out[(z * 4 + y) * 5 + x] == in[(c[0] * 4 + c[1]) * 5 + c[2]];
        }
    const char *names[3] = {"3D periodic shift along z (offset[0])",
                            "3D periodic shift along y (offset[1])",
                            "3D periodic shift along x (offset[2], contiguous)"};
    expect(ok, names[axis]);
  }
  // In 2D the offsets are {dy, dx, 0}: offset[1] is x.
  std::vector<stencilc_point> p = {{{0, 1, 0}, 1.0}};
  const stencilc_stencil_info info = makeInfo(2, 1, STENCILC_BOUNDARY_PERIODIC, 0, p);
  const Extents e2 = Extents::of2D(2, 3);
  std::vector<double> in2 = {0, 1, 2, 3, 4, 5}, out2(6);
  referenceStep(info, e2, in2.data(), out2.data());
  expect(out2 == std::vector<double>({1, 2, 0, 4, 5, 3}), "2D offset {0, 1} reads x + 1");
}

void boundaries() {
  std::vector<stencilc_point> heat = {{{-1, 0, 0}, 0.125},
                                      {{0, -1, 0}, 0.125},
                                      {{0, 0, 0}, 0.5},
                                      {{0, 1, 0}, 0.125},
                                      {{1, 0, 0}, 0.125}};
  const Extents e = Extents::of2D(5, 6);
  std::vector<double> in(e.points());
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = uniformAt(42, i);

  // Fixed: only the interior is written.
  {
    const stencilc_stencil_info info = makeInfo(2, 1, STENCILC_BOUNDARY_FIXED, 0, heat);
    std::vector<double> out(e.points(), -7.0);
    referenceStep(info, e, in.data(), out.data());
    bool ringKept = true, interiorRight = true;
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 6; ++x) {
        const double v = out[y * 6 + x];
        if (y == 0 || y == 4 || x == 0 || x == 5) {
          ringKept &= v == -7.0;
        } else {
          double want = 0.5 * in[y * 6 + x] + 0.125 * (in[(y - 1) * 6 + x] + in[(y + 1) * 6 + x] +
                                                       in[y * 6 + x - 1] + in[y * 6 + x + 1]);
          interiorRight &= std::fabs(v - want) < 1e-15;
        }
      }
    expect(ringKept, "fixed: ring of out untouched");
    expect(interiorRight, "fixed: interior is the stencil");
  }
  // Constant V: a grid of V everywhere stays V * sum(c) = V.
  {
    const stencilc_stencil_info info = makeInfo(2, 1, STENCILC_BOUNDARY_CONSTANT, 0.75, heat);
    std::vector<double> flat(e.points(), 0.75), out(e.points(), -7.0);
    referenceStep(info, e, flat.data(), out.data());
    bool ok = true;
    for (double v : out)
      ok &= std::fabs(v - 0.75) < 1e-15;
    expect(ok, "constant: reads outside give V, every point written");
  }
  // Periodic: a convex stencil conserves the sum, also when n < r.
  {
    std::vector<stencilc_point> wide = {{{-3, 0, 0}, 0.25}, {{0, 0, 0}, 0.5}, {{2, 0, 0}, 0.25}};
    const stencilc_stencil_info info = makeInfo(1, 3, STENCILC_BOUNDARY_PERIODIC, 0, wide);
    for (int n : {1, 2, 7}) {
      const Extents e1 = Extents::of1D(n);
      std::vector<double> v(n), out(n);
      double sumIn = 0, sumOut = 0;
      for (int i = 0; i < n; ++i)
        sumIn += v[i] = uniformAt(7, i);
      referenceStep(info, e1, v.data(), out.data());
      for (double o : out)
        sumOut += o;
      if (n == 2) // x-3 wraps to x+1, x+2 to x
        expect(std::fabs(out[0] - (0.25 * v[1] + 0.5 * v[0] + 0.25 * v[0])) < 1e-15,
               "periodic: offsets beyond n wrap more than once");
      expect(std::fabs(sumIn - sumOut) < 1e-14, "periodic: convex stencil conserves the sum");
    }
  }
}

void comparison() {
  std::vector<stencilc_point> heat = {{{0, 0, 0}, 1.0}, {{1, 0, 0}, 0.0}};
  const stencilc_stencil_info info = makeInfo(2, 1, STENCILC_BOUNDARY_FIXED, 0, heat);
  const Extents e = Extents::of2D(4, 4);
  const std::vector<float> poison = poisoned<float>(e.points());
  std::vector<double> ref(e.points(), 0.5);
  std::vector<float> good = poison;
  for (int y = 1; y < 3; ++y)
    for (int x = 1; x < 3; ++x)
      good[y * 4 + x] = 0.5f;
  expect(compareWithReference(info, e, good, ref, &poison, &poison).passes(0),
         "compare: exact interior, untouched ring passes");
  std::vector<float> ring = good;
  ring[0] = poisonAt<float>(1); // a NaN, but not this point's NaN
  expect(compareWithReference(info, e, ring, ref, &poison, &poison).ringChanged == 1,
         "compare: a ring point with other NaN bits is a changed ring");
  std::vector<float> skipped = good;
  skipped[2 * 4 + 2] = poison[2 * 4 + 2];
  expect(compareWithReference(info, e, skipped, ref, &poison, &poison).unwritten == 1,
         "compare: an interior point with its poison is unwritten");
  std::vector<float> off = good;
  off[1 * 4 + 1] = 0.5f * 1.001f;
  const Comparison c = compareWithReference(info, e, off, ref, &poison, &poison);
  expect(std::fabs(c.relativeL2 - 0.0005 / 1.0) < 1e-6 && !c.passes(2e-6),
         "compare: relative L2 over the interior");
  // A stencil whose weights sum past 1 grows every step (100 steps of a sum
  // of 180: about 1e225); the squares of such values overflow a double,
  // and the relative error must not become inf / inf.
  const std::vector<double> poison64 = poisoned<double>(e.points());
  std::vector<double> hugeRef(e.points(), 1e225), huge = poison64;
  for (int y = 1; y < 3; ++y)
    for (int x = 1; x < 3; ++x)
      huge[y * 4 + x] = 1e225 * (1 + 1e-15 * x);
  const Comparison h = compareWithReference(info, e, huge, hugeRef, &poison64, &poison64);
  expect(std::isfinite(h.relativeL2) && h.relativeL2 < 2e-15 && h.passes(1e-10),
         "compare: relative L2 of values whose squares overflow a double");
  // A reference past the element's largest finite value cannot be compared.
  expect(pastRange<float>({1.0, -3.5e38}) && !pastRange<float>({1.0, -3.4e38}) &&
             pastRange<float>({std::nan("")}) && !pastRange<double>({1e300}),
         "compare: a reference past fp32's or fp64's range");
  expect(pastRange<__half>({65520.0}) && !pastRange<__half>({-65504.0}) &&
             pastRange<__nv_bfloat16>({3.4e38}) && !pastRange<__nv_bfloat16>({3.38e38}),
         "compare: a reference past fp16's or bf16's range");
  // Or decayed below the normal values (subnormals keep fewer bits); 0 is
  // compared by the absolute error.
  expect(pastRange<float>({6.8e-82, -1e-40}) && !pastRange<float>({6.8e-82, 1.2e-38}) &&
             !pastRange<float>({0.0, 0.0}) && !pastRange<double>({6.8e-82}),
         "compare: a reference below fp32's normal values");
  expect(pastRange<__half>({6.0e-5}) && !pastRange<__half>({6.2e-5}) &&
             pastRange<__nv_bfloat16>({1e-39}) && !pastRange<__nv_bfloat16>({1.2e-38}),
         "compare: a reference below fp16's or bf16's normal values");
}

/// The magnitude run of a stencil with weights of both signs, and the
/// comparison over it: a point whose result cancels to near 0 is judged by
/// the size of what cancelled.
void magnitudes() {
  const std::vector<stencilc_point> positive = {{{0, 0, 0}, 0.5}, {{1, 0, 0}, 0.25}};
  const Extents e = Extents::of1D(5);
  const std::vector<double> a = {1, 2, 3, 4, 6};
  expect(magnitudeStep(makeInfo(1, 1, STENCILC_BOUNDARY_FIXED, 0, positive), e, a).empty(),
         "magnitude: none where no weight, boundary value or input is negative");
  // 1D Laplacian-like: -2 at the centre, 1 each side; on a line the result
  // is 0 (here 0, 0 and 1) and its magnitude 4 times the values.
  const std::vector<stencilc_point> lap = {{{-1, 0, 0}, 1.0}, {{0, 0, 0}, -2.0}, {{1, 0, 0}, 1.0}};
  const stencilc_stencil_info info = makeInfo(1, 1, STENCILC_BOUNDARY_FIXED, 0, lap);
  const std::vector<double> m = magnitudeStep(info, e, a);
  expect(m.size() == 5 && m[1] == 8 && m[2] == 12 && m[3] == 17 && m[0] == 1 && m[4] == 6,
         "magnitude: |weights| on |inputs|, the fixed ring kept");
  std::vector<double> ref = a;
  referenceRun(info, e, ref, 1);
  const std::vector<float> got = {1, 1e-5f, 0, 1, 6}; // an error of 1e-5 against 8
  const Comparison plain = compareWithReference<float>(info, e, got, ref, nullptr, nullptr);
  const Comparison scaled = compareWithReference<float>(info, e, got, ref, nullptr, nullptr, &m);
  expect(!plain.passes(2e-6) && scaled.passes(2e-6) && scaled.ofMagnitude &&
             std::fabs(scaled.relativeL2 - 1e-5 / std::sqrt(8.0 * 8 + 12 * 12 + 17 * 17)) < 1e-9,
         "compare: a cancelling result judged over its magnitude");
}

/// What a step multiplies an error by: the weights' largest |symbol|, at
/// a periodic grid's own frequencies where it is small.
void gains() {
  const std::vector<stencilc_point> heat = {
      {{-1, 0, 0}, 0.25}, {{0, 0, 0}, 0.5}, {{1, 0, 0}, 0.25}};
  expect(stepGain(makeInfo(1, 1, STENCILC_BOUNDARY_PERIODIC, 0, heat), Extents::of1D(8)) == 1.0,
         "gain: an average's is 1 (the constant mode)");
  const std::vector<stencilc_point> lap = {{{-1, 0, 0}, 1.0}, {{0, 0, 0}, -2.0}, {{1, 0, 0}, 1.0}};
  expect(std::fabs(stepGain(makeInfo(1, 1, STENCILC_BOUNDARY_FIXED, 0, lap), Extents::of1D(50)) -
                   4.0) < 1e-12,
         "gain: a Laplacian's is 4 (the highest frequency)");
  expect(stepGain(makeInfo(1, 1, STENCILC_BOUNDARY_PERIODIC, 0, lap), Extents::of1D(1)) == 0.0,
         "gain: on one periodic point, |the sum of the weights|");
}

/// A run whose values cancel every step (weights summing to 0 on one
/// periodic point, which every read reads): the exact result after 2 steps
/// is near 0, while a kernel's weights rounded to float sum to about 1e-8
/// and carry the first step's result into the second. The last step's
/// magnitude does not bound that error; the carried magnitude does.
void carriedRuns() {
  const std::vector<stencilc_point> w = {{{-2, 0, 0}, 0.083},
                                         {{-1, 0, 0}, 0.415},
                                         {{0, 0, 0}, -0.996},
                                         {{1, 0, 0}, 0.415},
                                         {{2, 0, 0}, 0.083}};
  const stencilc_stencil_info info = makeInfo(1, 2, STENCILC_BOUNDARY_PERIODIC, 0, w);
  const Extents e = Extents::of1D(1);
  const std::vector<double> a = {0.7};
  double rounded = 0.0;
  for (const stencilc_point &p : w)
    rounded += static_cast<float>(p.coefficient);
  const std::vector<float> got = {static_cast<float>(0.7 * rounded * rounded)};
  std::vector<double> ref = a, before = a;
  referenceRun(info, e, ref, 2);
  referenceRun(info, e, before, 1);
  const double tol = 2e-6;
  const std::vector<double> last = magnitudeStep(info, e, before);
  const Comparison plain = compareWithReference<float>(info, e, got, ref, nullptr, nullptr, &last);
  const std::vector<double> noCarry = carriedMagnitude(info, e, a, 2, 0.0);
  const std::vector<double> m = carriedMagnitude(info, e, a, 2, errorCarry(info, e, tol));
  const Comparison over = compareWithReference<float>(info, e, got, ref, nullptr, nullptr, &m);
  expect(got[0] != 0.0f && noCarry == last, "carried: with no carry, the last step's magnitude");
  expect(!plain.passes(2 * tol) && over.passes(tol),
         "carried: an error outliving the values it came from, bounded by its own step");
}

void fills() {
  const std::vector<__half> h = randomUniform<__half>(100000, freshSeed());
  bool inRange = true;
  for (__half v : h)
    inRange &= toDouble(v) >= 0.0 && toDouble(v) < 1.0;
  expect(inRange, "fill: fp16 values uniform in [0, 1)");
  expect(freshSeed() != freshSeed(), "fill: fresh seeds differ");
  expect(std::isnan(toDouble(poisonAt<__nv_bfloat16>(3))) &&
             std::isnan(toDouble(poisonAt<__half>(3))) && std::isnan(poisonAt<double>(3)),
         "poison: NaN in every type");
  expect(fromDouble<__half>(0.1) == __double2half(0.1) &&
             toDouble(fromDouble<__nv_bfloat16>(0.5)) == 0.5,
         "conversions: round to nearest, exact values kept");
}

bool hasGrid(const std::vector<Extents> &sizes, const Extents &grid) {
  return std::find(sizes.begin(), sizes.end(), grid) != sizes.end();
}

/// A fused 3D stencil's conformance and sanitizer grids include the one
/// that reaches the fused pass's interior form; one that does not fuse
/// keeps the sanitizer's two.
void grids() {
  const std::vector<stencilc_point> star{{{0, 0, 0}, 1.0}};
  stencilc_stencil_info info = makeInfo(3, 1, STENCILC_BOUNDARY_FIXED, 0, star);
  info.tile[0] = info.tile[1] = info.tile[2] = 8;
  info.fused_steps = 5;
  const Extents grid = fusedInteriorGrid3D();
  expect(grid == Extents::of3D(31, 125, 128), "grids: the interior grid is 31x125x128");
  expect(hasGrid(conformanceSizes(info), grid) && hasGrid(sanitizerSizes(info), grid) &&
             grid.points() < 2'000'000,
         "grids: a fused 3D stencil's conformance and sanitizer runs take the interior grid");
  info.fused_steps = 1;
  expect(!hasGrid(sanitizerSizes(info), grid) && sanitizerSizes(info).size() == 2,
         "grids: one step a launch keeps the sanitizer's two grids");
}

} // namespace

int main() {
  grids();
  shifts();
  boundaries();
  comparison();
  magnitudes();
  gains();
  carriedRuns();
  fills();
  std::printf("RESULT: %s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
