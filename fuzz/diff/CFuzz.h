//===- CFuzz.h - The C differential fuzzer's run loop --------------*- C++ -*-===//
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "CDiff.h"
#include "CNest.h"

namespace llvm {
class raw_ostream;
}

namespace stencilc::fuzzdiff {

struct CFuzzOptions {
  Tools tools;
  uint64_t seed = 1;
  uint64_t batches = UINT64_MAX;
  double seconds = 0; ///< stop after this long (0: no limit)
  int batchSize = 500;
  /// Where minimised findings are written as lit tests ("": not minimised).
  std::string findingsDir;
  /// Findings minimised per class and run (the rest are counted).
  int minimiseLimit = 3;
  GenOptions generator;
};

struct CFuzzCounts {
  uint64_t batches = 0, nests = 0, failures = 0, lastSeed = 0;
  std::array<uint64_t, 4> byVerdict{}; ///< indexed by Verdict
  std::map<std::string, uint64_t> findings;
  double seconds = 0;
};

/// Runs batches until `batches` or `seconds`; 1 if anything disagreed or a
/// batch could not be checked, else 0.
int runCFuzz(const CFuzzOptions &options, CFuzzCounts &counts);

void printCounts(const CFuzzOptions &options, const CFuzzCounts &counts, llvm::raw_ostream &os);

} // namespace stencilc::fuzzdiff
