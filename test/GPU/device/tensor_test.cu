// GPU test of stencilc/device/tensor.cuh on grids of extent 1, 3, 17 and
// 1000 per axis:
//  - the window fetch (fetchWindow, then storeWindow) of block tiles at every
//    edge and in the middle, 1D, 2D and one plane of 3D, under each boundary
//    policy, against a CPU gather;
//  - the tile store (storeTile) of whole grids of block tiles, with the ring
//    of a fixed boundary and without, on aligned and misaligned outputs, by
//    each store path (16-byte rows, pairs, m8n8), against the CPU's copy;
//  - the persistent launch and walk (launch, BlockTiles, enterBlockColumn,
//    enterPlane): every block tile, or block column and plane, visited
//    once, and each slab of the 3D ring holding its input plane.
// Exit status 0 when every case passes, 1 otherwise, 77 without a GPU.
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <stencilc/device/tensor.cuh>

#include "device_test.h"
#include "stencilc/runtime/check.h"

namespace sd = stencilc::device;

// Geometries live outside an unnamed namespace: nvcc warns about their
// members that a test does not read, as it would not for the generated ones.
namespace tensor_test {

struct Half {
  static constexpr float value = 0.5f;
};

/// A plan's geometry as stencilc would print it: dims, radius, ring, MMA
/// blocks per tile, tiles per block tile, warps.
template <class ElementType, class MmaType, class BoundaryType, int Dims, int Radius, int Ring,
          int NBlocks, int TileRows, int TileCols, int Warps>
struct TestGeometry {
  using Element = ElementType;
  using Mma = MmaType;
  using Boundary = BoundaryType;
  static constexpr int kDims = Dims;
  static constexpr int kRadius = Radius;
  static constexpr int kRing = Ring;
  static constexpr int kTileM = Mma::kM;
  static constexpr int kTileN = NBlocks * Mma::kN;
  static constexpr int kNBlocks = NBlocks;
  static constexpr int kTileRows = TileRows;
  static constexpr int kTileCols = TileCols;
  static constexpr int kWarps = Warps;
  static constexpr int kVec = 16 / sizeof(Element);
  static constexpr int kHaloCols = (Radius + kVec - 1) / kVec * kVec;
  static constexpr int kWindowRows = TileRows * kTileM + (Dims == 1 ? 0 : 2 * Radius);
  static constexpr int kLoadedRows = kWindowRows;
  static constexpr int kLoadedColBegin = 0;
  static constexpr int kLoadedColEnd = TileCols * kTileN + 2 * kHaloCols;
  static constexpr int kPitch = kLoadedColEnd + kVec; // one vector of padding, as the planner pads
  static constexpr int kPlanes = Dims == 3 ? 2 * Radius + 1 : 1;
  static constexpr int kParamElements = 1;
  static constexpr int kPrefetchBytes = 0;
};

} // namespace tensor_test

