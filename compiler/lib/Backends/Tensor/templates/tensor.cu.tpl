// tensor.cu.tpl - skeletons of the tensor-core stencil kernel (TCStencil), 1D/2D/3D.
//
// Each `//@ section NAME` starts a piece the code generator fills with fmt
// named arguments ({name}); braces of the CUDA code are doubled ({{ }}).
// The generator (compiler/lib/Backends/Tensor/TensorEmitter.cpp) writes the sections a
// plan needs, in order: one of the mma_* sections (the fragment types, their
// loads and the mma.sync of the precision), one tile_store_* section (by the
// tile's shape), and between them the parameter tables and the slice GEMMs.

//@ section file_includes
#include "{header}"

#include <cstdint>
{extra_includes}

//@ section constants
using Element = {element};         // the grid's element type in memory
using Accumulator = {accumulator}; // what the MMAs accumulate in
constexpr int kRadius = {radius};
constexpr int kTileM = {tile_m};               // output tile: MMA m rows
constexpr int kTileN = {tile_n};               //   x kNBlocks MMA blocks of kMmaN columns
constexpr int kNBlocks = {n_blocks};
constexpr int kMmaN = {mma_n};
constexpr int kMmaK = {mma_k};                 // MMA k: one chunk of a slice GEMM
constexpr int kTileRows = {tile_rows};         // tiles per block, down
constexpr int kTileCols = {tile_cols};         // tiles per block, across
constexpr int kTilesPerBlock = kTileRows * kTileCols;
constexpr int kBlockRows = kTileRows * kTileM; // outputs per block, down
constexpr int kBlockCols = kTileCols * kTileN; // outputs per block, across
constexpr int kWarps = {warps};
constexpr int kThreads = kWarps * 32;
constexpr int kTilesPerWarp = (kTilesPerBlock + kWarps - 1) / kWarps;
constexpr int kHaloCols = {halo_cols};         // the radius rounded up to kVec
constexpr int kWindowRows = {window_rows};     // shared-memory window, rows{planes_doc}
constexpr int kPitch = {pitch};                // window row pitch (16-byte multiple, padded against bank conflicts)
constexpr int kLoadedRows = {loaded_rows};     // rows [0, kLoadedRows) hold input
constexpr int kLoadedColBegin = {loaded_col_begin}; // columns [begin, end) hold input,
constexpr int kLoadedColEnd = {loaded_col_end};     // the rest of the window holds zeros
constexpr int kVec = {vector_width};           // elements per 16-byte vector
constexpr int kParamElements = {param_elements};
constexpr int kRing = {ring};                  // points a step leaves unwritten at each edge
constexpr int kMinSize = {min_size};           // the smallest legal extent

constexpr int kGroupsPerRow = kPitch / kVec;  // 16-byte groups of the window
constexpr int kGroups = kWindowRows * kGroupsPerRow;
constexpr int kGroupsPerThread = (kGroups + kThreads - 1) / kThreads;

static_assert(kPitch * sizeof(Element) % 16 == 0, "window rows must stay 16-byte aligned");
static_assert(kHaloCols % kVec == 0 && kTileN % kVec == 0, "tiles start on 16-byte aligned columns");

//@ section mma_m16n8k16
// The MMA: mma.sync m16n8k16, {type} operands, fp32 accumulators. Lane
// 4g + t of the warp holds (PTX ISA, "matrix fragments for mma.m16n8k16"):
//   A (16 x 16): pairs (g, 2t..2t+1), (g+8, 2t..2t+1), (g, 2t+8..2t+9), (g+8, 2t+8..2t+9)
//   B (16 x 8):  pairs (k 2t..2t+1, n g), (k 2t+8..2t+9, n g)
//   C (16 x 8):  (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)
struct FragmentA {{
  std::uint32_t x[4];
}};
struct FragmentB {{
  std::uint32_t x[2];
}};
struct FragmentC {{
  float x[4] = {{0.0f, 0.0f, 0.0f, 0.0f}};
}};

/// Two consecutive elements of a row (p is 4-byte aligned).
__device__ __forceinline__ std::uint32_t pairAt(const Element* p) {{
  return *reinterpret_cast<const std::uint32_t*>(p);
}}

