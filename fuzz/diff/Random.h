//===- Random.h - Draws the differential fuzzers' generators share -*- C++ -*-===//
#pragma once

#include <random>
#include <vector>

namespace stencilc::fuzzdiff {

using Rng = std::mt19937_64;

inline int uniform(Rng &rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
inline bool chance(Rng &rng, double p) {
  return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}
template <typename T> const T &pick(Rng &rng, const std::vector<T> &items) {
  return items[uniform(rng, 0, static_cast<int>(items.size()) - 1)];
}

} // namespace stencilc::fuzzdiff
