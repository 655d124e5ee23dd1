// simt.cu.tpl - skeletons of the CUDA-core (simt) stencil kernel, any dimension.
//
// Each `//@ section NAME` starts a piece the code generator fills with fmt
// named arguments ({name}); braces of the CUDA code are doubled ({{ }}).
// The generator (compiler/lib/Backends/Simt/SimtEmitter.cpp) writes the sections
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
constexpr int kStages = {stages};         // plane buffers: 1 direct, 2 the next in registers, 3+ a cp.async ring
{shared_bytes_constant}
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
{read_pair}

//@ section read_bf16_pair
/// Element i of `at` (4-byte aligned) widened to fp32, read through its
/// 32-bit word: a bf16 is the high half of an fp32, so the low element is
/// the word shifted up and the high one the word masked (exact, as
/// __bfloat162float). With i a constant the halves fold, and neighbouring
/// words merge into wide shared-memory loads, as fp16's 2-byte reads do;
/// element by element they do not.
__device__ __forceinline__ Compute readPair(const Element* __restrict__ at, int i) {{
  const unsigned word = reinterpret_cast<const unsigned*>(at)[i >> 1];
  return __uint_as_float((i & 1) != 0 ? word & 0xFFFF0000u : word << 16);
}}

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

//@ section load_prefetching
/// One 16-byte read of the input through the read-only path, asking the L2
/// to fetch the {bytes} bytes around it from memory (sm_80 and newer).
__device__ __forceinline__ uint4 loadPrefetching(const Element* __restrict__ src) {{
#if __CUDA_ARCH__ >= 800
  uint4 v;
  asm("ld.global.nc.L2::{bytes}B.v4.u32 {{%0, %1, %2, %3}}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(src));
  return v;
#else
  return __ldg(reinterpret_cast<const uint4*>(src));
#endif
}}

//@ section fetch_group
/// The kVec elements of plane z, row y, columns [x, x + kVec): one 16-byte
/// load where the whole vector lies in the grid, the boundary rule elsewhere.
__device__ __forceinline__ uint4 fetchGroup(const Element* __restrict__ in, long long z, long long y, long long x, int nz, int ny, int nx, bool vectorRows) {{
  if (vectorRows && z >= 0 && z < nz && y >= 0 && y < ny && x >= 0 && x + kVec <= nx) {{
    return {vector_load};
  }}
  alignas(16) Element values[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) {{
    values[e] = readInput(in, z, y, x + e, nz, ny, nx);
  }}
  return *reinterpret_cast<const uint4*>(values);
}}

/// kVec elements stored as one 16-byte vector. (Written as st.global.v4: a
/// plain store of the packed vector beside the element-wise edge path is
/// merged into element stores by the compiler.)
__device__ __forceinline__ void storeVector(Element* dst, const Element (&values)[kVec]) {{
  const uint4 bits = *reinterpret_cast<const uint4*>(values);
  asm volatile("st.global.v4.b32 [%0], {{%1, %2, %3, %4}};" ::"l"(dst), "r"(bits.x), "r"(bits.y), "r"(bits.z), "r"(bits.w) : "memory");
}}

/// Stores an item's kOutX finished outputs at dst, point x of its row: as
/// one 16-byte vector where `whole` (the item lies inside the written
/// columns and the row is vector aligned), else point by point inside the
/// written columns.
__device__ __forceinline__ void storeItem(Element* dst, long long x, int nx, bool whole,
                                          const Compute (&done)[kOutX]) {{
  if constexpr (kOutX == kVec) {{
    if (whole) {{
      alignas(16) Element packed[kVec];
#pragma unroll
      for (int o = 0; o < kOutX; ++o) {{
        packed[o] = toElement(done[o]);
      }}
      storeVector(dst, packed);
      return;
    }}
  }}
#pragma unroll
  for (int o = 0; o < kOutX; ++o) {{
    if (x + o >= kRingX && x + o < nx - kRingX) {{
      dst[o] = toElement(done[o]);
    }}
  }}
}}

/// Moves an item's queue on by one plane: entry j takes entry j + 1, and the
/// last starts again from 0.
__device__ __forceinline__ void shiftQueue(Compute (&queue)[kQueue][kOutX]) {{
#pragma unroll
  for (int o = 0; o < kOutX; ++o) {{
#pragma unroll
    for (int j = 0; j + 1 < kQueue; ++j) {{
      queue[j][o] = queue[j + 1][o];
    }}
    queue[kQueue - 1][o] = Compute(0);
  }}
}}

//@ section async_copy
constexpr int kGroupsPerThread = (kGroups + kThreads - 1) / kThreads;

/// 16 bytes from global to shared memory without waiting for them
/// (cp.async, sm_80 and newer; an ordinary load and store before that).
__device__ __forceinline__ void copyAsync(Element* dst, const Element* src) {{
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global{l2_prefetch} [%0], [%1], 16;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(dst))), "l"(src) : "memory");
#else
  *reinterpret_cast<uint4*>(dst) = __ldg(reinterpret_cast<const uint4*>(src));
