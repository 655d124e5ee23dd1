// stencilc/device/tensor.cuh - the fixed parts of a tensor-core stencil
// kernel (the TCStencil method: each output tile is a sum of MMA products of
// input windows with banded parameter matrices).
//
// C++17. Everything here is the same for every stencil; what is a stencil's
// own comes in as a geometry type G (the generated code defines one):
//
//   using Element;             the grid's element type in memory
//   using Mma;                 the MMA shape (mma.cuh), of the same Element
//   using Boundary;            FixedBoundary, PeriodicBoundary or
//                              ConstantBoundary<V> (boundary.cuh)
//   kDims                      1, 2 or 3; a 1D line runs as rows of
//                              kBlockCols points, row w of a window holding
//                              one row and its halo on both sides
//   kRadius, kRing             the radius; the points a step leaves unwritten
//                              at each edge (kRadius for fixed, else 0)
//   kTileM, kTileN, kNBlocks   output tile: kTileM rows x kNBlocks MMA blocks
//                              of Mma::kN columns (kTileN)
//   kTileRows, kTileCols       output tiles per block tile, down and across
//   kWarps                     warps per block
//   kHaloCols                  the radius rounded up to whole 16-byte vectors
//   kWindowRows, kPitch        the shared-memory window of one block tile
//                              (of one input plane in 3D) and its row pitch
//   kLoadedRows,               the part of the window that holds input; the
//   kLoadedColBegin/End        rest holds zeros
//   kVec                       elements per 16-byte vector
//   kPlanes                    3D: window slabs, input planes z - r .. z + r
//   kParamElements             elements of all parameter matrices
//   kPrefetchBytes             L2 prefetch of the window's 16-byte loads
//                              (0, 64, 128 or 256; memory.cuh)
//
// TensorBlock<G> gives the derived constants, the window fetch (global
// memory to registers, so that it overlaps the MMAs of the tile before) and
// store (registers to shared memory), the walk of a persistent block over
// block tiles (2D) or over block columns and their plane ring (3D), the
// parameter fragments (from shared memory, or held in registers), the two
// kinds of slice GEMM, the tile store and the host-side launch.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda_runtime.h>

#include <stencilc/device/boundary.cuh>
#include <stencilc/device/element.cuh>
#include <stencilc/device/host.cuh>
#include <stencilc/device/memory.cuh>
#include <stencilc/device/mma.cuh>
#include <stencilc/device/stacked.cuh>

