// stencil_bench_main.cu - benchmarks generated stencils against the naive
// kernel of the same stencil, in one process, on the benchmark grids.
//
// Built like the GPU test driver: a translation unit that includes a list
// header (test/GPU/harness/stencil_list.py) and then this file, linked with
// the generated .cu. Prints a progress line per
// case, the table, and appends CSV rows with --csv. Exit status 1 when a
// result is wrong.
#include <cstdio>
#include <vector>

#include "bench_options.h"
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/harness.h"

#ifndef STENCILC_FOR_EACH_STENCIL
#error                                                                                             \
    "include a list header (stencil_list.py) before this file: it defines STENCILC_FOR_EACH_STENCIL"
#endif

int main(int argc, char **argv) {
  using namespace stencilc;
  const bench::Options options = bench::parseOptions(argc, argv);
  const bench::Roofline roofline = bench::measureRoofline();

  std::vector<StencilUnderTest> stencils;
#define STENCILC_ADD(name)                                                                         \
  stencils.push_back(makeStencilUnderTest(name##_info, name##_step, name##_run));
  STENCILC_FOR_EACH_STENCIL(STENCILC_ADD)
#undef STENCILC_ADD

  std::vector<BenchResult> results;
  for (const StencilUnderTest &generated : stencils) {
    if (!generated.typeMatchesInfo) {
      std::printf("%s: the functions' element type is not that of its precision\n",
                  generated.info->name);
      return 1;
    }
    if (!options.only.empty() &&
        std::string(generated.info->name).find(options.only) == std::string::npos)
      continue;
    const Extents e = benchmarkSize(generated.info->dims);
    const BenchResult g = benchmarkStencil(generated, e, options.bench, roofline.copyGBs);
    const BenchResult n = benchmarkStencil(makeNaiveStencilUnderTest(*generated.info), e,
                                           options.bench, roofline.copyGBs);
    std::printf("  %-20s %-13s %-6s %8.1f GStencil/s %6.1f%% of copy, naive %8.1f (x%.2f)  relL2 "
                "%.2e %s\n",
                g.name.c_str(), g.size.c_str(), g.backend.c_str(), g.gstencils, g.copyPercent,
                n.gstencils, g.gstencils / n.gstencils, g.relativeL2, g.correct ? "PASS" : "FAIL");
    std::fflush(stdout);
    results.push_back(g);
    results.push_back(n);
  }
  return bench::finish(results, roofline, options);
}