namespace {

/// The checks of this test: one per case, the count of wrong values its detail.
stencilc::device_test::Tally &tally() {
  static stencilc::device_test::Tally t;
  return t;
}

using tensor_test::Half;
using tensor_test::TestGeometry;

double toDouble(__half v) { return __half2float(v); }
double toDouble(double v) { return v; }
double toDouble(float v) { return v; }

template <class Element> Element fromDouble(double v) {
  if constexpr (std::is_same_v<Element, __half>) {
    return __double2half(v);
  } else {
    return static_cast<Element>(v);
  }
}

/// Input value of point i: distinct for neighbours, exact in fp16.
double inputValue(long long i) { return static_cast<double>(i % 1999 + 1) * 0.5; }

/// The CPU's read of (z, y, x) under boundary B: fixed 0, constant 0.5, or wrapped.
template <class B>
double cpuRead(const std::vector<double> &in, long long z, long long y, long long x, int nz, int ny,
               int nx) {
  if constexpr (std::is_same_v<B, sd::PeriodicBoundary>) {
    z = ((z % nz) + nz) % nz;
    y = ((y % ny) + ny) % ny;
    x = ((x % nx) + nx) % nx;
  } else if (z < 0 || z >= nz || y < 0 || y >= ny || x < 0 || x >= nx) {
    return std::is_same_v<B, sd::FixedBoundary> ? 0.0 : 0.5;
  }
  return in[(static_cast<std::size_t>(z) * ny + y) * nx + x];
}

// --- the window fetch --------------------------------------------------------

/// Block b fetches the window of block tile (rows[b], cols[b]) (3D: of input
/// plane z) and copies its shared-memory window to windows[b].
template <class G>
__global__ void fetchWindows(const typename G::Element *in, int nz, long long z, int ny, int nx,
                             const long long *rows, const long long *cols,
                             typename G::Element *windows) {
  using Block = sd::TensorBlock<G>;
  __shared__ __align__(128) typename G::Element window[Block::kWindowRows * Block::kPitch];
  typename Block::Staged staged;
  if constexpr (G::kDims == 3) {
    Block::fetchWindow(in, nz, z, ny, nx, rows[blockIdx.x], cols[blockIdx.x], staged);
  } else {
    Block::fetchWindow(in, ny, nx, rows[blockIdx.x], cols[blockIdx.x], staged);
  }
  Block::storeWindow(window, staged);
  __syncthreads();
  constexpr int kSize = Block::kWindowRows * Block::kPitch;
  for (int i = threadIdx.x; i < kSize; i += blockDim.x) {
    windows[blockIdx.x * kSize + i] = window[i];
  }
}

/// First, middle and last block tile start of an axis of n points.
std::vector<long long> edgeStarts(int n, int block) {
  const long long last = (n - 1) / block;
  std::vector<long long> starts{0};
  if (last / 2 > 0) {
    starts.push_back(last / 2 * block);
  }
  if (last > 0) {
    starts.push_back(last * block);
  }
  return starts;
}

template <class G> void checkFetch(const char *name, int nz, long long z, int ny, int nx) {
  using Block = sd::TensorBlock<G>;
  using Element = typename G::Element;
  const std::size_t points = static_cast<std::size_t>(nz) * ny * nx;
  std::vector<double> in(points);
  std::vector<Element> inElements(points);
  for (std::size_t i = 0; i < points; ++i) {
    in[i] = inputValue(static_cast<long long>(i));
    inElements[i] = fromDouble<Element>(in[i]);
  }
  // A 1D line of nx points runs as rows of kBlockCols points.
  const int rowsOfGrid = G::kDims == 1 ? (nx + Block::kBlockCols - 1) / Block::kBlockCols : ny;
  std::vector<long long> rows, cols;
  for (long long r : edgeStarts(rowsOfGrid, Block::kBlockRows)) {
    for (long long c : edgeStarts(G::kDims == 1 ? 1 : nx, Block::kBlockCols)) {
      rows.push_back(r);
      cols.push_back(c);
    }
  }
  const int blocks = static_cast<int>(rows.size());
  constexpr int kSize = Block::kWindowRows * Block::kPitch;
  Element *din = nullptr, *dwin = nullptr;
  long long *drows = nullptr, *dcols = nullptr;
  STENCILC_CHECK(cudaMalloc(&din, points * sizeof(Element)));
  STENCILC_CHECK(cudaMalloc(&dwin, std::size_t(blocks) * kSize * sizeof(Element)));
  STENCILC_CHECK(cudaMalloc(&drows, blocks * sizeof(long long)));
  STENCILC_CHECK(cudaMalloc(&dcols, blocks * sizeof(long long)));
  STENCILC_CHECK(
      cudaMemcpy(din, inElements.data(), points * sizeof(Element), cudaMemcpyHostToDevice));
  STENCILC_CHECK(
      cudaMemcpy(drows, rows.data(), blocks * sizeof(long long), cudaMemcpyHostToDevice));
  STENCILC_CHECK(
      cudaMemcpy(dcols, cols.data(), blocks * sizeof(long long), cudaMemcpyHostToDevice));
  fetchWindows<G><<<blocks, Block::kThreads>>>(din, nz, z, G::kDims == 1 ? rowsOfGrid : ny, nx,
                                               drows, dcols, dwin);
  STENCILC_CHECK_LAUNCH();
  std::vector<Element> windows(std::size_t(blocks) * kSize);
  STENCILC_CHECK(
      cudaMemcpy(windows.data(), dwin, windows.size() * sizeof(Element), cudaMemcpyDeviceToHost));
  long long wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int w = 0; w < Block::kWindowRows; ++w) {
      for (int c = 0; c < Block::kPitch; ++c) {
        double want = 0.0;
        if (w < G::kLoadedRows && c >= G::kLoadedColBegin && c < G::kLoadedColEnd) {
          if constexpr (G::kDims == 1) {
            want = cpuRead<typename G::Boundary>(
                in, 0, 0, (rows[b] + w) * Block::kBlockCols - G::kHaloCols + c, 1, 1, nx);
          } else {
            want =
                cpuRead<typename G::Boundary>(in, G::kDims == 3 ? z : 0, rows[b] - G::kRadius + w,
                                              cols[b] - G::kHaloCols + c, nz, ny, nx);
          }
        }
        wrong += toDouble(windows[(std::size_t(b) * Block::kWindowRows + w) * Block::kPitch + c]) !=
                         toDouble(fromDouble<Element>(want))
                     ? 1
                     : 0;
      }
    }
  }
  char title[160];
  std::snprintf(title, sizeof title, "fetch %s %dx%dx%d z=%lld", name, nz, ny, nx, z);
  tally().check(wrong == 0, title, wrong);
  cudaFree(din);
  cudaFree(dwin);
  cudaFree(drows);
  cudaFree(dcols);
}

