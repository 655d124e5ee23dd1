// stencilc/device/stacked.cuh - the stacked tensor-core form of a 2D
// stencil in 16-bit (fp16 or bf16 operands, fp32 accumulation): the rows of
// the stencil stacked in K (docs/generated-code.md, "The stacked
// tensor-core form").
//
// C++17. TCStencil's form (tensor.cuh) runs one GEMM per stencil row: for
// radius r and 8 outputs of a row, K covers the 8 + 2r input columns padded
// to 32, in two k16 MMAs per row, 2 (2r + 1) MMAs for 16 x 8 outputs. Here
// the rows share K: an MMA's 16 K positions are 8 input columns (a chunk)
// of one stencil row and 8 of another, or a k8 MMA's 8 those of one row.
// The planner groups the rows (G::group): a group's two rows take the same
// number of chunks, as many as the columns their weights reach need (3,
// from 8 columns left of the outputs to 16 right, for a row of radius 8; 5,
// from 16 left to 24 right, for radius 9-16; 1 for a star's row that
// reaches only the outputs' column), an MMA a chunk.
// Where kShifted, a stage holds a second window, its columns 4 right of the
// first's, in which a row that reaches 4 or less takes 2 chunks, not 3. A
// box of radius 7 takes 22.5 k16-equivalents against 60 a GEMM a row.
//
// A warp computes a strip of 16 output rows by kBlocks MMA blocks of 8
// columns, walking along x. Block j's chunk k of a group is window columns
// 8 (j + first + k), so all its chunks but the last were block j - 1's:
// they stay in registers, in as many slots as the group has chunks, which
// rotate (chunk k of block j in slot (k + j) % count), and each block loads
// one new chunk a group. One ldmatrix.x4 fills a k16 MMA's whole A quad
// (lanes 0-15 address the first row's matrices, 16-31 the second's: the
// fragment's order), so a quad keeps its registers in every slot and the
// MMAs need no register moves. B (the weights) is the same for every
// block: each lane's fragments are loaded once per block from a table the
// generated code holds. The sums of an MMA block go to kSplit accumulators
// in turn (every group's first chunk, then every second; the m-th MMA to
// accumulator m % kSplit), added in order at the end, so that kSplit MMAs
// are independent.
// A single step's kernel (kStaged) rounds each MMA block's sums into a
// stage of the warp's in shared memory and stores every 64 columns of its
// strip as rows of 16-byte vectors; a composed pass (composed.cuh) stores
// two MMA blocks at a time, 4 adjacent columns (8 bytes) a lane after a
// swap with the neighbouring lane, so that a warp's store writes whole
// sectors (kQuads).
//
// A persistent block walks block tiles of kWarps strips; the window of its
// next block tile is copied (cp.async: whole 16-byte vectors of the grid,
// wrapped into a periodic one, zeros outside a fixed one; the boundary rule
// point by point elsewhere; or, kMapped, one thread's copy of a box by the
// tensor memory accelerator) into the second of two stages while the warps
// compute from the first (where kShifted, a stage's shifted window is built
// from its first in shared memory once that is whole); the warps' stages
// follow the windows.
//
// G (the generated code's geometry):
//   using Element;         __half or __nv_bfloat16
//   using Boundary;        FixedBoundary, PeriodicBoundary or ConstantBoundary<V>
//   kRadius, kRing         radius (1-16); points a step leaves unwritten at each edge
//   kWarps, kBlocks        strips a block tile; MMA blocks of 8 columns a strip
//   kPitch                 window row pitch in elements: an odd multiple of 16 bytes,
//                          so an 8 x 8 matrix's rows meet no bank conflict
//   kSplit, kMinBlocks     accumulators an MMA block; blocks a multiprocessor (launch bounds)
//   kStaged                optional (false where absent): stores through the warps' stages
//   kMapped                optional (false where absent): the windows of a fixed grid
//                          copied by the tensor memory accelerator (sm_90 on)
//   kPromotion             optional (0 where absent): bytes an L2 miss of those copies
//                          fetches (0, 128 or 256)
//   kPersistent            optional (true where absent): a grid of the blocks that fit at
//                          once, each walking block tiles; false: a block a block tile
//   kShifted               a second window a stage, its columns 4 right of the first's
//   kGroups, group(g)      the groups of MMAs (StackedGroup), in the order they are issued
//   weights()              the B table: kWeightWords words, lane-minor
#pragma once

#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cuda_runtime.h>

#include <stencilc/device/element.cuh>
#include <stencilc/device/host.cuh>
#include <stencilc/device/mma.cuh>
#include <stencilc/device/tensor_map.cuh>

