// tensor.cu.tpl - what a generated tensor-core stencil (TCStencil) holds of
// its own: its geometry, the kernel that ties the fixed device code of
// runtime/include/stencilc/device/tensor.cuh to its slice GEMMs, and the
// launch line of its entry point.
//
// Each `//@ section NAME` is filled by the code generator
// (compiler/lib/Backends/Tensor/TensorEmitter.cpp) with fmt named arguments
// ({name}); braces of the CUDA code are doubled ({{ }}). Every section is
// whole: it closes each scope it opens.

//@ section file_includes
#include "{header}"

#include <stencilc/device/host.cuh>

#include <cstdint>
{extra_includes}

#include <stencilc/device/tensor.cuh>

//@ section boundary_value
{value_struct}

//@ section geometry
/// The plan's numbers, as stencilc/device/tensor.cuh reads them.
struct Geometry {{
  using Element = {element};
  using Mma = stencilc::device::{mma}; // {accumulator} accumulation
  using Boundary = stencilc::device::{boundary};
  static constexpr int kDims = {dims};
  static constexpr int kRadius = {radius};
  static constexpr int kRing = {ring}; // points a step leaves unwritten at each edge
  static constexpr int kTileM = {tile_m}; // output tile: MMA m rows
  static constexpr int kTileN = {tile_n}; //   x kNBlocks MMA blocks of Mma::kN columns
  static constexpr int kNBlocks = {n_blocks};
  static constexpr int kTileRows = {tile_rows}; // tiles per block tile, down
  static constexpr int kTileCols = {tile_cols}; //   and across
  static constexpr int kWarps = {warps};
  static constexpr int kHaloCols = {halo_cols}; // the radius rounded up to kVec
  static constexpr int kWindowRows = {window_rows}; // shared-memory window, rows
  static constexpr int kPitch = {pitch}; // window row pitch (16-byte multiple, padded against bank conflicts)
  static constexpr int kLoadedRows = {loaded_rows}; // rows [0, kLoadedRows) hold input
  static constexpr int kLoadedColBegin = {loaded_col_begin}; // columns [begin, end) hold input,
  static constexpr int kLoadedColEnd = {loaded_col_end}; // the rest of the window holds zeros
  static constexpr int kVec = {vector_width}; // elements per 16-byte vector
  static constexpr int kPlanes = {planes}; // {planes_doc}
  static constexpr int kParamElements = {param_elements};
  static constexpr int kPrefetchBytes = {prefetch_bytes}; // L2 prefetch of the window's 16-byte loads
  {swizzled}{min_blocks}
}};
using Block = stencilc::device::TensorBlock<Geometry>;
using Element = Geometry::Element;
constexpr int kMinSize = {min_size}; // the smallest legal extent

//@ section kernel_2d
/// One time step on tensor cores. A persistent block walks block tiles of
/// kTileRows x kTileCols output tiles: while its warps run the slice GEMMs of
/// one block tile out of shared memory, the input window of its next block
/// tile is already on its way into registers. The accumulators go straight
/// from registers to global memory.
__global__ void __launch_bounds__({launch_bounds})
    {kernel}(const Element* __restrict__ in, Element* __restrict__ out, int ny, int nx) {{
{guard_begin}
  __shared__ __align__(128) Element window[Block::kWindowElements];
  __shared__ __align__(16) Element params[Geometry::kParamElements];

  const Block::BlockTiles blockTiles = Block::blockTiles(ny, nx);
  Block::Staged staged;
  Block::fetchBlockTile(in, ny, nx, blockTiles, blockIdx.x, staged);
  Block::copyParams(params, kParams);
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const bool pairs = Block::pairsAligned(out, nx);
  {param_fragments}

  for (long long blockTile = blockIdx.x; blockTile < blockTiles.count; blockTile += gridDim.x) {{
    const long long blockRow = blockTiles.row(blockTile);
    const long long blockCol = blockTiles.col(blockTile);
    Block::enterBlockTile(in, ny, nx, blockTiles, blockTile, window, staged);
#pragma unroll
    for (int i = 0; i < Block::kTilesPerWarp; ++i) {{
      const Block::Tile tile = Block::tile(warp + i * Block::kWarps, blockRow, blockCol);
      if (!tile.inGrid(ny, nx)) {{
        continue; // no such tile, or it lies outside the grid
      }}
      Block::FragmentC acc[Block::kNBlocks];
      {gemms}
      Block::storeTile(out, tile, acc, ny, nx, pairs, lane);
    }} // tile loop
    __syncthreads(); // every warp is done with the window before the next block tile overwrites it
  }} // block-tile loop
{guard_end}
}} // {kernel}

