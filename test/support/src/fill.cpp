// fill.cpp - counter-based random inputs and NaN poisoning.
#include "stencilc/testing/fill.h"

#include <atomic>
#include <chrono>
#include <random>

#include "parallel.h"

namespace stencilc {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

template <class Bits, class T> T fromBits(Bits bits) {
  static_assert(sizeof(Bits) == sizeof(T));
  T value;
  std::memcpy(static_cast<void *>(&value), &bits, sizeof(T));
  return value;
}

} // namespace

std::uint64_t freshSeed() {
  static std::atomic<std::uint64_t> counter{0};
  std::random_device device;
  std::uint64_t mix = (static_cast<std::uint64_t>(device()) << 32) ^ device();
  mix ^= static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return splitmix64(mix + counter.fetch_add(1) * 0x632BE59BD9B4E019ULL);
}

double uniformAt(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t r = splitmix64(seed ^ splitmix64(i));
  return static_cast<double>(r >> 11) * 0x1.0p-53;
}

template <class T> std::vector<T> randomUniform(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  detail::parallelFor(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      T x = fromDouble<T>(uniformAt(seed, i));
      // Rounding may carry a value just below 1 up to 1; keep [0, 1).
      if (toDouble(x) >= 1.0)
        x = fromDouble<T>(0.5);
      v[i] = x;
    }
  });
  return v;
}

template <> double poisonAt<double>(std::size_t i) {
  return fromBits<std::uint64_t, double>(0x7FF8000000000000ULL |
                                         (splitmix64(i) & 0x7FFFFFFFFFFFFULL));
}
template <> float poisonAt<float>(std::size_t i) {
  return fromBits<std::uint32_t, float>(0x7FC00000U | (splitmix64(i) & 0x3FFFFFU));
}
template <> __half poisonAt<__half>(std::size_t i) {
  return fromBits<std::uint16_t, __half>(
      static_cast<std::uint16_t>(0x7E00U | (splitmix64(i) & 0x1FFU)));
}
template <> __nv_bfloat16 poisonAt<__nv_bfloat16>(std::size_t i) {
  return fromBits<std::uint16_t, __nv_bfloat16>(
      static_cast<std::uint16_t>(0x7FC0U | (splitmix64(i) & 0x3FU)));
}

template <class T> std::vector<T> poisoned(std::size_t n) {
  std::vector<T> v(n);
  detail::parallelFor(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      v[i] = poisonAt<T>(i);
  });
  return v;
}

template <class T> std::vector<double> toDoubles(const std::vector<T> &v) {
  std::vector<double> d(v.size());
  detail::parallelFor(v.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      d[i] = toDouble(v[i]);
  });
  return d;
}

#define STENCILC_INSTANTIATE_FILL(T)                                                               \
  template std::vector<T> randomUniform<T>(std::size_t, std::uint64_t);                            \
  template std::vector<T> poisoned<T>(std::size_t);                                                \
  template std::vector<double> toDoubles<T>(const std::vector<T> &);
STENCILC_INSTANTIATE_FILL(__half)
STENCILC_INSTANTIATE_FILL(__nv_bfloat16)
STENCILC_INSTANTIATE_FILL(float)
STENCILC_INSTANTIATE_FILL(double)
#undef STENCILC_INSTANTIATE_FILL

} // namespace stencilc