namespace stencilc {
namespace device {

/// G::kStaged where G has it, else false (StackedBlock's kStaged).
template <class G, class = void> struct StagedStoresOf : std::false_type {};
template <class G>
struct StagedStoresOf<G, std::void_t<decltype(G::kStaged)>> : std::bool_constant<G::kStaged> {};

/// G::kMapped where G has it, else false (StackedBlock's kMapped).
template <class G, class = void> struct MappedWindowsOf : std::false_type {};
template <class G>
struct MappedWindowsOf<G, std::void_t<decltype(G::kMapped)>> : std::bool_constant<G::kMapped> {};

/// G::kPromotion where G has it, else 0 (StackedBlock's kPromotion).
template <class G, class = void> struct WindowPromotionOf : std::integral_constant<int, 0> {};
template <class G>
struct WindowPromotionOf<G, std::void_t<decltype(G::kPromotion)>>
    : std::integral_constant<int, G::kPromotion> {};

/// G::kPersistent where G has it, else true (StackedBlock's kPersistent).
template <class G, class = void> struct PersistentGridOf : std::true_type {};
template <class G>
struct PersistentGridOf<G, std::void_t<decltype(G::kPersistent)>>
    : std::bool_constant<G::kPersistent> {};

/// One half of a stacked MMA's K: 8 columns of stencil row `row` (0 .. 2r)
/// from window `window` (0: its columns start 8 left of the block tile's
/// outputs; 1, the shifted one: 4 left), MMA block j's chunk k at window
/// column 8 (j + first + k).
struct StackedHalf {
  int row, window, first;
};

/// A group of stacked MMAs: `count` chunks, an MMA each, whose K is
/// half[0]'s 8 columns and half[1]'s (k16), or half[0]'s alone where
/// half[1].row < 0 (k8).
struct StackedGroup {
  StackedHalf half[2];
  int count;
  __host__ __device__ constexpr bool paired() const { return half[1].row >= 0; }
};

template <class G>
__global__ void __launch_bounds__(32 * G::kWarps, G::kMinBlocks)
    stackedMappedKernel(const __grid_constant__ CUtensorMap windows,
                        typename G::Element *__restrict__ out, int ny, int nx);

template <class G> struct StackedBlock {
  using Element = typename G::Element;
  using Boundary = typename G::Boundary;
  using Mma16 = MmaM16N8K16<Element>;
  using Mma8 = MmaM16N8K8<Element>;

  static constexpr int kRadius = G::kRadius;
  static constexpr int kRing = G::kRing;
  static constexpr int kRows = 2 * kRadius + 1;
  // Window columns left of the outputs (window 0): the radius rounded up to
  // a chunk, whose kWindowChunks chunks hold a block's 8 + 2r columns (3
  // to radius 8, 5 to 16).
  static constexpr int kHaloCols = kRadius <= 8 ? 8 : 16;
  static constexpr int kWindowChunks = 1 + 2 * kHaloCols / 8;
  static constexpr bool kShifted = G::kShifted;
  static constexpr int kWindows = kShifted ? 2 : 1; // windows a stage
  static constexpr int kGroups = G::kGroups;
  static __host__ __device__ constexpr StackedGroup group(int g) { return G::group(g); }
  /// B words a lane of the groups before g: two a k16 MMA, one a k8.
  static __host__ __device__ constexpr int wordsBefore(int g) {
    int words = 0;
    for (int i = 0; i < g; ++i) {
      words += group(i).count * (group(i).paired() ? 2 : 1);
    }
    return words;
  }
  /// The most chunks of a group (slots a group's quads rotate in).
  static __host__ __device__ constexpr int mostChunks() {
    int most = 1;
    for (int g = 0; g < kGroups; ++g) {
      most = group(g).count > most ? group(g).count : most;
    }
    return most;
  }
  static constexpr int kChunks = mostChunks();
  // The grid: the blocks that fit at once, each walking block tiles
  // gridDim.x apart, or a block a tile, which the hardware hands to
  // whichever multiprocessor frees first. The planner says which
  // (stackedPersistentGrid).
  static constexpr bool kPersistent = PersistentGridOf<G>::value;
  // In a persistent grid the window kStages - 1 tiles ahead is on its way
  // while a tile is computed; a block of one tile has one window. (Written
  // for any number of stages: in this form the composed passes ran 1.5-2 %
  // faster than in the loop before at two, ptxas placing the code
  // otherwise; docs/performance.md, 2026-12-02 04:54-05:07.)
  static constexpr int kStages = kPersistent ? 2 : 1;
  static constexpr int kWarps = G::kWarps;
  static constexpr int kBlocks = G::kBlocks;
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kBlockRows = 16 * kWarps;
  static constexpr int kBlockCols = 8 * kBlocks;
  static constexpr int kWindowRows = kBlockRows + 2 * kRadius;
  static constexpr int kWindowCols = kBlockCols + 2 * kHaloCols;
  static constexpr int kPitch = G::kPitch;
  // A window's first point 128-byte aligned, as the tensor memory
  // accelerator writes it.
  static constexpr int kWindowElements = (kWindowRows * kPitch + 63) / 64 * 64;
  // A single step's stores bind it (the composed pass's MMAs bind that):
  // each warp rounds its sums into a stage of 16 rows of kStageCols, rows
  // an odd number of 16-byte vectors apart (the 4-byte writes of a lane's 8
  // rows meet no bank conflict), and stores it as rows of 16-byte vectors:
  // steps 7-16 % faster at radius 1 and 2 than the quads below, whose 8-byte
  // stores write a sector of 8 rows each; the composed passes lost 1-2 %
  // so, the periodic 15 x 15 box (pairs) 12 % (docs/performance.md,
  // 2026-12-02 04:24-04:50). The planner says where (stackedStepStages).
  static constexpr bool kStaged = StagedStoresOf<G>::value;
  // The windows of a fixed grid copied by the tensor memory accelerator
  // (tensor_map.cuh) where the grid allows it (launch): its zeros outside
  // the grid are the fixed rule's reads, and a box holds whole window rows
  // of kPitch elements.
  static constexpr bool kMapped = MappedWindowsOf<G>::value;
  static_assert(!kMapped || std::is_same_v<Boundary, FixedBoundary>,
                "the accelerator reads zeros outside the grid: the fixed rule's reads");
  static_assert(!kMapped || (kPitch <= 256 && kWindowRows <= 256), "a box is at most 256 a side");
  // The bytes an L2 miss of the accelerator's reads fetches (its tensor
  // map's promotion; 0: only the sectors read). At 256 a single step read
  // 1.3 x the grid from memory on an H100; the planner says which
  // (stackedWindowPromotion).
  static constexpr int kPromotion = WindowPromotionOf<G>::value;
  static_assert(kPromotion == 0 || kPromotion == 128 || kPromotion == 256,
                "an L2 promotion the tensor map has");
  static constexpr int kStageCols = 64;
  static constexpr int kStagePitch = kStageCols + 8;
  static constexpr int kStageElements = kStaged ? 16 * kStagePitch : 0;
  static constexpr int kStageElementsOfWindows = kWindows * kWindowElements; // a stage's windows
  static constexpr int kSharedBytes =
      (kStages * kStageElementsOfWindows + kWarps * kStageElements) * int(sizeof(Element));
  static constexpr int kVectorsPerRow = kWindowCols / 8;
  static constexpr int kVectors = kWindowRows * kVectorsPerRow;
  static constexpr int kVectorsPerThread = (kVectors + kThreads - 1) / kThreads;
  static constexpr int kWords = wordsBefore(kGroups); // B words a lane
  static constexpr int kWeightWords = kWords * 32;
  static constexpr int kSplit = G::kSplit;
  // A strip's outputs are stored two MMA blocks at a time, 4 adjacent
  // columns a lane (8 bytes: whole 32-byte sectors a row and warp): the
  // pair stores of the accumulators' layout (4 bytes, half of each of 8
  // rows' sectors) bound the form, at 335-415 GStencil/s whatever its
  // radius. Where the two registers this holds spill (a periodic grid's
  // copy at radius 7 and 8), it ran slower: the pairs are stored there
  // (docs/performance.md, 2026-12-01 15:08-15:18).
  static constexpr bool kQuads =
      !kStaged && !(std::is_same_v<Boundary, PeriodicBoundary> && kRadius >= 7);
  static_assert(!kQuads || G::kBlocks % 2 == 0, "a strip's MMA blocks are stored in pairs");
  static_assert(!kStaged || G::kBlocks * 8 % kStageCols == 0, "a strip is whole stages");

  static_assert(sizeof(Element) == 2, "the stacked form takes 16-bit operands");
  static_assert(kRadius >= 1 && kRadius <= kHaloCols,
                "5 chunks hold a block's columns for a radius of at most 16");
  static_assert(!kShifted || kRadius <= 8, "the shifted window is built up to radius 8");
  static_assert(kGroups >= 1 && kChunks <= kWindowChunks,
                "a group's chunks are at most a window's");
  static_assert(kPitch >= kWindowCols && kPitch * sizeof(Element) % 32 == 16,
                "window rows an odd number of 16-byte vectors apart");

  /// Each lane's B fragments: group g's chunk k at word wordsBefore(g) +
  /// k (2 for a k16 MMA, 1 for a k8) and the one after it for a k16 MMA.
  struct Weights {
    std::uint32_t word[kWords];
  };

  static __device__ __forceinline__ Weights loadWeights(const std::uint32_t *table, int lane) {
    Weights w;
#pragma unroll
    for (int i = 0; i < kWords; ++i) {
      w.word[i] = table[i * 32 + lane];
    }
    return w;
  }

  // --- the window --------------------------------------------------------

  /// i wrapped into [0, n) (a periodic grid; i is within an int): one add
  /// or subtract where the halo is no wider than the grid, a remainder only
  /// where it is.
  static __device__ __forceinline__ int wrap(int i, int n) {
    int w = i;
    w += w < 0 ? n : w >= n ? -n : 0;
    if (w < 0 || w >= n) {
      w = i % n;
      w += w < 0 ? n : 0;
    }
    return w;
  }

  /// A window wholly inside the grid, its first point at `from`, into
  /// `window` by cp.async (the caller commits the group): a vector's source is one
  /// multiply-add from `from`, with no edge-case branches (the copy of
  /// fetchWindow's loop, from the tile's row and column in 64 bits, was
  /// 28.8 % of the composed step's instructions; docs/performance.md,
  /// 2026-12-04 19:58-20:06).
  static __device__ __forceinline__ void fetchInside(const Element *from, int nx, Element *window) {
    const auto base = static_cast<unsigned>(__cvta_generic_to_shared(window));
#pragma unroll
    for (int i = 0; i < kVectorsPerThread; ++i) {
      const int v = static_cast<int>(threadIdx.x) + i * kThreads;
      if (v < kVectors) {
        const int row = v / kVectorsPerRow, col = v % kVectorsPerRow * 8;
        const unsigned to = base + static_cast<unsigned>((row * kPitch + col) * sizeof(Element));
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to),
                     "l"(from + static_cast<long long>(row) * nx + col));
      }
    }
  }

