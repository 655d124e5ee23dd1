// naive_suite.cpp - benchmarks the runtime's naive one-point-per-thread
// kernel on every suite stencil and precision (issue 5's baseline), on the
// benchmark grids (1D 2^27, 2D 8192^2, 3D 512^3), with the copy roofline
// measured in the same run. Prints a progress line per case, then the
// table; appends CSV rows with --csv.
#include <cstdio>

#include "bench_options.h"
#include "stencilc/runtime/check.h"
#include "stencilc/runtime/element.h"
#include "suite.h"

int main(int argc, char **argv) {
  using namespace stencilc;
  const bench::Options options = bench::parseOptions(argc, argv);
  const bench::Roofline roofline = bench::measureRoofline(options.bench.hostGaps);

  std::vector<BenchResult> results;
  for (const auto &s : bench::suiteStencils()) {
    if (!options.only.empty() && s->name.find(options.only) == std::string::npos)
      continue;
    const Extents e = benchmarkSize(s->info.dims);
    BenchResult r =
        benchmarkStencil(makeNaiveStencilUnderTest(s->info), e, options.bench, roofline.copyGBs);
    std::printf("  %-16s %-13s %8.1f GStencil/s %6.1f%% of copy  relL2 %.2e %s\n", s->name.c_str(),
                r.size.c_str(), r.gstencils, r.copyPercent, r.relativeL2,
                r.correct ? "PASS" : "FAIL");
    std::fflush(stdout);
    results.push_back(r);
  }
  return bench::finish(results, roofline, options);
}