template <class B> void checkFetchAll(const char *boundary) {
  using G2 = TestGeometry<__half, sd::MmaM16N8K16<__half>, B, 2, 3, 0, 4, 2, 2, 4>;
  using G1 = TestGeometry<__half, sd::MmaM16N8K16<__half>, B, 1, 5, 0, 2, 4, 1, 4>;
  using G2d = TestGeometry<double, sd::MmaM8N8K4F64, B, 2, 2, 0, 2, 2, 4, 8>;
  using G3 = TestGeometry<__half, sd::MmaM16N8K16<__half>, B, 3, 1, 0, 4, 1, 2, 2>;
  for (int ny : stencilc::device_test::kSizes) {
    for (int nx : stencilc::device_test::kSizes) {
      checkFetch<G2>((std::string("2D fp16 r3 ") + boundary).c_str(), 1, 0, ny, nx);
      checkFetch<G2d>((std::string("2D fp64 r2 ") + boundary).c_str(), 1, 0, ny, nx);
    }
    checkFetch<G1>((std::string("1D fp16 r5 ") + boundary).c_str(), 1, 0, 1, ny);
  }
  // 3D: the planes below, at and past the edges of the volume.
  for (int nz : stencilc::device_test::kSizes) {
    for (long long z : {-1LL, 0LL, static_cast<long long>(nz) - 1, static_cast<long long>(nz)}) {
      checkFetch<G3>((std::string("3D fp16 r1 ") + boundary).c_str(), nz, z, 3, 17);
    }
  }
  checkFetch<G3>((std::string("3D fp16 r1 ") + boundary).c_str(), 3, 1, 17, 1000);
}

// --- the tile store ----------------------------------------------------------

/// The accumulator of output (y, x) (1D: point y kBlockCols + x of the line).
__host__ __device__ float storedValue(long long y, long long x) {
  return static_cast<float>((y * 7 + x * 3) % 1000) + 0.5f;
}

/// Block b stores every output tile of block tile b, each accumulator
/// holding storedValue of its output.
template <class G> __global__ void storeTiles(typename G::Element *out, int ny, int nx) {
  using Block = sd::TensorBlock<G>;
  const typename Block::BlockTiles tiles = Block::blockTiles(ny, nx);
  const long long blockRow = tiles.row(blockIdx.x), blockCol = tiles.col(blockIdx.x);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const bool pairs = Block::pairsAligned(out, nx);
  for (int i = 0; i < Block::kTilesPerWarp; ++i) {
    const typename Block::Tile tile = Block::tile(warp + i * Block::kWarps, blockRow, blockCol);
    if (!tile.inGrid(ny, nx)) {
      continue;
    }
    typename Block::FragmentC acc[Block::kNBlocks];
    for (int j = 0; j < Block::kNBlocks; ++j) {
      for (int e = 0; e < Block::kTileM * Block::kMmaN / 32; ++e) {
        const int row = lane / 4 + (e / 2) * 8, col = j * Block::kMmaN + lane % 4 * 2 + e % 2;
        const long long y = tile.outRow + row, x = tile.outCol + col;
        acc[j].x[e] = G::kDims == 1 ? storedValue(0, y * Block::kBlockCols + x) : storedValue(y, x);
      }
    }
    Block::storeTile(out, tile, acc, ny, nx, pairs, lane);
  }
}

