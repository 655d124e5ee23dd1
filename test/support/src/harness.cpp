// harness.cpp - the conformance run of a stencil behind the generated API:
// fresh random inputs, poisoned outputs, every contract size, 1 and several
// steps, the float64 reference, and the argument checks.
#include "stencilc/testing/harness.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "stencilc/runtime/check.h"
#include "stencilc/runtime/device_buffer.h"
#include "stencilc/testing/compare.h"
#include "stencilc/testing/fill.h"
#include "stencilc/testing/reference.h"

#include "single_steps.h"

namespace stencilc {

StencilUnderTest makeNaiveStencilUnderTest(const stencilc_stencil_info &info) {
  switch (info.precision) {
  case STENCILC_FP16:
    return makeNaiveStencilUnderTest<__half>(info);
  case STENCILC_BF16:
    return makeNaiveStencilUnderTest<__nv_bfloat16>(info);
  case STENCILC_TF32:
  case STENCILC_FP32:
    return makeNaiveStencilUnderTest<float>(info);
  case STENCILC_FP64:
    break;
  }
  return makeNaiveStencilUnderTest<double>(info);
}

std::vector<Extents> conformanceSizes(const stencilc_stencil_info &info) {
  const int small = 2 * info.radius + 1; // the contract's smallest fixed grid
  const int least = minimumSize(info);
  std::vector<Extents> sizes;
  // Sizes under the least a stencil takes (17 x 19 past radius 8 at a
  // fixed grid) are the argument checks' cases, not conformance sizes.
  auto add = [&](Extents e) {
    for (int a = 0; a < e.dims; ++a)
      if (e.n[a] < least)
        return;
    if (std::find(sizes.begin(), sizes.end(), e) == sizes.end())
      sizes.push_back(e);
  };
  switch (info.dims) {
  case 1:
    add(Extents::of1D(least));
    add(Extents::of1D(small));
    add(Extents::of1D(17));
    add(Extents::of1D(1000003));
    break;
  case 2:
    add(Extents::of2D(least, least));
    add(Extents::of2D(small, small));
    add(Extents::of2D(small, 1000));
    add(Extents::of2D(1000, small));
    add(Extents::of2D(17, 19));
    add(Extents::of2D(1000, 1337));
    add(Extents::of2D(4096, 4096));
    break;
  default:
    add(Extents::of3D(least, least, least));
    add(Extents::of3D(small, small, small));
    add(Extents::of3D(small, 23, 300));
    add(Extents::of3D(37, 41, 129));
    add(fusedInteriorGrid3D());
    add(Extents::of3D(512, 512, 512));
    break;
  }
  return sizes;
}

Extents fusedInteriorGrid3D() { return Extents::of3D(31, 125, 128); }

std::vector<Extents> sanitizerSizes(const stencilc_stencil_info &info) {
  const int ring = 2 * info.radius;
  int odd[3];
  for (int a = 0; a < info.dims; ++a) {
    const int tile = std::max(1, info.tile[a]);
    odd[a] = ring + tile + tile / 2 + 1;
  }
  switch (info.dims) {
  case 1:
    return {Extents::of1D(odd[0]), Extents::of1D(ring + 3)};
  case 2:
    return {Extents::of2D(odd[0], odd[1]), Extents::of2D(ring + 1, ring + 3)};
  default:
    std::vector<Extents> sizes{Extents::of3D(odd[0], odd[1], odd[2]),
                               Extents::of3D(ring + 1, ring + 2, ring + 3)};
    if (info.fused_steps > 1)
      sizes.push_back(fusedInteriorGrid3D());
    return sizes;
  }
}

namespace {

struct CaseReport {
  const StencilUnderTest &s;
  int failures = 0;

  void line(bool pass, const Extents &e, const std::string &what, const std::string &detail) {
    const stencilc_stencil_info &info = *s.info;
    std::printf("[%s] %-20s %-4s %-8s %-9s %-14s %-8s %s\n", pass ? "PASS" : "FAIL", info.name,
                precisionName(info.precision), boundaryName(info.boundary),
                s.implementation.c_str(), e.str().c_str(), what.c_str(), detail.c_str());
    std::fflush(stdout);
    if (!pass)
      ++failures;
  }
};

std::string seedText(std::uint64_t seed) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "seed=%016" PRIx64, seed);
  return buf;
}

std::string tolText(double tol) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "tol=%.0e", tol);
  return buf;
}

/// Grids up to this many points also run NAME_run against NAME_step.
constexpr std::size_t SingleStepCheckPoints = 2'000'000;

