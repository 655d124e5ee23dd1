// simt_test.cu - stencilc/device/simt.cuh on the GPU, at extents 1, 3, 17
// and 1000:
//  - the plane fetch: every block's window of a plane, fetched as the
//    direct and register schemes do (fetchWindowGroup) and as the cp.async
//    ring does (fetchPlane), equals a CPU gather with the boundary rule,
//    for aligned input and for input one element off (no vector loads);
//  - the whole step (simt::step and simt::launch) with a 27-point box sum as
//    the stencil, for each streaming scheme (1, 2 and 3 or more stages, one
//    ring in dynamic shared memory), items of 4 and of 1 outputs, fixed and
//    periodic boundaries: the written points equal the CPU's sums (small
//    integers, so exact), the ring is untouched.
#include <cstdint>
#include <vector>

#include "device_test.h"
#include "stencilc/device/simt.cuh"
#include "stencilc/runtime/device_buffer.h"

// The kernels' parameter structs are outside the anonymous namespace: nvcc
// warns of their unused members there.
namespace simt_test {

/// The plan's numbers of a radius-1 3D fp32 kernel: 32 x TileY outputs a
/// block, up to 8 planes, 64 threads.
template <int Stages, int OutX, class BoundaryRule, int Ring, int Prefetch = 0, int TileY = 4>
struct Params {
  using Element = float;
  using Compute = float;
  using Boundary = BoundaryRule;
  static constexpr int kRadiusZ = 1, kRadiusY = 1, kRadiusX = 1;
  static constexpr int kTileX = 32, kTileY = TileY;
  static constexpr int kChunkZ = 8, kMinChunkZ = 1;
  static constexpr long long kTargetBlocks = 64;
  static constexpr int kThreads = 64;
  static constexpr int kOutX = OutX;
  static constexpr int kHaloX = 4;
  static constexpr int kStages = Stages;
  static constexpr int kPrefetchBytes = Prefetch;
  static constexpr int kRingZ = Ring, kRingY = Ring, kRingX = Ring;
};

/// The 27-point box sum: every read of a plane goes into every queue entry.
template <class P> struct BoxSum : stencilc::device::simt::Geometry<P> {
  using Base = stencilc::device::simt::Geometry<P>;
  static __device__ __forceinline__ void addPlane(const float *__restrict__ at, int o,
                                                  float (&queue)[Base::kQueue][Base::kOutX]) {
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy) {
#pragma unroll
      for (int dx = -1; dx <= 1; ++dx) {
#pragma unroll
        for (int j = 0; j < Base::kQueue; ++j) {
          queue[j][o] = stencilc::device::madd(1.0f, at[dy * Base::kPitch + dx + o], queue[j][o]);
        }
      }
    }
  }
};

} // namespace simt_test