namespace stencilc {
namespace device {

/// Whether geometry G lays its window out for the sparse form (G::kSwizzled:
/// TensorBlock::swizzle); false where G does not say.
template <class G, class = void> struct SwizzledWindow : std::false_type {};
template <class G>
struct SwizzledWindow<G, std::void_t<decltype(G::kSwizzled)>> : std::bool_constant<G::kSwizzled> {};

template <class G> struct TensorBlock {
  using Element = typename G::Element;
  using Mma = typename G::Mma;
  using Boundary = typename G::Boundary;
  using Accumulator = typename Mma::Accumulator;
  using FragmentA = typename Mma::FragmentA;
  using FragmentB = typename Mma::FragmentB;
  using FragmentC = typename Mma::FragmentC;

  static constexpr int kDims = G::kDims;
  static constexpr int kRadius = G::kRadius;
  static constexpr int kRing = G::kRing;
  static constexpr int kMmaN = Mma::kN;
  static constexpr int kMmaK = Mma::kK; // one chunk of a slice GEMM
  static constexpr int kTileM = G::kTileM;
  static constexpr int kTileN = G::kTileN;
  static constexpr int kNBlocks = G::kNBlocks;
  static constexpr int kTileRows = G::kTileRows;
  static constexpr int kTileCols = G::kTileCols;
  static constexpr int kTilesPerBlock = kTileRows * kTileCols;
  static constexpr int kBlockRows = kTileRows * kTileM; // outputs per block tile, down
  static constexpr int kBlockCols = kTileCols * kTileN; // outputs per block tile, across
  static constexpr int kWarps = G::kWarps;
  static constexpr int kThreads = kWarps * 32;
  static constexpr int kTilesPerWarp = (kTilesPerBlock + kWarps - 1) / kWarps;
  static constexpr int kHaloCols = G::kHaloCols;
  static constexpr int kWindowRows = G::kWindowRows;
  static constexpr int kPitch = G::kPitch;
  static constexpr int kVec = G::kVec;
  static constexpr int kPlanes = kDims == 3 ? G::kPlanes : 1;
  static constexpr int kWindowElements = kPlanes * kWindowRows * kPitch;
  static constexpr int kGroupsPerRow = kPitch / kVec; // 16-byte groups of a window row
  static constexpr int kGroups = kWindowRows * kGroupsPerRow;
  static constexpr int kGroupsPerThread = (kGroups + kThreads - 1) / kThreads;
  static constexpr bool kSwizzled = SwizzledWindow<G>::value;

  static_assert(kDims >= 1 && kDims <= 3, "a grid has 1, 2 or 3 dimensions");
  static_assert(std::is_same_v<Element, typename Mma::Element>, "the MMA reads the grid's type");
  static_assert(kTileM == Mma::kM && kTileN == kNBlocks * kMmaN,
                "a tile is MMA blocks side by side");
  static_assert(kVec * sizeof(Element) == 16, "a vector is 16 bytes");
  static_assert(kPitch * sizeof(Element) % 16 == 0, "window rows must stay 16-byte aligned");
  static_assert(kHaloCols % kVec == 0 && kTileN % kVec == 0,
                "tiles start on 16-byte aligned columns");
  static_assert(kDims != 1 || kHaloCols >= kRadius, "each window row carries its row's halo");
  static_assert(!kSwizzled || (kDims == 2 && kPitch % 64 == 0),
                "a swizzled window is 2D, its rows whole 64-element blocks");

  /// Where column col of window row `row` lies in a swizzled window (the
  /// sparse form's): bits 3 and 5 of the column flipped by bits 0 and 1 of
  /// the row, so that the sparse form's 8-byte loads of four consecutive
  /// rows, whose pitch is a multiple of 32 banks, fall on distinct banks.
  /// 16-byte vectors stay whole.
  static __device__ __forceinline__ int swizzle(int row, int col) {
    return kSwizzled ? col ^ (8 * (row & 1) + 32 * (row >> 1 & 1)) : col;
  }

  /// The 16-byte groups of a window this thread fetches and stores.
  using Staged = uint4[kGroupsPerThread];

  // --- the window --------------------------------------------------------

  /// Reads the input window of the block tile at (blockRow, blockCol) into
  /// registers (1D and 2D): window[w][c] = in(blockRow - kRadius + w,
  /// blockCol - kHaloCols + c), on a 1D line in[(blockRow + w) kBlockCols -
  /// kHaloCols + c]. 16-byte loads where the row allows, the boundary rule
  /// elsewhere, zeros outside the loaded part (only ever multiplied by 0).
  /// Every load of a thread is issued before any is used.
  static __device__ __forceinline__ void fetchWindow(const Element *__restrict__ in, int ny, int nx,
                                                     long long blockRow, long long blockCol,
                                                     Staged &staged) {
    static_assert(kDims != 3, "a 3D window is one plane: fetchWindow(in, nz, z, ...)");
    fetch(in, 1, 0, ny, nx, blockRow, blockCol, staged);
  }

  /// The same for input plane z of nz (3D): one slab of the window.
  static __device__ __forceinline__ void fetchWindow(const Element *__restrict__ in, int nz,
                                                     long long z, int ny, int nx,
                                                     long long blockRow, long long blockCol,
                                                     Staged &staged) {
    static_assert(kDims == 3, "only a 3D window has planes");
    fetch(in, nz, z, ny, nx, blockRow, blockCol, staged);
  }

  /// Writes a fetched window (one slab in 3D) into shared memory; tf32
  /// operands enter it rounded as the MMA reads them (to nearest, ties away
  /// from zero).
  static __device__ __forceinline__ void storeWindow(Element *window, const Staged &staged) {
#pragma unroll
    for (int i = 0; i < kGroupsPerThread; ++i) {
      const int group = threadIdx.x + i * kThreads;
      if (group < kGroups) {
        if constexpr (std::is_same_v<Mma, MmaM16N8K8Tf32>) {
          *reinterpret_cast<float4 *>(&window[group * kVec]) = make_float4(
              roundToTf32(__uint_as_float(staged[i].x)), roundToTf32(__uint_as_float(staged[i].y)),
              roundToTf32(__uint_as_float(staged[i].z)), roundToTf32(__uint_as_float(staged[i].w)));
        } else if constexpr (kSwizzled) {
          const int row = group / kGroupsPerRow;
          *reinterpret_cast<uint4 *>(
              &window[row * kPitch + swizzle(row, group % kGroupsPerRow * kVec)]) = staged[i];
        } else {
          *reinterpret_cast<uint4 *>(&window[group * kVec]) = staged[i];
        }
      }
    }
  }

  // --- the walk of a persistent block (1D and 2D) ------------------------

  /// The block tiles of the grid, kBlockRows x kBlockCols outputs each, in
  /// row-major order.
  struct BlockTiles {
    int across;      // block tiles across the grid
    long long count; // block tiles in all

    __device__ __forceinline__ long long row(long long tile) const {
      return tile / across * kBlockRows;
    }
    __device__ __forceinline__ long long col(long long tile) const {
      return tile % across * kBlockCols;
    }
  };

  static __host__ __device__ __forceinline__ BlockTiles blockTiles(int ny, int nx) {
    const int across = kDims == 1 ? 1 : (nx + kBlockCols - 1) / kBlockCols;
    return {across, static_cast<long long>(across) * ((ny + kBlockRows - 1) / kBlockRows)};
  }

  /// Fetches the window of block tile `tile` into registers, if there is one.
  static __device__ __forceinline__ void fetchBlockTile(const Element *__restrict__ in, int ny,
                                                        int nx, const BlockTiles &tiles,
                                                        long long tile, Staged &staged) {
    if (tile < tiles.count) {
      fetchWindow(in, ny, nx, tiles.row(tile), tiles.col(tile), staged);
    }
  }

  /// Enters block tile `tile`, whose window is in `staged`: stores it to
  /// shared memory for every warp and sends the fetch of the block's next
  /// block tile on its way.
  static __device__ __forceinline__ void enterBlockTile(const Element *__restrict__ in, int ny,
                                                        int nx, const BlockTiles &tiles,
                                                        long long tile, Element *window,
                                                        Staged &staged) {
    storeWindow(window, staged);
    __syncthreads();
    fetchBlockTile(in, ny, nx, tiles, tile + gridDim.x, staged);
  }

  // --- the walk of a persistent block (3D, the plane ring) ---------------

  /// The block columns of a volume: kBlockRows x kBlockCols outputs of
  /// chunkZ consecutive planes each.
  struct BlockColumns {
    int across;          // block columns across a plane
    long long perPlanes; // block columns of one chunk of planes
    long long count;     // block columns in all
  };

  /// One block column: its first output row and column, its planes [z0, zEnd).
  struct BlockColumn {
    long long row, col, z0, zEnd;
  };

  static __host__ __device__ __forceinline__ BlockColumns blockColumns(int nz, int ny, int nx,
                                                                       int chunkZ) {
    const int across = (nx + kBlockCols - 1) / kBlockCols;
    const long long perPlanes =
        static_cast<long long>(across) * ((ny + kBlockRows - 1) / kBlockRows);
    return {across, perPlanes, perPlanes * ((nz + chunkZ - 1) / chunkZ)};
  }

  /// Block column `tile`, and the input planes z0 - kRadius .. z0 + kRadius -
  /// 1 of its window stored in the ring; input plane z0 + kRadius is on its
  /// way. Input plane q lives in slab (q - z0 + kRadius) % kPlanes.
  static __device__ __forceinline__ BlockColumn enterBlockColumn(const Element *__restrict__ in,
                                                                 int nz, int ny, int nx, int chunkZ,
                                                                 const BlockColumns &columns,
                                                                 long long tile, Element *window,
                                                                 Staged &staged) {
    BlockColumn c;
    c.row = tile % columns.perPlanes / columns.across * kBlockRows;
    c.col = tile % columns.across * kBlockCols;
    c.z0 = tile / columns.perPlanes * chunkZ;
    c.zEnd = c.z0 + chunkZ < nz ? c.z0 + chunkZ : nz;
    for (int s = 0; s < 2 * kRadius; ++s) {
      fetchWindow(in, nz, c.z0 - kRadius + s, ny, nx, c.row, c.col, staged);
      storeWindow(&window[s * kWindowRows * kPitch], staged);
    }
    fetchWindow(in, nz, c.z0 + kRadius, ny, nx, c.row, c.col, staged);
    return c;
  }

  /// Enters output plane z of the column: its last input plane joins the
  /// ring, for every warp, and the next one is sent on its way. slab[dz +
  /// kRadius] is then the first window row of input plane z + dz.
  static __device__ __forceinline__ void enterPlane(const Element *__restrict__ in, int nz, int ny,
                                                    int nx, const BlockColumn &column, long long z,
                                                    Element *window, Staged &staged,
                                                    int (&slab)[kPlanes]) {
    const int step = static_cast<int>(z - column.z0);
    storeWindow(&window[(step + 2 * kRadius) % kPlanes * kWindowRows * kPitch], staged);
    __syncthreads();
    if (z + 1 < column.zEnd) {
      fetchWindow(in, nz, z + 1 + kRadius, ny, nx, column.row, column.col, staged);
    }
#pragma unroll
    for (int s = 0; s < kPlanes; ++s) {
      slab[s] = (step + s) % kPlanes * kWindowRows;
    }
  }

  /// Whether a step writes output plane z (fixed: not the ring planes).
  static __device__ __forceinline__ bool planeWritten(long long z, int nz) {
    return z >= kRing && z < nz - kRing;
  }

  // --- the parameter matrices --------------------------------------------

  /// Copies the parameter matrices (already rounded to the operand type,
  /// so the conversion is exact) from `table` into shared memory, for every
  /// warp.
  template <class Table>
  static __device__ __forceinline__ void copyParams(Element *params, const Table *table) {
    for (int i = threadIdx.x; i < G::kParamElements; i += kThreads) {
      params[i] = Element(table[i]);
    }
    __syncthreads();
  }

  /// A slice GEMM's parameter fragments kept in registers for the whole
  /// kernel (loaded once per block).
  template <class Fragment, int Chunks> struct RegisterParams {
    static constexpr int kChunks = Chunks;
    Fragment chunk[Chunks];

    __device__ __forceinline__ const Fragment &at(int c, int) const { return chunk[c]; }
  };

  /// The parameter matrix of a vertical slice, P_v (kTileM x Chunks kMmaK,
  /// rows ld apart), in shared memory: the A operand, one chunk of kMmaK
  /// columns per MMA.
  template <int Chunks> struct VerticalParams {
    using Fragment = FragmentA;
    static constexpr int kChunks = Chunks;
    const Element *matrix;
    int ld;

    __device__ __forceinline__ FragmentA at(int c, int lane) const {
      return Mma::loadA(matrix + c * kMmaK, ld, lane);
    }
  };

  /// The parameter matrix of a row slice, B (Chunks kMmaK x kMmaN), in
  /// shared memory: the B operand, one chunk of kMmaK rows per MMA.
  template <int Chunks> struct RowParams {
    using Fragment = FragmentB;
    static constexpr int kChunks = Chunks;
    const Element *matrix;

    __device__ __forceinline__ FragmentB at(int c, int lane) const {
      return Mma::loadB(matrix + c * kMmaK * kMmaN, kMmaN, lane);
    }
  };

  /// Every chunk's fragment of a parameter matrix in shared memory, loaded
  /// into registers.
  template <class Shared>
  static __device__ __forceinline__ RegisterParams<typename Shared::Fragment, Shared::kChunks>
  inRegisters(const Shared &params, int lane) {
    RegisterParams<typename Shared::Fragment, Shared::kChunks> r;
#pragma unroll
    for (int c = 0; c < Shared::kChunks; ++c) {
      r.chunk[c] = params.at(c, lane);
    }
    return r;
  }

  template <int Chunks>
  static __device__ __forceinline__ VerticalParams<Chunks> verticalParams(const Element *matrix,
                                                                          int ld) {
    return {matrix, ld};
  }
  template <int Chunks>
  static __device__ __forceinline__ RowParams<Chunks> rowParams(const Element *matrix) {
    return {matrix};
  }

  // --- output tiles --------------------------------------------------------

  /// Output tile `index` of a block tile: kTileM x kTileN outputs at (row,
  /// col) of the block tile, (outRow, outCol) of the grid.
  struct Tile {
    int index, row, col;
    long long outRow, outCol;

    /// Whether the tile exists and starts inside the grid.
    __device__ __forceinline__ bool inGrid(int ny, int nx) const {
      return !((kTilesPerBlock % kWarps != 0 && index >= kTilesPerBlock) || outRow >= ny ||
               outCol >= nx);
    }
  };

  static __device__ __forceinline__ Tile tile(int index, long long blockRow, long long blockCol) {
    Tile t;
    t.index = index;
    t.row = index / kTileCols * kTileM;
    t.col = index % kTileCols * kTileN;
    t.outRow = blockRow + t.row;
    t.outCol = blockCol + t.col;
    return t;
  }

  /// A vertical slice GEMM: acc[j] += P_v (kTileM x K) * window rows
  /// [firstRow + tile row, +K), columns [tile col + kHaloCols + j kMmaN,
  /// +kMmaN), K = Chunks kMmaK. firstRow: 0, or in 3D the slab of the
  /// slice's input plane.
  template <class Params>
  static __device__ __forceinline__ void gemmVertical(FragmentC (&acc)[kNBlocks],
                                                      const Element *window, Tile t, int firstRow,
                                                      const Params &params, int lane) {
    const Element *input = &window[(firstRow + t.row) * kPitch + t.col + kHaloCols];
#pragma unroll
    for (int c = 0; c < Params::kChunks; ++c) {
      const FragmentA param = params.at(c, lane);
#pragma unroll
      for (int j = 0; j < kNBlocks; ++j) {
        Mma::mma(acc[j], param, Mma::loadB(input + c * kMmaK * kPitch + j * kMmaN, kPitch, lane));
      }
    }
  }

  /// A row slice GEMM: acc[j] += window rows [firstRow + tile row + row,
  /// +kTileM), columns [tile col + firstCol + j kMmaN, +K) * B (K x kMmaN),
  /// K = Chunks kMmaK. row: the slice's row of the window; firstRow: 0, or
  /// in 3D the slab of the slice's input plane.
  template <class Params>
  static __device__ __forceinline__ void gemmRow(FragmentC (&acc)[kNBlocks], const Element *window,
                                                 Tile t, int firstRow, int row, int firstCol,
                                                 const Params &params, int lane) {
    const Element *input = &window[(firstRow + t.row + row) * kPitch + t.col + firstCol];
#pragma unroll
    for (int c = 0; c < Params::kChunks; ++c) {
      const FragmentB param = params.at(c, lane);
#pragma unroll
      for (int j = 0; j < kNBlocks; ++j) {
        Mma::mma(acc[j], Mma::loadA(input + j * kMmaN + c * kMmaK, kPitch, lane), param);
      }
    }
  }

  // --- the sparse form of a band (mma.sp) --------------------------------
  //
  // The band's row slices as 2:4 sparse products (16-bit, radius <= 7,
  // kNBlocks even): 16 output columns (two MMA blocks) times 8 rows of the
  // tile are C^T = A_s X_s^T, A_s (16 x 32) the slice's coefficients, output
  // column by input column, X_s^T (32 x 8) the window's 32 columns from
  // FirstCol by 8 rows. A row of A_s is a band of 2r + 1 <= 15 consecutive
  // columns, which in natural order fills whole groups of 4 K positions, so
  // the K order is permuted: group q of positions holds input columns x,
  // x + 1, x + 16, x + 17, of which a band of 15 holds at most two. Lane
  // 4g + t's pairs of X_s^T are then columns sparseCol(t, s) .. + 1: two
  // 8-byte loads a lane.

  /// The input column (of 32) at K positions 8s + 2t, 8s + 2t + 1 of the
  /// sparse form.
  static __host__ __device__ constexpr int sparseCol(int t, int s) {
    return 4 * (t / 2) + 16 * (t % 2) + 2 * (s % 2) + 8 * (s / 2);
  }

  /// One slice of the sparse form: its A fragment and metadata.
  struct SparseSlice {
    using Mma = MmaSpM16N8K32<Element>;
    typename Mma::FragmentA a;
  };
  static_assert(sizeof(SparseSlice) == 20,
                "five words a slice and lane (TensorPlanner.h's SparseSliceRegisters)");

  /// A band's sparse slices in shared memory, each lane's own: slice s of
  /// lane l at p[s * 32 + l].
  struct SharedSparseBand {
    const SparseSlice *p;
    int lane;
    __device__ __forceinline__ SparseSlice operator[](int s) const { return p[s * 32 + lane]; }
  };

  /// A slice's sparse A fragment, built from its dense parameter matrix B
  /// (32 x kMmaN in shared memory, rowParams), whose K starts at the same
  /// FirstCol: B(k, 0) multiplies input column FirstCol + k for output 0,
  /// so A_s (row m, K position p) is B(c - m, 0), c the input column of
  /// position p, where c - m is a row of B, else 0. A group keeping more
  /// than two values cannot be (the planner takes radius <= 7): the kernel
  /// traps rather than drop one.
  static __device__ SparseSlice sparseParams(const Element *dense, int lane) {
    typename SparseSlice::Mma::FragmentA a{};
    const int g = lane / 4, t = lane % 4;
    // Row m, group q: the kept indices (lower first, 2 bits each) and pair.
    const auto kept = [dense](int m, int q, std::uint32_t &pair) {
      Element v[4];
      int index[2] = {-1, -1}, n = 0;
      for (int i = 0; i < 4; ++i) {
        const int p = 4 * q + i;
        const int k = sparseCol(p % 8 / 2, p / 8) + p % 2 - m;
        v[i] = k >= 0 && k < 2 * kMmaK ? dense[k * kMmaN] : Element(0.0f);
        if (static_cast<float>(v[i]) != 0.0f) {
          if (n == 2) {
            __trap();
          }
          index[n++] = i;
        }
      }
      if (n == 0) { // nothing kept: any two indices, their values zero
        index[0] = 0, index[1] = 1;
      } else if (n == 1) {
        index[1] = index[0] == 3 ? 3 : index[0] + 1;
        index[0] = index[0] == 3 ? 2 : index[0];
      }
      const Element pairValues[2] = {v[index[0]], v[index[1]]};
      std::memcpy(&pair, pairValues, sizeof pair);
      return static_cast<std::uint32_t>(index[0] | index[1] << 2);
    };
    std::uint32_t unused;
    kept(g, t, a.x[0]);
    kept(g + 8, t, a.x[1]);
    kept(g, t + 4, a.x[2]);
    kept(g + 8, t + 4, a.x[3]);
    for (int i = 0; i < 4; ++i) {
      a.meta |= kept(g, 4 * (t % 2) + i, unused) << (4 * i);
      a.meta |= kept(g + 8, 4 * (t % 2) + i, unused) << (16 + 4 * i);
    }
    return SparseSlice{a};
  }

  /// The sparse form of a band's Slices row slices (window rows [firstRow +
  /// tile row + s, +16) for slice s): replaces acc, which holds zeros, with
  /// the tile's sums, each rounded to the element type (as storeTile
  /// stores them). The transposed sums go through movmatrix to the
  /// accumulators' layout.
  template <int FirstCol, int Slices, class Band>
  static __device__ __forceinline__ void gemmRowSparse(FragmentC (&acc)[kNBlocks],
                                                       const Element *window, Tile t, int firstRow,
                                                       const Band &band, int lane) {
    static_assert(sizeof(Element) == 2 && kTileM == 16 && kNBlocks % 2 == 0 &&
                      2 * kMmaK == SparseSlice::Mma::kK && FirstCol % 4 == 0,
                  "the sparse form reads 16-bit tiles of two MMA blocks, 8 bytes at a time");
    using Sparse = typename SparseSlice::Mma;
    typename Sparse::FragmentC part[2][kNBlocks / 2];
    const int g = lane / 4, q = lane % 4;
    const int firstWindowRow = firstRow + t.row + g;
#pragma unroll
    for (int s = 0; s < Slices; ++s) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int r = firstWindowRow + s + 8 * h;
        const Element *row = &window[r * kPitch];
#pragma unroll
        for (int jp = 0; jp < kNBlocks / 2; ++jp) {
          const int col = t.col + FirstCol + 16 * jp;
          const uint2 lo =
              *reinterpret_cast<const uint2 *>(row + swizzle(r, col + sparseCol(q, 0)));
          const uint2 hi =
              *reinterpret_cast<const uint2 *>(row + swizzle(r, col + sparseCol(q, 2)));
          Sparse::mma(part[h][jp], band[s].a, {{lo.x, lo.y, hi.x, hi.y}});
        }
      }
    }
#pragma unroll
    for (int h = 0; h < 2; ++h) {
#pragma unroll
      for (int jp = 0; jp < kNBlocks / 2; ++jp) {
#pragma unroll
        for (int u = 0; u < 2; ++u) {
          const std::uint32_t pair =
              transpose8x8(Mma::packPair(part[h][jp].x[2 * u], part[h][jp].x[2 * u + 1]));
          Element both[2];
          std::memcpy(both, &pair, sizeof both);
          acc[2 * jp + u].x[2 * h] = static_cast<float>(both[0]);
          acc[2 * jp + u].x[2 * h + 1] = static_cast<float>(both[1]);
        }
      }
    }
  }

