//===- CCompare.h - The C program's dump against the translation's reference -*- C++ -*-===//
//
// Internal to the C differential fuzzer (CDiff.cpp): reading the harness's
// dump, reading stencilc-cfront's translation into specs, and comparing one
// nest's C result with its spec's float64 reference step.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "CDiff.h"
#include "stencilc/Spec.h"

namespace stencilc::fuzzdiff {

/// One nest as the harness ran it: the grid (the written array's extents),
/// every array's elements before the call, the scalars, and the written
/// array's elements after it.
struct DumpedNest {
  std::string name, written;
  int dims = 1;
  std::array<int, 3> extent{1, 1, 1};
  std::map<std::string, std::vector<double>> arrays;
  std::map<std::string, double> params;
  std::vector<double> after;
};

/// Reads the dump; false where it is cut short or malformed.
bool parseDump(const std::string &text, std::vector<DumpedNest> &nests);

/// The translation's specs by stencil name (= the nest's name), and the C
/// arrays each reads in the order of its fields (from the comment
/// stencilc-cfront writes above each stencil).
struct Translation {
  std::map<std::string, StencilSpec> specs;
  std::map<std::string, std::vector<std::string>> arraysRead;
};

Translation parseTranslation(const std::string &text);

/// The verdict on an accepted nest: RefusedStencil where the translation
/// has no spec of its name, else Agrees or Disagrees (with `detail`).
void compareNest(const DumpedNest &nest, const Translation &translation, NestResult &result);

} // namespace stencilc::fuzzdiff
