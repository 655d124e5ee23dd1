// stencil_bench_main.cu - benchmarks generated stencils against the naive
// kernel of the same stencil, in one process, on the benchmark grids.
//
// Built like the GPU test driver: a translation unit that includes a list
// header (test/GPU/harness/stencil_list.py) and then this file, linked with
// the generated .cu. Prints a progress line per
// case, the table, and appends CSV rows with --csv. Exit status 1 when a
// result is wrong.
//
// With --check it times nothing: it runs the argument checks and, at
// sanitizerSizes() (an odd size, a size under one tile, and in 3D where
// NAME_run fuses a grid that reaches the fused pass's interior form), one
// step and runs of 1, 2 and (where NAME_run fuses T steps) T + 1 steps of
// each selected stencil against the float64 reference,
// printing the harness's [PASS]/[FAIL] lines (scripts/gpu-sanitize.sh runs
// this under compute-sanitizer). With --check-run, the same at the
// conformance sizes of up to 2 million points and at NAME_run's step counts
// around the fused depth (scripts/gpu-sanitize.sh --check-run).
#include <cstdio>
#include <vector>

#include "bench_options.h"
#include "stencilc/runtime/check.h"
#include "stencilc/testing/harness.h"

#ifndef STENCILC_FOR_EACH_STENCIL
#error                                                                                             \
    "include a list header (stencil_list.py) before this file: it defines STENCILC_FOR_EACH_STENCIL"
#endif

namespace {

int check(const std::vector<stencilc::StencilUnderTest> &stencils,
          const stencilc::bench::Options &options) {
  using namespace stencilc;
  STENCILC_CHECK(cudaFree(nullptr));
  std::printf("device: %s\n", deviceDescription().c_str());
  ConformanceOptions conformance;
  if (options.checkRun) {
    conformance.maxPoints = 2'000'000; // the harness's default step counts stop there
  } else {
    conformance.sizes = sanitizerSizes;
  }
  int failures = 0, ran = 0;
  for (std::size_t k = 0; k < stencils.size(); ++k) {
    if (!options.selects(k, stencils[k].info->name))
      continue;
    if (!options.checkRun) {
      // T + 1 steps: a pass of all T levels, which 1 and 2 steps do not
      // reach where T > 2, and one of a single level after it.
      const int t = stencils[k].info->fused_steps;
      conformance.stepCounts = {1, 2};
      if (t > 1)
        conformance.stepCounts.push_back(t + 1);
    }
    failures += checkBadArguments(stencils[k]) + runConformance(stencils[k], conformance);
    ++ran;
  }
  std::printf("RESULT: %s (%d stencils, %d failed cases)\n", failures ? "FAIL" : "PASS", ran,
              failures);
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  using namespace stencilc;
  const bench::Options options = bench::parseOptions(argc, argv);

  std::vector<StencilUnderTest> stencils;
#define STENCILC_ADD(name)                                                                         \
  stencils.push_back(makeStencilUnderTest(name##_info, name##_step, name##_run));
  STENCILC_FOR_EACH_STENCIL(STENCILC_ADD)
#undef STENCILC_ADD
  if (options.check || options.checkRun)
    return check(stencils, options);
  const bench::Roofline roofline = bench::measureRoofline(options.bench.hostGaps);

  std::vector<BenchResult> results;
  for (std::size_t k = 0; k < stencils.size(); ++k) {
    const StencilUnderTest &generated = stencils[k];
    if (!generated.typeMatchesInfo) {
      std::printf("%s: the functions' element type is not that of its precision\n",
                  generated.info->name);
      return 1;
    }
    if (!options.selects(k, generated.info->name))
      continue;
    const Extents e = benchmarkSize(generated.info->dims);
    const BenchResult g = benchmarkStencil(generated, e, options.bench, roofline.copyGBs);
    std::printf("  %-20s %-13s %-6s %8.1f GStencil/s %6.1f%% of copy, run of %d: %8.1f (T %d, "
                "%s), ",
                g.name.c_str(), g.size.c_str(), g.backend.c_str(), g.gstencils, g.copyPercent,
                g.runSteps, g.runGStencils, g.fusedSteps,
                g.runSteps == 0 ? "-"
                : g.runCorrect  ? "= steps"
                                : "DIFFERS FROM STEPS");
    results.push_back(g);
    if (options.naive) {
      BenchOptions naiveOptions = options.bench;
      naiveOptions.runSteps = 0; // the naive kernel is a baseline for one step
      const BenchResult n = benchmarkStencil(makeNaiveStencilUnderTest(*generated.info), e,
                                             naiveOptions, roofline.copyGBs);
      std::printf("naive %8.1f (x%.2f)", n.gstencils, g.gstencils / n.gstencils);
      results.push_back(n);
    } else {
      std::printf("no naive run");
    }
    std::printf("  relL2 %.2e %s\n", g.relativeL2, g.correct ? "PASS" : "FAIL");
    std::fflush(stdout);
  }
  return bench::finish(results, roofline, options);
}