  /// Whether output pairs (y, x), (y, x + 1) with x even are aligned to be
  /// stored as one access: the rows start on a pair and so does `out`.
  static __device__ __forceinline__ bool pairsAligned(const Element *out, int nx) {
    return (kDims == 1 || nx % 2 == 0) &&
           reinterpret_cast<std::uintptr_t>(out) % (2 * sizeof(Element)) == 0;
  }

  /// Stores the outputs of tile t that a step writes, straight from the
  /// accumulators: for 16-bit elements and an even kNBlocks, rows of 16-byte
  /// vectors (MMA blocks two by two) where the whole tile is written; pair
  /// by pair elsewhere. `out` is the grid (3D: its output plane).
  static __device__ __forceinline__ void storeTile(Element *__restrict__ out, Tile t,
                                                   const FragmentC (&acc)[kNBlocks], int ny, int nx,
                                                   bool pairs, int lane) {
    if constexpr (kTileM == 8) {
#pragma unroll
      for (int j = 0; j < kNBlocks; ++j) {
        storePair(out, t.outRow + lane / 4, t.outCol + j * kMmaN + lane % 4 * 2, acc[j].x[0],
                  acc[j].x[1], ny, nx, pairs);
      }
    } else if constexpr (sizeof(Element) == 2 && kNBlocks % 2 == 0) {
      // (The conditions are written out here: behind a function of their
      // own, the compiler lays the branches out differently.)
      if constexpr (kDims == 1) {
        const bool vectors = reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
        if (vectors && t.outRow * kBlockCols + t.outCol >= kRing &&
            (t.outRow + kTileM - 1) * kBlockCols + t.outCol + kTileN <= nx - kRing) {
          storeRows16(out, t, kBlockCols, acc, lane);
        } else {
          storePairs16x8(out, t, acc, ny, nx, pairs, lane);
        }
      } else {
        const bool vectors = nx % kVec == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
        if (vectors && t.outRow >= kRing && t.outRow + kTileM <= ny - kRing && t.outCol >= kRing &&
            t.outCol + kTileN <= nx - kRing) {
          storeRows16(out, t, nx, acc, lane);
        } else {
          storePairs16x8(out, t, acc, ny, nx, pairs, lane);
        }
      }
    } else {
      storePairs16x8(out, t, acc, ny, nx, pairs, lane);
    }
  }