#endif
}}
/// Closes this thread's group of copies (one group per plane).
__device__ __forceinline__ void commitCopies() {{
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}}
/// Waits until at most `Pending` of this thread's groups are still in flight.
template <int Pending>
__device__ __forceinline__ void waitCopies() {{
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
#endif
}}

/// A group at the grid's edge, element by element with the boundary rule
/// (out of line: the rare case keeps no registers of the plane loop).
static __device__ __noinline__ void fetchEdgeGroup(Element* dst, const Element* __restrict__ in, long long z, long long y, long long x, int nz, int ny, int nx) {{
  *reinterpret_cast<uint4*>(dst) = fetchGroup(in, z, y, x, nz, ny, nx, false);
}}

/// This thread's part of input plane z of the block's window into `plane`.
/// Group k of the thread (window element g * kVec, g = threadIdx.x + k *
/// kThreads) starts at offset[k] = y * nx + x of its plane; vector[k] says
/// whether it is a whole 16-byte vector inside the plane's rows and columns.
/// Such groups of planes inside the grid are copied asynchronously; the
/// others take the boundary rule (an ordinary store).
__device__ __forceinline__ void fetchPlane(Element* plane, const Element* __restrict__ in, long long z, const long long (&offset)[kGroupsPerThread], const bool (&vector)[kGroupsPerThread], long long y0, long long x0, int nz, int ny, int nx) {{
  const bool zInside = z >= 0 && z < nz;
  const Element* __restrict__ source = in + (zInside ? z : 0) * (static_cast<long long>(ny) * nx);
#pragma unroll
  for (int k = 0; k < kGroupsPerThread; ++k) {{
    const int g = threadIdx.x + k * kThreads;
    if (kGroups % kThreads == 0 || g < kGroups) {{
      if (zInside && vector[k]) {{
        copyAsync(&plane[g * kVec], source + offset[k]);
      }} else {{
        fetchEdgeGroup(&plane[g * kVec], in, z, y0 - kRadiusY + g / kGroupsPerRow, x0 - kHaloX + g % kGroupsPerRow * kVec, nz, ny, nx);
      }}
    }}
  }}
}}

