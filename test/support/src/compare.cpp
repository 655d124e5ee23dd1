// compare.cpp - relative L2 error plus the ring / unwritten / NaN checks.
#include "stencilc/testing/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <type_traits>

#include "parallel.h"
#include "stencilc/testing/fill.h"

namespace stencilc {

std::string Comparison::summary() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "relL2=%.3e max=%.3e", relativeL2, maxAbsError);
  std::string s = buf;
  if (ofMagnitude)
    s += " of-magnitude";
  if (unwritten)
    s += " unwritten=" + std::to_string(unwritten);
  if (nonFinite)
    s += " nonfinite=" + std::to_string(nonFinite);
  if (ringChanged)
    s += " ring-changed=" + std::to_string(ringChanged);
  if (unwritten || nonFinite || ringChanged)
    s += " first-bad-index=" + std::to_string(firstBad);
  return s;
}

bool inRing(const stencilc_stencil_info &info, const Extents &e, std::size_t i) {
  if (info.boundary != STENCILC_BOUNDARY_FIXED)
    return false;
  int ring[3];
  ringWidth3(info, ring);
  const long long n[3] = {e.nz(), e.ny(), e.nx()};
  long long c[3];
  long long rest = static_cast<long long>(i);
  for (int a = 2; a >= 0; --a) {
    c[a] = rest % n[a];
    rest /= n[a];
  }
  for (int a = 0; a < 3; ++a)
    if (c[a] < ring[a] || c[a] >= n[a] - ring[a])
      return true;
  return false;
}

template <class T>
Comparison compareWithReference(const stencilc_stencil_info &info, const Extents &e,
                                const std::vector<T> &result, const std::vector<double> &reference,
                                const std::vector<T> *ringBefore, const std::vector<T> *poison,
                                const std::vector<double> *magnitude) {
  const bool scaled = magnitude && !magnitude->empty();
  std::mutex merge;
  Comparison total;
  total.ofMagnitude = scaled;
  // Squares in long double: a stencil whose weights sum past 1 reaches
  // values (1e225 after 100 steps of a sum of 180) whose squares overflow a
  // double, and the ratio would be inf / inf.
  long double sumSqErr = 0, sumSqRef = 0;
  detail::parallelFor(result.size(), [&](std::size_t begin, std::size_t end) {
    Comparison part;
    long double err2 = 0, ref2 = 0;
    auto bad = [&](std::size_t i) { part.firstBad = std::min(part.firstBad, i); };
    for (std::size_t i = begin; i < end; ++i) {
      if (inRing(info, e, i)) {
        if (ringBefore && !sameBits(result[i], (*ringBefore)[i])) {
          ++part.ringChanged;
          bad(i);
        }
        continue;
      }
      ++part.compared;
      if (poison && sameBits(result[i], (*poison)[i])) {
        ++part.unwritten;
        bad(i);
        continue;
      }
      double got = toDouble(result[i]), want = reference[i];
      if (!std::isfinite(got) && std::isfinite(want)) {
        ++part.nonFinite;
        bad(i);
        continue;
      }
      double d = got - want;
      err2 += static_cast<long double>(d) * d;
      const double size = scaled ? (*magnitude)[i] : want;
      ref2 += static_cast<long double>(size) * size;
      part.maxAbsError = std::max(part.maxAbsError, std::fabs(d));
    }
    std::lock_guard<std::mutex> lock(merge);
    sumSqErr += err2;
    sumSqRef += ref2;
    total.compared += part.compared;
    total.unwritten += part.unwritten;
    total.nonFinite += part.nonFinite;
    total.ringChanged += part.ringChanged;
    total.maxAbsError = std::max(total.maxAbsError, part.maxAbsError);
    total.firstBad = std::min(total.firstBad, part.firstBad);
  });
  // A zero reference (possible only for degenerate stencils) falls back to
  // the absolute error.
  total.relativeL2 =
      static_cast<double>(sumSqRef > 0 ? std::sqrt(sumSqErr / sumSqRef) : std::sqrt(sumSqErr));
  return total;
}

namespace {
/// T's largest finite value, as a double (the toolkit's for 16 bits: its
/// numeric_limits are not specialized for them on the host).
template <class T> double largestFinite() {
  if constexpr (std::is_same_v<T, __half>) {
    return toDouble(CUDART_MAX_NORMAL_FP16);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return toDouble(CUDART_MAX_NORMAL_BF16);
  } else {
    return static_cast<double>(std::numeric_limits<T>::max());
  }
}

/// T's smallest normal value, as a double: below it T keeps fewer bits.
template <class T> double smallestNormal() {
  if constexpr (std::is_same_v<T, __half>) {
    return 0x1p-14;
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return 0x1p-126;
  } else {
    return static_cast<double>(std::numeric_limits<T>::min());
  }
}
} // namespace

template <class T> bool pastRange(const std::vector<double> &reference) {
  const double most = largestFinite<T>();
  double largest = 0.0;
  for (const double v : reference) {
    if (!(std::fabs(v) <= most)) {
      return true;
    }
    largest = std::max(largest, std::fabs(v));
  }
  // A reference that has decayed wholly below T's normal values (EBISU's
  // 3d27pt, periodic, its weights summing to 0.155: 8e-82 after 100 steps)
  // leaves T nothing but subnormals and zeros to hold it in; 0 itself is
  // compared by the absolute error (compareWithReference).
  return largest > 0.0 && largest < smallestNormal<T>();
}

#define STENCILC_INSTANTIATE_COMPARE(T)                                                            \
  template Comparison compareWithReference<T>(const stencilc_stencil_info &, const Extents &,      \
                                              const std::vector<T> &, const std::vector<double> &, \
                                              const std::vector<T> *, const std::vector<T> *,      \
                                              const std::vector<double> *);                        \
  template bool pastRange<T>(const std::vector<double> &);
STENCILC_INSTANTIATE_COMPARE(__half)
STENCILC_INSTANTIATE_COMPARE(__nv_bfloat16)
STENCILC_INSTANTIATE_COMPARE(float)
STENCILC_INSTANTIATE_COMPARE(double)
#undef STENCILC_INSTANTIATE_COMPARE

} // namespace stencilc