//@ section kernel_stacked
/// B of the stacked form's MMAs, every lane's fragments (stencilc/device/stacked.cuh):
/// group by group (Geometry::group), chunk by chunk, a word of 32 lanes for each half
/// of K (two for a k16 MMA, one for a k8); two weights a word, the first in the low half.
static __device__ const std::uint32_t kWeights[{weight_words}] = {{
{weights}
}};

/// The plan's numbers, as stencilc/device/stacked.cuh reads them.
struct Geometry {{
  using Element = {element};
  using Boundary = stencilc::device::{boundary};
  static constexpr int kRadius = {radius};
  static constexpr int kRing = {ring}; // points a step leaves unwritten at each edge
  static constexpr int kWarps = {warps}; // strips of 16 output rows a block tile, one a warp
  static constexpr int kBlocks = {blocks}; // MMA blocks of 8 columns a strip
  static constexpr int kPitch = {pitch}; // window row pitch: an odd number of 16-byte vectors
  static constexpr int kSplit = {split}; // accumulators an MMA block
  static constexpr int kMinBlocks = {min_blocks}; // blocks a multiprocessor (launch bounds)
  static constexpr bool kStaged = {staged}; // stores through the warps' stages
  static constexpr bool kMapped = {mapped}; // windows copied by the tensor memory accelerator
  static constexpr int kPromotion = {promotion}; // L2 promotion of kMapped's reads, bytes (0: none)
  static constexpr bool kPersistent = {persistent}; // a grid of resident blocks walking tiles; else a block a tile
  static constexpr bool kShifted = {shifted}; // a second window a stage, its columns 4 right
  static constexpr int kGroups = {groups}; // groups of MMAs: rows, chunks from a window
  // Group g: K's halves {{stencil row, window, first chunk}} (row -1: a k8 MMA), and its chunks.
  static __host__ __device__ constexpr stencilc::device::StackedGroup group(int g) {{
    switch (g) {{
{group_cases}
    default: return {{}};
    }}
  }}
  static __device__ __forceinline__ const std::uint32_t* weights() {{ return kWeights; }}
}};
using Block = stencilc::device::StackedBlock<Geometry>;
using Element = Geometry::Element;
static_assert(Block::kWeightWords == {weight_words}, "a lane's B fragments of every MMA");
static_assert(Block::kSharedBytes == {shared_bytes}, "the plan's windows and stages");
constexpr int kMinSize = {min_size}; // the smallest legal extent

/// One time step on tensor cores, the stencil's rows stacked in K
/// (stencilc/device/stacked.cuh): a persistent block walks block tiles,
/// computing from one shared-memory window while the next is copied into
/// the other.
__global__ void __launch_bounds__(Block::kThreads, Geometry::kMinBlocks)
    {kernel}(const Element* __restrict__ in, Element* __restrict__ out, int ny, int nx) {{
{guard_begin}
  extern __shared__ __align__(128) unsigned char stencilc_windows[];
  Block::run(in, out, ny, nx, reinterpret_cast<Element*>(stencilc_windows));
{guard_end}
}} // {kernel}

//@ section kernel_3d
/// One time step on tensor cores, streaming along z (2.5D blocking). A
/// persistent block takes block columns: kBlockRows x kBlockCols outputs of
/// the planes [z0, z0 + chunkZ). It walks them in order, keeping the windows
/// of the kPlanes input planes z - kRadius .. z + kRadius as a ring of
/// shared-memory slabs: each input plane is read once per block column, into
/// registers while the plane before it is computed. The accumulators go
/// straight from registers to global memory.
__global__ void __launch_bounds__(Block::kThreads)
    {kernel}(const Element* __restrict__ in, Element* __restrict__ outGrid, int nz, int ny, int nx, int chunkZ) {{
{guard_begin}
  __shared__ __align__(128) Element window[Block::kWindowElements];
  __shared__ __align__(16) Element params[Geometry::kParamElements];

  const Block::BlockColumns columns = Block::blockColumns(nz, ny, nx, chunkZ);
  Block::Staged staged;
  Block::copyParams(params, kParams);
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const bool pairs = Block::pairsAligned(outGrid, nx);
  {param_fragments}

  for (long long blockTile = blockIdx.x; blockTile < columns.count; blockTile += gridDim.x) {{
    const Block::BlockColumn column =
        Block::enterBlockColumn(in, nz, ny, nx, chunkZ, columns, blockTile, window, staged);
    for (long long z = column.z0; z < column.zEnd; ++z) {{
      int slab[Block::kPlanes]; // slab[dz + kRadius]: the first window row of input plane z + dz
      Block::enterPlane(in, nz, ny, nx, column, z, window, staged, slab);
      Element* const out = outGrid + z * ny * nx; // output plane z
      if (Block::planeWritten(z, nz)) {{
#pragma unroll
        for (int i = 0; i < Block::kTilesPerWarp; ++i) {{
          const Block::Tile tile = Block::tile(warp + i * Block::kWarps, column.row, column.col);
          if (!tile.inGrid(ny, nx)) {{
            continue; // no such tile, or it lies outside the grid
          }}
          Block::FragmentC acc[Block::kNBlocks];
          {gemms}
          Block::storeTile(out, tile, acc, ny, nx, pairs, lane);
        }} // tile loop
      }}
      __syncthreads(); // every warp is done with the slabs before the next plane overwrites one
    }} // plane loop
  }} // block-column loop
{guard_end}
}} // {kernel}

