//===- CFuzz.cpp - The C differential fuzzer's run loop ---------------------===//
//
// Batch after batch (batch b draws its nests from seed S + b): generate,
// check, count, and minimise and save the disagreements, a few of each
// class, as lit tests.
//
//===----------------------------------------------------------------------===//
#include "CFuzz.h"

#include <chrono>
#include <map>

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include "CMinimise.h"

namespace stencilc::fuzzdiff {
namespace {

void writeFile(const std::string &path, const std::string &text) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  os << text;
}

/// The lit test of a finding: the minimised nest and its harness, checked
/// by `stencilc-fuzz-diff check`. It names the class the nest most likely
/// belongs to, for triage; both classes of issue 38 are fixed, so a finding
/// of either is a regression and its test fails (no XFAIL).
std::string findingTest(const CNest &nest, uint64_t batchSeed, const NestResult &result,
                        const std::string &cls) {
  std::string text = "// A finding of stencilc-fuzz-diff (batch seed " + std::to_string(batchSeed) +
                     "), minimised: stencilc accepts\n// this loop nest, but its translation "
                     "computes something else than the C program:\n// " +
                     result.detail + "\n";
  if (!cls.empty()) {
    text += "// Class '" + cls + "' of issue 38" +
            (cls == "stride" ? " (finding 1: a read array's row length differs from the written "
                               "one's)"
                             : " (finding 2: a loop does not run over the interior)") +
            ", fixed: a regression.\n";
  }
  return text + "// RUN: %fuzz_diff check %s\n" + renderBatch({nest}, batchSeed);
}

void reportFinding(const CNest &nest, uint64_t batchSeed, const NestResult &result,
                   const CFuzzOptions &options, std::map<std::string, int> &minimised) {
  std::string cls = knownClass(nest);
  std::string key = cls.empty() ? "new" : cls;
  // Findings of a new class are all reported and minimised (up to ten times
  // the limit); those of a known open class only the first few.
  int limit = options.minimiseLimit * (cls.empty() ? 10 : 1);
  if (++minimised[key] > 20 * limit) {
    return;
  }
  llvm::outs() << "finding (" << key << "): batch seed " << batchSeed << ", nest " << nest.name
               << ": " << result.detail << "\n";
  if (options.findingsDir.empty() || minimised[key] > limit) {
    return;
  }
  CNest small = minimiseNest(nest, options.tools, batchSeed);
  NestResult smallResult = result;
  disagreesAlone(small, options.tools, batchSeed, &smallResult);
  std::string path =
      options.findingsDir + "/" + key + "-" + std::to_string(batchSeed) + "-" + nest.name + ".c";
  writeFile(path, findingTest(small, batchSeed, smallResult, cls));
  llvm::outs() << "  minimised: " << path << "\n";
}

} // namespace

int runCFuzz(const CFuzzOptions &options, CFuzzCounts &counts) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::map<std::string, int> minimised;
  if (!options.findingsDir.empty()) {
    llvm::sys::fs::create_directories(options.findingsDir);
  }
  for (uint64_t b = 0; b < options.batches; ++b) {
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (options.seconds > 0 && elapsed >= options.seconds) {
      break;
    }
    uint64_t seed = options.seed + b;
    std::mt19937_64 rng(seed);
    std::vector<CNest> nests;
    for (int n = 0; n < options.batchSize; ++n) {
      nests.push_back(generateNest(rng, "f" + std::to_string(n), options.generator));
    }
    const std::string path = options.tools.workDir + "/batch.c";
    writeFile(path, renderBatch(nests, seed));
    BatchResult result = checkFile(path, options.tools);
    counts.lastSeed = seed;
    ++counts.batches;
    if (!result.failure.empty()) {
      std::string kept = options.tools.workDir + "/failed-" + std::to_string(seed) + ".c";
      llvm::sys::fs::copy_file(path, kept);
      llvm::sys::fs::copy_file(options.tools.workDir + "/xlate.c", kept + ".xlate.c");
      llvm::sys::fs::copy_file(options.tools.workDir + "/xlate.err", kept + ".xlate.err");
      llvm::outs() << "failure: batch seed " << seed << " (" << kept << "): " << result.failure
                   << "\n";
      ++counts.failures;
      continue;
    }
    for (size_t n = 0; n < result.nests.size(); ++n) {
      ++counts.nests;
      ++counts.byVerdict[static_cast<int>(result.nests[n].verdict)];
      if (result.nests[n].verdict == Verdict::Disagrees) {
        ++counts.findings[knownClass(nests[n]).empty() ? "new" : knownClass(nests[n])];
        reportFinding(nests[n], seed, result.nests[n], options, minimised);
      }
    }
    if (counts.batches % 10 == 0) { // progress, for long runs
      counts.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      printCounts(options, counts, llvm::outs());
    }
    llvm::outs().flush();
  }
  counts.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  bool found = counts.failures > 0 || !counts.findings.empty();
  return found ? 1 : 0;
}

void printCounts(const CFuzzOptions &options, const CFuzzCounts &counts, llvm::raw_ostream &os) {
  os << "stencilc-fuzz-diff cfront: seeds " << options.seed << ".." << counts.lastSeed << ", "
     << counts.batches << " batches of " << options.batchSize << ", " << counts.nests
     << " nests in " << llvm::format("%.1f", counts.seconds) << " s ("
     << llvm::format("%.1f", counts.nests / std::max(counts.seconds, 1e-9)) << " nests/s)\n";
  for (int v = 0; v < 4; ++v) {
    os << "  " << verdictName(static_cast<Verdict>(v)) << ": " << counts.byVerdict[v] << "\n";
  }
  for (const auto &[cls, count] : counts.findings) {
    os << "  findings of class " << cls << ": " << count << "\n";
  }
  os << "  batches that could not be checked: " << counts.failures << "\n";
}

} // namespace stencilc::fuzzdiff