/// A: rows [0, 16) x columns [0, 16) of the matrix at p, rows ld apart.
__device__ __forceinline__ FragmentA loadA(const Element* p, int ld, int lane) {{
  const int g = lane / 4, t = lane % 4;
  return {{{{pairAt(p + g * ld + 2 * t), pairAt(p + (g + 8) * ld + 2 * t),
            pairAt(p + g * ld + 2 * t + 8), pairAt(p + (g + 8) * ld + 2 * t + 8)}}}};
}}

/// B: rows (k) [0, 16) x columns (n) [0, 8) of the shared-memory matrix at
/// p, rows ld apart, 16-byte aligned: two transposing 8x8 matrix loads.
__device__ __forceinline__ FragmentB loadB(const Element* p, int ld, int lane) {{
  const auto address = static_cast<unsigned>(__cvta_generic_to_shared(p + lane % 16 * ld));
  FragmentB b;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {{%0, %1}}, [%2];"
               : "=r"(b.x[0]), "=r"(b.x[1])
               : "r"(address));
  return b;
}}

/// c += a * b.
__device__ __forceinline__ void mma(FragmentC& c, const FragmentA& a, const FragmentB& b) {{
  asm("mma.sync.aligned.m16n8k16.row.col.f32.{type}.{type}.f32 {{%0, %1, %2, %3}}, "
      "{{%4, %5, %6, %7}}, {{%8, %9}}, {{%0, %1, %2, %3}};"
      : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
      : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]));
}}

/// Two accumulators rounded to the element type, the first in the low half.
__device__ __forceinline__ std::uint32_t packPair(float first, float second) {{
  const {pair_type} both = {pack_pair}(first, second);
  return *reinterpret_cast<const std::uint32_t*>(&both);
}}

/// Stores a 16 x 16 tile held as two accumulators (columns 0-7 and 8-15) to
/// dst (16-byte aligned, rows ld apart), every row as two 16-byte vectors.
/// The lanes 4g..4g+3 of a quad hold the pairs of rows g and g + 8 of both
/// halves; a 4 x 4 transpose within the quad (two exchanges) gives lane
/// 4g + t the 8 outputs of row g + 8 (t / 2), columns 8 (t % 2) on.
__device__ __forceinline__ void storeRows16(Element* dst, int ld, const FragmentC& left,
                                            const FragmentC& right, int lane) {{
  const std::uint32_t a = packPair(left.x[0], left.x[1]);   // row g,     columns 2t, 2t + 1
  const std::uint32_t b = packPair(right.x[0], right.x[1]); // row g,     columns 8 + 2t, ..
  const std::uint32_t c = packPair(left.x[2], left.x[3]);   // row g + 8, columns 2t, ..
  const std::uint32_t d = packPair(right.x[2], right.x[3]); // row g + 8, columns 8 + 2t, ..
  const int t = lane % 4;
  const bool hi = t & 2, lo = t & 1;
  // With lane t ^ 2: keep the two vectors of this lane's row (hi), trade the others.
  const std::uint32_t x0 = hi ? c : a, x1 = hi ? d : b;
  const std::uint32_t y0 = __shfl_xor_sync(0xffffffffu, hi ? a : c, 2);
  const std::uint32_t y1 = __shfl_xor_sync(0xffffffffu, hi ? b : d, 2);
  // With lane t ^ 1: keep this lane's half of the row (lo), trade the other.
  const std::uint32_t keep0 = lo ? x1 : x0, keep1 = lo ? y1 : y0;
  const std::uint32_t from0 = __shfl_xor_sync(0xffffffffu, lo ? x0 : x1, 1);
  const std::uint32_t from1 = __shfl_xor_sync(0xffffffffu, lo ? y0 : y1, 1);
  // keep0, from0, keep1, from1 came from lanes t, t ^ 1, t ^ 2, t ^ 3 of the
  // quad, that is, they are the pairs at columns 2 (t ^ k): put them in order.
  const std::uint32_t u0 = lo ? from0 : keep0, u1 = lo ? keep0 : from0;
  const std::uint32_t u2 = lo ? from1 : keep1, u3 = lo ? keep1 : from1;
  *reinterpret_cast<uint4*>(dst + (lane / 4 + 8 * (t / 2)) * ld + 8 * (t % 2)) =
      hi ? make_uint4(u2, u3, u0, u1) : make_uint4(u0, u1, u2, u3);
}}