//@ section param_fragments
const auto param{index} = Block::inRegisters(Block::{params}, lane); // gemm {index} ({label}), loaded once per block

//@ section sparse_band_registers
// The sparse slices (mma.sp A fragments and metadata), each lane's own, derived once per block
// from the parameter matrices.
Block::SparseSlice band[{slices}];
#pragma unroll
for (int s = 0; s < {slices}; ++s) {{
  band[s] = Block::sparseParams(&params[{matrix_elements} * s], lane);
}}

//@ section sparse_band_shared
// The sparse slices (mma.sp A fragments and metadata), each lane's own, derived once per block
// from the parameter matrices into shared memory, read per tile.
__shared__ Block::SparseSlice sparse[{slices} * 32];
for (int s = warp; s < {slices}; s += Block::kWarps) {{
  sparse[s * 32 + lane] = Block::sparseParams(&params[{matrix_elements} * s], lane);
}}
__syncthreads(); // every warp's slices are in place
const Block::SharedSparseBand band{{sparse, lane}};

//@ section gemm_sparse
// rows dy=-{radius}..{radius}, sparse: window rows [tile row + s, +kTileM), columns [tile col, +32) per two MMA blocks, by mma.sp
Block::gemmRowSparse<0, {slices}>({acc}, {window}, tile, 0, band, lane);

//@ section gemm_vertical
// gemm {index}, {label}: P_v (kTileM x {kdim}) * window rows [tile row{slab_doc}, +{kdim}), columns [tile col + kHaloCols, +kTileN)
Block::gemmVertical({acc}, {window}, tile, {first_row}, {params}, lane);

//@ section gemm_row
// gemm {index}, {label}: window rows [tile row + {row}{slab_doc}, +kTileM), columns [tile col + j kMmaN + {first_col}, +{kdim}) * B ({kdim} x kMmaN) for MMA block j
Block::gemmRow({acc}, {window}, tile, {first_row}, {row}, {first_col}, {params}, lane);

//@ section launch
return Block::launch({kernel}, in, out, {size_args}, stream);

//@ section composed_include
#include <stencilc/device/composed.cuh>

//@ section composed
/// {pass_doc} (stencilc/device/composed.cuh): the stencil composed
/// {steps} times, radius {halo}, a tensor-core step of its own on every tile ...
namespace {namespace} {{

{composed_kernel}

/// One composed step (NAME_run has checked the pointers; a grid within 2 T r
/// of its size is all band, and NAME_run does not call this for it).
cudaError_t launch(const Element* in, Element* out, int ny, int nx, cudaStream_t stream) {{
  if (ny < kMinSize || nx < kMinSize) {{
    return cudaErrorInvalidValue;
  }}
  return Block::launch({kernel}, in, out, ny, nx, stream);
}}

}} // namespace {namespace}

/// ... then every point within {halo} of an edge, step by step on CUDA cores,
/// with the stencil's own coefficients (the arithmetic type's values).
{band_traits}

//@ section band_tile
constexpr int kBandTile = {band_tile};

//@ section pass_composed
// One composed pass (steps = {steps}) or one step on tensor cores, in -> out.
return stencilc::device::composed::onePass<Band, kBandTile>(in, out, {size_args}, steps, composed::launch, {name}_step, stream);