template <class G> void checkStore(const char *name, int ny, int nx, int offset) {
  using Block = sd::TensorBlock<G>;
  using Element = typename G::Element;
  const int rowsOfGrid = G::kDims == 1 ? (nx + Block::kBlockCols - 1) / Block::kBlockCols : ny;
  const std::size_t points = static_cast<std::size_t>(G::kDims == 1 ? 1 : ny) * nx;
  const Element sentinel = fromDouble<Element>(-1.0);
  std::vector<Element> host(points + offset, sentinel);
  Element *d = nullptr;
  STENCILC_CHECK(cudaMalloc(&d, host.size() * sizeof(Element)));
  STENCILC_CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(Element), cudaMemcpyHostToDevice));
  const long long blocks = Block::blockTiles(rowsOfGrid, nx).count;
  storeTiles<G><<<static_cast<unsigned>(blocks), Block::kThreads>>>(d + offset, rowsOfGrid, nx);
  STENCILC_CHECK_LAUNCH();
  STENCILC_CHECK(cudaMemcpy(host.data(), d, host.size() * sizeof(Element), cudaMemcpyDeviceToHost));
  long long wrong = toDouble(host[0]) != -1.0 && offset ? 1 : 0;
  const int r = G::kRing;
  for (std::size_t i = 0; i < points; ++i) {
    const long long y = G::kDims == 1 ? 0 : static_cast<long long>(i) / nx;
    const long long x = static_cast<long long>(i) % nx;
    const bool written = x >= r && x < nx - r && (G::kDims == 1 || (y >= r && y < ny - r));
    const double want = written ? toDouble(fromDouble<Element>(storedValue(y, x))) : -1.0;
    wrong += toDouble(host[offset + i]) != want ? 1 : 0;
  }
  char title[160];
  std::snprintf(title, sizeof title, "store %s %dx%d%s", name, G::kDims == 1 ? 1 : ny, nx,
                offset ? " misaligned" : "");
  tally().check(wrong == 0, title, wrong);
  cudaFree(d);
}

template <class G> void checkStoreSizes(const char *name) {
  for (int ny : stencilc::device_test::kSizes) {
    for (int nx : stencilc::device_test::kSizes) {
      if (G::kDims == 1 && ny != 1) {
        continue;
      }
      for (int offset : {0, 1}) {
        checkStore<G>(name, ny, nx, offset);
      }
    }
  }
}

// --- the launch and the walk -------------------------------------------------

/// Each block tile of the walk counts one visit (2D and 1D).
template <class G> __global__ void walk2d(const float *, float *visits, int ny, int nx) {
  using Block = sd::TensorBlock<G>;
  const typename Block::BlockTiles tiles = Block::blockTiles(ny, nx);
  for (long long t = blockIdx.x; t < tiles.count; t += gridDim.x) {
    if (threadIdx.x == 0) {
      atomicAdd(&visits[t], 1.0f);
    }
  }
}

/// Each (plane, block column) of the walk counts one visit; visits gets a
/// second count for every slab of the plane ring that does not hold its
/// input plane, read from `in` (in(z, y, x) = z + 1).
template <class G>
__global__ void walk3d(const float *in, float *visits, int nz, int ny, int nx, int chunkZ) {
  using Block = sd::TensorBlock<G>;
  __shared__ __align__(128) float window[Block::kWindowElements];
  const typename Block::BlockColumns columns = Block::blockColumns(nz, ny, nx, chunkZ);
  typename Block::Staged staged;
  for (long long t = blockIdx.x; t < columns.count; t += gridDim.x) {
    const typename Block::BlockColumn column =
        Block::enterBlockColumn(in, nz, ny, nx, chunkZ, columns, t, window, staged);
    for (long long z = column.z0; z < column.zEnd; ++z) {
      int slab[Block::kPlanes];
      Block::enterPlane(in, nz, ny, nx, column, z, window, staged, slab);
      if (threadIdx.x == 0) {
        const long long cell = z * columns.perPlanes + t % columns.perPlanes;
        atomicAdd(&visits[cell], 1.0f);
        for (int s = 0; s < Block::kPlanes; ++s) {
          const long long plane = z + s - G::kRadius;
          // Window row kRadius, column kHaloCols: input (plane, column.row, column.col).
          const float want = plane >= 0 && plane < nz ? static_cast<float>(plane + 1) : 0.0f;
          const float got = window[(slab[s] + G::kRadius) * Block::kPitch + G::kHaloCols];
          if (got != want) {
            atomicAdd(&visits[cell], 1.0f);
          }
        }
      }
      __syncthreads();
    }
  }
}

/// Every one of the `cells` counters at `d` (device) was visited exactly once.
void checkVisitedOnce(const float *d, long long cells, const char *title) {
  std::vector<float> visits(cells);
  STENCILC_CHECK(cudaMemcpy(visits.data(), d, cells * sizeof(float), cudaMemcpyDeviceToHost));
  long long wrong = 0;
  for (float v : visits) {
    wrong += v != 1.0f ? 1 : 0;
  }
  tally().check(wrong == 0, title, wrong);
}

