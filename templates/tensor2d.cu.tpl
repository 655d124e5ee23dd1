// tensor2d.cu.tpl - skeletons of the 2D tensor-core stencil kernel (TCStencil).
//
// Each `//@ section NAME` starts a piece the code generator fills with fmt
// named arguments ({name}); braces of the CUDA code are doubled ({{ }}).
// The generator (compiler/lib/CodeGen/CudaEmitter.cpp) writes the sections
// in order, adding the parameter tables and the slice GEMMs of the plan.

//@ section file_includes
#include "{header}"

#include <cstdint>
#include <mma.h>
{extra_includes}

//@ section constants
using Element = {element};         // the grid's element type in memory
using Accumulator = {accumulator}; // what the MMAs accumulate in
constexpr int kRadius = {radius};
constexpr int kTile = {tile};                  // output tile edge L = MMA m = n
constexpr int kMmaK = {mma_k};                 // MMA k: one chunk of a slice GEMM
constexpr int kTileRows = {tile_rows};         // tiles per block, down
constexpr int kTileCols = {tile_cols};         // tiles per block, across
constexpr int kTilesPerBlock = kTileRows * kTileCols;
constexpr int kBlockRows = kTileRows * kTile;  // outputs per block, down
constexpr int kBlockCols = kTileCols * kTile;  // outputs per block, across
constexpr int kWarps = {warps};
constexpr int kThreads = kWarps * 32;
constexpr int kHaloCols = {halo_cols};         // the radius rounded up to kMmaK
constexpr int kWindowRows = {window_rows};     // shared-memory window, rows
constexpr int kPitch = {pitch};                // window row pitch: a multiple of 32 bytes
constexpr int kLoadedRows = {loaded_rows};     // rows [0, kLoadedRows) hold input
constexpr int kLoadedColBegin = {loaded_col_begin}; // columns [begin, end) hold input,
constexpr int kLoadedColEnd = {loaded_col_end};     // the rest of the window holds zeros
constexpr int kVec = {vector_width};           // elements per 16-byte vector
constexpr int kParamElements = {param_elements};
constexpr int kRing = {ring};                  // points a step leaves unwritten at each edge
constexpr int kMinSize = {min_size};           // the smallest legal extent

// The per-warp accumulator staging tile is padded by 16 bytes a row so that
// the accumulator stores and the read-back meet few bank conflicts.
constexpr int kStagePitch = kTile + 16 / static_cast<int>(sizeof(Accumulator));
constexpr int kGroupsPerRow = kPitch / kVec;  // 16-byte groups of the window
constexpr int kGroups = kWindowRows * kGroupsPerRow;
constexpr int kGroupsPerThread = (kGroups + kThreads - 1) / kThreads;

static_assert(kPitch * sizeof(Element) % 32 == 0, "fragment rows must stay 256-bit aligned");
static_assert(kHaloCols % kMmaK == 0 && kTile % kVec == 0, "tiles start on aligned columns");

using FragmentA = nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, {mma_m}, {mma_n}, {mma_k}, {operand}, nvcuda::wmma::row_major>;
using FragmentB = nvcuda::wmma::fragment<nvcuda::wmma::matrix_b, {mma_m}, {mma_n}, {mma_k}, {operand}, nvcuda::wmma::row_major>;
using FragmentC = nvcuda::wmma::fragment<nvcuda::wmma::accumulator, {mma_m}, {mma_n}, {mma_k}, Accumulator>;

//@ section element_helpers
/// The accumulator rounded to the element type, as stored.
__device__ __forceinline__ Element toElement(Accumulator value) {{ return {to_element}; }}

//@ section read_fixed
/// boundary fixed: reads outside the grid feed only ring outputs, which are
/// never stored; they read 0 so that no garbage enters a product.
__device__ __forceinline__ Element readInput(const Element* __restrict__ in, long long y, long long x, int ny, int nx) {{
  if (y < 0 || y >= ny || x < 0 || x >= nx) {{
    return Element(0.0f);
  }}
  return in[y * nx + x];
}}

//@ section read_constant
/// boundary constant {value_text}: a read outside the grid gives the constant.
__device__ __forceinline__ Element readInput(const Element* __restrict__ in, long long y, long long x, int ny, int nx) {{
  if (y < 0 || y >= ny || x < 0 || x >= nx) {{
    return Element({value_literal});
  }}
  return in[y * nx + x];
}}

//@ section read_periodic
/// boundary periodic: reads wrap around each axis (also when the halo is
/// wider than the grid).
__device__ __forceinline__ Element readInput(const Element* __restrict__ in, long long y, long long x, int ny, int nx) {{
  y %= ny;
  x %= nx;
  if (y < 0) {{
    y += ny;
  }}
  if (x < 0) {{
    x += nx;
  }}
  return in[y * nx + x];
}}

