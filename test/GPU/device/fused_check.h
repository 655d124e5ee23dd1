// fused_check.h - the checks of fused_test.cu (see there), shared by its
// translation units: fused_test.cu (the driver) and one generated unit per
// element type and stencil (test/GPU/CMakeLists.txt), which instantiates
// checkAllBoundaries, so that they compile in parallel.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "device_test.h"
#include "fused_bench.h"
#include "fused_test.h"
#include "stencilc/device/fused.cuh"
#include "stencilc/runtime/device_buffer.h"

namespace fused_check {

using namespace stencilc;
using device_test::Tally;
using fused_test::Params;
namespace fused = stencilc::device::fused;

enum class Kind { Fixed, Constant, Periodic };
inline const char *kindName(Kind k) {
  return k == Kind::Fixed ? "fixed" : k == Kind::Constant ? "constant" : "periodic";
}
template <Kind K> struct BoundaryOf;
template <> struct BoundaryOf<Kind::Fixed> {
  using type = device::FixedBoundary;
};
template <> struct BoundaryOf<Kind::Constant> {
  using type = device::ConstantBoundary<fused_test::ThreeQuarters>;
};
template <> struct BoundaryOf<Kind::Periodic> {
  using type = device::PeriodicBoundary;
};

template <class E> const char *typeName() { return fused_test::benchTypeName<E>(); }

template <class E> using ComputeOf = std::conditional_t<std::is_same_v<E, double>, double, float>;

template <class E> E fromCompute(ComputeOf<E> v) {
  if constexpr (std::is_same_v<E, __half>) {
    return __float2half_rn(v);
  } else if constexpr (std::is_same_v<E, __nv_bfloat16>) {
    return __float2bfloat16_rn(v);
  } else {
    return v;
  }
}
template <class E> ComputeOf<E> toCompute(E v) {
  if constexpr (std::is_same_v<E, __half>) {
    return __half2float(v);
  } else if constexpr (std::is_same_v<E, __nv_bfloat16>) {
    return __bfloat162float(v);
  } else {
    return v;
  }
}

/// Deterministic values in (0, 1), never zero.
template <class E> std::vector<E> randomGrid(long long count, std::uint64_t seed) {
  std::vector<E> values(count);
  std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (long long i = 0; i < count; ++i) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    const double u = static_cast<double>((s >> 40) | 1) / 16777216.0; // (0, 1)
    values[i] = fromCompute<E>(static_cast<ComputeOf<E>>(u));
  }
  return values;
}

/// One single step on the CPU, in -> out: the points a step computes get
/// the terms' FMAs in order, in the compute type, rounded to E; the others
/// (the fixed ring, nothing else inside the grid) keep their value.
template <class E, class St>
void referenceStep(const std::vector<E> &in, std::vector<E> &out, int ny, int nx, Kind kind) {
  using C = ComputeOf<E>;
  constexpr int r = St::kRadius;
  const E outside = fromCompute<E>(static_cast<C>(fused_test::ThreeQuarters::value));
  auto rows = [&](int yFirst, int yLast) {
    for (int y = yFirst; y < yLast; ++y) {
      for (int x = 0; x < nx; ++x) {
        const long long i = static_cast<long long>(y) * nx + x;
        if (kind == Kind::Fixed && (y < r || y >= ny - r || x < r || x >= nx - r)) {
          out[i] = in[i];
          continue;
        }
        C acc = C(0);
        for (int t = 0; t < St::kTerms; ++t) {
          const fused::Term<C> term = St::template term<C>(t);
          long long yy = y + term.dy, xx = x + term.dx;
          E v;
          if (kind == Kind::Periodic) {
            yy = ((yy % ny) + ny) % ny;
            xx = ((xx % nx) + nx) % nx;
            v = in[yy * nx + xx];
          } else if (yy < 0 || yy >= ny || xx < 0 || xx >= nx) {
            v = outside; // constant only: fixed reads inside the grid
          } else {
            v = in[yy * nx + xx];
          }
          acc = std::fma(term.c, toCompute<E>(v), acc);
        }
        out[i] = fromCompute<E>(acc);
      }
    }
  };
  const int workers = std::max(1, std::min<int>(std::thread::hardware_concurrency(), ny / 8));
  if (workers == 1) {
    rows(0, ny);
    return;
  }
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back(rows, static_cast<int>(static_cast<long long>(ny) * w / workers),
                         static_cast<int>(static_cast<long long>(ny) * (w + 1) / workers));
  }
  for (std::thread &t : threads) {
    t.join();
  }
}

/// The reference after each step count of `wanted`.
template <class E, class St>
std::map<int, std::vector<E>> referenceRuns(const std::vector<E> &input, int ny, int nx, Kind kind,
                                            const std::vector<int> &wanted) {
  std::map<int, std::vector<E>> result;
  std::vector<E> a = input, b = input;
  const int last = *std::max_element(wanted.begin(), wanted.end());
  for (int s = 1; s <= last; ++s) {
    referenceStep<E, St>(a, b, ny, nx, kind);
    std::swap(a, b);
    if (std::find(wanted.begin(), wanted.end(), s) != wanted.end()) {
      result[s] = a;
    }
  }
  return result;
}

template <class E> double asDouble(E v) { return static_cast<double>(toCompute<E>(v)); }