//@ section run_composed
// Passes of {steps} steps on tensor cores (composed::launch, then the band){remainder_doc}
// and single steps for the rest; the result in a.
return stencilc::device::composed::run<{bands}, kBandTile>(a, b, {size_args}, steps, {launches}, {name}_step, stream);

//@ section fields_namespace
// ===== stencil {name} =====
#include <stencilc/device/fields.cuh>
#include <stencilc/device/fields_tensor.cuh>

#include <cstring>

namespace {namespace} {{

{body}

}} // namespace {namespace}

//@ section fields_traits
/// The fields, accumulator groups and point terms, as
/// stencilc/device/fields_tensor.cuh reads them.
struct Fields {{
  using Element = {element};
  using Compute = {compute};
  static constexpr int kFields = {field_count};
  static constexpr int kGemmField = {gemm_field}; // {gemm_field_name}: the slice GEMMs read its window
  static constexpr int kGroups = {groups};
  // per group, the coefficient field read at the output point that multiplies it (-1: none)
  static constexpr int kGroupField[kGroups] = {{{group_fields}}};
  static constexpr int kPointTerms = {point_count};
  // field, coefficient field (-1: none), both read at the output point
  static constexpr stencilc::device::fieldstc::PointTerm kPoints[kPointTerms > 0 ? kPointTerms : 1] = {{{points}}};
  static constexpr int kParamElements = Geometry::kParamElements;{window_traits}
}};
using FieldsArgs = stencilc::device::fieldstc::Args<Fields>;

/// Per element of the parameter matrices (group after group, each the slice
/// GEMMs in order): the term whose coefficient it holds, or -1 for a zero.
constexpr short kParamTerms[Fields::kParamElements] = {{
{param_terms}
}};
/// Per point term, its index among the terms.
constexpr int kPointTermIndex[Fields::kPointTerms > 0 ? Fields::kPointTerms : 1] = {{{point_indices}}};

//@ section kernel_fields_2d
/// One time step of the stencil of fields on tensor cores: the 2D kernel of
/// one field over the window of field kGemmField, its slice GEMMs run once
/// for each accumulator group with the group's parameter matrices (passed
/// with the launch), and the epilogue of fields_tensor.cuh on the
/// accumulators: each group times its coefficient field, plus the point terms.
__global__ void __launch_bounds__(Block::kThreads)
    {kernel}(const __grid_constant__ FieldsArgs args, Element* __restrict__ out, int ny, int nx) {{
{guard_begin}
  __shared__ __align__(128) Element window[Block::kWindowElements];
  __shared__ __align__(16) Element params[Geometry::kParamElements];

  const Element* __restrict__ in = args.field[Fields::kGemmField];
  const Block::BlockTiles blockTiles = Block::blockTiles(ny, nx);
  Block::Staged staged;
  Block::fetchBlockTile(in, ny, nx, blockTiles, blockIdx.x, staged);
  Block::copyParams(params, args.matrix);
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const bool pairs = stencilc::device::fieldstc::pairsAligned(args, out, nx);
  {param_fragments}

  for (long long blockTile = blockIdx.x; blockTile < blockTiles.count; blockTile += gridDim.x) {{
    const long long blockRow = blockTiles.row(blockTile);
    const long long blockCol = blockTiles.col(blockTile);
    Block::enterBlockTile(in, ny, nx, blockTiles, blockTile, window, staged);
#pragma unroll
    for (int i = 0; i < Block::kTilesPerWarp; ++i) {{
      const Block::Tile tile = Block::tile(warp + i * Block::kWarps, blockRow, blockCol);
      if (!tile.inGrid(ny, nx)) {{
        continue; // no such tile, or it lies outside the grid
      }}
      Block::FragmentC acc[Fields::kGroups][Block::kNBlocks];
      {gemms}
      stencilc::device::fieldstc::storeTile<Fields, Block>(args, out, tile, acc, ny, nx, pairs, lane);
    }} // tile loop
    __syncthreads(); // every warp is done with the window before the next block tile overwrites it
  }} // block-tile loop
{guard_end}
}} // {kernel}

//@ section window_traits

  // {windows_doc}
  static constexpr int kWindows = {windows};
  static constexpr int kWindowField[kWindows] = {{{window_fields}}};
  static constexpr int kGroupWindow[kGroups] = {{{group_windows}}};

