// stencilc/device/host.cuh - the host-side checks every generated entry
// point (NAME_step, NAME_run, NAME_pass, NAME_pass_range) makes before it
// launches anything.
#pragma once

#include <cstddef>
#include <cstdint>

namespace stencilc {
namespace device {

/// Whether the byte ranges [a, a + bytes) and [b, b + bytes) share a byte:
/// an output that overlaps an input (`out = in + 1`, not only `out == in`)
/// would be read after it is written by the kernels' __restrict__ pointers.
inline bool overlaps(const void *a, const void *b, std::size_t bytes) {
  const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(a);
  const std::uintptr_t q = reinterpret_cast<std::uintptr_t>(b);
  return p < q + bytes && q < p + bytes;
}

/// Whether the outermost indices [first, first + count) of NAME_pass_range
/// are not empty and lie inside [0, n).
inline bool validRange(int first, int count, int n) {
  return first >= 0 && count >= 1 && first <= n - count;
}

} // namespace device
} // namespace stencilc
