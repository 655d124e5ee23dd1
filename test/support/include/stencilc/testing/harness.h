// harness.h - testing and benchmarking any generated stencil through its
// NAME_info, NAME_step and NAME_run.
//
// makeStencilUnderTest(NAME_info, NAME_step, NAME_run) deduces the element
// type and the dimension from the functions' signatures, so one driver works
// for every stencil the compiler emits:
//
//   StencilUnderTest s = makeStencilUnderTest(heat2d_info, heat2d_step, heat2d_run);
//   int failures = runConformance(s, ConformanceOptions{});
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "stencilc/runtime/element.h"
#include "stencilc/runtime/stencil_info.h"
#include "stencilc/testing/extents.h"
#include "stencilc/testing/naive.h"

namespace stencilc {

/// A stencil behind the generated API, with the sizes as an Extents and the
/// element type erased.
struct StencilUnderTest {
  const stencilc_stencil_info *info = nullptr;
  /// What runs the kernels: "api" (the NAME_step / NAME_run under test) or
  /// "naive" (the runtime's baseline kernel).
  std::string implementation;
  std::size_t elementSize = 0;
  /// False when the functions' element type is not info->precision's.
  bool typeMatchesInfo = false;
  /// The relative L2 error against the float64 reference a step may have
  /// (0: tolerance(*info)); a form that rounds more sets its own bound
  /// (packed 16-bit arithmetic, bench/packed/gen.sh). NAME_run's is this
  /// times the steps.
  double stepTolerance = 0.0;
  std::function<cudaError_t(const void *in, void *out, const Extents &, cudaStream_t)> step;
  std::function<cudaError_t(void *a, void *b, const Extents &, int steps, cudaStream_t)> run;
  /// NAME_pass where the driver gave it (empty for the naive kernel).
  std::function<cudaError_t(const void *in, void *out, const Extents &, int steps, cudaStream_t)>
      pass;
  /// NAME_pass_range where the stencil has it and the driver gave it
  /// (withPassRange): outermost indices [first, first + count) stored.
  std::function<cudaError_t(const void *in, void *out, const Extents &, int first, int count,
                            int steps, cudaStream_t)>
      passRange;
};

namespace detail {
template <class T>
StencilUnderTest makeErased(const stencilc_stencil_info &info, const char *implementation) {
  StencilUnderTest s;
  s.info = &info;
  s.implementation = implementation;
  s.elementSize = sizeof(T);
  s.typeMatchesInfo = storesPrecision<T>(info.precision);
  return s;
}
} // namespace detail

/// 1D: NAME_step(in, out, nx, stream), NAME_run(a, b, nx, steps, stream)
/// and, where given, NAME_pass(in, out, nx, steps, stream).
template <class T>
StencilUnderTest makeStencilUnderTest(const stencilc_stencil_info &info,
                                      cudaError_t (*step)(const T *, T *, int, cudaStream_t),
                                      cudaError_t (*run)(T *, T *, int, int, cudaStream_t),
                                      cudaError_t (*pass)(const T *, T *, int, int,
                                                          cudaStream_t) = nullptr) {
  StencilUnderTest s = detail::makeErased<T>(info, "api");
  if (pass) {
    s.pass = [pass](const void *in, void *out, const Extents &e, int steps, cudaStream_t st) {
      return e.dims != 1
                 ? cudaErrorInvalidValue
                 : pass(static_cast<const T *>(in), static_cast<T *>(out), e.n[0], steps, st);
    };
  }
  s.step = [step](const void *in, void *out, const Extents &e, cudaStream_t st) {
    return e.dims != 1 ? cudaErrorInvalidValue
                       : step(static_cast<const T *>(in), static_cast<T *>(out), e.n[0], st);
  };
  s.run = [run](void *a, void *b, const Extents &e, int steps, cudaStream_t st) {
    return e.dims != 1 ? cudaErrorInvalidValue
                       : run(static_cast<T *>(a), static_cast<T *>(b), e.n[0], steps, st);
  };
  return s;
}

/// 2D: NAME_step(in, out, ny, nx, stream), NAME_run(a, b, ny, nx, steps, stream)
/// and, where given, NAME_pass(in, out, ny, nx, steps, stream).
template <class T>
StencilUnderTest makeStencilUnderTest(const stencilc_stencil_info &info,
                                      cudaError_t (*step)(const T *, T *, int, int, cudaStream_t),
                                      cudaError_t (*run)(T *, T *, int, int, int, cudaStream_t),
                                      cudaError_t (*pass)(const T *, T *, int, int, int,
                                                          cudaStream_t) = nullptr) {
  StencilUnderTest s = detail::makeErased<T>(info, "api");
  if (pass) {
    s.pass = [pass](const void *in, void *out, const Extents &e, int steps, cudaStream_t st) {
      return e.dims != 2 ? cudaErrorInvalidValue
                         : pass(static_cast<const T *>(in), static_cast<T *>(out), e.n[0], e.n[1],
                                steps, st);
    };
  }
  s.step = [step](const void *in, void *out, const Extents &e, cudaStream_t st) {
    return e.dims != 2
               ? cudaErrorInvalidValue
               : step(static_cast<const T *>(in), static_cast<T *>(out), e.n[0], e.n[1], st);
  };
  s.run = [run](void *a, void *b, const Extents &e, int steps, cudaStream_t st) {
    return e.dims != 2 ? cudaErrorInvalidValue
                       : run(static_cast<T *>(a), static_cast<T *>(b), e.n[0], e.n[1], steps, st);
  };
  return s;
}

/// 3D: NAME_step(in, out, nz, ny, nx, stream), NAME_run(a, b, nz, ny, nx, steps, stream)
/// and, where given, NAME_pass(in, out, nz, ny, nx, steps, stream).
template <class T>
StencilUnderTest makeStencilUnderTest(
    const stencilc_stencil_info &info,
    cudaError_t (*step)(const T *, T *, int, int, int, cudaStream_t),
    cudaError_t (*run)(T *, T *, int, int, int, int, cudaStream_t),
    cudaError_t (*pass)(const T *, T *, int, int, int, int, cudaStream_t) = nullptr) {
  StencilUnderTest s = detail::makeErased<T>(info, "api");
  if (pass) {
    s.pass = [pass](const void *in, void *out, const Extents &e, int steps, cudaStream_t st) {
      return e.dims != 3 ? cudaErrorInvalidValue
                         : pass(static_cast<const T *>(in), static_cast<T *>(out), e.n[0], e.n[1],
                                e.n[2], steps, st);
    };
  }
  s.step = [step](const void *in, void *out, const Extents &e, cudaStream_t st) {
    return e.dims != 3 ? cudaErrorInvalidValue
                       : step(static_cast<const T *>(in), static_cast<T *>(out), e.n[0], e.n[1],
                              e.n[2], st);
  };
  s.run = [run](void *a, void *b, const Extents &e, int steps, cudaStream_t st) {
    return e.dims != 3
               ? cudaErrorInvalidValue
               : run(static_cast<T *>(a), static_cast<T *>(b), e.n[0], e.n[1], e.n[2], steps, st);
  };
  return s;
}

/// Adds NAME_pass_range(in, out, ny, nx, first, count, steps, stream) (2D)
/// to a stencil made by makeStencilUnderTest.
template <class T>
void withPassRange(StencilUnderTest &s, cudaError_t (*passRange)(const T *, T *, int, int, int, int,
                                                                 int, cudaStream_t)) {
  s.passRange = [passRange](const void *in, void *out, const Extents &e, int first, int count,
                            int steps, cudaStream_t st) {
    return e.dims != 2 ? cudaErrorInvalidValue
                       : passRange(static_cast<const T *>(in), static_cast<T *>(out), e.n[0],
                                   e.n[1], first, count, steps, st);
  };
}

/// ... and NAME_pass_range(in, out, nz, ny, nx, first, count, steps, stream) (3D).
template <class T>
void withPassRange(StencilUnderTest &s, cudaError_t (*passRange)(const T *, T *, int, int, int, int,
                                                                 int, int, cudaStream_t)) {
  s.passRange = [passRange](const void *in, void *out, const Extents &e, int first, int count,
                            int steps, cudaStream_t st) {
    return e.dims != 3 ? cudaErrorInvalidValue
                       : passRange(static_cast<const T *>(in), static_cast<T *>(out), e.n[0],
                                   e.n[1], e.n[2], first, count, steps, st);
  };
}

/// The naive kernel (naive.h) of `info` behind the same interface; T is the
/// storage type of info.precision.
template <class T> StencilUnderTest makeNaiveStencilUnderTest(const stencilc_stencil_info &info) {
  StencilUnderTest s = detail::makeErased<T>(info, "naive");
  const stencilc_stencil_info *p = &info;
  s.step = [p](const void *in, void *out, const Extents &e, cudaStream_t st) {
    return naiveStep<T>(*p, static_cast<const T *>(in), static_cast<T *>(out), e, st);
  };
  s.run = [p](void *a, void *b, const Extents &e, int steps, cudaStream_t st) {
    return naiveRun<T>(*p, static_cast<T *>(a), static_cast<T *>(b), e, steps, st);
  };
  return s;
}

/// The naive kernel for info.precision's storage type.
StencilUnderTest makeNaiveStencilUnderTest(const stencilc_stencil_info &info);

// --- Conformance -------------------------------------------------------------

/// The grid sizes the conformance run uses for `info`: the smallest valid
/// size, 2r+1, thin grids, 17x19-like odd sizes, and large grids
/// (1D 1000003; 2D 1000x1337, 4096x4096; 3D 37x41x129, fusedInteriorGrid3D,
/// 512^3).
std::vector<Extents> conformanceSizes(const stencilc_stencil_info &info);

/// 31 x 125 x 128 (z, y, x): the smallest grid in the conformance set on
/// which a fused 3D pass (stencilc/device/fused3d.cuh) runs its interior
/// form, the one without the points' and the planes' tests: windows of up
/// to 64 x 64 have a block inside the grid along x and y (x a multiple of
/// every thread's columns), and the chunks along z a middle run. The
/// smaller ones are too thin along y for that. Under 2 million points, so
/// --check-run takes it; test/Analysis/fused3d-plans-reach-the-interior-grid.test
/// checks every 3D suite plan against it.
Extents fusedInteriorGrid3D();

/// The two grids scripts/gpu-sanitize.sh runs under compute-sanitizer, from
/// info.tile: an odd size, interior tile + tile/2 + 1 along every axis (two
/// blocks, the second partial; odd, so no multiple of any tile or vector
/// width), and a size smaller than one tile, 2r+3 in 1D, (2r+1) x (2r+3) in
/// 2D, (2r+1) x (2r+2) x (2r+3) in 3D; and in 3D where NAME_run fuses,
/// fusedInteriorGrid3D, which the tile-sized grids are too small to be.
std::vector<Extents> sanitizerSizes(const stencilc_stencil_info &info);

struct ConformanceOptions {
  /// Skip grids of more than this many points (0: no limit); the full list
  /// includes 4096x4096 and 512^3.
  std::size_t maxPoints = 0;
  /// The grids to run (conformanceSizes or sanitizerSizes).
  std::vector<Extents> (*sizes)(const stencilc_stencil_info &) = conformanceSizes;
  /// The NAME_run step counts at every grid; empty: 0, 1, 2 and 5 (3 on
  /// grids of over 2 million points).
  std::vector<int> stepCounts;
};

/// Runs NAME_step (1 step, poisoned output) and NAME_run (several step
/// counts, even and odd) at every conformance size on fresh random inputs,
/// compares with the float64 reference, and checks the argument validation.
/// Prints one line per case, `[PASS]` or `[FAIL]`, and returns the number of
/// failed cases.
int runConformance(const StencilUnderTest &s, const ConformanceOptions &options);

/// Calls NAME_step / NAME_run with each kind of bad argument (null
/// pointers, in == out, sizes below the minimum, negative steps) and checks
/// each returns cudaErrorInvalidValue, launches nothing (the output keeps its
/// poison) and leaves no sticky error. Prints one line, returns failures.
int checkBadArguments(const StencilUnderTest &s);

// --- Benchmark ---------------------------------------------------------------

struct BenchOptions {
  int warmup = 5;
  int runs = 30;
  /// Input/output buffer pairs rotated between runs, at least; more are used
  /// when a pair is smaller than the L2 (so the L2 never holds the input).
  int minBuffers = 3;
  /// Time the host's launch work too (timeMedian's `hostGaps`).
  bool hostGaps = false;
  /// Also time NAME_run of this many steps as users run it (0: not), and
  /// check it against as many NAME_step calls, bit for bit.
  int runSteps = 100;
  /// Timed NAME_run calls (the median is taken), after one warm-up.
  int runRepeats = 5;
};

struct BenchResult {
  std::string name, precision, backend, implementation, size;
  double medianMs = 0;
  double gstencils = 0;   ///< written points per ns
  double gbytes = 0;      ///< effective GB/s: each input read once, each output written once
  double copyPercent = 0; ///< gbytes over the measured copy bandwidth
  double relativeL2 = 0;
  bool correct = false;
  /// NAME_run of runSteps steps (0: not measured): the steps it fuses a
  /// pass, its median time, every grid point x every step per ns, and
  /// whether it equalled runSteps NAME_step calls bit for bit.
  int runSteps = 0;
  int fusedSteps = 1;
  double runMedianMs = 0;
  double runGStencils = 0;
  bool runCorrect = false;
};

/// Device-to-device copy bandwidth in GB/s, counting bytes read plus bytes
/// written, median of `runs` copies of `bytes` (timed as timeMedian does,
/// with `hostGaps`).
double measureCopyBandwidth(std::size_t bytes, int runs, bool hostGaps = false);

/// Times one step of `s` on grid `e` (median of options.runs after warm-up,
/// rotating buffers of fresh random data) and checks one step against the
/// reference; then times NAME_run of options.runSteps steps and checks it
/// against as many single steps.
BenchResult benchmarkStencil(const StencilUnderTest &s, const Extents &e,
                             const BenchOptions &options, double copyGBs);

/// The benchmark grid of a dimension: 1D 2^27, 2D 8192^2, 3D 512^3.
Extents benchmarkSize(int dims);

/// Prints the results as an aligned table (stdout).
void printBenchTable(const std::vector<BenchResult> &results, double copyGBs,
                     const std::string &device);
/// Appends the results as CSV rows (header written when the file is new).
void appendBenchCsv(const std::vector<BenchResult> &results, double copyGBs,
                    const std::string &device, const std::string &path);

/// "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)".
std::string deviceDescription();

} // namespace stencilc