//@ section kernel_fields_2d_windows
/// One time step of the stencil of fields on tensor cores, several fields
/// read at neighbours: the 2D kernel of one field over a window of each
/// field kWindowField[w], all of a block tile's windows in shared memory at
/// once (each fetched into registers while the block tile before is
/// computed); each accumulator group's slice GEMMs run over the window of its
/// field with the group's parameter matrices (passed with the launch), and
/// the epilogue of fields_tensor.cuh on the accumulators: each group times
/// its coefficient field, plus the point terms.
__global__ void __launch_bounds__(Block::kThreads)
    {kernel}(const __grid_constant__ FieldsArgs args, Element* __restrict__ out, int ny, int nx) {{
{guard_begin}
  __shared__ __align__(128) Element window[Fields::kWindows][Block::kWindowElements];
  __shared__ __align__(16) Element params[Geometry::kParamElements];

  const Block::BlockTiles blockTiles = Block::blockTiles(ny, nx);
  constexpr auto windows = std::make_integer_sequence<int, Fields::kWindows>();
  Block::Staged staged[Fields::kWindows];
  stencilc::device::fieldstc::fetchWindows<Fields, Block>(args, ny, nx, blockTiles, blockIdx.x, staged, windows);
  Block::copyParams(params, args.matrix);
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const bool pairs = stencilc::device::fieldstc::pairsAligned(args, out, nx);
  {param_fragments}

  for (long long blockTile = blockIdx.x; blockTile < blockTiles.count; blockTile += gridDim.x) {{
    const long long blockRow = blockTiles.row(blockTile);
    const long long blockCol = blockTiles.col(blockTile);
    stencilc::device::fieldstc::enterWindows<Fields, Block>(args, ny, nx, blockTiles, blockTile, window, staged, windows);
#pragma unroll
    for (int i = 0; i < Block::kTilesPerWarp; ++i) {{
      const Block::Tile tile = Block::tile(warp + i * Block::kWarps, blockRow, blockCol);
      if (!tile.inGrid(ny, nx)) {{
        continue; // no such tile, or it lies outside the grid
      }}
      Block::FragmentC acc[Fields::kGroups][Block::kNBlocks];
      {gemms}
      stencilc::device::fieldstc::storeTile<Fields, Block>(args, out, tile, acc, ny, nx, pairs, lane);
    }} // tile loop
    __syncthreads(); // every warp is done with the windows before the next block tile overwrites them
  }} // block-tile loop
{guard_end}
}} // {kernel}

//@ section kernel_fields_3d
/// One time step of the 3D stencil of fields on tensor cores, streaming
/// along z as the 3D kernel of one field does: a persistent block takes
/// block columns (kBlockRows x kBlockCols outputs of the planes [z0, z0 +
/// chunkZ)) and keeps, for every field kWindowField[w] read at neighbours, a
/// ring of kPlanes shared-memory slabs holding its input planes z - kRadius
/// .. z + kRadius, each plane read once per block column into registers
/// while the plane before is computed. Each accumulator group's slice GEMMs
/// run over the slabs of its field with the group's parameter matrices
/// (passed with the launch), and the epilogue of fields_tensor.cuh on the
/// accumulators reads the fields at the output plane.
__global__ void __launch_bounds__(Block::kThreads)
    {kernel}(const __grid_constant__ FieldsArgs args, Element* __restrict__ out, int nz, int ny, int nx, int chunkZ) {{
{guard_begin}
  __shared__ __align__(128) Element window[Fields::kWindows][Block::kWindowElements];
  __shared__ __align__(16) Element params[Geometry::kParamElements];

  const Block::BlockColumns columns = Block::blockColumns(nz, ny, nx, chunkZ);
  constexpr auto windows = std::make_integer_sequence<int, Fields::kWindows>();
  Block::Staged staged[Fields::kWindows];
  Block::copyParams(params, args.matrix);
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const bool pairs = stencilc::device::fieldstc::pairsAligned(args, out, nx);
  {param_fragments}

  for (long long blockTile = blockIdx.x; blockTile < columns.count; blockTile += gridDim.x) {{
    const Block::BlockColumn column = stencilc::device::fieldstc::enterBlockColumns<Fields, Block>(
        args, nz, ny, nx, chunkZ, columns, blockTile, window, staged, windows);
    for (long long z = column.z0; z < column.zEnd; ++z) {{
      int slab[Block::kPlanes]; // slab[dz + kRadius]: the first window row of input plane z + dz
      stencilc::device::fieldstc::enterPlanes<Fields, Block>(args, nz, ny, nx, column, z, window, staged, slab, windows);
      if (Block::planeWritten(z, nz)) {{
        const long long plane = z * ny * nx; // the output plane's first point, in out and every field
#pragma unroll
        for (int i = 0; i < Block::kTilesPerWarp; ++i) {{
          const Block::Tile tile = Block::tile(warp + i * Block::kWarps, column.row, column.col);
          if (!tile.inGrid(ny, nx)) {{
            continue; // no such tile, or it lies outside the grid
          }}
          Block::FragmentC acc[Fields::kGroups][Block::kNBlocks];
          {gemms}
          stencilc::device::fieldstc::storeTile<Fields, Block>(args, out, tile, acc, ny, nx, pairs, lane, plane);
        }} // tile loop
      }}
      __syncthreads(); // every warp is done with the slabs before the next plane overwrites one
    }} // plane loop
  }} // block-column loop
{guard_end}
}} // {kernel}