template <class G> void checkWalk2d(int ny, int nx) {
  using Block = sd::TensorBlock<G>;
  const long long count = Block::blockTiles(ny, nx).count;
  float *d = nullptr;
  STENCILC_CHECK(cudaMalloc(&d, count * sizeof(float)));
  STENCILC_CHECK(cudaMemset(d, 0, count * sizeof(float)));
  STENCILC_CHECK(Block::launch(walk2d<G>, d, d, ny, nx, 0));
  char title[160];
  std::snprintf(title, sizeof title, "launch 2D %dx%d", ny, nx);
  checkVisitedOnce(d, count, title);
  cudaFree(d);
}

template <class G> void checkWalk3d(int nz, int ny, int nx) {
  using Block = sd::TensorBlock<G>;
  const std::size_t points = static_cast<std::size_t>(nz) * ny * nx;
  std::vector<float> in(points);
  for (std::size_t i = 0; i < points; ++i) {
    in[i] = static_cast<float>(i / (static_cast<std::size_t>(ny) * nx) + 1);
  }
  const long long cells = nz * Block::blockColumns(nz, ny, nx, 1).perPlanes;
  float *din = nullptr, *d = nullptr;
  STENCILC_CHECK(cudaMalloc(&din, points * sizeof(float)));
  STENCILC_CHECK(cudaMalloc(&d, cells * sizeof(float)));
  STENCILC_CHECK(cudaMemcpy(din, in.data(), points * sizeof(float), cudaMemcpyHostToDevice));
  STENCILC_CHECK(cudaMemset(d, 0, cells * sizeof(float)));
  STENCILC_CHECK(Block::launch(walk3d<G>, din, d, nz, ny, nx, 0));
  char title[160];
  std::snprintf(title, sizeof title, "launch 3D %dx%dx%d", nz, ny, nx);
  checkVisitedOnce(d, cells, title);
  cudaFree(din);
  cudaFree(d);
}

} // namespace

int main() {
  stencilc::device_test::skipWithoutDevice();
  checkFetchAll<sd::FixedBoundary>("fixed");
  checkFetchAll<sd::PeriodicBoundary>("periodic");
  checkFetchAll<sd::ConstantBoundary<Half>>("constant");

  using Fixed = sd::FixedBoundary;
  // 16-byte rows (fp16, even MMA blocks), pairs (fp16 with 3 blocks, tf32),
  // m8n8 (fp64 on sm_80), m16n8 fp64; with and without a ring.
  checkStoreSizes<TestGeometry<__half, sd::MmaM16N8K16<__half>, Fixed, 2, 2, 2, 4, 2, 2, 4>>(
      "2D fp16 rows16 ring 2");
  checkStoreSizes<TestGeometry<__half, sd::MmaM16N8K16<__half>, Fixed, 2, 1, 0, 3, 2, 2, 3>>(
      "2D fp16 pairs");
  checkStoreSizes<TestGeometry<float, sd::MmaM16N8K8Tf32, Fixed, 2, 1, 1, 2, 2, 2, 4>>(
      "2D tf32 ring 1");
  checkStoreSizes<TestGeometry<double, sd::MmaM8N8K4F64, Fixed, 2, 3, 3, 2, 4, 2, 8>>(
      "2D fp64 m8n8 ring 3");
  checkStoreSizes<TestGeometry<double, sd::MmaM16N8K4F64, Fixed, 2, 1, 0, 1, 2, 2, 4>>(
      "2D fp64 m16n8");
  checkStoreSizes<TestGeometry<__half, sd::MmaM16N8K16<__half>, Fixed, 1, 2, 2, 4, 4, 2, 8>>(
      "1D fp16 rows16 ring 2");
  checkStoreSizes<TestGeometry<float, sd::MmaM16N8K8Tf32, Fixed, 1, 8, 0, 1, 4, 8, 8>>("1D tf32");

  using Walk = TestGeometry<float, sd::MmaM16N8K8Tf32, Fixed, 2, 1, 1, 2, 2, 2, 4>;
  using Walk3 = TestGeometry<float, sd::MmaM16N8K8Tf32, Fixed, 3, 2, 2, 2, 2, 1, 2>;
  for (int n : stencilc::device_test::kSizes) {
    checkWalk2d<Walk>(n, n);
    checkWalk2d<Walk>(3, n);
    checkWalk3d<Walk3>(n, 3, 17);
  }
  checkWalk3d<Walk3>(17, 17, 1000);
  return tally().finish("tensor_test");
}