  /// The window of the block tile at (blockRow, blockCol) into `window`:
  /// window[w][c] = in(blockRow - kRadius + w, blockCol - kHaloCols + c).
  /// Whole vectors by cp.async where they are whole vectors of the grid
  /// (inside it, or wrapped into it on a periodic grid; the vectors wholly
  /// outside a fixed grid as zeros it fills in), the rest by the boundary
  /// rule point by point (the caller commits the group, complete after
  /// cp.async.wait_group). On a periodic grid a window wholly inside it
  /// (most of them) is copied without the wrapping, as is one of any other
  /// boundary without its tests: the 15 x 15 box's periodic step 5 % faster
  /// (docs/performance.md, 2026-12-01 14:33-15:04), the composed passes
  /// 1.5-1.9 % with a fixed one (2026-12-02 04:54-05:07).
  static __device__ __forceinline__ void fetchWindow(const Element *__restrict__ in, int ny, int nx,
                                                     int blockRow, int blockCol, bool vectorRows,
                                                     Element *window) {
    const bool inside = vectorRows && blockRow >= kRadius &&
                        blockRow <= ny - (kWindowRows - kRadius) && blockCol >= kHaloCols &&
                        blockCol <= nx - (kWindowCols - kHaloCols);
    // A kernel that does not stage its stores (a composed pass's step; a
    // single step on a periodic grid at radius 7 or 8, or where the stages
    // do not fit, as on sm_86) copies a window inside the grid by
    // fetchInside: the composed passes 1-2 % faster on an H200; the staged
    // single steps 2-3.5 % slower so, which keep the loop below
    // (docs/performance.md, 2026-12-04 19:58-20:06; the unstaged single
    // steps not timed either way).
    if (!kStaged && inside) {
      fetchInside(in + static_cast<long long>(blockRow - kRadius) * nx + (blockCol - kHaloCols), nx,
                  window);
      return;
    }
#pragma unroll
    for (int i = 0; i < kVectorsPerThread; ++i) {
      const int v = threadIdx.x + i * kThreads;
      if (v < kVectors) {
        const int row = v / kVectorsPerRow, col = v % kVectorsPerRow * 8;
        int y = blockRow - kRadius + row, x = blockCol - kHaloCols + col;
        Element *dst = window + row * kPitch + col;
        const auto to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
        if (inside) {
          asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to),
                       "l"(in + static_cast<long long>(y) * nx + x));
          continue;
        }
        int bytes = 16; // of the vector at (y, x) the copy reads
        if constexpr (std::is_same_v<Boundary, PeriodicBoundary>) {
          y = wrap(y, ny);
          x = wrap(x, nx);
        } else if constexpr (std::is_same_v<Boundary, FixedBoundary>) {
          if (y < 0 || y >= ny || x + 8 <= 0 || x >= nx) {
            bytes = 0, y = 0, x = 0; // zeros, reading nothing
          }
        }
        if (vectorRows && (bytes == 0 || (y >= 0 && y < ny && x >= 0 && x + 8 <= nx))) {
          asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(to),
                       "l"(in + static_cast<long long>(y) * nx + x), "r"(bytes));
        } else if constexpr (Reflects<Boundary>::value) {
          // A call: inline, the reflections cost the step 9% under mirror
          // (docs/performance.md, 2026-12-03 23:46).
          *reinterpret_cast<uint4 *>(dst) =
              readRun<Boundary, uint4, RunRead::kCall>(in, y, x, ny, nx);
        } else {
          // (Spelled out: readRun here, though the same code, changes
          // ptxas's register allocation of the fixed kernels.)
          alignas(16) Element values[8];
#pragma unroll
          for (int e = 0; e < 8; ++e) {
            values[e] = Boundary::read(in, y, x + e, ny, nx);
          }
          *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(values);
        }
      }
    }
  }

  /// The shifted window of a stage from its first window, once that is
  /// whole: shifted[w][c] = window[w][c + 4], every vector but the last of
  /// a row (no group reads it), two 8-byte reads and one 16-byte write a
  /// vector. Built in shared memory because the accelerator's boxes start
  /// on 16-byte boundaries (one 8 bytes off stopped the kernel with an
  /// illegal instruction on an H100, 2026-12-05), and it needs nothing from
  /// the grid that the first window lacks.
  static __device__ __forceinline__ void shiftWindow(Element *window) {
    constexpr int kRowVectors = kVectorsPerRow - 1;
#pragma unroll
    for (int i = 0; i < (kWindowRows * kRowVectors + kThreads - 1) / kThreads; ++i) {
      const int v = threadIdx.x + i * kThreads;
      if (v < kWindowRows * kRowVectors) {
        const int at = v / kRowVectors * kPitch + v % kRowVectors * 8;
        const uint2 low = *reinterpret_cast<const uint2 *>(window + at + 4);
        const uint2 high = *reinterpret_cast<const uint2 *>(window + at + 8);
        *reinterpret_cast<uint4 *>(window + kWindowElements + at) =
            make_uint4(low.x, low.y, high.x, high.y);
      }
    }
  }

  // --- a warp's strip ----------------------------------------------------

  /// A warp's A operands of a strip: quad[g][slot] holds MMA block j's
  /// chunk k of group g in slot (k + j) % count (a k8 group's in its first
  /// two words). Group indices are template arguments, so that each group's
  /// numbers are constants wherever they are used (read through a loop
  /// index, they left the quads in local memory).
  struct Quads {
    std::uint32_t quad[kGroups][kChunks][4];
    // The window row this lane addresses for ldmatrix, before its stencil
    // row's: row lane % 8 of the strip's rows 0-7 or 8-15 (matrices 0 and
    // 1 of K's first half, 2 and 3 of its second: the fragment's order),
    // and for the second half's lanes the usual distance to it (kApart).
    const Element *base;
    bool second; // the lane addresses K's second half of a k16 MMA

    __device__ __forceinline__ Quads(const Element *window, int warp) {
      const int lane = threadIdx.x % 32;
      second = lane >= 16;
      base = window + (16 * warp + lane % 8 + lane / 8 % 2 * 8) * kPitch + (second ? kApart : 0);
    }

    /// Group g's chunk at window column `col` (its halves' first chunks
    /// on) into `slot`. Each half's offset is a constant; a group whose
    /// halves lie another distance apart than kApart adds the difference
    /// for the second half's lanes (a k8 MMA's second lanes address
    /// nothing). A select between the halves a group instead cost a box's
    /// composed step 32 bytes of spills more.
    template <int g> __device__ __forceinline__ void load(int slot, int col) {
      constexpr StackedGroup group = G::group(g);
      constexpr int first = offsetOf(group.half[0]);
      constexpr int extra = group.paired() ? offsetOf(group.half[1]) - first - kApart : 0;
      const Element *at = base + (extra != 0 && second ? extra : 0) + first + col;
      loadMatrices<group.paired() ? 4 : 2>(quad[g][slot], at);
    }

    /// MMA block 0's chunks, chunk by chunk.
    __device__ __forceinline__ void loadFirst() {
#pragma unroll
      for (int k = 0; k < kChunks; ++k) {
        forEachGroup([&](auto g) {
          if (k < G::group(decltype(g)::value).count) {
            load<decltype(g)::value>(k, 8 * k);
          }
        });
      }
    }

    /// MMA block j's sums: every group's first chunk, then every second,
    /// ..., the m-th MMA into accumulator m % kSplit, added in order; after
    /// the first round, each group's freed slot takes block j + 1's new
    /// chunk, a round of the other groups' MMAs ahead of its use.
    __device__ __forceinline__ typename Mma16::FragmentC block(int j, const Weights &w) {
      typename Mma16::FragmentC acc[kSplit];
      int m = 0;
#pragma unroll
      for (int k = 0; k < kChunks; ++k) {
        forEachGroup([&](auto g) {
          constexpr StackedGroup group = G::group(decltype(g)::value);
          if (k < group.count) {
            const auto &a = quad[decltype(g)::value][(k + j) % group.count];
            const int b = wordsBefore(decltype(g)::value) + k * (group.paired() ? 2 : 1);
            if constexpr (group.paired()) {
              Mma16::mma(acc[m++ % kSplit], {{a[0], a[1], a[2], a[3]}},
                         {{w.word[b], w.word[b + 1]}});
            } else {
              Mma8::mma(acc[m++ % kSplit], {{a[0], a[1]}}, {{w.word[b]}});
            }
          }
        });
        if (k == 0 && j + 1 < kBlocks) {
          forEachGroup([&](auto g) {
            constexpr int count = G::group(decltype(g)::value).count;
            load<decltype(g)::value>(j % count, 8 * (j + count));
          });
        }
      }
#pragma unroll
      for (int q = 1; q < kSplit; ++q) {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          acc[0].x[e] += acc[q].x[e];
        }
      }
      return acc[0];
    }
  };

  /// The strip of warp `warp`: output rows blockRow + 16 warp .. + 16,
  /// columns blockCol .. + kBlockCols, from the window, stored where the
  /// step writes them.
  static __device__ __forceinline__ void strip(const Element *window, const Weights &w,
                                               Element *__restrict__ out, long long blockRow,
                                               long long blockCol, int ny, int nx, bool wide,
                                               Element *stage) {
    const int warp = threadIdx.x / 32;
    Quads quads(window, warp);
    quads.loadFirst();
    const Rows rows = rowsOf(out, blockRow + 16 * warp, ny, nx);
    std::uint32_t held[2] = {0, 0}; // block j - 1's pairs, for odd j (kQuads)
#pragma unroll
    for (int j = 0; j < kBlocks; ++j) {
      const typename Mma16::FragmentC sum = quads.block(j, w);
      if constexpr (kStaged) {
        stageBlock(j, sum, stage);
        if (8 * (j + 1) % kStageCols == 0) {
          __syncwarp();
          storeStage(stage, out, blockRow + 16 * warp,
                     static_cast<int>(blockCol) + 8 * (j + 1) - kStageCols, ny, nx, wide);
          __syncwarp(); // read before the next block's sums are written
        }
      } else {
        storeBlock(j, sum, held, rows, static_cast<int>(blockCol), nx, wide);
      }
    }
  }

  /// MMA block j's sums, rounded, into the warp's stage: its rows 0-15,
  /// columns 8 j modulo kStageCols on.
  static __device__ __forceinline__ void stageBlock(int j, const typename Mma16::FragmentC &sum,
                                                    Element *stage) {
    const int lane = threadIdx.x % 32;
    Element *at = stage + lane / 4 * kStagePitch + 8 * j % kStageCols + lane % 4 * 2;
    *reinterpret_cast<std::uint32_t *>(at) = Mma16::packPair(sum.x[0], sum.x[1]);
    *reinterpret_cast<std::uint32_t *>(at + 8 * kStagePitch) = Mma16::packPair(sum.x[2], sum.x[3]);
  }

  /// The stage's 16 rows of kStageCols outputs, from output row `row0` and
  /// column `col0`, stored where the step writes them: as 16-byte vectors
  /// where `wide` (nx a multiple of 8, out 16-byte aligned) and the step
  /// writes the whole vector, else point by point.
  static __device__ __forceinline__ void storeStage(const Element *stage, Element *__restrict__ out,
                                                    long long row0, int col0, int ny, int nx,
                                                    bool wide) {
    constexpr int kRowVectors = kStageCols / 8;
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int k = 0; k < 16 * kRowVectors / 32; ++k) {
      const int r = (lane + 32 * k) / kRowVectors, c = 8 * ((lane + 32 * k) % kRowVectors);
      const long long row = row0 + r;
      if (row < kRing || row >= ny - kRing) {
        continue;
      }
      const uint4 bits = *reinterpret_cast<const uint4 *>(stage + r * kStagePitch + c);
      const int x = col0 + c;
      Element *dst = out + row * nx + x;
      if (wide && x >= kRing && x + 8 <= nx - kRing) {
        *reinterpret_cast<uint4 *>(dst) = bits;
        continue;
      }
      const auto *values = reinterpret_cast<const Element *>(&bits);
#pragma unroll
      for (int e = 0; e < 8; ++e) {
        if (x + e >= kRing && x + e < nx - kRing) {
          dst[e] = values[e];
        }
      }
    }
  }

  /// The lane's two output rows of a strip: where they start, and whether
  /// the step writes them.
  struct Rows {
    Element *out0, *out8;
    bool write0, write8;
  };

  /// The lane's two output rows of a strip whose first is `first`: where
  /// they start, and whether the step writes them (the 64-bit arithmetic
  /// once a strip; columns are ints).
  static __device__ __forceinline__ Rows rowsOf(Element *__restrict__ out, long long first, int ny,
                                                int nx) {
    const long long row = first + threadIdx.x % 32 / 4;
    const bool write0 = row >= kRing && row < ny - kRing;
    const bool write8 = row + 8 >= kRing && row + 8 < ny - kRing;
    return {write0 ? out + row * nx : out, write8 ? out + (row + 8) * nx : out, write0, write8};
  }

  /// MMA block j's sums, stored where the step writes them: as pairs
  /// (!kQuads), else held for an even j and stored with block j + 1's.
  static __device__ __forceinline__ void storeBlock(int j, const typename Mma16::FragmentC &sum,
                                                    std::uint32_t (&held)[2], const Rows &rows,
                                                    int blockCol, int nx, bool wide) {
    const int lane = threadIdx.x % 32;
    if constexpr (!kQuads) {
      const int col = blockCol + 8 * j + lane % 4 * 2;
      if (rows.write0) {
        storeWrittenPair<kRing>(rows.out0 + col, col, sum.x[0], sum.x[1], nx, wide);
      }
      if (rows.write8) {
        storeWrittenPair<kRing>(rows.out8 + col, col, sum.x[2], sum.x[3], nx, wide);
      }
      return;
    }
    const std::uint32_t p0 = Mma16::packPair(sum.x[0], sum.x[1]);
    const std::uint32_t p8 = Mma16::packPair(sum.x[2], sum.x[3]);
    if (j % 2 == 0) { // held until block j + 1's
      held[0] = p0;
      held[1] = p8;
      return;
    }
    // Lane pairs (q, q ^ 1) swap a pair a row: an even lane then holds
    // columns 2q .. 2q + 3 of block j - 1, an odd one 2q - 2 .. 2q + 1 of
    // block j, so that a warp's store writes 32 whole bytes of each row.
    const bool odd = lane % 2 == 1;
    const std::uint32_t got0 = __shfl_xor_sync(0xffffffffu, odd ? held[0] : p0, 1);
    const std::uint32_t got8 = __shfl_xor_sync(0xffffffffu, odd ? held[1] : p8, 1);
    const int col = blockCol + 8 * (j - 1) + (odd ? 8 : 0) + 2 * (lane % 4 & 2);
    if (rows.write0) {
      storeWrittenQuad(rows.out0 + col, col, odd ? got0 : held[0], odd ? p0 : got0, nx, wide);
    }
    if (rows.write8) {
      storeWrittenQuad(rows.out8 + col, col, odd ? got8 : held[1], odd ? p8 : got8, nx, wide);
    }
  }

  /// Outputs x .. x + 3 of a row (dst points at x; low, high: packed pairs)
  /// where a step writes them: one 8-byte access when `quads` (x a multiple
  /// of 4, the row's quads aligned) and all four are written, else one by
  /// one.
  static __device__ __forceinline__ void storeWrittenQuad(Element *dst, int x, std::uint32_t low,
                                                          std::uint32_t high, int nx, bool quads) {
    if (quads && x >= kRing && x + 4 <= nx - kRing) {
      *reinterpret_cast<uint2 *>(dst) = make_uint2(low, high);
      return;
    }
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (x + e >= kRing && x + e < nx - kRing) {
        const std::uint32_t pair = e < 2 ? low : high;
        const auto bits = static_cast<unsigned short>(pair >> (16 * (e % 2)));
        dst[e] = *reinterpret_cast<const Element *>(&bits);
      }
    }
  }

  /// The distance from a paired group's first half to its second in a
  /// stage's windows (0 for a k8 group).
  static __host__ __device__ constexpr int apartOf(const StackedGroup &group) {
    return group.paired() ? offsetOf(group.half[1]) - offsetOf(group.half[0]) : 0;
  }

  /// The distance in a stage's windows from a k16 MMA's first half to its
  /// second that most groups have (a box's: one row).
  static __host__ __device__ constexpr int mostCommonApart() {
    int best = 0, bestCount = 0;
    for (int g = 0; g < kGroups; ++g) {
      int count = 0;
      for (int h = 0; h < kGroups; ++h) {
        count += group(h).paired() && apartOf(group(h)) == apartOf(group(g)) ? 1 : 0;
      }
      if (group(g).paired() && count > bestCount) {
        best = apartOf(group(g));
        bestCount = count;
      }
    }
    return best;
  }
  static constexpr int kApart = mostCommonApart();

  /// f(std::integral_constant<int, g>{}) for each group g in order.
  template <int g = 0, class F> static __device__ __forceinline__ void forEachGroup(F &&f) {
    if constexpr (g < kGroups) {
      f(std::integral_constant<int, g>{});
      forEachGroup<g + 1>(f);
    }
  }

  /// A half's first element in a stage's windows, from the lane's row of
  /// window 0 (0 for a k8 MMA's missing half).
  static __host__ __device__ constexpr int offsetOf(const StackedHalf &half) {
    return half.row < 0 ? 0 : half.window * kWindowElements + half.row * kPitch + 8 * half.first;
  }

  /// ldmatrix into r[0 .. Count): lane l addresses row l % 8 of 8 x 8
  /// matrix l / 8 (Count 2: lanes 0-15 address; 4: all).
  template <int Count>
  static __device__ __forceinline__ void loadMatrices(std::uint32_t *r, const Element *p) {
    const auto address = static_cast<unsigned>(__cvta_generic_to_shared(p));
    if constexpr (Count == 4) {
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                   : "r"(address));
    } else {
      static_assert(Count == 2, "2 or 4 matrices");
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                   : "=r"(r[0]), "=r"(r[1])
                   : "r"(address));
    }
  }

  // --- the kernel and its launch -----------------------------------------

  /// Block tiles of an ny x nx grid, in Count: int on the device (launch
  /// refuses more than INT_MAX), long long for that test.
  template <class Count = int>
  static __host__ __device__ __forceinline__ Count tileCount(int ny, int nx) {
    return static_cast<Count>((nx + kBlockCols - 1) / kBlockCols) *
           ((ny + kBlockRows - 1) / kBlockRows);
  }

  /// The window of `tile` (block tiles `across` a row) into `window`.
  struct TileOrigin {
    int row, col;
  };
  static __device__ __forceinline__ TileOrigin originOf(int tile, int across) {
    const int row = tile / across;
    return {row * kBlockRows, (tile - row * across) * kBlockCols};
  }

  /// The windows by cp.async from every thread (fetchWindow), a commit
  /// group a tile (empty past the last).
  struct ThreadCopies {
    const Element *in;
    int ny, nx, across, tiles;
    bool vectorRows;
    __device__ __forceinline__ void fetch(int tile, int, Element *window) const {
      if (tile < tiles) {
        const TileOrigin at = originOf(tile, across);
        fetchWindow(in, ny, nx, at.row, at.col, vectorRows, window);
      }
      asm volatile("cp.async.commit_group;");
    }
    __device__ __forceinline__ void await(int, unsigned) const {
      asm volatile("cp.async.wait_group %0;" ::"n"(kStages - 1));
      __syncthreads(); // the window is whole for every warp
    }
  };

  /// The windows by the tensor memory accelerator: thread 0 issues a
  /// window's copy, complete on its stage's mbarrier, which every thread
  /// waits on.
  struct MappedCopies {
    const CUtensorMap *map;
    unsigned barriers; // kStages mbarriers, 8 bytes apart
    int across, tiles;
    __device__ __forceinline__ void fetch(int tile, int stage, Element *window) const {
      if (threadIdx.x == 0 && tile < tiles) {
        const TileOrigin at = originOf(tile, across);
        copyBox(map, static_cast<unsigned>(__cvta_generic_to_shared(window)), at.row - kRadius,
                at.col - kHaloCols, barriers + 8 * stage,
                kWindowRows * kPitch * static_cast<unsigned>(sizeof(Element)));
      }
    }
    __device__ __forceinline__ void await(int stage, unsigned parity) const {
      awaitCopy(barriers + 8 * stage, parity);
    }
  };

  /// One step: a block walks block tiles gridDim.x apart, computing one
  /// window while `copies` fetch the next (in a grid of a block a tile,
  /// its one tile).
  template <class Copies>
  static __device__ __forceinline__ void walk(const Weights &w, const Copies &copies,
                                              Element *__restrict__ out, int ny, int nx,
                                              Element *windows) {
    // Whether a row's stores may be whole vectors (kStaged), quads
    // (kQuads) or pairs.
    constexpr int kStoreElements = kStaged ? 8 : kQuads ? 4 : 2;
    const bool wide =
        nx % kStoreElements == 0 &&
        reinterpret_cast<std::uintptr_t>(out) % (kStoreElements * sizeof(Element)) == 0;
    int tile = blockIdx.x;
#pragma unroll
    for (int s = 0; s + 1 < kStages; ++s) {
      copies.fetch(tile + s * static_cast<int>(gridDim.x), s,
                   windows + s * kStageElementsOfWindows);
    }
    for (int i = 0; tile < copies.tiles; tile += gridDim.x, ++i) {
      const int stage = i % kStages, next = (i + kStages - 1) % kStages;
      copies.fetch(tile + (kStages - 1) * static_cast<int>(gridDim.x), next,
                   windows + next * kStageElementsOfWindows);
      copies.await(stage, static_cast<unsigned>(i / kStages % 2));
      if constexpr (kShifted) {
        shiftWindow(windows + stage * kStageElementsOfWindows);
        __syncthreads(); // the shifted window is whole for every warp
      }
      const TileOrigin at = originOf(tile, copies.across);
      strip(windows + stage * kStageElementsOfWindows, w, out, at.row, at.col, ny, nx, wide,
            windows + kStages * kStageElementsOfWindows + threadIdx.x / 32 * kStageElements);
      __syncthreads(); // every warp is done with it before it is fetched into again
    }
  }

  /// One step, the windows by cp.async. Block tiles in 32-bit arithmetic
  /// (launch refuses more than INT_MAX): a 64-bit division a tile cost as
  /// much as a tenth of the MMAs' time.
  static __device__ __forceinline__ void
  run(const Element *__restrict__ in, Element *__restrict__ out, int ny, int nx, Element *windows) {
    const Weights w = loadWeights(G::weights(), threadIdx.x % 32);
    const bool vectorRows = nx % 8 == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
    const ThreadCopies copies{
        in, ny, nx, (nx + kBlockCols - 1) / kBlockCols, tileCount(ny, nx), vectorRows};
    walk(w, copies, out, ny, nx, windows);
  }

  /// One step, the windows by the tensor memory accelerator from `map` (a
  /// windowMap of the input with boxes of kWindowRows x kPitch).
  static __device__ __forceinline__ void
  runMapped(const CUtensorMap &map, Element *__restrict__ out, int ny, int nx, Element *windows) {
    __shared__ alignas(8) unsigned long long barriers[kStages];
    const auto first = static_cast<unsigned>(__cvta_generic_to_shared(barriers));
    if (threadIdx.x == 0) {
#pragma unroll
      for (int s = 0; s < kStages; ++s) {
        initCopyBarrier(first + 8 * s);
      }
    }
    const Weights w = loadWeights(G::weights(), threadIdx.x % 32);
    __syncthreads();
    const MappedCopies copies{&map, first, (nx + kBlockCols - 1) / kBlockCols, tileCount(ny, nx)};
    walk(w, copies, out, ny, nx, windows);
  }

  /// Launches kernel(in, out, ny, nx), or where kMapped and the grid
  /// allows a tensor map of `in`, stackedMappedKernel<G>(map of in, out,
  /// ny, nx): where kPersistent a grid of as many blocks as fit at once,
  /// else a block a block tile (kSharedBytes of dynamic shared memory
  /// each).
  static cudaError_t launch(void (*kernel)(const Element *, Element *, int, int), const Element *in,
                            Element *out, int ny, int nx, cudaStream_t stream) {
    constexpr long long kMost = 0x7fffffffLL;
    // The window's coordinates reach a block tile and its halo past the
    // grid's last tile: they must stay ints.
    if (nx > kMost - kWindowCols || ny > kMost - kWindowRows ||
        tileCount<long long>(ny, nx) > kMost) {
      return cudaErrorInvalidValue;
    }
    if constexpr (kMapped) {
      CUtensorMap map;
      if (windowMap(map, in, ny, nx, kWindowRows, kPitch, kPromotion)) {
        return launchGrid(stackedMappedKernel<G>, ny, nx, stream, map, out, ny, nx);
      }
    }
    return launchGrid(kernel, ny, nx, stream, in, out, ny, nx);
  }

  template <class Kernel, class... Args>
  static cudaError_t launchGrid(Kernel kernel, int ny, int nx, cudaStream_t stream, Args... args) {
    // (Also in a grid of a block a tile: residentBlocks opts the kernel in
    // to kSharedBytes of dynamic shared memory.)
    long long resident = 0;
    const cudaError_t status = residentBlocks(kernel, kThreads, kSharedBytes, resident);
    if (status != cudaSuccess) {
      return status;
    }
    const long long tiles = tileCount<long long>(ny, nx);
    const unsigned grid = static_cast<unsigned>(kPersistent && resident < tiles ? resident : tiles);
    kernel<<<grid, kThreads, kSharedBytes, stream>>>(args...);
    return cudaGetLastError();
  }
};

/// A stacked step whose windows the tensor memory accelerator copies
/// (StackedBlock::runMapped; launched by StackedBlock::launch). Compiled
/// from sm_90 on; a multi-architecture build's older passes hold a body
/// that is never launched (StackedBlock launches it only for a plan of
/// sm_90 on, which runs only there).
template <class G>
__global__ void __launch_bounds__(32 * G::kWarps, G::kMinBlocks)
    stackedMappedKernel(const __grid_constant__ CUtensorMap windows,
                        typename G::Element *__restrict__ out, int ny, int nx) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) unsigned char stencilc_windows[];
  StackedBlock<G>::runMapped(windows, out, ny, nx,
                             reinterpret_cast<typename G::Element *>(stencilc_windows));
#else
  __trap();
#endif
}

} // namespace device
} // namespace stencilc