//@ section window_io
/// Reads the input window of the block tile at (blockRow, blockCol) into
/// registers, window[w][c] = in(blockRow - kRadius + w, blockCol - kHaloCols + c):
/// 16-byte loads where the row allows, the boundary rule elsewhere, zeros
/// outside the loaded part (only ever multiplied by 0). Every load of a thread
/// is issued before any is used.
__device__ __forceinline__ void fetchWindow(const Element* __restrict__ in, int ny, int nx,
                                            long long blockRow, long long blockCol,
                                            uint4 (&staged)[kGroupsPerThread]) {{
  const bool vectorRows = nx % kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
#pragma unroll
  for (int i = 0; i < kGroupsPerThread; ++i) {{
    const int group = threadIdx.x + i * kThreads;
    const int row = group / kGroupsPerRow;
    const int col = group % kGroupsPerRow * kVec;
    staged[i] = make_uint4(0u, 0u, 0u, 0u);
    if (group >= kGroups || row >= kLoadedRows || col < kLoadedColBegin || col >= kLoadedColEnd) {{
      continue;
    }}
    const long long y = blockRow - kRadius + row;
    const long long x = blockCol - kHaloCols + col;
    if (vectorRows && y >= 0 && y < ny && x >= 0 && x + kVec <= nx) {{
      staged[i] = __ldg(reinterpret_cast<const uint4*>(in + y * nx + x));
    }} else {{
      alignas(16) Element values[kVec];
#pragma unroll
      for (int e = 0; e < kVec; ++e) {{
        values[e] = readInput(in, y, x + e, ny, nx);
      }}
      staged[i] = *reinterpret_cast<const uint4*>(values);
    }}
  }}
}}

/// Writes a fetched window into shared memory.
__device__ __forceinline__ void storeWindow(Element* window, const uint4 (&staged)[kGroupsPerThread]) {{
#pragma unroll
  for (int i = 0; i < kGroupsPerThread; ++i) {{
    const int group = threadIdx.x + i * kThreads;
    if (group < kGroups) {{
      {store_staged}
    }}
  }}
}}

