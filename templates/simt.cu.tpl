// simt.cu.tpl - skeletons of the CUDA-core (simt) stencil kernel, any dimension.
//
// Each `//@ section NAME` starts a piece the code generator fills with fmt
// named arguments ({name}); braces of the CUDA code are doubled ({{ }}).
// The generator (compiler/lib/CodeGen/SimtEmitter.cpp) writes the sections
// in order and adds the plane slices of the plan as straight-line FMAs (or,
// for very large stencils, loops over a coefficient table). The kernel sees
// the grid as nz x ny x nx (1D: 1 x 1 x n, 2D: ny x 1 x nx, 3D as is) and
// streams along z (2.5D blocking).

//@ section file_includes
#include "{header}"

#include <cstdint>
{extra_includes}

//@ section constants
using Element = {element};  // the grid's element type in memory
using Compute = {compute};  // the arithmetic type
constexpr int kRadiusZ = {radius_z};     // the streamed axis
constexpr int kRadiusY = {radius_y};     // rows of the plane
constexpr int kRadiusX = {radius_x};     // the contiguous axis
constexpr int kTileX = {tile_x};         // outputs per block along x
constexpr int kTileY = {tile_y};         // outputs per block along y
constexpr int kChunkZ = {chunk_z};       // output planes per block, at most
constexpr int kMinChunkZ = {min_chunk_z};    // ... and at least, unless the grid is thinner
constexpr long long kTargetBlocks = {target_blocks}; // fewer planes per block while the grid has fewer blocks
constexpr int kThreads = {threads};
constexpr int kVec = {vector_width};     // elements per 16-byte vector
constexpr int kOutX = {outputs_x};       // consecutive x outputs per item
constexpr int kHaloX = {halo_x};         // kRadiusX rounded up to kVec: tiles start 16-byte aligned
constexpr int kPlaneRows = kTileY + 2 * kRadiusY;
constexpr int kPitch = kTileX + 2 * kHaloX; // plane column c is x = tile start - kHaloX + c
constexpr int kGroupsPerRow = kPitch / kVec;
constexpr int kGroups = kPlaneRows * kGroupsPerRow; // 16-byte loads per plane
constexpr int kColGroups = kTileX / kOutX;
constexpr int kItems = kTileY * kColGroups;  // kOutX outputs of one plane row each
constexpr int kItemsPerThread = (kItems + kThreads - 1) / kThreads;
constexpr int kQueue = 2 * kRadiusZ + 1; // partial outputs of the z column
constexpr int kRingZ = {ring_z};         // points a step leaves unwritten at each edge
constexpr int kRingY = {ring_y};
constexpr int kRingX = {ring_x};
constexpr int kMinSize = {min_size};     // the smallest legal extent

static_assert(kTileX % kVec == 0 && kHaloX % kVec == 0, "plane rows are whole 16-byte vectors");
static_assert(kTileX % kOutX == 0 && kHaloX >= kRadiusX, "items tile the block; the halo covers the radius");

//@ section element_helpers
/// An element widened to the arithmetic type (exact).
__device__ __forceinline__ Compute toCompute(Element value) {{ return {to_compute}; }}
/// A result rounded to the element type, as stored.
__device__ __forceinline__ Element toElement(Compute value) {{ return {to_element}; }}
/// One fused multiply-add, rounded once (what the plan emulator models).
__device__ __forceinline__ Compute madd(Compute c, Compute v, Compute acc) {{ return {fma}(c, v, acc); }}

//@ section read_fixed
/// boundary fixed: reads outside the grid feed only ring outputs, which are
/// never stored; they read 0 so that no garbage enters a sum.
__device__ __forceinline__ Element readInput(const Element* __restrict__ in, long long z, long long y, long long x, int nz, int ny, int nx) {{
  if (z < 0 || z >= nz || y < 0 || y >= ny || x < 0 || x >= nx) {{
    return Element(0.0f);
  }}
  return in[(z * ny + y) * nx + x];
}}

//@ section read_constant
/// boundary constant {value_text}: a read outside the grid gives the constant.
__device__ __forceinline__ Element readInput(const Element* __restrict__ in, long long z, long long y, long long x, int nz, int ny, int nx) {{
  if (z < 0 || z >= nz || y < 0 || y >= ny || x < 0 || x >= nx) {{
    return Element({value_literal});
  }}
  return in[(z * ny + y) * nx + x];
}}

//@ section read_periodic
/// boundary periodic: reads wrap around each axis (also when the halo is
/// wider than the grid).
__device__ __forceinline__ Element readInput(const Element* __restrict__ in, long long z, long long y, long long x, int nz, int ny, int nx) {{
  z %= nz;
  y %= ny;
  x %= nx;
  z += z < 0 ? nz : 0;
  y += y < 0 ? ny : 0;
  x += x < 0 ? nx : 0;
  return in[(z * ny + y) * nx + x];
}}