  // --- the launch (host) ---------------------------------------------------

  /// How many blocks of `kernel` fit on the current device at once.
  template <class Kernel> static cudaError_t residentBlocks(Kernel kernel, long long &resident) {
    return device::residentBlocks(kernel, kThreads, 0, resident);
  }

  /// Launches a 2D kernel(in, out, ny, nx) as a persistent grid: as many
  /// blocks as fit on the GPU at once, each walking block tiles, so its
  /// parameter fragments are loaded once and loads overlap the MMAs.
  /// Whether the block arithmetic (which rounds extents up to whole blocks
  /// in int) holds for these extents: false within a block of INT_MAX (and,
  /// along z, past INT_MAX / 2), where a launch is refused with
  /// cudaErrorInvalidValue rather than computed with an overflowed grid.
  static bool extentsFit(long long nz, long long ny, long long nx) {
    constexpr long long kMost = 0x7fffffffLL;
    return nx <= kMost - kBlockCols && ny <= kMost - kBlockRows && nz <= kMost / 2;
  }

  static cudaError_t launch(void (*kernel)(const Element *, Element *, int, int), const Element *in,
                            Element *out, int ny, int nx, cudaStream_t stream) {
    if (!extentsFit(1, ny, nx)) {
      return cudaErrorInvalidValue;
    }
    const long long tiles = blockTiles(ny, nx).count;
    long long resident = 0;
    const cudaError_t status = residentBlocks(kernel, resident);
    if (status != cudaSuccess) {
      return status;
    }
    const unsigned grid = static_cast<unsigned>(tiles < resident ? tiles : resident);
    kernel<<<grid, kThreads, 0, stream>>>(in, out, ny, nx);
    return cudaGetLastError();
  }