//@ section mma_m16n8k8_tf32
// The MMA: mma.sync m16n8k8, tf32 operands, fp32 accumulators. Lane 4g + t
// of the warp holds (PTX ISA, "matrix fragments for mma.m16n8k8"):
//   A (16 x 8): (g, t), (g+8, t), (g, t+4), (g+8, t+4)
//   B (8 x 8):  (k t, n g), (k t+4, n g)
//   C (16 x 8): (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)
struct FragmentA {{
  std::uint32_t x[4];
}};
struct FragmentB {{
  std::uint32_t x[2];
}};
struct FragmentC {{
  float x[4] = {{0.0f, 0.0f, 0.0f, 0.0f}};
}};

/// x rounded to tf32, to nearest with ties away from zero, as the MMA reads it.
__device__ __forceinline__ float roundToTf32(float x) {{
  std::uint32_t bits;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(bits) : "f"(x));
  return __uint_as_float(bits);
}}

/// A: rows [0, 16) x columns [0, 8) of the matrix at p, rows ld apart.
__device__ __forceinline__ FragmentA loadA(const Element* p, int ld, int lane) {{
  const int g = lane / 4, t = lane % 4;
  return {{{{__float_as_uint(p[g * ld + t]), __float_as_uint(p[(g + 8) * ld + t]),
            __float_as_uint(p[g * ld + t + 4]), __float_as_uint(p[(g + 8) * ld + t + 4])}}}};
}}

/// B: rows (k) [0, 8) x columns (n) [0, 8) of the matrix at p, rows ld apart.
__device__ __forceinline__ FragmentB loadB(const Element* p, int ld, int lane) {{
  const int g = lane / 4, t = lane % 4;
  return {{{{__float_as_uint(p[t * ld + g]), __float_as_uint(p[(t + 4) * ld + g])}}}};
}}

/// c += a * b.
__device__ __forceinline__ void mma(FragmentC& c, const FragmentA& a, const FragmentB& b) {{
  asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {{%0, %1, %2, %3}}, "
      "{{%4, %5, %6, %7}}, {{%8, %9}}, {{%0, %1, %2, %3}};"
      : "+f"(c.x[0]), "+f"(c.x[1]), "+f"(c.x[2]), "+f"(c.x[3])
      : "r"(a.x[0]), "r"(a.x[1]), "r"(a.x[2]), "r"(a.x[3]), "r"(b.x[0]), "r"(b.x[1]));
}}

//@ section mma_m16n8k4_f64
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "generated with --arch=sm_90 or newer: the fp64 m16n8k4 MMA needs sm_90"
#endif

// The MMA: mma.sync m16n8k4, fp64 operands and accumulators (sm_90). Lane
// 4g + t of the warp holds (PTX ISA, "matrix fragments for mma.m16n8k4 with
// .f64"):
//   A (16 x 4): (g, t), (g+8, t)   B (4 x 8): (k t, n g)
//   C (16 x 8): (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)
struct FragmentA {{
  double x[2];
}};
struct FragmentB {{
  double x[1];
}};
struct FragmentC {{
  double x[4] = {{0.0, 0.0, 0.0, 0.0}};
}};

/// A: rows [0, 16) x columns [0, 4) of the matrix at p, rows ld apart.
__device__ __forceinline__ FragmentA loadA(const Element* p, int ld, int lane) {{
  return {{{{p[lane / 4 * ld + lane % 4], p[(lane / 4 + 8) * ld + lane % 4]}}}};
}}

/// B: rows (k) [0, 4) x columns (n) [0, 8) of the matrix at p, rows ld apart.
__device__ __forceinline__ FragmentB loadB(const Element* p, int ld, int lane) {{
  return {{{{p[lane % 4 * ld + lane / 4]}}}};
}}

/// c += a * b.
__device__ __forceinline__ void mma(FragmentC& c, const FragmentA& a, const FragmentB& b) {{
  asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {{%0, %1, %2, %3}}, {{%4, %5}}, {{%6}}, "
      "{{%0, %1, %2, %3}};"
      : "+d"(c.x[0]), "+d"(c.x[1]), "+d"(c.x[2]), "+d"(c.x[3])
      : "d"(a.x[0]), "d"(a.x[1]), "d"(b.x[0]));
}}

//@ section mma_m8n8k4_f64
// The MMA: mma.sync m8n8k4, fp64 operands and accumulators. Lane 4g + t of
// the warp holds (PTX ISA, "matrix fragments for mma.m8n8k4 with .f64"):
//   A (8 x 4): (g, t)    B (4 x 8): (k t, n g)    C (8 x 8): (g, 2t), (g, 2t+1)
struct FragmentA {{
  double x[1];
}};
struct FragmentB {{
  double x[1];
}};
struct FragmentC {{
  double x[2] = {{0.0, 0.0}};
}};