//@ section fetch_group
/// The kVec elements of plane z, row y, columns [x, x + kVec): one 16-byte
/// load where the whole vector lies in the grid, the boundary rule elsewhere.
__device__ __forceinline__ uint4 fetchGroup(const Element* __restrict__ in, long long z, long long y, long long x, int nz, int ny, int nx, bool vectorRows) {{
  if (vectorRows && z >= 0 && z < nz && y >= 0 && y < ny && x >= 0 && x + kVec <= nx) {{
    return __ldg(reinterpret_cast<const uint4*>(in + (z * ny + y) * nx + x));
  }}
  alignas(16) Element values[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) {{
    values[e] = readInput(in, z, y, x + e, nz, ny, nx);
  }}
  return *reinterpret_cast<const uint4*>(values);
}}

//@ section kernel_head
/// One time step. A block owns kTileY x kTileX outputs of chunkZ consecutive
/// planes. It walks the input planes its outputs need, reading each into
/// shared memory once; each item adds the plane's slices into its queue of
/// kQueue partial outputs, and the oldest, now complete, is stored.
__global__ void __launch_bounds__(kThreads) {kernel}(const Element* __restrict__ in, Element* __restrict__ out, int nz, int ny, int nx, int chunkZ) {{
  __shared__ __align__(16) Element planes[{buffers}][kPlaneRows * kPitch];

  const long long x0 = static_cast<long long>(blockIdx.x) * kTileX;
  const long long y0 = static_cast<long long>(blockIdx.y) * kTileY;
  const long long zBegin = static_cast<long long>(blockIdx.z) * chunkZ;
  const long long zEnd = zBegin + chunkZ < nz ? zBegin + chunkZ : nz;
  const long long pFirst = zBegin - kRadiusZ; // the input planes the outputs need
  const long long pLast = zEnd - 1 + kRadiusZ;
  const bool vectorRows = nx % kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const bool vectorOut = nx % kVec == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;

  // This thread's items: item i is outputs [col, col + kOutX) of plane row `row`.
  int itemRow[kItemsPerThread];
  int itemCol[kItemsPerThread];
  bool itemActive[kItemsPerThread];
  Compute queue[kItemsPerThread][kQueue][kOutX];
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) {{
    const int item = threadIdx.x + k * kThreads;
    itemActive[k] = item < kItems;
    itemRow[k] = itemActive[k] ? item / kColGroups : 0;
    itemCol[k] = itemActive[k] ? item % kColGroups * kOutX : 0;
#pragma unroll
    for (int j = 0; j < kQueue; ++j) {{
#pragma unroll
      for (int o = 0; o < kOutX; ++o) {{
        queue[k][j][o] = Compute(0);
      }}
    }}
  }}

//@ section stream_prefetch
// The first plane straight into shared memory; then each plane's successor
// is fetched into registers while the plane is computed (two buffers, one
// barrier per plane).
constexpr int kGroupsPerThread = (kGroups + kThreads - 1) / kThreads;
for (int g = threadIdx.x; g < kGroups; g += kThreads) {{
  *reinterpret_cast<uint4*>(&planes[0][g * kVec]) =
      fetchGroup(in, pFirst, y0 - kRadiusY + g / kGroupsPerRow, x0 - kHaloX + g % kGroupsPerRow * kVec, nz, ny, nx, vectorRows);
}}
__syncthreads();
for (long long p = pFirst; p <= pLast; ++p) {{
  const int buffer = static_cast<int>(p - pFirst) & 1;
  uint4 next[kGroupsPerThread];
#pragma unroll
  for (int k = 0; k < kGroupsPerThread; ++k) {{
    const int g = threadIdx.x + k * kThreads;
    next[k] = make_uint4(0u, 0u, 0u, 0u);
    if (p < pLast && g < kGroups) {{
      next[k] = fetchGroup(in, p + 1, y0 - kRadiusY + g / kGroupsPerRow, x0 - kHaloX + g % kGroupsPerRow * kVec, nz, ny, nx, vectorRows);
    }}
  }}
  const Element* __restrict__ plane = planes[buffer];

//@ section stream_prefetch_tail
#pragma unroll
  for (int k = 0; k < kGroupsPerThread; ++k) {{
    const int g = threadIdx.x + k * kThreads;
    if (p < pLast && g < kGroups) {{
      *reinterpret_cast<uint4*>(&planes[buffer ^ 1][g * kVec]) = next[k];
    }}
  }}
  __syncthreads();
}} // plane loop

//@ section stream_direct
// Each plane straight into shared memory (one buffer: the plane is too large
// to hold its successor in registers).
for (long long p = pFirst; p <= pLast; ++p) {{
  for (int g = threadIdx.x; g < kGroups; g += kThreads) {{
    *reinterpret_cast<uint4*>(&planes[0][g * kVec]) =
        fetchGroup(in, p, y0 - kRadiusY + g / kGroupsPerRow, x0 - kHaloX + g % kGroupsPerRow * kVec, nz, ny, nx, vectorRows);
  }}
  __syncthreads();
  const Element* __restrict__ plane = planes[0];

//@ section stream_direct_tail
  __syncthreads(); // the plane is overwritten next
}} // plane loop

//@ section item_head
#pragma unroll
for (int k = 0; k < kItemsPerThread; ++k) {{
  // at[dy * kPitch + dx + o] is the input at offset (dy, dx) of output o of item k.
  const Element* __restrict__ at = &plane[(itemRow[k] + kRadiusY) * kPitch + itemCol[k] + kHaloX];
#pragma unroll
  for (int o = 0; o < kOutX; ++o) {{

//@ section slice_unrolled
// slice dz = {dz}: {count} reads into queue entry {entry} (output plane p - ({dz}))
{fmas}

//@ section slice_looped
// slice dz = {dz}: reads [{begin}, {end}) of the tables into queue entry {entry}
for (int t = {begin}; t < {end}; ++t) {{
  queue[k][{entry}][o] = madd(kCoefficients[t], toCompute(at[kOffsets[t] + o]), queue[k][{entry}][o]);
}}

//@ section item_tail
  }} // output loop
}} // item loop

//@ section store_and_shift
{{ // Output plane p - kRadiusZ is complete: store it, then shift the queue.
  const long long z = p - kRadiusZ;
  const bool storePlane = z >= zBegin && z >= kRingZ && z < nz - kRingZ;
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) {{
    const long long y = y0 + itemRow[k];
    const long long x = x0 + itemCol[k];
    if (storePlane && itemActive[k] && y >= kRingY && y < ny - kRingY) {{
      Element* dst = out + (z * ny + y) * nx + x;
      bool whole = false;
      if constexpr (kOutX == kVec) {{
        whole = vectorOut && x >= kRingX && x + kOutX <= nx - kRingX;
        if (whole) {{
          alignas(16) Element packed[kOutX];
#pragma unroll
          for (int o = 0; o < kOutX; ++o) {{
            packed[o] = toElement(queue[k][0][o]);
          }}
          *reinterpret_cast<uint4*>(dst) = *reinterpret_cast<const uint4*>(packed);
        }}
      }}
      if (!whole) {{
#pragma unroll
        for (int o = 0; o < kOutX; ++o) {{
          if (x + o >= kRingX && x + o < nx - kRingX) {{
            dst[o] = toElement(queue[k][0][o]);
          }}
        }}
      }}
    }}
#pragma unroll
    for (int o = 0; o < kOutX; ++o) {{
#pragma unroll
      for (int j = 0; j + 1 < kQueue; ++j) {{
        queue[k][j][o] = queue[k][j + 1][o];
      }}
      queue[k][kQueue - 1][o] = Compute(0);
    }}
  }}
}}