  /// Launches a 1D kernel(in, out, rows, n): the line of n points runs as
  /// rows of kBlockCols points.
  static cudaError_t launch(void (*kernel)(const Element *, Element *, int, int), const Element *in,
                            Element *out, int n, cudaStream_t stream) {
    static_assert(kDims == 1, "a line of n points");
    if (!extentsFit(1, 1, n)) {
      return cudaErrorInvalidValue;
    }
    return launch(kernel, in, out, (n - 1) / kBlockCols + 1, n, stream);
  }

  /// Launches a 3D kernel(in, out, nz, ny, nx, chunkZ) as a persistent grid:
  /// the planes are cut into chunks so that there are about as many block
  /// columns as blocks fit on the GPU at once, each block streaming one chunk.
  static cudaError_t launch(void (*kernel)(const Element *, Element *, int, int, int, int),
                            const Element *in, Element *out, int nz, int ny, int nx,
                            cudaStream_t stream) {
    if (!extentsFit(nz, ny, nx)) {
      return cudaErrorInvalidValue;
    }
    long long resident = 0;
    const cudaError_t status = residentBlocks(kernel, resident);
    if (status != cudaSuccess) {
      return status;
    }
    const PlaneChunks chunks = planeChunks(resident, nz, ny, nx);
    kernel<<<chunks.grid, kThreads, 0, stream>>>(in, out, nz, ny, nx, chunks.chunkZ);
    return cudaGetLastError();
  }