template <class T> bool sameVectorBits(const std::vector<T> &a, const std::vector<T> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

/// Whether `status` (a call's) is success and the stream then finishes;
/// reports the case failed otherwise.
bool finished(cudaError_t status, cudaStream_t stream, CaseReport &r, const Extents &e,
              const std::string &what) {
  if (status == cudaSuccess)
    status = cudaStreamSynchronize(stream);
  if (status == cudaSuccess)
    return true;
  r.line(false, e, what, std::string("returned ") + cudaGetErrorName(status));
  cudaGetLastError();
  return false;
}

template <class T>
void checkStep(const StencilUnderTest &s, const Extents &e, cudaStream_t stream, CaseReport &r) {
  const stencilc_stencil_info &info = *s.info;
  const std::size_t n = e.points();
  const std::uint64_t seed = freshSeed();
  const std::vector<T> in = randomUniform<T>(n, seed);
  const std::vector<T> poison = poisoned<T>(n);
  DeviceBuffer<T> dIn(n), dOut(n);
  dIn.upload(in);
  dOut.upload(poison);

  if (!finished(s.step(dIn.data(), dOut.data(), e, stream), stream, r, e, "step"))
    return;
  const std::vector<T> result = dOut.download();
  const bool inputKept = sameVectorBits(dIn.download(), in);

  const std::vector<double> inD = toDoubles(in);
  std::vector<double> ref(n, 0.0);
  referenceStep(info, e, inD.data(), ref.data());
  const std::vector<double> magnitude = magnitudeStep(info, e, inD);
  const Comparison c = compareWithReference<T>(info, e, result, ref, &poison, &poison, &magnitude);
  const double tol = s.stepTolerance > 0 ? s.stepTolerance : tolerance(info);
  std::string detail = c.summary() + " " + tolText(tol) + " " + seedText(seed);
  if (!inputKept)
    detail += " input-changed";
  r.line(c.passes(tol) && inputKept, e, "step", detail);
}

/// A run of `steps` steps from `a` over its carried magnitude
/// (reference.h, carriedMagnitude), each step's error at most `stepTol`
/// times that step's magnitude: the bound where the last step's magnitude
/// is not, as where the values cancel step after step and an earlier
/// step's error outlives them (EBISU's 3d13pt, whose weights sum to 0, on
/// a 1 x 1 x 1 periodic grid: every exact result near 0, the kernel's own
/// rounded weights summing to 1e-8).
template <class T>
Comparison compareCarried(const stencilc_stencil_info &info, const Extents &e,
                          const std::vector<T> &result, const std::vector<double> &ref,
                          const std::vector<T> &a, int steps, double stepTol) {
  const std::vector<double> m =
      carriedMagnitude(info, e, toDoubles(a), steps, errorCarry(info, e, stepTol));
  return compareWithReference<T>(info, e, result, ref, &a, nullptr, &m);
}

/// A run case's input and buffers: `a`, fresh random values (of `seed`),
/// in dA and dB poisoned, as NAME_run starts from them; start() sets them
/// so again for another run from the same input.
template <class T> struct RunStart {
  std::uint64_t seed;
  std::vector<T> a;
  DeviceBuffer<T> dA, dB;
  explicit RunStart(std::size_t n) : seed(freshSeed()), a(randomUniform<T>(n, seed)), dA(n), dB(n) {
    start();
  }
  void start() {
    dA.upload(a);
    dB.upload(poisoned<T>(a.size()));
  }
};

template <class T>
void checkRun(const StencilUnderTest &s, const Extents &e, int steps, cudaStream_t stream,
              CaseReport &r) {
  const stencilc_stencil_info &info = *s.info;
  const std::size_t n = e.points();
  RunStart<T> input(n);
  const std::vector<T> &a = input.a;
  const std::string what = "run " + std::to_string(steps);

  if (!finished(s.run(input.dA.data(), input.dB.data(), e, steps, stream), stream, r, e, what))
    return;
  const std::vector<T> result = input.dA.download();
  std::vector<double> ref = toDoubles(a);
  referenceRun(info, e, ref, steps - 1);
  // The last step's magnitude: what each step's rounding error scales with.
  const std::vector<double> magnitude =
      steps > 0 ? magnitudeStep(info, e, ref) : std::vector<double>{};
  referenceRun(info, e, ref, std::min(steps, 1));
  // Each step rounds its output to T once more: allow the one-step
  // tolerance per step (docs/generated-code.md), or the carried bound.
  const double stepTol = s.stepTolerance > 0 ? s.stepTolerance : tolerance(info);
  double tol = stepTol * std::max(1, steps);
  Comparison c = compareWithReference<T>(info, e, result, ref, &a, nullptr, &magnitude);
  // A stencil whose weights' spectral radius exceeds 1 can leave T's range
  // (EBISU's 3d7pt in fp32 after 100 steps), and one that decays can fall
  // below its normal values (EBISU's 3d27pt, periodic): no T result
  // compares with such a reference, so the run is held to its ring and to
  // as many steps alone.
  const bool beyond = pastRange<T>(ref);
  bool carried = false;
  if (!beyond && !c.passes(tol) && steps > 1) {
    const Comparison over = compareCarried<T>(info, e, result, ref, a, steps, stepTol);
    if ((carried = over.passes(stepTol))) {
      c = over;
      tol = stepTol;
    }
  }
  const bool bitwise = runMatchesStepsBitwise(info) && n <= SingleStepCheckPoints;
  if (beyond && !bitwise) {
    std::printf("[SKIP] %-20s %s %s (the reference leaves %s's range)\n", info.name,
                e.str().c_str(), what.c_str(), precisionName(info.precision));
    return;
  }
  std::string detail = (beyond    ? std::string("reference past the element's range")
                        : carried ? c.summary() + " carried"
                                  : c.summary()) +
                       " " + tolText(tol) + " " + seedText(input.seed);
  // NAME_run, fused or not, must give what as many NAME_step calls give,
  // bit for bit (on grids small enough to run both); the tensor cores'
  // composed passes only within the tolerance.
  bool sameAsSteps = true;
  if (!runMatchesStepsBitwise(info)) {
    detail += " composed";
  } else if (n <= SingleStepCheckPoints) {
    sameAsSteps = sameVectorBits(result, singleSteps<T>(s, e, a, steps, stream));
    detail += sameAsSteps ? " =steps" : " differs-from-single-steps";
  }
  r.line((beyond ? c.ringChanged == 0 : c.passes(tol)) && sameAsSteps, e, what, detail);
}

/// NAME_run of `steps` steps captured into a CUDA graph (stream capture in
/// the global mode), the graph launched: the result must be NAME_run's bit
/// for bit. A run may fork work onto a stream of its own and join it back
/// (a composed pass's band, stencilc/device/composed.cuh), which a capture
/// must take in whole.
template <class T>
void checkCaptured(const StencilUnderTest &s, const Extents &e, int steps, cudaStream_t stream,
                   CaseReport &r) {
  RunStart<T> input(e.points());
  const std::string what = "graph " + std::to_string(steps);
  if (!finished(s.run(input.dA.data(), input.dB.data(), e, steps, stream), stream, r, e, what))
    return;
  const std::vector<T> direct = input.dA.download();
  input.start();
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  cudaError_t status = cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  if (status == cudaSuccess) {
    const cudaError_t ran = s.run(input.dA.data(), input.dB.data(), e, steps, stream);
    status = cudaStreamEndCapture(stream, &graph);
    status = ran != cudaSuccess ? ran : status;
  }
  if (status == cudaSuccess)
    status = cudaGraphInstantiate(&exec, graph, 0);
  if (status == cudaSuccess)
    status = cudaGraphLaunch(exec, stream);
  const bool launched = finished(status, stream, r, e, what);
  if (exec != nullptr)
    cudaGraphExecDestroy(exec);
  if (graph != nullptr)
    cudaGraphDestroy(graph);
  if (!launched)
    return;
  const bool same = sameVectorBits(input.dA.download(), direct);
  r.line(same, e, what, (same ? "=run " : "differs-from-run ") + seedText(input.seed));
}

/// NAME_pass (where the driver gave it) for `steps` steps: out, poisoned,
/// must come out bit for bit what NAME_run gives from the same input, and
/// the input unchanged; a step count NAME_pass does not take must be
/// refused with cudaErrorInvalidValue (refused is true then).
template <class T>
void checkPass(const StencilUnderTest &s, const Extents &e, int steps, bool refused,
               cudaStream_t stream, CaseReport &r) {
  const std::size_t n = e.points();
  const std::uint64_t seed = freshSeed();
  const std::vector<T> in = randomUniform<T>(n, seed);
  DeviceBuffer<T> dIn(n), dOut(n), dA(n), dB(n);
  dIn.upload(in);
  dOut.upload(poisoned<T>(n));
  dA.upload(in);
  const std::string what = "pass " + std::to_string(steps);
  cudaError_t status = s.pass(dIn.data(), dOut.data(), e, steps, stream);
  if (refused) {
    cudaGetLastError();
    r.line(status == cudaErrorInvalidValue, e, what,
           std::string("expected cudaErrorInvalidValue, returned ") + cudaGetErrorName(status));
    return;
  }
  if (status == cudaSuccess)
    status = s.run(dA.data(), dB.data(), e, steps, stream);
  if (!finished(status, stream, r, e, what))
    return;
  const bool sameAsRun = sameVectorBits(dOut.download(), dA.download());
  const bool inputKept = sameVectorBits(dIn.download(), in);
  r.line(sameAsRun && inputKept, e, what,
         std::string(sameAsRun ? "=run" : "differs-from-run") +
             (inputKept ? "" : " input-changed") + " " + seedText(seed));
}

/// What out holds before NAME_pass_range: the poison, but where the pass
/// leaves a fixed boundary's ring as it was (the one-step form: the header
/// asks the caller for in's ring there), in's values on the ring of width
/// radius at each edge of every axis (wider than the ring of an axis the
/// stencil reaches less far: the pass writes those points over).
template <class T>
std::vector<T> outBeforePassRange(const stencilc_stencil_info &info, const Extents &e,
                                  const std::vector<T> &in) {
  std::vector<T> out = poisoned<T>(e.points());
  if (info.boundary != STENCILC_BOUNDARY_FIXED || info.fused_steps > 1)
    return out;
  const long long r = info.radius, nz = e.nz(), ny = e.ny(), nx = e.nx();
  const auto ring = [r](long long i, long long n, bool axis) {
    return axis && (i < r || i >= n - r);
  };
  for (long long z = 0; z < nz; ++z)
    for (long long y = 0; y < ny; ++y)
      for (long long x = 0; x < nx; ++x)
        if (ring(z, nz, e.dims == 3) || ring(y, ny, e.dims >= 2) || ring(x, nx, true)) {
          const std::size_t i = static_cast<std::size_t>((z * ny + y) * nx + x);
          out[i] = in[i];
        }
  return out;
}

/// NAME_pass_range (where the driver gave it) for `steps` steps storing
/// outermost indices [first, first + count): those of out (poisoned, but
/// for the ring outBeforePassRange gives in's) must come out bit for bit
/// what NAME_pass gives, every other point of out as it was, and the input
/// unchanged; a range or step count it does not take must be refused with
/// cudaErrorInvalidValue (refused is true then), out untouched.
template <class T>
void checkPassRange(const StencilUnderTest &s, const Extents &e, int first, int count, int steps,
                    bool refused, cudaStream_t stream, CaseReport &r) {
  const std::size_t n = e.points();
  const std::size_t inner = n / static_cast<std::size_t>(e.n[0]);
  const std::uint64_t seed = freshSeed();
  const std::vector<T> in = randomUniform<T>(n, seed);
  const std::vector<T> poison = outBeforePassRange<T>(*s.info, e, in);
  DeviceBuffer<T> dIn(n), dOut(n), dWhole(n);
  dIn.upload(in);
  dOut.upload(poison);
  dWhole.upload(poisoned<T>(n));
  const std::string what = "range " + std::to_string(first) + "+" + std::to_string(count) +
                           " pass " + std::to_string(steps);
  cudaError_t status = s.passRange(dIn.data(), dOut.data(), e, first, count, steps, stream);
  if (refused) {
    cudaGetLastError();
    const bool untouched =
        finished(cudaSuccess, stream, r, e, what) && sameVectorBits(dOut.download(), poison);
    r.line(status == cudaErrorInvalidValue && untouched, e, what,
           std::string("expected cudaErrorInvalidValue, returned ") + cudaGetErrorName(status) +
               (untouched ? "" : ", out written"));
    return;
  }
  if (status == cudaSuccess)
    status = s.pass(dIn.data(), dWhole.data(), e, steps, stream);
  if (!finished(status, stream, r, e, what))
    return;
  const std::vector<T> got = dOut.download(), whole = dWhole.download();
  std::vector<T> expected = poison;
  const std::size_t from = static_cast<std::size_t>(first) * inner;
  const std::size_t to = static_cast<std::size_t>(first + count) * inner;
  std::copy(whole.begin() + static_cast<std::ptrdiff_t>(from),
            whole.begin() + static_cast<std::ptrdiff_t>(to),
            expected.begin() + static_cast<std::ptrdiff_t>(from));
  const bool asExpected = sameVectorBits(got, expected);
  const bool inputKept = sameVectorBits(dIn.download(), in);
  r.line(asExpected && inputKept, e, what,
         std::string(asExpected ? "=pass on the range, out as it was elsewhere"
                                : "differs-from-pass-or-wrote-outside") +
             (inputKept ? "" : " input-changed") + " " + seedText(seed));
}

/// The ranges checkPassRange takes on an outermost extent of n: the whole
/// axis, its first and last index, the middle third, all but the ends, and
/// (refused) empty, negative and past-the-end ranges.
std::vector<std::array<int, 3>> passRangeCases(int n) {
  std::vector<std::array<int, 3>> cases{{0, n, 1}, {0, 1, 1}, {n - 1, 1, 1}};
  if (n / 3 >= 1)
    cases.push_back({n / 3, n / 3, 1});
  if (n > 2)
    cases.push_back({1, n - 2, 1});
  for (std::array<int, 3> refused :
       {std::array<int, 3>{0, 0, 0}, {-1, 2, 0}, {n - 1, 2, 0}, {n, 1, 0}})
    cases.push_back(refused);
  return cases;
}

/// NAME_run's step counts on a grid of `points`: 0, 1, 2 and 5, and
/// around the fused depth T (T - 1, T, T + 1, 3T + 2, and 100); grids of
/// over 2 million points take 3 (T + 1 where T > 1) to keep the CPU
/// reference short.
std::vector<int> defaultStepCounts(const stencilc_stencil_info &info, std::size_t points) {
  const int t = info.fused_steps;
  if (points > SingleStepCheckPoints) {
    return {t > 1 ? t + 1 : 3};
  }
  std::vector<int> counts{0, 1, 2, 5};
  if (t > 1) {
    for (int c : {t - 1, t, t + 1, 3 * t + 2, 100}) {
      if (std::find(counts.begin(), counts.end(), c) == counts.end()) {
        counts.push_back(c);
      }
    }
  }
  return counts;
}

template <class T> int conformance(const StencilUnderTest &s, const ConformanceOptions &options) {
  CaseReport report{s};
  cudaStream_t stream;
  STENCILC_CHECK(cudaStreamCreate(&stream));
  for (const Extents &e : options.sizes(*s.info)) {
    if (options.maxPoints && e.points() > options.maxPoints) {
      std::printf("[SKIP] %-20s %s (over --max-points)\n", s.info->name, e.str().c_str());
      continue;
    }
    checkStep<T>(s, e, stream, report);
    const std::vector<int> stepCounts =
        !options.stepCounts.empty() ? options.stepCounts : defaultStepCounts(*s.info, e.points());
    for (int steps : stepCounts)
      checkRun<T>(s, e, steps, stream, report);
    if (e.points() <= SingleStepCheckPoints) {
      // A run's passes and the steps past them, captured into a graph.
      checkCaptured<T>(s, e, std::max(1, s.info->fused_steps) + 1, stream, report);
    }
    if (s.pass && e.points() <= SingleStepCheckPoints) {
      // NAME_pass takes 1 to T steps (on tensor cores' composed passes, 1 or
      // T): every one it takes, and T + 1 and 0 refused.
      const int t = std::max(1, s.info->fused_steps);
      for (int steps = 0; steps <= t + 1; ++steps) {
        const bool composed = !runMatchesStepsBitwise(*s.info);
        const bool takes = steps >= 1 && steps <= t && (!composed || steps == 1 || steps == t);
        checkPass<T>(s, e, steps, !takes, stream, report);
      }
    }
    if (s.passRange && s.pass && e.points() <= SingleStepCheckPoints) {
      // NAME_pass_range: each range with 1 and T steps, and T + 1 refused.
      const int t = std::max(1, s.info->fused_steps);
      for (const std::array<int, 3> &c : passRangeCases(static_cast<int>(e.n[0]))) {
        for (int steps : {1, t, t + 1}) {
          if (steps == t && t == 1)
            continue;
          checkPassRange<T>(s, e, c[0], c[1], steps, c[2] == 0 || steps > t, stream, report);
        }
      }
    }
  }
  STENCILC_CHECK(cudaStreamDestroy(stream));
  return report.failures;
}

template <class T> int badArguments(const StencilUnderTest &s) {
  const stencilc_stencil_info &info = *s.info;
  const int least = minimumSize(info);
  Extents good{info.dims, {0, 0, 0}};
  for (int a = 0; a < info.dims; ++a)
    good.n[a] = least + 3;
  const std::size_t n = good.points();
  const std::vector<T> input = randomUniform<T>(n, freshSeed());
  const std::vector<T> poison = poisoned<T>(n);
  DeviceBuffer<T> in(n), out(n);
  in.upload(input);
  out.upload(poison);

  std::vector<std::string> wrong;
  auto expectInvalid = [&](cudaError_t status, const std::string &call) {
    if (status != cudaErrorInvalidValue)
      wrong.push_back(call + " -> " + cudaGetErrorName(status));
  };
  expectInvalid(s.step(nullptr, out.data(), good, nullptr), "step(in=null)");
  expectInvalid(s.step(in.data(), nullptr, good, nullptr), "step(out=null)");
  expectInvalid(s.step(in.data(), in.data(), good, nullptr), "step(in==out)");
  expectInvalid(s.run(nullptr, out.data(), good, 1, nullptr), "run(a=null)");
  expectInvalid(s.run(in.data(), nullptr, good, 1, nullptr), "run(b=null)");
  expectInvalid(s.run(in.data(), in.data(), good, 1, nullptr), "run(a==b)");
  expectInvalid(s.run(in.data(), out.data(), good, -1, nullptr), "run(steps=-1)");
  // Overlapping buffers that are not equal: out = in + 1 (and a = b + 1) in
  // one allocation of 2n points, so nothing runs past it if a call is wrong.
  DeviceBuffer<T> shared(2 * n);
  shared.upload(std::vector<T>(2 * n, poison[0]));
  expectInvalid(s.step(shared.data(), shared.data() + 1, good, nullptr), "step(out=in+1)");
  expectInvalid(s.run(shared.data() + 1, shared.data(), good, 1, nullptr), "run(a=b+1)");
  for (int a = 0; a < info.dims; ++a) {
    for (int bad : {least - 1, -7}) {
      Extents e = good;
      e.n[a] = bad;
      const std::string size = "size " + e.str();
      expectInvalid(s.step(in.data(), out.data(), e, nullptr), "step(" + size + ")");
      expectInvalid(s.run(in.data(), out.data(), e, 1, nullptr), "run(" + size + ")");
    }
  }
  const cudaError_t sync = cudaDeviceSynchronize();
  const cudaError_t last = cudaGetLastError();
  if (sync != cudaSuccess || last != cudaSuccess)
    wrong.push_back(std::string("sticky error ") +
                    cudaGetErrorName(sync != cudaSuccess ? sync : last));
  if (!sameVectorBits(out.download(), poison) || !sameVectorBits(in.download(), input))
    wrong.push_back("a rejected call wrote memory");

  std::string detail = wrong.empty() ? "all bad calls returned cudaErrorInvalidValue" : "";
  for (const std::string &w : wrong)
    detail += (detail.empty() ? "" : "; ") + w;
  CaseReport report{s};
  report.line(wrong.empty(), good, "bad-args", detail);
  return report.failures;
}

/// Calls F<T>(args...) for the storage type of s.info->precision.
template <template <class> class F, class... Args>
int dispatch(const StencilUnderTest &s, Args &&...args) {
  switch (s.info->precision) {
  case STENCILC_FP16:
    return F<__half>::call(s, args...);
  case STENCILC_BF16:
    return F<__nv_bfloat16>::call(s, args...);
  case STENCILC_TF32:
  case STENCILC_FP32:
    return F<float>::call(s, args...);
  case STENCILC_FP64:
    break;
  }
  return F<double>::call(s, args...);
}

template <class T> struct ConformanceOf {
  static int call(const StencilUnderTest &s, const ConformanceOptions &o) {
    return conformance<T>(s, o);
  }
};
template <class T> struct BadArgumentsOf {
  static int call(const StencilUnderTest &s) { return badArguments<T>(s); }
};

bool usable(const StencilUnderTest &s) {
  if (s.info && s.typeMatchesInfo)
    return true;
  std::printf("[FAIL] %s: the functions' element type is not that of precision %s\n",
              s.info ? s.info->name : "(no info)", s.info ? precisionName(s.info->precision) : "?");
  return false;
}

} // namespace

int runConformance(const StencilUnderTest &s, const ConformanceOptions &options) {
  if (!usable(s))
    return 1;
  return dispatch<ConformanceOf>(s, options);
}

int checkBadArguments(const StencilUnderTest &s) {
  if (!usable(s))
    return 1;
  return dispatch<BadArgumentsOf>(s);
}

} // namespace stencilc
