// device_test.h - the few things every test of a stencilc/device header
// shares: the grid sizes they run at, the skip when no GPU answers, and a
// tally of failed checks that becomes the exit status.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "stencilc/runtime/check.h"

namespace stencilc::device_test {

/// The extents every header is tested at: a single point, the smallest
/// grids with an interior, an odd size and a large one.
inline constexpr int kSizes[] = {1, 3, 17, 1000};

/// A T with the low sizeof(T) bytes of `bits` (any pattern, NaNs included).
template <class T> T fromBits(std::uint64_t bits) {
  T value;
  std::memcpy(static_cast<void *>(&value), &bits, sizeof(T));
  return value;
}

/// Exits with 77 (CTest's skip) when no CUDA device answers.
inline void skipWithoutDevice() {
  int devices = 0;
  if (cudaError_t status = cudaGetDeviceCount(&devices); status != cudaSuccess || devices == 0) {
    std::printf("SKIP: no usable CUDA device (%s)\n", cudaGetErrorName(status));
    std::exit(77);
  }
  STENCILC_CHECK(cudaFree(nullptr));
}

/// Counts the failed checks of a test and prints the first few.
class Tally {
public:
  /// Records one check of `what`; false means it failed.
  void check(bool ok, const char *what, long long detail = 0) {
    ++checks_;
    if (!ok && ++failures_ <= 20) {
      std::printf("FAIL: %s (%lld)\n", what, detail);
    }
  }
  /// Whether the raw bytes of `a` and `b` agree (bit-exact, NaNs included).
  template <class T> static bool sameBits(const T &a, const T &b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }
  /// Prints the verdict and returns the exit status (0 when all passed).
  int finish(const char *test) const {
    std::printf("%s: %lld checks, %lld failed\nRESULT: %s\n", test, checks_, failures_,
                failures_ == 0 ? "PASS" : "FAIL");
    return failures_ == 0 ? 0 : 1;
  }

private:
  long long checks_ = 0;
  long long failures_ = 0;
};

} // namespace stencilc::device_test