  /// A 3D launch's planes per chunk and blocks.
  struct PlaneChunks {
    int chunkZ;
    unsigned grid;
  };

  /// The planes cut into chunks so that there are about as many block
  /// columns as `resident` blocks, and as many blocks as block columns, at
  /// most `resident`.
  static PlaneChunks planeChunks(long long resident, int nz, int ny, int nx) {
    const long long perPlanes = blockColumns(1, ny, nx, 1).perPlanes;
    long long chunks = (resident + perPlanes - 1) / perPlanes;
    chunks = chunks < nz ? chunks : nz;
    const int chunkZ = static_cast<int>((nz + chunks - 1) / chunks);
    const long long columns = blockColumns(nz, ny, nx, chunkZ).count;
    return {chunkZ, static_cast<unsigned>(columns < resident ? columns : resident)};
  }

  static __device__ __forceinline__ void fetch(const Element *__restrict__ in, int nz, long long z,
                                               int ny, int nx, long long blockRow,
                                               long long blockCol, Staged &staged) {
    const bool vectorRows =
        (kDims == 1 || nx % kVec == 0) && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
#pragma unroll
    for (int i = 0; i < kGroupsPerThread; ++i) {
      const int group = threadIdx.x + i * kThreads;
      const int row = group / kGroupsPerRow;
      const int col = group % kGroupsPerRow * kVec;
      staged[i] = make_uint4(0u, 0u, 0u, 0u);
      if (group >= kGroups || row >= G::kLoadedRows || col < G::kLoadedColBegin ||
          col >= G::kLoadedColEnd) {
        continue;
      }
      // A 1D line is one row (y = 0 of 1) whose windows rows are its
      // consecutive stretches.
      const long long y = kDims == 1 ? 0 : blockRow - kRadius + row;
      const long long x =
          kDims == 1 ? (blockRow + row) * kBlockCols - kHaloCols + col : blockCol - kHaloCols + col;
      const int rows = kDims == 1 ? 1 : ny;
      // (The test and both branches are spelled out here, in this order: the
      // same test behind a helper function changes the compiler's layout of
      // the branches, and ptxas's register allocation of the whole kernel.)
      if (kDims == 3
              ? vectorRows && z >= 0 && z < nz && y >= 0 && y < rows && x >= 0 && x + kVec <= nx
              : vectorRows && y >= 0 && y < rows && x >= 0 && x + kVec <= nx) {
        staged[i] = loadVector<G::kPrefetchBytes>(in + ((kDims == 3 ? z * ny : 0) + y) * nx + x);
      } else {
        // Every coordinate folded for every element: the row folded once
        // took 155 registers against 128 and ran 19% slower under reflect
        // (docs/performance.md, 2026-12-03 23:46).
        staged[i] = readRun<Boundary, uint4, RunRead::kEach>(in, kDims == 3 ? z : 0, y, x,
                                                             kDims == 3 ? nz : 1, rows, nx);
      }
    }
  }

