//===- CDiff.h - The C front end against the C program, nest by nest -*- C++ -*-===//
//
// Checks a C file of `#pragma stencil` nests written by renderBatch: clang
// compiles and runs it (the C program's answer on its own inputs), and
// stencilc-cfront translates it; nests it refuses are set aside and the
// rest translated again. The translation goes through the .stencil front
// end (Parser, Sema) to specs, and each spec's float64 reference step
// (referenceStepND, referenceFieldsStepND) runs on the dumped inputs,
// viewed as the generated kernel would see them: every array as a grid of
// the written array's extents. Every accepted nest must agree with the C
// program to rounding.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace stencilc::fuzzdiff {

/// The programs a check runs.
struct Tools {
  std::string cc;     ///< a C compiler (clang)
  std::string cfront; ///< stencilc-cfront
  std::string workDir;
};

enum class Verdict {
  Agrees,         ///< accepted, and the translation computes what C does
  RefusedCFront,  ///< stencilc-cfront reported an error at the nest
  RefusedStencil, ///< the .stencil front end refused its translation
  Disagrees,      ///< accepted, and the translation computes something else
};

struct NestResult {
  std::string name;
  Verdict verdict = Verdict::Agrees;
  /// For Disagrees: the first point that differs and the two values.
  std::string detail;
  /// The first error message of a refusal.
  std::string refusal;
};

struct BatchResult {
  std::vector<NestResult> nests;
  /// Set where the batch could not be checked at all (clang failed on the
  /// harness, stencilc-cfront crashed or failed without a located error, the
  /// dump was incomplete): a bug of the fuzzer, or a crash of stencilc.
  std::string failure;
};

/// Checks every nest of the C file `path` (renderBatch's format).
BatchResult checkFile(const std::string &path, const Tools &tools);

const char *verdictName(Verdict verdict);

} // namespace stencilc::fuzzdiff
