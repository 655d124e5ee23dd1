// stencilc/device/fields_run.cuh - NAME_run of a stencil of fields with
// fused passes, in 2D (fields_fused.cuh) and 3D (fields_fused3d.cuh): the
// passes, the receivers' cones beside them, and the buffers of the levels
// (issue 36; docs/design.md, "Fused passes for fields and at the arithmetic
// limit").
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "stencilc/device/fields_fused.cuh"
#include "stencilc/device/fields_fused3d.cuh"
#include "stencilc/device/receivers.cuh"
#include "stencilc/device/sources.cuh"

namespace stencilc {
namespace device {
namespace fields {

/// S::kDims (Geometry3), or 2 where S has none (fused.cuh's Geometry).
template <class S, class = void> struct DimsOf {
  static constexpr int value = 2;
};
template <class S> struct DimsOf<S, std::void_t<decltype(S::kDims)>> {
  static constexpr int value = S::kDims;
};

/// The reads of one point of a level in a receiver's cone (recordCone):
/// the stepped field from the level before's cone, the previous level from
/// the one before that (level 1: u_prev itself), any other field through
/// the boundary rule, as the pass reads them. A cone array is a square (2D)
/// or cube (3D) of side kSide, row-major, centred on the receiver; in 2D
/// cz and z are 0.
template <class S> struct ConeReader {
  using F = typename S::Fields;
  static constexpr int kDims = DimsOf<S>::value;
  static constexpr int kSide = 2 * S::kSteps * S::kRadius + 1;
  /// A cone array's points.
  static constexpr int kPoints = kSide * kSide * (kDims == 3 ? kSide : 1);
  const Args<F> &args;
  const typename S::Compute *from;   // level t - 1
  const typename S::Compute *before; // level t - 2 (t >= 2)
  bool firstLevel;
  int cz, cy, cx; // the point in the arrays
  long long z, y, x;
  int nz, ny, nx;

  static __device__ __forceinline__ int index(int cz, int cy, int cx) {
    return (cz * kSide + cy) * kSide + cx;
  }
  template <int Field, int DZ, int DY, int DX>
  __device__ __forceinline__ typename S::Compute at() const {
    if constexpr (Field == F::kSteppedField) {
      return from[index(cz + DZ, cy + DY, cx + DX)];
    } else if constexpr (Field == F::kPreviousField) {
      return firstLevel ? readField<F>(args.field[Field], z, y, x, nz, ny, nx)
                        : before[index(cz, cy, cx)];
    } else {
      return readField<F>(args.field[Field], z + DZ, y + DY, x + DX, nz, ny, nx);
    }
  }
};

/// The cone kernel's warps a block (2D: 4; 3D: 1, its cubes being larger),
/// and the shared memory of one warp: the three levels it keeps (t - 2,
/// t - 1, t), each a cone array.
template <class S> __host__ __device__ constexpr int coneWarps() {
  return DimsOf<S>::value == 3 ? 1 : 4;
}
template <class S> __host__ __device__ constexpr int coneBytesPerWarp() {
  return 3 * ConeReader<S>::kPoints * static_cast<int>(sizeof(typename S::Compute));
}
/// The cone kernel's static shared memory a block: its warps' lists of
/// sources (`source u;`), none without.
template <class S> __host__ __device__ constexpr int coneStaticBytes() {
  return S::Fields::kSources ? coneWarps<S>() * kWarpSources * static_cast<int>(sizeof(NearSource))
                             : 0;
}

/// Point i of the square or cube of side `side` around the receiver
/// (row-major), as its place in a cone array whose centre is at (C, C, C)
/// (2D: cz is 0).
struct ConePoint {
  int cz, cy, cx;
};
template <int Dims> __device__ __forceinline__ ConePoint conePoint(int i, int side, int centre) {
  const int low = centre - side / 2;
  const int plane = side * side;
  return {Dims == 3 ? low + i / plane : 0, low + i % plane / side, low + i % side};
}

/// The receiver k's point as (z, y, x) (2D: z is 0), and whether a step
/// writes it (receivers.cuh's receiverIndex).
template <class S>
__device__ __forceinline__ bool conePlace(const int *points, int k, int nz, int ny, int nx,
                                          long long (&at)[3]) {
  using F = typename S::Fields;
  constexpr int kDims = DimsOf<S>::value;
  const int *p = points + static_cast<std::size_t>(kDims) * k;
  std::size_t index = 0;
  at[0] = kDims == 3 ? p[0] : 0;
  at[1] = p[kDims - 2];
  at[2] = p[kDims - 1];
  return receiverIndex<kDims>(p, nz, ny, nx, kDims == 3 ? F::kRingZ : 0, F::kRingY, F::kRingX,
                              index);
}

/// Level t of a receiver's cone (side `side` around it, centred at C) from
/// the arrays of levels t - 1 and t - 2, into `to`; the warp's lanes share
/// its points.
template <class S>
__device__ __forceinline__ void
coneLevel(const FusedArgs<typename S::Fields, S::kSteps> &args, int t, int side,
          const long long (&at)[3], const NearSources &near, const typename S::Compute *from,
          const typename S::Compute *before, typename S::Compute *to, int nz, int ny, int nx) {
  using F = typename S::Fields;
  using Boundary = typename S::Boundary;
  using Rule = fused::Computes<Boundary>;
  constexpr int kDims = DimsOf<S>::value, C = S::kSteps * S::kRadius;
  const int points = side * side * (kDims == 3 ? side : 1);
  for (int i = threadIdx.x % 32; i < points; i += 32) {
    const ConePoint p = conePoint<kDims>(i, side, C);
    const long long z = kDims == 3 ? at[0] + p.cz - C : 0;
    const long long y = at[1] + p.cy - C, x = at[2] + p.cx - C;
    const ConeReader<S> read{
        args.level[t - 1], from, before, t == 1, p.cz, p.cy, p.cx, z, y, x, nz, ny, nx};
    typename S::Compute value[1] = {
        toCompute(toElement<typename S::Element>(sumTerms<F>(args.level[t - 1], read)))};
    const int here = ConeReader<S>::index(p.cz, p.cy, p.cx);
    const bool computed = (kDims < 3 || Rule::axis(z, nz, F::kRingZ)) &&
                          Rule::axis(y, ny, F::kRingY) && Rule::axis(x, nx, F::kRingX);
    value[0] = computed ? value[0] : from[here];
    if constexpr (F::kSources) {
      addNearSources<kDims, typename S::Element, Boundary>(args.sources, near, t - 1, z, y, x, nz,
                                                           ny, nx, value);
    }
    to[here] = value[0];
  }
}

/// The receivers of a pass of Levels fused steps from its inputs (`record
/// u;`): a warp a receiver computes, level by level, the cone of points
/// that the stepped field's value at its point needs (radius (Levels - t) r
/// at level t), each point as the pass computes it (sumTerms, the rounding
/// to the element type, the kept points of the boundary rule, the sources),
/// its lanes sharing each level's points, the levels in shared memory; lane
/// 0 writes its value of each level t into row t - 1 of `rows` (steps x
/// count). The pass never holds a whole level in memory; the cone is small
/// beside it (at most (2 T r + 1)^dims points a level). A point outside the
/// grid or on the fixed ring reads nothing and records NaN, as
/// receivers.cuh's gather does.
template <class S, int Levels>
__global__ void __launch_bounds__(32 * coneWarps<S>())
    recordCone(const FusedArgs<typename S::Fields, S::kSteps> args, const int *__restrict__ points,
               int count, typename S::Element *__restrict__ rows, int nz, int ny, int nx) {
  if constexpr (planCompiledHere(static_cast<const S *>(nullptr))) {
    using F = typename S::Fields;
    using Compute = typename S::Compute;
    using Boundary = typename S::Boundary;
    constexpr int kDims = DimsOf<S>::value, N = ConeReader<S>::kPoints;
    constexpr int C = S::kSteps * S::kRadius;
    extern __shared__ unsigned char coneShared[];
    const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
    const int k = static_cast<int>(blockIdx.x) * coneWarps<S>() + warp;
    if (k >= count) {
      return; // the whole warp; only warp barriers follow
    }
    long long at[3];
    if (!conePlace<S>(points, k, nz, ny, nx, at)) {
      for (int t = lane; t < Levels; t += 32) {
        rows[static_cast<std::size_t>(t) * count + k] = receiverInvalidValue<typename S::Element>();
      }
      return;
    }
    // The sources in the cone's widest square or cube (`source u;`).
    NearSources near{nullptr, 0};
    if constexpr (F::kSources) {
      __shared__ NearSource list[coneWarps<S>()][kWarpSources];
      const PositionBox box{{kDims == 3 ? at[0] - C : 0, at[1] - C, at[2] - C},
                            {kDims == 3 ? at[0] + C + 1 : 1, at[1] + C + 1, at[2] + C + 1},
                            {nz, ny, nx}};
      near = nearSources<kDims, Boundary>(args.sources, box, list[warp]);
    }
    Compute *cone = reinterpret_cast<Compute *>(coneShared + warp * coneBytesPerWarp<S>());
    Compute *before = cone, *from = cone + N, *to = cone + 2 * N;
    const int side0 = 2 * Levels * S::kRadius + 1;
    for (int i = lane; i < side0 * side0 * (kDims == 3 ? side0 : 1); i += 32) {
      const ConePoint p = conePoint<kDims>(i, side0, C);
      from[ConeReader<S>::index(p.cz, p.cy, p.cx)] =
          readField<F>(args.level[0].field[F::kSteppedField], kDims == 3 ? at[0] + p.cz - C : 0,
                       at[1] + p.cy - C, at[2] + p.cx - C, nz, ny, nx);
    }
    __syncwarp();
    for (int t = 1; t <= Levels; ++t) {
      coneLevel<S>(args, t, 2 * (Levels - t) * S::kRadius + 1, at, near, from, before, to, nz, ny,
                   nx);
      __syncwarp();
      if (lane == 0) {
        rows[static_cast<std::size_t>(t - 1) * count + k] =
            toElement<typename S::Element>(to[ConeReader<S>::index(kDims == 3 ? C : 0, C, C)]);
      }
      Compute *const oldest = before;
      before = from;
      from = to;
      to = oldest;
      __syncwarp(); // level t - 2's array is written next: every lane is past reading it
    }
  }
}

/// Launches recordCone for a pass of `levels` steps (1 .. kSteps) on
/// `stream`; nothing for no receivers. A cone past 48 KiB a block (its
/// static lists of sources included) opts in to the dynamic shared memory
/// first (every launch: the stream may be another device's).
template <class S>
inline cudaError_t launchCone(int levels, const FusedArgs<typename S::Fields, S::kSteps> &args,
                              const int *points, int count, typename S::Element *rows, int nz,
                              int ny, int nx, cudaStream_t stream) {
  if (count == 0) {
    return cudaSuccess;
  }
  return withLevels<S::kSteps>(levels, [&](auto kLevels) {
    constexpr int kWarps = coneWarps<S>();
    constexpr int kShared = kWarps * coneBytesPerWarp<S>();
    const auto kernel = recordCone<S, decltype(kLevels)::value>;
    if constexpr (kShared + coneStaticBytes<S>() > 48 * 1024) {
      if (const cudaError_t status =
              cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared);
          status != cudaSuccess) {
        return status;
      }
    }
    kernel<<<(count + kWarps - 1) / kWarps, 32 * kWarps, kShared, stream>>>(args, points, count,
                                                                            rows, nz, ny, nx);
    return cudaGetLastError();
  });
}

/// Launches one pass of `levels` fused steps of the 2D or 3D kernel.
template <class S>
inline cudaError_t launchPassOf(int levels, const FusedArgs<typename S::Fields, S::kSteps> &args,
                                typename S::Element *out, typename S::Element *outPrev, int nz,
                                int ny, int nx, int chunkY, cudaStream_t stream) {
  if constexpr (DimsOf<S>::value == 3) {
    (void)chunkY;
    return launchFieldsPass3<S>(levels, args, out, outPrev, nz, ny, nx, stream);
  } else {
    (void)nz;
    return launchFieldsPass<S>(levels, args, out, outPrev, ny, nx, chunkY, stream);
  }
}

/// The arguments of a pass of `levels` steps from step s0 (from 0):
/// argsOf(s, current, previous) gives step s's, with these as the stepped
/// and previous fields.
template <class S, class ArgsOf>
inline FusedArgs<typename S::Fields, S::kSteps>
passArguments(const ArgsOf &argsOf, int s0, int levels, const typename S::Element *current,
              const typename S::Element *previous) {
  FusedArgs<typename S::Fields, S::kSteps> args{};
  for (int t = 0; t < S::kSteps; ++t) {
    // Levels past the pass's take its last step's: never read.
    args.level[t] = argsOf(s0 + (t < levels ? t : levels - 1), current, previous);
  }
  return args;
}

/// A grid from the stream's memory pool, given back on the stream when it
/// goes out of scope.
template <class Element> struct PoolGrid {
  Element *p = nullptr;
  cudaStream_t stream;
  explicit PoolGrid(cudaStream_t s) : stream(s) {}
  PoolGrid(const PoolGrid &) = delete;
  PoolGrid &operator=(const PoolGrid &) = delete;
  ~PoolGrid() {
    if (p != nullptr) {
      cudaFreeAsync(p, stream);
    }
  }
};

/// The receivers of NAME_run: their points and the steps x count records.
template <class Element> struct RunReceivers {
  const int *points;
  int count;
  Element *records;
};

/// NAME_run of a stencil of fields with fused passes on an nz x ny x nx
/// grid (nz = 1 in 2D): `steps` steps as passes of kSteps and one of the
/// remainder. Without time levels the stepped field ping-pongs with
/// scratch and the result is left in `cur`. With time levels a pass reads a
/// pair of levels and writes the next pair, so the pairs alternate between
/// (prev, cur) and (scratch, a grid from the stream's memory pool), and the
/// last pair is left in (prev, cur). Every point of a pass's outputs is
/// stored (the ring with its kept value), so no ring copy is needed first.
/// With sources (`source u;`) each pass adds those of its steps. With
/// receivers (`record u;`, a positive count) each pass's recordCone writes
/// their rows of its steps. The caller has checked the pointers, the sizes,
/// the sources, the receivers and steps > 0.
template <class S, class ArgsOf>
inline cudaError_t
runFields(typename S::Element *cur, typename S::Element *prev, typename S::Element *scratch, int nz,
          int ny, int nx, int steps, const ArgsOf &argsOf, const SourceList &sources,
          const RunReceivers<typename S::Element> &receivers, cudaStream_t stream) {
  using Element = typename S::Element;
  const size_t bytes =
      static_cast<size_t>(nz) * static_cast<size_t>(ny) * static_cast<size_t>(nx) * sizeof(Element);
  PoolGrid<Element> extra(stream);
  if constexpr (hasTimeLevels<S>()) {
    if (const cudaError_t status = cudaMallocAsync(&extra.p, bytes, stream);
        status != cudaSuccess) {
      return status;
    }
  }
  Element *from[2] = {cur, prev}, *to[2] = {scratch, extra.p};
  int chunkY = 0;
  if constexpr (DimsOf<S>::value == 2) {
    chunkY = chunkRowsFor<S>(ny, nx);
  }
  for (int done = 0; done < steps; done += S::kSteps) {
    const int levels = steps - done < S::kSteps ? steps - done : S::kSteps;
    auto args = passArguments<S>(argsOf, done, levels, from[0], from[1]);
    args.sources = sources;
    args.sources.amplitudes = sources.count == 0
                                  ? nullptr
                                  : sources.amplitudes + static_cast<size_t>(done) * sources.count;
    if (const cudaError_t status =
            launchPassOf<S>(levels, args, to[0], to[1], nz, ny, nx, chunkY, stream);
        status != cudaSuccess) {
      return status;
    }
    // The receivers' rows of these steps, from the pass's inputs, which the
    // next pass overwrites only after this launch (the same stream).
    Element *rows = receivers.records == nullptr
                        ? nullptr
                        : receivers.records + static_cast<size_t>(done) * receivers.count;
    if (const cudaError_t status = launchCone<S>(levels, args, receivers.points, receivers.count,
                                                 rows, nz, ny, nx, stream);
        status != cudaSuccess) {
      return status;
    }
    std::swap(from[0], to[0]);
    std::swap(from[1], to[1]);
  }
  cudaError_t status = cudaSuccess;
  if (from[0] != cur) {
    status = cudaMemcpyAsync(cur, from[0], bytes, cudaMemcpyDeviceToDevice, stream);
    if (status == cudaSuccess && hasTimeLevels<S>()) {
      status = cudaMemcpyAsync(prev, from[1], bytes, cudaMemcpyDeviceToDevice, stream);
    }
  }
  return status;
}

} // namespace fields
} // namespace device
} // namespace stencilc