/// A: rows [0, 8) x columns [0, 4) of the matrix at p, rows ld apart.
__device__ __forceinline__ FragmentA loadA(const Element* p, int ld, int lane) {{
  return {{{{p[lane / 4 * ld + lane % 4]}}}};
}}

/// B: rows (k) [0, 4) x columns (n) [0, 8) of the matrix at p, rows ld apart.
__device__ __forceinline__ FragmentB loadB(const Element* p, int ld, int lane) {{
  return {{{{p[lane % 4 * ld + lane / 4]}}}};
}}

/// c += a * b.
__device__ __forceinline__ void mma(FragmentC& c, const FragmentA& a, const FragmentB& b) {{
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {{%0, %1}}, {{%2}}, {{%3}}, {{%0, %1}};"
      : "+d"(c.x[0]), "+d"(c.x[1])
      : "d"(a.x[0]), "d"(b.x[0]));
}}

//@ section element_helpers
/// The accumulator rounded to the element type, as stored.
__device__ __forceinline__ Element toElement(Accumulator value) {{ return {to_element}; }}

/// Stores two neighbours of a row, dst aligned to both, as one vector.
__device__ __forceinline__ void storeBoth(Element* dst, Accumulator first, Accumulator second) {{
  {store_both}
}}

/// Stores the outputs (y, x) and (y, x + 1) where the step writes them: as
/// one pair inside the written region when `pairs` (x is even there), one
/// by one at its edges.{pair_doc}
__device__ __forceinline__ void storePair(Element* __restrict__ out, long long y, long long x,
                                          Accumulator first, Accumulator second, int ny, int nx,
                                          bool pairs) {{
  {pair_point}
  if (pairs && x >= kRing && x + 2 <= nx - kRing) {{
    storeBoth(dst, first, second);
    return;
  }}
  if (x >= kRing && x < nx - kRing) {{
    dst[0] = toElement(first);
  }}
  if (x + 1 >= kRing && x + 1 < nx - kRing) {{
    dst[1] = toElement(second);
  }}
}}

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
/// registers, {window_doc}
/// 16-byte loads where the row allows, the boundary rule elsewhere, zeros
/// outside the loaded part (only ever multiplied by 0). Every load of a thread
/// is issued before any is used.
__device__ __forceinline__ void fetchWindow(const Element* __restrict__ in, {plane_params}int ny, int nx,
                                            long long blockRow, long long blockCol,
                                            uint4 (&staged)[kGroupsPerThread]) {{
  const bool vectorRows = {rows_vectors}reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
#pragma unroll
  for (int i = 0; i < kGroupsPerThread; ++i) {{
    const int group = threadIdx.x + i * kThreads;
    const int row = group / kGroupsPerRow;
    const int col = group % kGroupsPerRow * kVec;
    staged[i] = make_uint4(0u, 0u, 0u, 0u);
    if (group >= kGroups || row >= kLoadedRows || col < kLoadedColBegin || col >= kLoadedColEnd) {{
      continue;
    }}
    const long long y = {window_y};
    const long long x = {window_x};
    if (vectorRows && {plane_inside}y >= 0 && y < {grid_rows} && x >= 0 && x + kVec <= nx) {{
      staged[i] = {vector_load};
    }} else {{
      alignas(16) Element values[kVec];
#pragma unroll
      for (int e = 0; e < kVec; ++e) {{
        values[e] = readInput(in, {plane_at}y, x + e, {plane_size}{grid_rows}, nx);
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
/// tile is already on its way into registers. The accumulators go straight
/// from registers to global memory.
__global__ void __launch_bounds__(kThreads) {kernel}(const Element* __restrict__ in, Element* __restrict__ out, int ny, int nx) {{
  __shared__ __align__(128) Element window[kWindowRows * kPitch];
  __shared__ __align__(16) Element params[kParamElements];

  const int blocksAcross = {blocks_across};
  const long long blockTiles = static_cast<long long>(blocksAcross) * ((ny + kBlockRows - 1) / kBlockRows);
  long long blockTile = blockIdx.x;
  uint4 staged[kGroupsPerThread];
  if (blockTile < blockTiles) {{
    fetchWindow(in, ny, nx, blockTile / blocksAcross * kBlockRows, blockTile % blocksAcross * kBlockCols, staged);
  }}

  {params_to_shared}
  const bool pairs = {rows_even}reinterpret_cast<std::uintptr_t>(out) % (2 * sizeof(Element)) == 0;

//@ section kernel_head_3d
/// One time step on tensor cores, streaming along z (2.5D blocking). A
/// persistent block takes block columns: kBlockRows x kBlockCols outputs of
/// the planes [z0, z0 + chunkZ). It walks them in order, keeping the windows
/// of the kPlanes input planes z - kRadius .. z + kRadius as a ring of
/// shared-memory slabs: each input plane is read once per block column, into
/// registers while the plane before it is computed. The accumulators go
/// straight from registers to global memory.
__global__ void __launch_bounds__(kThreads) {kernel}(const Element* __restrict__ in, Element* __restrict__ outGrid, int nz, int ny, int nx, int chunkZ) {{
  __shared__ __align__(128) Element window[kPlanes * kWindowRows * kPitch];
  __shared__ __align__(16) Element params[kParamElements];

  const int blocksAcross = (nx + kBlockCols - 1) / kBlockCols;
  const long long columns = static_cast<long long>(blocksAcross) * ((ny + kBlockRows - 1) / kBlockRows);
  const long long blockTiles = columns * ((nz + chunkZ - 1) / chunkZ);
  uint4 staged[kGroupsPerThread];

  {params_to_shared}
  const bool pairs = nx % 2 == 0 && reinterpret_cast<std::uintptr_t>(outGrid) % (2 * sizeof(Element)) == 0;

//@ section block_head_3d
const long long blockRow = blockTile % columns / blocksAcross * kBlockRows;
const long long blockCol = blockTile % blocksAcross * kBlockCols;
const long long z0 = blockTile / columns * chunkZ;
const long long zEnd = z0 + chunkZ < nz ? z0 + chunkZ : nz;
// Input plane q lives in slab (q - z0 + kRadius) % kPlanes. First the planes
// z0 - kRadius .. z0 + kRadius - 1, then z0 + kRadius on its way.
for (int s = 0; s < 2 * kRadius; ++s) {{
  fetchWindow(in, nz, z0 - kRadius + s, ny, nx, blockRow, blockCol, staged);
  storeWindow(&window[s * kWindowRows * kPitch], staged);
}}
fetchWindow(in, nz, z0 + kRadius, ny, nx, blockRow, blockCol, staged);

//@ section plane_head_3d
const int step = static_cast<int>(z - z0);
storeWindow(&window[(step + 2 * kRadius) % kPlanes * kWindowRows * kPitch], staged);
__syncthreads();
if (z + 1 < zEnd) {{
  fetchWindow(in, nz, z + 1 + kRadius, ny, nx, blockRow, blockCol, staged);
}}
int slab[kPlanes]; // slab[dz + kRadius]: the first window row of input plane z + dz
#pragma unroll
for (int s = 0; s < kPlanes; ++s) {{
  slab[s] = (step + s) % kPlanes * kWindowRows;
}}
Element* const out = outGrid + z * ny * nx; // output plane z
const bool planeWritten = z >= kRing && z < nz - kRing;

//@ section launch_3d
// A persistent grid: as many blocks as fit on the GPU at once. The planes
// are cut into chunks so that there are about that many block columns, each
// block streaming one chunk.
const long long columns = static_cast<long long>((nx + kBlockCols - 1) / kBlockCols) *
                          ((ny + kBlockRows - 1) / kBlockRows);
{resident_blocks}
long long chunks = (resident + columns - 1) / columns;
chunks = chunks < nz ? chunks : nz;
const int chunkZ = static_cast<int>((nz + chunks - 1) / chunks);
const long long blockTiles = columns * ((nz + chunkZ - 1) / chunkZ);
const unsigned grid = static_cast<unsigned>(blockTiles < resident ? blockTiles : resident);
{kernel}<<<grid, kThreads, 0, stream>>>(in, out, nz, ny, nx, chunkZ);
return cudaGetLastError();

//@ section params_to_shared
// The parameter matrices, already rounded to the operand type: exact.
for (int i = threadIdx.x; i < kParamElements; i += kThreads) {{
  params[i] = Element(kParams[i]);
}}
__syncthreads();

const int warp = threadIdx.x / 32;
const int lane = threadIdx.x % 32;

//@ section resident_blocks
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
    make_float4(roundToTf32(__uint_as_float(staged[i].x)), roundToTf32(__uint_as_float(staged[i].y)),
                roundToTf32(__uint_as_float(staged[i].z)), roundToTf32(__uint_as_float(staged[i].w)));

//@ section param_fragments
{fragment} param{index}[{chunks}]; // gemm {index} ({label}), loaded once per block
#pragma unroll
for (int c = 0; c < {chunks}; ++c) {{
  param{index}[c] = {loader}({address}, {ld}, lane);
}}

//@ section tile_head
const int tile = warp + i * kWarps;
const int tileRow = tile / kTileCols * kTileM; // within the block
const int tileCol = tile % kTileCols * kTileN;
const long long outRow = blockRow + tileRow;
const long long outCol = blockCol + tileCol;
if ((kTilesPerBlock % kWarps != 0 && tile >= kTilesPerBlock) || outRow >= ny || outCol >= nx) {{
  continue; // no such tile, or it lies outside the grid
}}
FragmentC acc[kNBlocks];

//@ section gemm_vertical
{{ // gemm {index}, {label}: P_v (kTileM x {kdim}) * window rows [tileRow, +{kdim}), columns [tileCol + kHaloCols, +kTileN)
  const Element* input = &window[({slab}tileRow) * kPitch + tileCol + kHaloCols];
#pragma unroll
  for (int c = 0; c < {chunks}; ++c) {{
    {param_load}
#pragma unroll
    for (int j = 0; j < kNBlocks; ++j) {{
      mma(acc[j], {param}, loadB(input + c * kMmaK * kPitch + j * kMmaN, kPitch, lane));
    }}
  }}
}}

//@ section gemm_row
{{ // gemm {index}, {label}: window rows [tileRow + {row}, +kTileM), columns [tileCol + j kMmaN + {first_col}, +{kdim}) * B ({kdim} x kMmaN) for MMA block j
  const Element* input = &window[({slab}tileRow + {row}) * kPitch + tileCol + {first_col}];
#pragma unroll
  for (int c = 0; c < {chunks}; ++c) {{
    {param_load}
#pragma unroll
    for (int j = 0; j < kNBlocks; ++j) {{
      mma(acc[j], loadA(input + j * kMmaN + c * kMmaK, kPitch, lane), {param});
    }}
  }}
}}

//@ section tile_store_m16n8
// Store the points a step writes, straight from the accumulators.
#pragma unroll
for (int j = 0; j < kNBlocks; ++j) {{
  const long long col = outCol + j * kMmaN + lane % 4 * 2;
  storePair(out, outRow + lane / 4, col, acc[j].x[0], acc[j].x[1], ny, nx, pairs);
  storePair(out, outRow + lane / 4 + 8, col, acc[j].x[2], acc[j].x[3], ny, nx, pairs);
}}

//@ section tile_store_rows16
// Store the points a step writes, straight from the accumulators: rows of
// 16-byte vectors (MMA blocks two by two) where the whole tile is written,
// pair by pair elsewhere (the generator puts tile_store_m16n8 in the else
// branch it leaves open).
const bool vectors = {rows_vectors}reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
if (vectors && {tile_inside}) {{
#pragma unroll
  for (int j = 0; j < kNBlocks; j += 2) {{
    storeRows16(out + outRow * {row_pitch} + outCol + j * kMmaN, {row_pitch}, acc[j], acc[j + 1], lane);
  }}
}} else {{

//@ section tile_store_m8n8
// Store the points a step writes, straight from the accumulators.
#pragma unroll
for (int j = 0; j < kNBlocks; ++j) {{
  storePair(out, outRow + lane / 4, outCol + j * kMmaN + lane % 4 * 2, acc[j].x[0], acc[j].x[1], ny, nx, pairs);
}}

//@ section launch
// A persistent grid: as many blocks as fit on the GPU at once, each walking
// block tiles, so its parameter fragments are loaded once and loads overlap
// the MMAs.
{line_rows}
const long long blockTiles = static_cast<long long>({blocks_across}) *
                             ((ny + kBlockRows - 1) / kBlockRows);
{resident_blocks}
const unsigned grid = static_cast<unsigned>(blockTiles < resident ? blockTiles : resident);
{kernel}<<<grid, kThreads, 0, stream>>>(in, out, ny, nx);
return cudaGetLastError();
