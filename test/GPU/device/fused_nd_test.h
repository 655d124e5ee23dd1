// fused_nd_test.h - what the exactness tests and benchmarks of
// stencilc/device/fused1d.cuh and fused3d.cuh share: their stencils and
// parameters, and a CPU reference of single steps on an nz x ny x nx grid
// (a 1D grid is 1 x 1 x nx) with the same arithmetic (std::fma in the order
// of the stencil's terms, in float for fp16 and fp32, double for fp64,
// rounded to the element type every step).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <thread>
#include <type_traits>
#include <vector>

#include <cuda_fp16.h>

#include "device_test.h"
#include "fused_test.h"
#include "stencilc/device/fused1d.cuh"
#include "stencilc/device/fused3d.cuh"
#include "stencilc/runtime/device_buffer.h"

namespace fused_nd_test {

namespace device = stencilc::device;
using fused_test::ThreeQuarters;

/// Star 7-point, radius 1.
struct Star7 {
  static constexpr int kRadius = 1, kTerms = 7;
  static constexpr const char *kName = "star3d7p";
  template <class C> static __host__ __device__ constexpr device::fused3d::Term<C> term(int i) {
    constexpr device::fused3d::Term<C> terms[] = {
        {0, 0, 0, C(0.4)}, {-1, 0, 0, C(0.1)}, {1, 0, 0, C(0.11)}, {0, -1, 0, C(0.09)},
        {0, 1, 0, C(0.1)}, {0, 0, -1, C(0.1)}, {0, 0, 1, C(0.1)}};
    return terms[i];
  }
};

/// Box 27-point, radius 1: weights about 1/27, in z, y, x order.
struct Box27 {
  static constexpr int kRadius = 1, kTerms = 27;
  static constexpr const char *kName = "box3d27p";
  template <class C> static __host__ __device__ constexpr device::fused3d::Term<C> term(int i) {
    const int dz = i / 9 - 1, dy = i / 3 % 3 - 1, dx = i % 3 - 1;
    const double w = i == 13 ? 0.06 : 0.0359375 + 0.000125 * (i % 5);
    return {dz, dy, dx, C(w)};
  }
};

/// Heat 1D, radius 1.
struct Heat1 {
  static constexpr int kRadius = 1, kTerms = 3;
  static constexpr const char *kName = "heat1d";
  template <class C> static __host__ __device__ constexpr device::fused1d::Term<C> term(int i) {
    constexpr device::fused1d::Term<C> terms[] = {{-1, C(0.25)}, {0, C(0.5)}, {1, C(0.2475)}};
    return terms[i];
  }
};

/// A 5-point 1D stencil, radius 2.
struct Wide1 {
  static constexpr int kRadius = 2, kTerms = 5;
  static constexpr const char *kName = "1d5p";
  template <class C> static __host__ __device__ constexpr device::fused1d::Term<C> term(int i) {
    constexpr device::fused1d::Term<C> terms[] = {
        {0, C(0.4)}, {-2, C(0.1)}, {-1, C(0.2)}, {1, C(0.19)}, {2, C(0.1)}};
    return terms[i];
  }
};

template <class E> using ComputeOf = std::conditional_t<std::is_same_v<E, double>, double, float>;

/// A fused3d.cuh geometry: a window of Width x Height, each thread Cols x
/// Rows points (so Width / Cols x Height / Rows threads).
template <class E, class BoundaryRule, class St, int T, int Width = 32, int Height = 16,
          int Cols = 2, int Rows = 2, int ChunkZ = 5, int MinBlocks = 1>
struct Params3 {
  using Element = E;
  using Compute = ComputeOf<E>;
  using Boundary = BoundaryRule;
  using Stencil = St;
  static constexpr int kSteps = T;
  static constexpr int kWidth = Width, kHeight = Height;
  static constexpr int kThreads = Width / Cols * (Height / Rows);
  static constexpr int kBatch = 1, kChunkZ = ChunkZ, kRows = Rows, kMinBlocks = MinBlocks;
};

template <class E, class BoundaryRule, class St, int T, int Width = 64, int Threads = 32>
struct Params1 {
  using Element = E;
  using Compute = ComputeOf<E>;
  using Boundary = BoundaryRule;
  using Stencil = St;
  static constexpr int kSteps = T;
  static constexpr int kWidth = Width, kThreads = Threads;
};

/// The timing modes (fused3d_bench.cu, fused1d_bench.cu); exit statuses.
int bench3d();
int bench1d();

enum class Kind { Fixed, Constant, Periodic, Clamp, Mirror };
inline const char *kindName(Kind k) {
  return k == Kind::Fixed      ? "fixed"
         : k == Kind::Constant ? "constant"
         : k == Kind::Periodic ? "periodic"
         : k == Kind::Clamp    ? "clamp"
                               : "mirror";
}
template <Kind K> struct BoundaryOf {
  using type = device::FixedBoundary;
};
template <> struct BoundaryOf<Kind::Constant> {
  using type = device::ConstantBoundary<ThreeQuarters>;
};
template <> struct BoundaryOf<Kind::Periodic> {
  using type = device::PeriodicBoundary;
};
template <> struct BoundaryOf<Kind::Clamp> {
  using type = device::ClampBoundary;
};
template <> struct BoundaryOf<Kind::Mirror> {
  using type = device::MirrorBoundary;
};

template <class E> const char *typeName() {
  return std::is_same_v<E, double> ? "fp64" : std::is_same_v<E, float> ? "fp32" : "fp16";
}

template <class E> E fromCompute(ComputeOf<E> v) {
  if constexpr (std::is_same_v<E, __half>) {
    return __float2half_rn(v);
  } else {
    return v;
  }
}
template <class E> ComputeOf<E> toCompute(E v) {
  if constexpr (std::is_same_v<E, __half>) {
    return __half2float(v);
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
    values[i] =
        fromCompute<E>(static_cast<ComputeOf<E>>(static_cast<double>((s >> 40) | 1) / 16777216.0));
  }
  return values;
}

/// An nz x ny x nx grid; `dims` of its axes (the last ones) are the
/// stencil's, which the fixed ring applies to.
struct Shape {
  int nz, ny, nx, dims;
  long long points() const { return static_cast<long long>(nz) * ny * nx; }
};

/// A term of either kind as (dz, dy, dx, c).
template <class C> device::fused3d::Term<C> asTerm3(device::fused3d::Term<C> t) { return t; }
template <class C> device::fused3d::Term<C> asTerm3(device::fused1d::Term<C> t) {
  return {0, 0, t.dx, t.c};
}

/// One single step on the CPU, in -> out: the points a step computes get
/// the terms' FMAs in order, in the compute type, rounded to E; the others
/// (the fixed ring) keep their value.
template <class E, class St>
void referenceStep(const std::vector<E> &in, std::vector<E> &out, Shape g, Kind kind) {
  using C = ComputeOf<E>;
  constexpr int r = St::kRadius;
  const E outside = fromCompute<E>(static_cast<C>(ThreeQuarters::value));
  auto ring = [&](int v, int n, bool active) { return active && (v < r || v >= n - r); };
  const stencilc_boundary rule = kind == Kind::Periodic ? STENCILC_BOUNDARY_PERIODIC
                                 : kind == Kind::Clamp  ? STENCILC_BOUNDARY_CLAMP
                                                        : STENCILC_BOUNDARY_MIRROR;
  const bool folds = kind == Kind::Periodic || kind == Kind::Clamp || kind == Kind::Mirror;
  auto fold = [&](long long v, int n) { return stencilc_fold_index(rule, v, n); };
  auto planes = [&](int zFirst, int zLast) {
    for (int z = zFirst; z < zLast; ++z) {
      for (int y = 0; y < g.ny; ++y) {
        for (int x = 0; x < g.nx; ++x) {
          const long long i = (static_cast<long long>(z) * g.ny + y) * g.nx + x;
          if (kind == Kind::Fixed &&
              (ring(z, g.nz, g.dims == 3) || ring(y, g.ny, g.dims >= 2) || ring(x, g.nx, true))) {
            out[i] = in[i];
            continue;
          }
          C acc = C(0);
          for (int t = 0; t < St::kTerms; ++t) {
            const auto term = asTerm3(St::template term<C>(t));
            long long zz = z + term.dz, yy = y + term.dy, xx = x + term.dx;
            E v;
            if (folds) {
              v = in[(fold(zz, g.nz) * g.ny + fold(yy, g.ny)) * g.nx + fold(xx, g.nx)];
            } else if (zz < 0 || zz >= g.nz || yy < 0 || yy >= g.ny || xx < 0 || xx >= g.nx) {
              v = outside; // constant only: fixed reads inside the grid
            } else {
              v = in[(zz * g.ny + yy) * g.nx + xx];
            }
            acc = std::fma(term.c, toCompute<E>(v), acc);
          }
          out[i] = fromCompute<E>(acc);
        }
      }
    }
  };
  // 1D grids split along x into threads would need another loop; they are
  // small enough for one thread.
  const int workers = std::max(1, std::min<int>(std::thread::hardware_concurrency(), g.nz / 4));
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back(planes, static_cast<int>(static_cast<long long>(g.nz) * w / workers),
                         static_cast<int>(static_cast<long long>(g.nz) * (w + 1) / workers));
  }
  for (std::thread &t : threads) {
    t.join();
  }
}