//@ section fields_host
__global__ void __launch_bounds__(256) {name}_ring_kernel(const Element* __restrict__ from, Element* __restrict__ to, int nz, int ny, int nx) {{
{guard_begin}
  stencilc::device::fields::copyRing<RingCopy>(from, to, nz, ny, nx);
{guard_end}
}}

/// One step over the {extents} grids{nz_doc}.
inline cudaError_t launch(const FieldsArgs& args, Element* out, int{nz_name}, int ny, int nx, cudaStream_t stream) {{
  return stencilc::device::fieldstc::launch<Fields, Block>({kernel}, args, out, {nz_arg}ny, nx, stream);
}}

/// Copies the ring a fixed step leaves unwritten from `from` to `to`.
inline cudaError_t copyRing(const Element* from, Element* to, int nz, int ny, int nx, cudaStream_t stream) {{
  dim3 grid, block;
  if (!stencilc::device::fields::launchGrid<RingCopy>(nz, ny, nx, grid, block)) {{
    return cudaErrorInvalidValue;
  }}
  {name}_ring_kernel<<<grid, block, 0, stream>>>(from, to, nz, ny, nx);
  return cudaGetLastError();
}}

/// The arguments of a step: the fields, and the parameter matrices and the
/// point terms' coefficients for the parameters' values. Those are rebuilt
/// only when the values differ (bit for bit) from the last call's on this
/// host thread: one cache a host thread, holding the last values.
inline FieldsArgs arguments({field_params_const}{param_params}) {{
  struct Cache {{
    bool valid = false;
    double values[{value_count}];
    Element matrix[Fields::kParamElements];
    Fields::Compute k[Fields::kPointTerms > 0 ? Fields::kPointTerms : 1];
  }};
  static thread_local Cache stencilc_cache;
  const double stencilc_values[{value_count}] = {{{param_values}}};
  if (!stencilc_cache.valid || std::memcmp(stencilc_cache.values, stencilc_values, sizeof stencilc_values) != 0) {{
    double stencilc_k[{term_count}];
    {name}_coefficients({param_args_first}stencilc_k);
    for (int i = 0; i < Fields::kParamElements; ++i) {{
      stencilc_cache.matrix[i] = stencilc::device::fieldstc::operandFromDouble<Element>(kParamTerms[i] < 0 ? 0.0 : stencilc_k[kParamTerms[i]]);
    }}
    for (int p = 0; p < Fields::kPointTerms; ++p) {{
      stencilc_cache.k[p] = static_cast<Fields::Compute>(stencilc_k[kPointTermIndex[p]]);
    }}
    std::memcpy(stencilc_cache.values, stencilc_values, sizeof stencilc_values);
    stencilc_cache.valid = true;
  }}
  FieldsArgs stencilc_args;
  const Element* const stencilc_fields[Fields::kFields] = {{{field_list}}};
  std::memcpy(stencilc_args.field, stencilc_fields, sizeof stencilc_fields);
  std::memcpy(stencilc_args.matrix, stencilc_cache.matrix, sizeof stencilc_args.matrix);
  std::memcpy(stencilc_args.k, stencilc_cache.k, sizeof stencilc_args.k);
  return stencilc_args;
}}

//@ section ring_traits
/// The ring copy's one thread a point (stencilc/device/fields.cuh).
struct RingCopy {{
  using Element = {element};
  static constexpr int kThreadsX = 32;
  static constexpr int kThreadsY = {ring_rows};
  static constexpr int kChunkZ = 1; // {chunk_doc}
  static constexpr int kChunkAxis = 1;
  static constexpr int kRingZ = {ring_z};
  static constexpr int kRingY = {ring_y};
  static constexpr int kRingX = {ring};
}};