  /// Stores the outputs (y, x) and (y, x + 1) where the step writes them: as
  /// one access inside the written region when `pairs` (x is even there),
  /// one by one at its edges. On a 1D line output (y, x) of a tile is point
  /// y kBlockCols + x.
  ///
  /// (The 1D line goes through storePairAt, the grids have its stores
  /// written out: each is how the compiler lays out the same code as the
  /// kernels the templates wrote before the headers, and other layouts cost
  /// up to 9 % on some kernels through ptxas's register allocation.)
  static __device__ __forceinline__ void storePair(Element *__restrict__ out, long long y,
                                                   long long x, Accumulator first,
                                                   Accumulator second, int ny, int nx, bool pairs) {
    if constexpr (kDims == 1) {
      x += y * kBlockCols;
      storePairAt(out + x, x, first, second, nx, pairs);
    } else {
      if (y < kRing || y >= ny - kRing) {
        return;
      }
      Element *dst = out + y * nx + x;
      if (pairs && x >= kRing && x + 2 <= nx - kRing) {
        storeTwo(dst, first, second);
        return;
      }
      if (x >= kRing && x < nx - kRing) {
        dst[0] = toElement<Element>(first);
      }
      if (x + 1 >= kRing && x + 1 < nx - kRing) {
        dst[1] = toElement<Element>(second);
      }
    }
  }