/// Runs fused::run<S> on `input` for `steps` and compares a with `want`.
template <class S>
void checkRun(Tally &tally, const std::vector<typename S::Element> &input,
              const std::vector<typename S::Element> &want, int ny, int nx, int steps, Kind kind,
              const char *what) {
  using E = typename S::Element;
  const long long points = static_cast<long long>(ny) * nx;
  DeviceBuffer<E> a(points), b(points);
  a.upload(input);
  STENCILC_CHECK(cudaMemset(b.data(), 0xFF, b.bytes())); // NaN in every type
  STENCILC_CHECK(fused::run<S>(a.data(), b.data(), ny, nx, steps, nullptr));
  STENCILC_CHECK(cudaDeviceSynchronize());
  const std::vector<E> got = a.download();
  long long wrong = 0, first = -1;
  for (long long i = 0; i < points; ++i) {
    if (!Tally::sameBits(got[i], want[i])) {
      wrong += 1;
      first = first < 0 ? i : first;
    }
  }
  char text[256];
  std::snprintf(text, sizeof text, "%s %s %s T=%d%s %dx%d steps=%d: %lld wrong", what,
                typeName<E>(), kindName(kind), S::kSteps,
                fused::QueuedOf<S>::value ? " queued" : "", ny, nx, steps, wrong);
  if (wrong != 0) {
    std::printf("  first mismatch at (y %lld, x %lld): got %.17g, want %.17g\n", first / nx,
                first % nx, asDouble(got[first]), asDouble(want[first]));
  }
  tally.check(wrong == 0, text, wrong);
}

/// The largest grid checked (--max-points N, as scripts/gpu-check.sh
/// --sanitize passes it): the rest are skipped.
inline long long maxPoints = 1LL << 40;

template <class E, class St, Kind K> void checkStencil(Tally &tally) {
  using B = typename BoundaryOf<K>::type;
  using T2 = fused::Geometry<Params<E, B, St, 2>>;
  using T4 = fused::Geometry<Params<E, B, St, 4>>;
  // Two warps of strips twice as wide, a batch of one row (fewer than 2r),
  // chunks of 7 rows, T 3.
  constexpr int kWide = 2 * fused_test::narrowestWidth<E, St>();
  using Wide = fused::Geometry<Params<E, B, St, 3, kWide, 64, 1, 7>>;
  // The queued form, where the terms come by rows (as every generated
  // stencil's): T 2, and the wide geometry's batch of one row.
  using Q2 = fused::Geometry<fused_test::Queued<Params<E, B, St, 2>>>;
  using QWide = fused::Geometry<fused_test::Queued<Params<E, B, St, 3, kWide, 64, 1, 7>>>;
  constexpr bool kQueues = fused::TermsByRow<T2>::value;
  const int least = fused::minExtent<B>(St::kRadius);
  // 200 x 256: rows of whole 16-byte vectors, the vector loads' path (the
  // other sizes go element by element).
  // 64 x 1024: the interior path (every strip's warps at 200 x 256 and
  // 1000 x 1337 are near an edge for the 16-bit types' wide strips).
  const int sizes[][2] = {{1, 1}, {3, 3}, {17, 19}, {200, 256}, {64, 1024}, {1000, 1337}};
  for (const auto &size : sizes) {
    const int ny = size[0], nx = size[1];
    if (ny < least || nx < least || static_cast<long long>(ny) * nx > maxPoints) {
      continue;
    }
    const bool large = ny >= 17;
    std::vector<int> wanted = {1, 2, 3, 4, 5, 8, 9, 14};
    if (large) {
      wanted.push_back(100);
    }
    const std::vector<E> input = randomGrid<E>(static_cast<long long>(ny) * nx, ny * 7 + nx);
    const auto ref = referenceRuns<E, St>(input, ny, nx, K, wanted);
    for (int T : {2, 4}) {
      std::vector<int> counts = {1, T - 1, T, T + 1, 3 * T + 2};
      if (large) {
        counts.push_back(100);
      }
      for (int steps : counts) {
        if (T == 2) {
          checkRun<T2>(tally, input, ref.at(steps), ny, nx, steps, K, St::kName);
          if constexpr (kQueues) {
            checkRun<Q2>(tally, input, ref.at(steps), ny, nx, steps, K, St::kName);
          }
        } else {
          checkRun<T4>(tally, input, ref.at(steps), ny, nx, steps, K, St::kName);
        }
      }
    }
    for (int steps : {2, 3, 4, 14}) {
      checkRun<Wide>(tally, input, ref.at(steps), ny, nx, steps, K, St::kName);
      if constexpr (kQueues) {
        checkRun<QWide>(tally, input, ref.at(steps), ny, nx, steps, K, St::kName);
      }
    }
  }
}

template <class E, class St> void checkAllBoundaries(Tally &tally) {
  checkStencil<E, St, Kind::Fixed>(tally);
  checkStencil<E, St, Kind::Constant>(tally);
  checkStencil<E, St, Kind::Periodic>(tally);
}

inline void checkArguments(Tally &tally) {
  using S = fused::Geometry<Params<float, device::FixedBoundary, fused_test::Star9, 2>>;
  DeviceBuffer<float> a(100), b(100);
  tally.check(fused::run<S>(a.data(), a.data(), 10, 10, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a == b");
  tally.check(fused::run<S>(nullptr, b.data(), 10, 10, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a null pointer");
  tally.check(fused::run<S>(a.data(), b.data(), 10, 10, -1, nullptr) == cudaErrorInvalidValue,
              "run refuses steps < 0");
  tally.check(fused::run<S>(a.data(), b.data(), 4, 10, 1, nullptr) == cudaErrorInvalidValue,
              "run refuses a fixed grid below 2r + 1");
  tally.check(fused::run<S>(a.data(), b.data(), 10, 10, 0, nullptr) == cudaSuccess,
              "run does nothing for 0 steps");
}

} // namespace fused_check
