// fill.h - fresh random inputs and poisoned outputs.
//
// Inputs are uniform in [0, 1), drawn from a seed that changes every run
// (printed, so a failure can be replayed with the same seed). Outputs are
// poisoned with NaNs whose payload varies with the index, so an unwritten
// point, or one copied from elsewhere, is told apart from a computed one by
// its bits.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "stencilc/runtime/element.h"

namespace stencilc {

/// A seed not used before in this process: the time, a counter and the
/// random device, mixed.
std::uint64_t freshSeed();

/// The i-th uniform [0, 1) double of the stream named by `seed` (a
/// counter-based generator, so it is the same whatever the thread split).
double uniformAt(std::uint64_t seed, std::uint64_t i);

/// `n` values uniform in [0, 1), rounded to T.
template <class T> std::vector<T> randomUniform(std::size_t n, std::uint64_t seed);

/// The NaN bit pattern used to poison element i.
template <class T> T poisonAt(std::size_t i);

/// `n` poisoned elements.
template <class T> std::vector<T> poisoned(std::size_t n);

/// Every element as a double.
template <class T> std::vector<double> toDoubles(const std::vector<T> &v);

/// Bitwise equality (NaN payloads included).
template <class T> bool sameBits(const T &a, const T &b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

} // namespace stencilc
