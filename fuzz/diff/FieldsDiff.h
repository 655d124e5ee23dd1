//===- FieldsDiff.h - .stencil fields against a direct interpretation -*- C++ -*-===//
//
// The differential fuzzer of the .stencil front end's fields: it writes
// random stencils of fields (input and coefficient fields, `time` levels,
// parameters, lets, parenthesised sums and products), interprets each text
// itself in float64 (FieldsInterpreter.cpp: its own evaluation of its own
// expression tree, sharing nothing with the compiler), and requires that
// the compiler's float64 reference step of the spec Sema makes of the text
// (referenceFieldsStepND) agrees to rounding, or that Sema refused it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>

namespace llvm {
class raw_ostream;
}

namespace stencilc::fuzzdiff {

struct FieldsOptions {
  uint64_t seed = 1;
  uint64_t count = UINT64_MAX; ///< stencils to check
  double seconds = 0;          ///< stop after this long (0: no limit)
  /// Where disagreeing stencils are written as lit tests ("": not written).
  std::string findingsDir;
};

struct FieldsCounts {
  uint64_t stencils = 0, agree = 0, refused = 0, findings = 0;
  double seconds = 0;
};

/// Stencil n is drawn from seed + n. Returns 1 if any disagreed, else 0.
int runFieldsFuzz(const FieldsOptions &options, FieldsCounts &counts);

void printFieldsCounts(const FieldsOptions &options, const FieldsCounts &counts,
                       llvm::raw_ostream &os);

} // namespace stencilc::fuzzdiff
