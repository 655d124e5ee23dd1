// parallel.h - a minimal parallel-for over the host's cores (internal).
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace stencilc::detail {

inline unsigned hostThreads() {
  unsigned n = std::thread::hardware_concurrency();
  return std::clamp(n, 1u, 64u);
}

/// Calls body(begin, end) on disjoint ranges covering [0, count), on up to
/// hostThreads() threads; returns when all are done.
template <class Body> void parallelFor(std::size_t count, Body body) {
  std::size_t threads = std::min<std::size_t>(hostThreads(), count);
  if (threads <= 1 || count < 4096) {
    if (count)
      body(std::size_t{0}, count);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads);
  std::size_t chunk = (count + threads - 1) / threads;
  for (std::size_t t = 0; t < threads; ++t) {
    std::size_t begin = t * chunk, end = std::min(count, begin + chunk);
    if (begin < end)
      pool.emplace_back([=] { body(begin, end); });
  }
  for (auto &th : pool)
    th.join();
}

} // namespace stencilc::detail