//@ section kernel_head
/// One time step. A block owns kTileY x kTileX outputs of chunkZ consecutive
/// planes. It walks the input planes its outputs need, reading each into
/// shared memory once; each item adds the plane's slices into its queue of
/// kQueue partial outputs, and the oldest, now complete, is stored.
__global__ void __launch_bounds__(kThreads) {kernel}(const Element* __restrict__ in, Element* __restrict__ out, int nz, int ny, int nx, int chunkZ) {{
  {shared_planes}

  const long long x0 = static_cast<long long>(blockIdx.x) * kTileX;
  const long long y0 = static_cast<long long>(blockIdx.y) * kTileY;
  const long long zBegin = static_cast<long long>(blockIdx.z) * chunkZ;
  const long long zEnd = zBegin + chunkZ < nz ? zBegin + chunkZ : nz;
  const long long pFirst = zBegin - kRadiusZ; // the input planes the outputs need
  const long long pLast = zEnd - 1 + kRadiusZ;
  const bool vectorRows = nx % kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const bool vectorOut = nx % kVec == 0 && reinterpret_cast<std::uintptr_t>(out) % 16 == 0;

//@ section items
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

//@ section items_ring
  const long long planeSize = static_cast<long long>(ny) * nx; // elements of a plane
  // This thread's items, item i being outputs [col, col + kOutX) of plane row
  // `row`: where they are in the plane window (itemAt) and in an output plane
  // (itemOffset = y * nx + x), whether the row is stored, and whether the
  // outputs are stored as one 16-byte vector. None of it changes with the plane.
  int itemAt[kItemsPerThread];
  int itemCol[kItemsPerThread];
  long long itemOffset[kItemsPerThread];
  bool storeRow[kItemsPerThread];
  bool storeWhole[kItemsPerThread];
  Compute queue[kItemsPerThread][kQueue][kOutX];
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) {{
    const int item = threadIdx.x + k * kThreads;
    const bool active = item < kItems;
    const int row = active ? item / kColGroups : 0;
    itemCol[k] = active ? item % kColGroups * kOutX : 0;
    itemAt[k] = (row + kRadiusY) * kPitch + itemCol[k] + kHaloX;
    const long long y = y0 + row;
    const long long x = x0 + itemCol[k];
    itemOffset[k] = y * nx + x;
    storeRow[k] = active && y >= kRingY && y < ny - kRingY;
    storeWhole[k] = kOutX == kVec && vectorOut && x >= kRingX && x + kOutX <= nx - kRingX;
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

//@ section stream_async
// Planes arrive by asynchronous copies (cp.async) into a ring of kStages
// buffers, kStages - 1 planes ahead of the one computed: one barrier per
// plane, and no registers hold data in flight.
long long fetchOffset[kGroupsPerThread];
bool fetchVector[kGroupsPerThread];
#pragma unroll
for (int k = 0; k < kGroupsPerThread; ++k) {{
  const int g = threadIdx.x + k * kThreads;
  const long long y = y0 - kRadiusY + g / kGroupsPerRow;
  const long long x = x0 - kHaloX + g % kGroupsPerRow * kVec;
  fetchOffset[k] = y * nx + x;
  fetchVector[k] = g < kGroups && vectorRows && y >= 0 && y < ny && x >= 0 && x + kVec <= nx;
}}
#pragma unroll
for (int s = 0; s + 1 < kStages; ++s) {{
  if (pFirst + s <= pLast) {{
    fetchPlane(planes[s], in, pFirst + s, fetchOffset, fetchVector, y0, x0, nz, ny, nx);
  }}
  commitCopies();
}}
int buffer = 0; // plane p's
for (long long p = pFirst; p <= pLast; ++p) {{
  waitCopies<kStages - 2>(); // this thread's copies of plane p have landed ...
  __syncthreads();           // ... and everybody's; plane p - 1's buffer is free
  if (p + kStages - 1 <= pLast) {{
    fetchPlane(planes[buffer == 0 ? kStages - 1 : buffer - 1], in, p + kStages - 1, fetchOffset, fetchVector, y0, x0, nz, ny, nx);
  }}
  commitCopies();
  const Element* __restrict__ plane = planes[buffer];

//@ section stream_async_tail
  buffer = buffer + 1 == kStages ? 0 : buffer + 1;
}} // plane loop

//@ section stream_direct
// Each plane straight into shared memory (one buffer: a 1D block has one
// plane, and a very large plane leaves no room for a second).
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
  const Element* __restrict__ at = &plane[{item_at}];
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
      const bool whole = vectorOut && x >= kRingX && x + kOutX <= nx - kRingX;
      storeItem(out + (z * ny + y) * nx + x, x, nx, whole, queue[k][0]);
    }}
    shiftQueue(queue[k]);
  }}
}}

//@ section store_and_shift_ring
{{ // Output plane p - kRadiusZ is complete: store it, then shift the queue.
  const long long z = p - kRadiusZ;
  const bool storePlane = z >= zBegin && z >= kRingZ && z < nz - kRingZ;
  Element* const planeOut = out + (storePlane ? z : 0) * planeSize;
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) {{
    if (storePlane && storeRow[k]) {{
      storeItem(planeOut + itemOffset[k], x0 + itemCol[k], nx, storeWhole[k], queue[k][0]);
    }}
    shiftQueue(queue[k]);
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
{opt_in}
{kernel}<<<grid, kThreads, {shared_bytes}, stream>>>(in, out, planesZ, rowsY, colsX, chunkZ);
return cudaGetLastError();

//@ section planes_static
__shared__ __align__(16) Element planes[kStages][kPlaneRows * kPitch];

//@ section planes_dynamic
// The planes pass the 48 KiB a block may declare statically: dynamic shared
// memory, kSharedBytes of it (the launch opts in).
extern __shared__ __align__(16) unsigned char sharedPlanes[];
Element (*const planes)[kPlaneRows * kPitch] = reinterpret_cast<Element (*)[kPlaneRows * kPitch]>(sharedPlanes);

//@ section opt_in
// Past 48 KiB of shared memory a kernel must opt in (on the current device:
// every launch, since the stream may be another device's).
const cudaError_t optIn = cudaFuncSetAttribute({kernel}, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes);
if (optIn != cudaSuccess) {{
  return optIn;
}}