namespace {

using namespace stencilc;
using device_test::Tally;
using simt_test::BoxSum;
using simt_test::Params;

template <class S>
__global__ void __launch_bounds__(S::kThreads)
    stepKernel(const float *__restrict__ in, float *__restrict__ out, int nz, int ny, int nx,
               int chunkZ) {
  device::simt::step<S>(in, out, nz, ny, nx, chunkZ);
}

/// Block (blockIdx.x, blockIdx.y)'s window of plane z, written to
/// windows[block] twice: from fetchWindowGroup, and from fetchPlane.
template <class S>
__global__ void fetchWindows(const float *__restrict__ in, float *windows, int z, int nz, int ny,
                             int nx) {
  __shared__ __align__(16) float plane[S::kPlaneSize];
  const long long x0 = static_cast<long long>(blockIdx.x) * S::kTileX;
  const long long y0 = static_cast<long long>(blockIdx.y) * S::kTileY;
  const bool vectorRows = nx % S::kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  float *direct =
      windows + (static_cast<long long>(blockIdx.y) * gridDim.x + blockIdx.x) * 2 * S::kPlaneSize;
  for (int g = threadIdx.x; g < S::kGroups; g += S::kThreads) {
    *reinterpret_cast<uint4 *>(&plane[g * S::kVec]) =
        device::simt::fetchWindowGroup<S>(in, z, g, y0, x0, nz, ny, nx, vectorRows);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < S::kPlaneSize; i += S::kThreads) {
    direct[i] = plane[i];
  }
  __syncthreads();
  const device::simt::GroupSources<S> sources(y0, x0, ny, nx, vectorRows);
  device::simt::fetchPlane<S>(plane, in, z, sources, y0, x0, nz, ny, nx);
  device::commitCopies();
  device::waitCopies<0>();
  __syncthreads();
  for (int i = threadIdx.x; i < S::kPlaneSize; i += S::kThreads) {
    direct[S::kPlaneSize + i] = plane[i];
  }
}

struct Grid {
  int nz, ny, nx;
};

std::vector<float> smallIntegers(long long count) {
  std::vector<float> values(count);
  for (long long i = 0; i < count; ++i) {
    values[i] = static_cast<float>((i * 7919) % 13) - 6.0f;
  }
  return values;
}

long long wrap(long long i, int n) { return ((i % n) + n) % n; }

/// The input at (z, y, x), anywhere, by the boundary rule (fixed: 0).
float at(const std::vector<float> &in, Grid g, bool periodic, long long z, long long y,
         long long x) {
  if (periodic) {
    z = wrap(z, g.nz), y = wrap(y, g.ny), x = wrap(x, g.nx);
  } else if (z < 0 || z >= g.nz || y < 0 || y >= g.ny || x < 0 || x >= g.nx) {
    return 0.0f;
  }
  return in[(z * g.ny + y) * g.nx + x];
}

template <class S> void checkFetch(Tally &tally, Grid g, bool periodic, int offset) {
  const long long points = static_cast<long long>(g.nz) * g.ny * g.nx;
  const std::vector<float> host = smallIntegers(points + offset);
  const std::vector<float> grid(host.begin() + offset, host.end());
  const dim3 blocks = device::simt::gridFor<S>(1, g.ny, g.nx, 1);
  const long long windows = static_cast<long long>(blocks.x) * blocks.y;
  DeviceBuffer<float> in(points + offset), out(windows * 2 * S::kPlaneSize);
  in.upload(host);
  long long wrong = 0;
  for (int z : {-1, 0, g.nz / 2, g.nz - 1, g.nz}) {
    fetchWindows<S><<<dim3(blocks.x, blocks.y), S::kThreads>>>(in.data() + offset, out.data(), z,
                                                               g.nz, g.ny, g.nx);
    STENCILC_CHECK_LAUNCH();
    const std::vector<float> got = out.download();
    for (long long w = 0; w < windows; ++w) {
      const long long x0 = w % blocks.x * S::kTileX, y0 = w / blocks.x * S::kTileY;
      for (int i = 0; i < S::kPlaneSize; ++i) {
        const float want = at(grid, g, periodic, z, y0 - S::kRadiusY + i / S::kPitch,
                              x0 - S::kHaloX + i % S::kPitch);
        wrong += got[w * 2 * S::kPlaneSize + i] != want;
        wrong += got[(w * 2 + 1) * S::kPlaneSize + i] != want;
      }
    }
  }
  tally.check(wrong == 0, periodic ? "plane fetch, periodic" : "plane fetch, fixed", wrong);
}

template <class S> void checkStep(Tally &tally, Grid g, bool periodic, const char *what) {
  const long long points = static_cast<long long>(g.nz) * g.ny * g.nx;
  const std::vector<float> grid = smallIntegers(points);
  std::vector<float> expected(points, 1000.0f); // the ring keeps what out held
  DeviceBuffer<float> in(points), out(points);
  in.upload(grid);
  out.upload(expected);
  STENCILC_CHECK(
      device::simt::launch<S>(stepKernel<S>, in.data(), out.data(), g.nz, g.ny, g.nx, nullptr));
  const int ring = periodic ? 0 : 1;
  for (long long z = ring; z < g.nz - ring; ++z) {
    for (long long y = ring; y < g.ny - ring; ++y) {
      for (long long x = ring; x < g.nx - ring; ++x) {
        float sum = 0.0f;
        for (int dz = -1; dz <= 1; ++dz) {
          for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
              sum += at(grid, g, periodic, z + dz, y + dy, x + dx);
            }
          }
        }
        expected[(z * g.ny + y) * g.nx + x] = sum;
      }
    }
  }
  const std::vector<float> got = out.download();
  long long wrong = 0;
  for (long long i = 0; i < points; ++i) {
    wrong += got[i] != expected[i];
  }
  tally.check(wrong == 0, what, wrong);
}

template <int Stages, int OutX, int Prefetch = 0, int TileY = 4>
void checkScheme(Tally &tally, Grid g, const char *what) {
  using Periodic = BoxSum<Params<Stages, OutX, device::PeriodicBoundary, 0, Prefetch, TileY>>;
  using Fixed = BoxSum<Params<Stages, OutX, device::FixedBoundary, 1, Prefetch, TileY>>;
  checkStep<Periodic>(tally, g, true, what);
  if (g.nz >= 3 && g.ny >= 3 && g.nx >= 3) {
    checkStep<Fixed>(tally, g, false, what);
  }
}

} // namespace

int main() {
  device_test::skipWithoutDevice();
  Tally tally;
  std::vector<Grid> grids;
  for (int n : device_test::kSizes) {
    grids.push_back({n, 3, 17});
    grids.push_back({3, n, 17});
    grids.push_back({17, 3, n});
    if (n < 1000) {
      grids.push_back({n, n, n});
    }
  }
  grids.push_back({3, 17, 1000});
  static_assert(BoxSum<Params<8, 4, device::FixedBoundary, 1, 0, 64>>::kDynamicShared,
                "the ring of 8 needs dynamic shared memory");
  for (Grid g : grids) {
    using Fetch = device::simt::Geometry<Params<3, 4, device::PeriodicBoundary, 0>>;
    using FetchFixed = device::simt::Geometry<Params<3, 4, device::FixedBoundary, 1, 128>>;
    checkFetch<Fetch>(tally, g, true, 0);
    checkFetch<Fetch>(tally, g, true, 1);
    checkFetch<FetchFixed>(tally, g, false, 0);
    checkFetch<FetchFixed>(tally, g, false, 1);
    checkScheme<1, 4>(tally, g, "step, direct");
    checkScheme<2, 4>(tally, g, "step, registers");
    checkScheme<3, 4>(tally, g, "step, cp.async ring");
    checkScheme<4, 4, 256>(tally, g, "step, cp.async ring of 4, L2 prefetch");
    checkScheme<2, 1>(tally, g, "step, items of one output");
    checkScheme<8, 4, 0, 64>(tally, g, "step, ring of 8 in dynamic shared memory");
  }
  return tally.finish("simt");
}