//@ section launch
// The kernel's view of the grid: {view}.
const int planesZ = {planes_z};
const int rowsY = {rows_y};
const int colsX = nx;
// Planes per block: kChunkZ, halved while the grid would have fewer than
// kTargetBlocks blocks (a thin grid, or a last wave left mostly idle).
const long long blocksXY = static_cast<long long>((colsX - 1) / kTileX + 1) * ((rowsY - 1) / kTileY + 1);
int chunkZ = kChunkZ;
while (chunkZ > kMinChunkZ && blocksXY * ((planesZ - 1) / chunkZ + 1) < kTargetBlocks) {{
  chunkZ = chunkZ / 2 > kMinChunkZ ? chunkZ / 2 : kMinChunkZ;
}}
const dim3 grid(static_cast<unsigned>((colsX - 1) / kTileX + 1),
                static_cast<unsigned>((rowsY - 1) / kTileY + 1),
                static_cast<unsigned>((planesZ - 1) / chunkZ + 1));
if (grid.y > 65535u || grid.z > 65535u) {{
  return cudaErrorInvalidValue; // beyond the launch limits of this block shape
}}
{kernel}<<<grid, kThreads, 0, stream>>>(in, out, planesZ, rowsY, colsX, chunkZ);
return cudaGetLastError();