//@ section kernel_head
/// One time step on tensor cores. A persistent block walks block tiles of
/// kTileRows x kTileCols output tiles: while its warps run the slice GEMMs of
/// one block tile out of shared memory, the input window of its next block
/// tile is already on its way into registers.
__global__ void __launch_bounds__(kThreads) {kernel}(const Element* __restrict__ in, Element* __restrict__ out, int ny, int nx) {{
  __shared__ __align__(128) Element window[kWindowRows * kPitch];
  __shared__ __align__(128) Element params[kParamElements];
  __shared__ __align__(128) Accumulator staging[kWarps][kTile * kStagePitch];

  const int blocksAcross = (nx + kBlockCols - 1) / kBlockCols;
  const long long blockTiles = static_cast<long long>(blocksAcross) * ((ny + kBlockRows - 1) / kBlockRows);
  long long blockTile = blockIdx.x;
  uint4 staged[kGroupsPerThread];
  if (blockTile < blockTiles) {{
    fetchWindow(in, ny, nx, blockTile / blocksAcross * kBlockRows, blockTile % blocksAcross * kBlockCols, staged);
  }}

  // The parameter matrices, already rounded to the operand type: exact.
  for (int i = threadIdx.x; i < kParamElements; i += kThreads) {{
    params[i] = Element(kParams[i]);
  }}
  __syncthreads();

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  Accumulator* stage = staging[warp];

//@ section block_head
const long long blockRow = blockTile / blocksAcross * kBlockRows;
const long long blockCol = blockTile % blocksAcross * kBlockCols;
storeWindow(window, staged);
__syncthreads();
const long long nextTile = blockTile + gridDim.x;
if (nextTile < blockTiles) {{
  fetchWindow(in, ny, nx, nextTile / blocksAcross * kBlockRows, nextTile % blocksAcross * kBlockCols, staged);
}}

//@ section block_tail
__syncthreads(); // every warp is done with the window before the next block tile overwrites it

//@ section store_staged_plain
*reinterpret_cast<uint4*>(&window[group * kVec]) = staged[i];

//@ section store_staged_tf32
// tf32: inputs enter the MMA rounded to nearest, ties away from zero.
*reinterpret_cast<float4*>(&window[group * kVec]) =
    make_float4(nvcuda::wmma::__float_to_tf32(__uint_as_float(staged[i].x)),
                nvcuda::wmma::__float_to_tf32(__uint_as_float(staged[i].y)),
                nvcuda::wmma::__float_to_tf32(__uint_as_float(staged[i].z)),
                nvcuda::wmma::__float_to_tf32(__uint_as_float(staged[i].w)));

//@ section param_fragments
{fragment} param{index}[{chunks}]; // gemm {index} ({label}), loaded once per block
#pragma unroll
for (int c = 0; c < {chunks}; ++c) {{
  nvcuda::wmma::load_matrix_sync(param{index}[c], &params[{offset} + c * {chunk_stride}], {ld});
}}

//@ section tile_head
const int tileRow = tile / kTileCols * kTile; // within the block
const int tileCol = tile % kTileCols * kTile;
const long long outRow = blockRow + tileRow;
const long long outCol = blockCol + tileCol;
if (outRow >= ny || outCol >= nx) {{
  continue; // the whole tile lies outside the grid
}}
FragmentC acc;
nvcuda::wmma::fill_fragment(acc, Accumulator(0));

//@ section gemm_vertical
{{ // gemm {index}, {label}: P_v ({tile} x {kdim}) * window rows [tileRow, +{kdim}), columns [tileCol + kHaloCols, +kTile)
  FragmentB input;
#pragma unroll
  for (int c = 0; c < {chunks}; ++c) {{
    nvcuda::wmma::load_matrix_sync(input, &window[(tileRow + c * kMmaK) * kPitch + tileCol + kHaloCols], kPitch);
    {param_load}
    nvcuda::wmma::mma_sync(acc, {param}, input, acc);
  }}
}}

//@ section gemm_row
{{ // gemm {index}, {label}: window rows [tileRow + {row}, +kTile), columns [tileCol + {first_col}, +{kdim}) * B ({kdim} x {tile})
  FragmentA input;
#pragma unroll
  for (int c = 0; c < {chunks}; ++c) {{
    nvcuda::wmma::load_matrix_sync(input, &window[(tileRow + {row}) * kPitch + tileCol + {first_col} + c * kMmaK], kPitch);
    {param_load}
    nvcuda::wmma::mma_sync(acc, input, {param}, acc);
  }}
}}

//@ section tile_store
// Store the points a step writes: whole 16-byte vectors inside the written
// region, single elements at its edges.
nvcuda::wmma::store_matrix_sync(stage, acc, kStagePitch, nvcuda::wmma::mem_row_major);
__syncwarp();
const long long rowEnd = static_cast<long long>(ny) - kRing;
const long long colEnd = static_cast<long long>(nx) - kRing;
const bool vectorStore = nx % kVec == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
for (int v = lane; v < kTile * kTile / kVec; v += 32) {{
  const int m = v / (kTile / kVec);
  const int n = v % (kTile / kVec) * kVec;
  const long long y = outRow + m;
  const long long x = outCol + n;
  if (y < kRing || y >= rowEnd) {{
    continue;
  }}
  const Accumulator* src = &stage[m * kStagePitch + n];
  Element* dst = out + y * nx + x;
  if (vectorStore && x >= kRing && x + kVec <= colEnd) {{
    alignas(16) Element packed[kVec];
#pragma unroll
    for (int e = 0; e < kVec; ++e) {{
      packed[e] = toElement(src[e]);
    }}
    *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(packed);
  }} else {{
#pragma unroll
    for (int e = 0; e < kVec; ++e) {{
      if (x + e >= kRing && x + e < colEnd) {{
        dst[e] = toElement(src[e]);
      }}
    }}
  }}
}}
__syncwarp();

//@ section launch
// A persistent grid: as many blocks as fit on the GPU at once, each walking
// block tiles, so its parameter fragments are loaded once and loads overlap
// the MMAs.
const long long blockTiles = static_cast<long long>((nx + kBlockCols - 1) / kBlockCols) *
                             ((ny + kBlockRows - 1) / kBlockRows);
int device = 0;
int multiprocessors = 0;
int blocksPerMultiprocessor = 0;
cudaError_t status = cudaGetDevice(&device);
if (status == cudaSuccess) {{
  status = cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
}}
if (status == cudaSuccess) {{
  status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerMultiprocessor, {kernel}, kThreads, 0);
}}
if (status != cudaSuccess) {{
  return status;
}}
const long long resident = static_cast<long long>(multiprocessors) * (blocksPerMultiprocessor > 0 ? blocksPerMultiprocessor : 1);
const unsigned grid = static_cast<unsigned>(blockTiles < resident ? blockTiles : resident);
{kernel}<<<grid, kThreads, 0, stream>>>(in, out, ny, nx);
return cudaGetLastError();
