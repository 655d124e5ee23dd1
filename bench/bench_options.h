// bench_options.h - what the benchmark programs share: the command line,
// the roofline measured at start, and the closing table.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "stencilc/runtime/check.h"
#include "stencilc/testing/harness.h"

namespace stencilc::bench {

struct Options {
  BenchOptions bench;
  std::string csv;  // append results here when set
  std::string only; // run only stencils whose name contains this
  /// --check: no timing; each stencil at sanitizerSizes() against the
  /// float64 reference (what scripts/gpu-sanitize.sh runs under
  /// compute-sanitizer).
  bool check = false;
  /// --check-run: no timing; each stencil's NAME_run at conformanceSizes()
  /// of up to 2 million points, at the harness's step counts around its
  /// fused depth T (1, 2, 5, T-1, T, T+1, 3T+2, 100), against the float64
  /// reference and NAME_step (scripts/gpu-sanitize.sh --check-run).
  bool checkRun = false;
  /// --no-naive: skip the one-point-per-thread baseline (the --tune sweep
  /// compares variants with each other).
  bool naive = true;
  int shard = 0, shards = 1; // --shard I/N: only the stencils k with k % N == I

  /// Whether the k-th stencil of the program, named `name`, is to run.
  bool selects(std::size_t k, const char *name) const {
    return static_cast<int>(k % shards) == shard &&
           (only.empty() || std::string(name).find(only) != std::string::npos);
  }
};

/// Parses `--runs N --warmup N --run-steps N --csv PATH --only TEXT --check
/// --check-run --no-naive --host-gaps --shard I/N`;
/// exits with status 2 and a usage line on anything else.
inline Options parseOptions(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s: %s needs a value\n", argv[0], argv[i]);
        std::exit(2);
      }
      return argv[++i];
    };
    if (!std::strcmp(argv[i], "--runs"))
      o.bench.runs = std::atoi(value());
    else if (!std::strcmp(argv[i], "--warmup"))
      o.bench.warmup = std::atoi(value());
    else if (!std::strcmp(argv[i], "--run-steps"))
      o.bench.runSteps = std::atoi(value());
    else if (!std::strcmp(argv[i], "--csv"))
      o.csv = value();
    else if (!std::strcmp(argv[i], "--only"))
      o.only = value();
    else if (!std::strcmp(argv[i], "--check"))
      o.check = true;
    else if (!std::strcmp(argv[i], "--check-run"))
      o.checkRun = true;
    else if (!std::strcmp(argv[i], "--no-naive"))
      o.naive = false;
    else if (!std::strcmp(argv[i], "--host-gaps"))
      o.bench.hostGaps = true;
    else if (!std::strcmp(argv[i], "--shard")) {
      const char *text = value();
      if (std::sscanf(text, "%d/%d", &o.shard, &o.shards) != 2 || o.shards < 1 || o.shard < 0 ||
          o.shard >= o.shards) {
        std::fprintf(stderr, "%s: --shard wants I/N with 0 <= I < N, not '%s'\n", argv[0], text);
        std::exit(2);
      }
    } else {
      std::fprintf(stderr,
                   "usage: %s [--runs N] [--warmup N] [--run-steps N] [--csv PATH] [--only TEXT] "
                   "[--check] [--check-run] "
                   "[--no-naive] [--host-gaps] [--shard I/N]\n",
                   argv[0]);
      std::exit(2);
    }
  }
  if (o.bench.runs < 20) {
    std::fprintf(stderr, "%s: --runs must be at least 20\n", argv[0]);
    std::exit(2);
  }
  if (o.bench.runSteps < 0) {
    std::fprintf(stderr, "%s: --run-steps must be 0 (no NAME_run timing) or more\n", argv[0]);
    std::exit(2);
  }
  return o;
}

/// The device and its copy roofline, measured at the start of every
/// benchmark run (and printed).
struct Roofline {
  std::string device;
  double copyGBs = 0;
};

inline Roofline measureRoofline(bool hostGaps) {
  STENCILC_CHECK(cudaFree(nullptr));
  Roofline r{deviceDescription(), measureCopyBandwidth(std::size_t{1} << 30, 20, hostGaps)};
  std::printf("device: %s\ncopy: %.0f GB/s (1 GiB device-to-device, read+write, median of 20)\n"
              "timing: %s\n",
              r.device.c_str(), r.copyGBs,
              hostGaps ? "--host-gaps: each run from an idle stream, the host's launch work counted"
                       : "device work only (the stream held 200 us before each start event)");
  return r;
}

/// Prints the table, appends the CSV if asked, and returns the exit status:
/// 1 when any result was wrong.
inline int finish(const std::vector<BenchResult> &results, const Roofline &roofline,
                  const Options &options) {
  printBenchTable(results, roofline.copyGBs, roofline.device);
  if (!options.csv.empty())
    appendBenchCsv(results, roofline.copyGBs, roofline.device, options.csv);
  for (const BenchResult &r : results)
    if (!r.correct || (r.runSteps > 0 && !r.runCorrect))
      return 1;
  return 0;
}

} // namespace stencilc::bench