/// The reference after each step count of `wanted`.
template <class E, class St>
std::map<int, std::vector<E>> referenceRuns(const std::vector<E> &input, Shape g, Kind kind,
                                            const std::vector<int> &wanted) {
  std::map<int, std::vector<E>> result;
  std::vector<E> a = input, b = input;
  const int last = *std::max_element(wanted.begin(), wanted.end());
  for (int s = 1; s <= last; ++s) {
    referenceStep<E, St>(a, b, g, kind);
    std::swap(a, b);
    if (std::find(wanted.begin(), wanted.end(), s) != wanted.end()) {
      result[s] = a;
    }
  }
  return result;
}

/// Runs `run(a, b)` (a fused run of `steps` steps, T fused) on `input` with
/// b poisoned with NaN, and compares a with `want` bit for bit; a and b
/// start `offset` elements into their allocations (1: accesses of more
/// than one element are misaligned).
template <class E, class Run>
void checkRun(stencilc::device_test::Tally &tally, const std::vector<E> &input,
              const std::vector<E> &want, Shape g, int steps, int T, Kind kind, const char *what,
              Run run, int offset = 0) {
  const long long points = g.points();
  const size_t bytes = static_cast<size_t>(points) * sizeof(E);
  stencilc::DeviceBuffer<E> a(points + offset), b(points + offset);
  STENCILC_CHECK(cudaMemcpy(a.data() + offset, input.data(), bytes, cudaMemcpyHostToDevice));
  STENCILC_CHECK(cudaMemset(b.data(), 0xFF, b.bytes())); // NaN in every type
  STENCILC_CHECK(run(a.data() + offset, b.data() + offset));
  STENCILC_CHECK(cudaDeviceSynchronize());
  std::vector<E> got(static_cast<size_t>(points));
  STENCILC_CHECK(cudaMemcpy(got.data(), a.data() + offset, bytes, cudaMemcpyDeviceToHost));
  long long wrong = 0, first = -1;
  for (long long i = 0; i < points; ++i) {
    if (!stencilc::device_test::Tally::sameBits(got[i], want[i])) {
      wrong += 1;
      first = first < 0 ? i : first;
    }
  }
  char text[256];
  std::snprintf(text, sizeof text, "%s %s %s T=%d %dx%dx%d steps=%d%s: %lld wrong", what,
                typeName<E>(), kindName(kind), T, g.nz, g.ny, g.nx, steps,
                offset != 0 ? " misaligned" : "", wrong);
  if (wrong != 0) {
    std::printf("  first mismatch at (z %lld, y %lld, x %lld): got %.17g, want %.17g\n",
                first / g.nx / g.ny, first / g.nx % g.ny, first % g.nx,
                static_cast<double>(toCompute<E>(got[first])),
                static_cast<double>(toCompute<E>(want[first])));
  }
  tally.check(wrong == 0, text, wrong);
}

/// The step counts checked at T: 1, T - 1, T, T + 1, 3T + 2 (and 100).
inline std::vector<int> stepCounts(int T, bool hundred) {
  std::vector<int> counts = {1, T - 1, T, T + 1, 3 * T + 2};
  counts.erase(std::remove(counts.begin(), counts.end(), 0), counts.end());
  if (hundred) {
    counts.push_back(100);
  }
  return counts;
}

} // namespace fused_nd_test