  /// storePair's stores at dst, point x of its row (the 1D line).
  static __device__ __forceinline__ void storePairAt(Element *dst, long long x, Accumulator first,
                                                     Accumulator second, int nx, bool pairs) {
    storeWrittenPair<kRing>(dst, x, first, second, nx, pairs);
  }

  /// The tile stored as rows of 16-byte vectors, MMA blocks two by two
  /// (rows pitch apart). (The column is added first: in this order the
  /// compiler's address arithmetic, and so ptxas's registers and spills of
  /// the large 3D kernels, are those of the kernels before the headers.)
  static __device__ __forceinline__ void storeRows16(Element *__restrict__ out, Tile t, int pitch,
                                                     const FragmentC (&acc)[kNBlocks], int lane) {
#pragma unroll
    for (int j = 0; j < kNBlocks; j += 2) {
      Mma::storeRows16(out + t.outCol + t.outRow * pitch + j * kMmaN, pitch, acc[j], acc[j + 1],
                       lane);
    }
  }

  /// The m16n8 tile store pair by pair: rows g and g + 8 of every MMA block.
  static __device__ __forceinline__ void storePairs16x8(Element *__restrict__ out, Tile t,
                                                        const FragmentC (&acc)[kNBlocks], int ny,
                                                        int nx, bool pairs, int lane) {
#pragma unroll
    for (int j = 0; j < kNBlocks; ++j) {
      const long long col = t.outCol + j * kMmaN + lane % 4 * 2;
      storePair(out, t.outRow + lane / 4, col, acc[j].x[0], acc[j].x[1], ny, nx, pairs);
      storePair(out, t.outRow + lane / 4 + 8, col, acc[j].x[2], acc[j].x[3], ny, nx, pairs);
    }
  }
};

} // namespace device
} // namespace stencilc
