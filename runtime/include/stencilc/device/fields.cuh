// stencilc/device/fields.cuh - the CUDA-core kernel of a stencil of fields
// (docs/language.md, "Fields, coefficient fields and parameters"): a thread
// a chunk of consecutive outputs along the outermost axis (z in 3D, y in
// 2D), every term a fused multiply-add of a read of an input field and its
// coefficient (folded by the host per call). Where every coefficient field
// is read at the output point, the terms of each are summed apart and each
// sum is multiplied by the field once; otherwise a term with a coefficient
// field multiplies that read into its coefficient first (sumTerms).
//
// A chunk whose outputs are all written and whose reads all lie inside the
// grid reads directly (the point's linear index plus a constant offset),
// its outputs unrolled so that their loads are in flight together and the
// points two outputs share are loaded once; a chunk at the grid's edges
// goes output by output, every read through the boundary rule. Both give
// the same result: the same operations in the same order.
//
// A generated stencil gives a traits struct S with
//   using Element, Compute, Boundary;   the element type, float or double,
//                                       a policy of boundary.cuh
//   static constexpr int kFields, kTermCount;
//   static constexpr FieldTerm kTerms[kTermCount];
//   static constexpr bool kSources;              point sources (`source u;`),
//                                                which a fused pass adds
//   static constexpr int kThreadsX, kThreadsY;   the block (threads along x
//                                                and along the other axis)
//   static constexpr int kChunkZ;                outputs a thread computes
//   static constexpr int kChunkAxis;             along z (0) or y (1)
//   static constexpr int kRingZ, kRingY, kRingX; fixed: the ring not written
//   static constexpr int kPlaneField;            3D: the field the plane
//                                                kernel streams, or -1 for
//                                                a chunk a thread
//   static constexpr int kPlaneTileX, kPlaneTileY, kPlaneThreads, kPlanesZ,
//                        kPlanesAhead;           the plane kernel's block
//                                                (stepPlanes)
// and launches step<S> through launchStep<S>. Every grid is seen as
// nz x ny x nx (ny = nz = 1 in 1D, nz = 1 in 2D).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include <utility>

#include "stencilc/device/boundary.cuh"
#include "stencilc/device/element.cuh"
#include "stencilc/device/memory.cuh"
#include "stencilc/device/simt.cuh"

namespace stencilc {
namespace device {
namespace fields {

/// One term: coefficient k[t] x (field coefField at (cz, cy, cx), when
/// coefField >= 0) x (input field `field` at (dz, dy, dx)).
struct FieldTerm {
  int field;
  int dz, dy, dx;
  int coefField;
  int cz, cy, cx;
};

/// What a launch passes by value: the fields in declaration order and the
/// terms' coefficients, rounded to the arithmetic type.
template <class S> struct Args {
  const typename S::Element *field[S::kFields];
  typename S::Compute k[S::kTermCount];
};

template <class S>
__device__ __forceinline__ typename S::Compute readField(const typename S::Element *__restrict__ f,
                                                         long long z, long long y, long long x,
                                                         int nz, int ny, int nx) {
  return toCompute(S::Boundary::read(f, z, y, x, nz, ny, nx));
}

/// The farthest read of any term (input or coefficient field) along an
/// axis: 0 for z, 1 for y, 2 for x.
template <class S> __host__ __device__ constexpr int reach(int axis) {
  int r = 0;
  for (int i = 0; i < S::kTermCount; ++i) {
    const FieldTerm &t = S::kTerms[i];
    const int d = axis == 0 ? t.dz : axis == 1 ? t.dy : t.dx;
    const int c = axis == 0 ? t.cz : axis == 1 ? t.cy : t.cx;
    r = d < 0 ? (-d > r ? -d : r) : (d > r ? d : r);
    if (t.coefField >= 0) {
      r = c < 0 ? (-c > r ? -c : r) : (c > r ? c : r);
    }
  }
  return r;
}

/// Whether every coefficient field multiplies its terms at the output point
/// (`c2[i, j] * (...)`, the wave equation). Then the terms of each such
/// field are summed apart and each sum is multiplied by the field once; a
/// stencil that also reads a coefficient field off the point (varheat's
/// `k[i+1, j] * u[i+1, j]`) keeps every term's product, which measured
/// faster there (fewer registers: docs/performance.md, 12:34 UTC).
template <class S> __host__ __device__ constexpr bool sumsByField() {
  for (int i = 0; i < S::kTermCount; ++i) {
    const FieldTerm &t = S::kTerms[i];
    if (t.coefField >= 0 && (t.cz != 0 || t.cy != 0 || t.cx != 0)) {
      return false;
    }
  }
  return true;
}

/// Whether term t goes into its coefficient field's sum.
template <class S> __host__ __device__ constexpr bool inFieldSum(const FieldTerm &t) {
  return sumsByField<S>() && t.coefField >= 0;
}

/// Whether some term goes into the sum of field f.
template <class S> __host__ __device__ constexpr bool multipliesAtPoint(int f) {
  for (int i = 0; i < S::kTermCount; ++i) {
    if (inFieldSum<S>(S::kTerms[i]) && S::kTerms[i].coefField == f) {
      return true;
    }
  }
  return false;
}

/// The running sums of an output: `acc`, and one sum per coefficient field
/// where sumsByField.
template <class S> struct Sums {
  typename S::Compute acc = 0;
  typename S::Compute byField[S::kFields] = {};
};

/// Term I into the sums, its reads through `read` (a reader below): a term
/// of a field's sum (inFieldSum) is one FMA into that sum; any other is its
/// coefficient times the coefficient field's read where it has one (one
/// rounding), then one FMA into acc.
template <class S, int I, class Reader>
__device__ __forceinline__ void addTerm(const Args<S> &args, const Reader &read, Sums<S> &sums) {
  constexpr FieldTerm t = S::kTerms[I];
  typename S::Compute k = args.k[I];
  const typename S::Compute v = read.template at<t.field, t.dz, t.dy, t.dx>();
  if constexpr (inFieldSum<S>(t)) {
    sums.byField[t.coefField] = madd(k, v, sums.byField[t.coefField]);
  } else {
    if constexpr (t.coefField >= 0) {
      k = k * read.template at<t.coefField, t.cz, t.cy, t.cx>();
    }
    sums.acc = madd(k, v, sums.acc);
  }
}

/// acc + (field F at the point) x its sum, where some term has F as its
/// coefficient at the point.
template <class S, int F, class Reader>
__device__ __forceinline__ void addFieldSum(const Reader &read, Sums<S> &sums) {
  if constexpr (multipliesAtPoint<S>(F)) {
    sums.acc = madd(read.template at<F, 0, 0, 0>(), sums.byField[F], sums.acc);
  }
}

/// An output's value: the terms in order, then each coefficient field's sum
/// (where sumsByField) times the field at the point, in field order. Every kernel below computes it
/// this way, through its own reader, so every kernel gives the same result (and the CPU emulator,
/// FieldsEmulator.cpp, mirrors it).
template <class S, class Reader, int... I, int... F>
__device__ __forceinline__ typename S::Compute sumTerms(const Args<S> &args, const Reader &read,
                                                        std::integer_sequence<int, I...>,
                                                        std::integer_sequence<int, F...>) {
  Sums<S> sums;
  (addTerm<S, I>(args, read, sums), ...);
  (addFieldSum<S, F>(read, sums), ...);
  return sums.acc;
}

template <class S, class Reader>
__device__ __forceinline__ typename S::Compute sumTerms(const Args<S> &args, const Reader &read) {
  return sumTerms<S>(args, read, std::make_integer_sequence<int, S::kTermCount>(),
                     std::make_integer_sequence<int, S::kFields>());
}

/// Reads of the output at (z, y, x), every one through the boundary rule.
template <class S> struct BoundaryReader {
  const Args<S> &args;
  long long z, y, x;
  int nz, ny, nx;
  template <int F, int DZ, int DY, int DX>
  __device__ __forceinline__ typename S::Compute at() const {
    return readField<S>(args.field[F], z + DZ, y + DY, x + DX, nz, ny, nx);
  }
};

/// Reads of output i of a chunk whose first output is at linear index
/// `at0`, where every read of the point is inside the grid: a read at `at0`
/// plus a constant multiple of each axis's stride, no boundary rule. The
/// chunk runs along z (axis 0) or y (axis 1); writing the offset along it
/// as the constant (i + d) lets the compiler see that two outputs of a
/// chunk read the same point, and load it once.
template <class S, int A> struct InnerReader {
  const Args<S> &args;
  long long at0;
  int i;
  long long plane, row;
  template <int F, int DZ, int DY, int DX>
  __device__ __forceinline__ typename S::Compute at() const {
    const long long offset =
        A == 0 ? (i + DZ) * plane + DY * row + DX : DZ * plane + (i + DY) * row + DX;
    const typename S::Element *__restrict__ f = args.field[F];
    return toCompute(f[at0 + offset]);
  }
};

/// Where a thread's chunk of kChunkZ outputs lies: it runs along z
/// (kChunkAxis 0: a thread a column of a 3D grid) or y (kChunkAxis 1: a
/// thread kChunkZ consecutive rows of a 2D grid); the block is
/// kThreadsX x kThreadsY threads over x and the other axis.
struct Chunk {
  long long z, y, x;  ///< its first output
  long long first, n; ///< its first output's index along the chunk's axis, and that axis's size
};

template <class S> __device__ __forceinline__ Chunk chunkOf(int nz, int ny) {
  Chunk c;
  c.x = static_cast<long long>(blockIdx.x) * S::kThreadsX + threadIdx.x;
  const long long row = static_cast<long long>(blockIdx.y) * S::kThreadsY + threadIdx.y;
  if constexpr (S::kChunkAxis == 0) {
    c.z = static_cast<long long>(blockIdx.z) * S::kChunkZ;
    c.y = row;
    c.first = c.z;
    c.n = nz;
  } else {
    c.z = blockIdx.z;
    c.y = row * S::kChunkZ;
    c.first = c.y;
    c.n = ny;
  }
  return c;
}

/// Whether a point's coordinate along an axis of n points is written: not
/// in the ring of `ring` points a fixed step leaves at each edge.
__device__ __forceinline__ bool written(long long v, long long n, int ring) {
  return v >= ring && v < n - ring;
}

/// The plane kernel (stepPlanes) of a 3D stencil that reads one field, the
/// plane field, off the output point and every other field only at it (the
/// wave equation's form): its sizes as simt::Geometry takes them, so that
/// the planes of that field reach shared memory as in the CUDA-core kernel of
/// one field (stencilc/device/simt.cuh: 16-byte cp.async copies where a
/// group of the window is inside the grid, the boundary rule elsewhere).
/// The ring holds the 2 kRadiusZ + 1 planes an output plane reads and
/// S::kPlanesAhead more in flight.
template <class S> struct PlaneParams {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  using Boundary = typename S::Boundary;
  static constexpr int kRadiusZ = reach<S>(0);
  static constexpr int kRadiusY = reach<S>(1);
  static constexpr int kRadiusX = reach<S>(2);
  static constexpr int kTileX = S::kPlaneTileX;
  static constexpr int kTileY = S::kPlaneTileY;
  static constexpr int kThreads = S::kPlaneThreads;
  static constexpr int kOutX = 1;
  static constexpr int kVecElements = 16 / static_cast<int>(sizeof(Element));
  static constexpr int kHaloX = (kRadiusX + kVecElements - 1) / kVecElements * kVecElements;
  static constexpr int kStages = 2 * kRadiusZ + 1 + S::kPlanesAhead;
  static constexpr int kPrefetchBytes = 0;
};
template <class S> using PlaneGeometry = simt::Geometry<PlaneParams<S>>;

/// Whether the plane kernel reads field f at the output point: a field
/// other than the plane field that some term reads (every such read is at
/// the point).
template <class S> __host__ __device__ constexpr bool readAtPoint(int f) {
  for (int i = 0; i < S::kTermCount; ++i) {
    const FieldTerm &t = S::kTerms[i];
    if (f != S::kPlaneField && (t.field == f || t.coefField == f)) {
      return true;
    }
  }
  return false;
}

/// An output's values of the fields read at the point (readAtPoint), by
/// field; the others are never set.
template <class S> struct PointValues {
  typename S::Element of[S::kFields];
};

/// Loads an output's value of field F at linear index `at` where the plane
/// kernel reads F at the point.
template <class S, int F>
__device__ __forceinline__ void loadPointField(const Args<S> &args, long long at,
                                               PointValues<S> &v) {
  if constexpr (readAtPoint<S>(F)) {
    v.of[F] = args.field[F][at];
  }
}

/// Loads an output's point values at linear index `at`.
template <class S, int... F>
__device__ __forceinline__ void loadPoint(const Args<S> &args, long long at, PointValues<S> &v,
                                          std::integer_sequence<int, F...>) {
  (loadPointField<S, F>(args, at, v), ...);
}

/// Reads of the plane kernel: the plane field from the ring (planes: the
/// buffer of each dz from -kRadiusZ; the output at `window` of each),
/// any other field from the output's point values.
template <class S> struct PlaneReader {
  const typename S::Element *const (&planes)[2 * reach<S>(0) + 1];
  int window;
  const PointValues<S> &point;
  template <int F, int DZ, int DY, int DX>
  __device__ __forceinline__ typename S::Compute at() const {
    using G = PlaneGeometry<S>;
    if constexpr (F == S::kPlaneField) {
      return toCompute(planes[G::kRadiusZ + DZ][window + DY * G::kPitch + DX]);
    } else {
      static_assert(DZ == 0 && DY == 0 && DX == 0,
                    "the plane kernel reads other fields at the point");
      return toCompute(point.of[F]);
    }
  }
};

/// One step of a 3D stencil in the plane kernel's form (PlaneParams). A
/// block owns kPlaneTileY x kPlaneTileX outputs of kPlanesZ consecutive
/// planes and streams the plane field's planes through a ring in shared
/// memory, one barrier a plane; a thread owns the outputs
/// threadIdx.x + k kPlaneThreads of the tile, and computes each from the
/// ring (the plane field, any offset within the radius) and the other
/// fields at the point, which it loads a plane ahead into registers. Every
/// value is the one the chunk kernel reads, and sumTerms does the same
/// operations in the same order: the same result.
template <class S>
__device__ __forceinline__ void
stepPlanes(const Args<S> &args, typename S::Element *__restrict__ out, int nz, int ny, int nx) {
  using G = PlaneGeometry<S>;
  using Element = typename S::Element;
  constexpr int RZ = G::kRadiusZ;
  constexpr int kRing = G::kStages;
  constexpr int kPer = G::kItemsPerThread;
  constexpr auto fieldIndices = std::make_integer_sequence<int, S::kFields>();
  const auto ring = simt::planeBuffers<G>();
  const Element *__restrict__ in = args.field[S::kPlaneField];
  const long long x0 = static_cast<long long>(blockIdx.x) * G::kTileX;
  const long long y0 = static_cast<long long>(blockIdx.y) * G::kTileY;
  const long long zBegin = static_cast<long long>(blockIdx.z) * S::kPlanesZ;
  const long long zEnd = zBegin + S::kPlanesZ < nz ? zBegin + S::kPlanesZ : nz;
  const long long pLast = zEnd - 1 + RZ;
  const long long planeSize = static_cast<long long>(ny) * nx;
  const bool vectorRows = nx % G::kVec == 0 && reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  int at[kPer];
  long long point[kPer]; // y * nx + x; 0 (a point of the grid) for an output not stored
  bool stores[kPer];
#pragma unroll
  for (int k = 0; k < kPer; ++k) {
    const int item = static_cast<int>(threadIdx.x) + k * G::kThreads;
    const int row = item / G::kTileX, col = item % G::kTileX;
    const long long y = y0 + row, x = x0 + col;
    at[k] = (row + G::kRadiusY) * G::kPitch + col + G::kHaloX;
    stores[k] = item < G::kItems && y < ny && x < nx && written(y, ny, S::kRingY) &&
                written(x, nx, S::kRingX);
    point[k] = stores[k] ? y * nx + x : 0;
  }
  const simt::GroupSources<G> sources(y0, x0, ny, nx, vectorRows);
  // The ring's buffer s holds plane zBegin - RZ + s, then every kRing planes
  // later; the first kRing - 1 are fetched before the loop.
#pragma unroll
  for (int s = 0; s + 1 < kRing; ++s) {
    if (zBegin - RZ + s <= pLast) {
      simt::fetchPlane<G>(ring[s], in, zBegin - RZ + s, sources, y0, x0, nz, ny, nx);
    }
    commitCopies();
  }
  PointValues<S> next[kPer];
#pragma unroll
  for (int k = 0; k < kPer; ++k) {
    loadPoint<S>(args, zBegin * planeSize + point[k], next[k], fieldIndices);
  }
  int first = 0; // the buffer of plane z - RZ
  for (long long z = zBegin; z < zEnd; ++z) {
    waitCopies<S::kPlanesAhead - 1>(); // this thread's copies of plane z + RZ have landed ...
    __syncthreads();                   // ... and everybody's; plane z - RZ - 1's buffer is free
    const long long fetch = z - RZ + kRing - 1;
    if (fetch <= pLast) {
      simt::fetchPlane<G>(ring[first == 0 ? kRing - 1 : first - 1], in, fetch, sources, y0, x0, nz,
                          ny, nx);
    }
    commitCopies();
    // This plane's point values; the next plane's are loaded while it is
    // computed (the last plane loads its own again).
    PointValues<S> current[kPer];
    const long long following = z + 1 < zEnd ? z + 1 : z;
#pragma unroll
    for (int k = 0; k < kPer; ++k) {
      current[k] = next[k];
      loadPoint<S>(args, following * planeSize + point[k], next[k], fieldIndices);
    }
    const Element *planes[2 * RZ + 1];
#pragma unroll
    for (int d = 0; d <= 2 * RZ; ++d) {
      planes[d] = ring[first + d < kRing ? first + d : first + d - kRing];
    }
    if (written(z, nz, S::kRingZ)) {
#pragma unroll
      for (int k = 0; k < kPer; ++k) {
        if (stores[k]) {
          out[z * planeSize + point[k]] =
              toElement<Element>(sumTerms<S>(args, PlaneReader<S>{planes, at[k], current[k]}));
        }
      }
    }
    first = first + 1 == kRing ? 0 : first + 1;
  }
}

/// The launch of the plane kernel over the grid: blocks of kPlaneTileY x
/// kPlaneTileX outputs of kPlanesZ planes (simt::gridFor, as the
/// single-field kernel's); false (launching nothing) past CUDA's 65535
/// blocks along y or z.
template <class S> bool launchPlanesGrid(int nz, int ny, int nx, dim3 &grid, dim3 &block) {
  block = dim3(S::kPlaneThreads, 1, 1);
  grid = simt::gridFor<PlaneGeometry<S>>(nz, ny, nx, S::kPlanesZ);
  return grid.y <= 65535u && grid.z <= 65535u;
}

/// One step: every point of the grid (the interior for a fixed boundary), a
/// thread a chunk of kChunkZ outputs along z (3D) or y (2D). A chunk whose
/// every output is written and reads only inside the grid takes the direct
/// reads, its outputs unrolled so that their reads are issued together and
/// the points they share are loaded once; any other chunk (at the grid's
/// edges) goes output by output, every read through the boundary rule.
template <class S>
__device__ __forceinline__ void
stepChunks(const Args<S> &args, typename S::Element *__restrict__ out, int nz, int ny, int nx) {
  constexpr int A = S::kChunkAxis;
  constexpr int P = S::kChunkZ;
  const Chunk c = chunkOf<S>(nz, ny);
  // The axis across the chunk (y for a z chunk, z for a y chunk), and x.
  const long long across = A == 0 ? c.y : c.z;
  const long long nAcross = A == 0 ? ny : nz;
  const int ringAcross = A == 0 ? S::kRingY : S::kRingZ;
  const int ringAlong = A == 0 ? S::kRingZ : S::kRingY;
  if (c.x >= nx || across >= nAcross || !written(c.x, nx, S::kRingX) ||
      !written(across, nAcross, ringAcross)) {
    return;
  }
  constexpr int rx = reach<S>(2);
  constexpr int rAcross = reach<S>(A == 0 ? 1 : 0);
  constexpr int rAlong = reach<S>(A);
  const int edgeAlong = rAlong > ringAlong ? rAlong : ringAlong;
  const long long plane = static_cast<long long>(ny) * nx;
  const long long stride = A == 0 ? plane : static_cast<long long>(nx);
  const long long at = (c.z * ny + c.y) * nx + c.x;
  if (written(c.x, nx, rx) && written(across, nAcross, rAcross) && c.first >= edgeAlong &&
      c.first + P <= c.n - edgeAlong) {
#pragma unroll
    for (int i = 0; i < P; ++i) {
      out[at + i * stride] = toElement<typename S::Element>(
          sumTerms<S>(args, InnerReader<S, A>{args, at, i, plane, nx}));
    }
    return;
  }
#pragma unroll 1
  for (int i = 0; i < P && c.first + i < c.n; ++i) {
    if (!written(c.first + i, c.n, ringAlong)) {
      continue;
    }
    const long long z = A == 0 ? c.z + i : c.z, y = A == 0 ? c.y : c.y + i;
    out[at + i * stride] = toElement<typename S::Element>(
        sumTerms<S>(args, BoundaryReader<S>{args, z, y, c.x, nz, ny, nx}));
  }
}

/// One step, in the kernel the plan chose: the plane kernel where S has a
/// plane field, else a chunk a thread.
template <class S>
__device__ __forceinline__ void step(const Args<S> &args, typename S::Element *__restrict__ out,
                                     int nz, int ny, int nx) {
  if constexpr (S::kPlaneField >= 0) {
    stepPlanes<S>(args, out, nz, ny, nx);
  } else {
    stepChunks<S>(args, out, nz, ny, nx);
  }
}

/// Copies the points of `from` that a fixed step does not write (its ring)
/// into `to`, a thread a chunk as in step.
template <class S>
__device__ __forceinline__ void copyRing(const typename S::Element *__restrict__ from,
                                         typename S::Element *__restrict__ to, int nz, int ny,
                                         int nx) {
  constexpr int A = S::kChunkAxis;
  const Chunk c = chunkOf<S>(nz, ny);
  const long long across = A == 0 ? c.y : c.z;
  const long long nAcross = A == 0 ? ny : nz;
  if (c.x >= nx || across >= nAcross) {
    return;
  }
  const bool inside =
      written(c.x, nx, S::kRingX) && written(across, nAcross, A == 0 ? S::kRingY : S::kRingZ);
  const long long stride = A == 0 ? static_cast<long long>(ny) * nx : static_cast<long long>(nx);
  const long long at = (c.z * ny + c.y) * nx + c.x;
  for (int i = 0; i < S::kChunkZ && c.first + i < c.n; ++i) {
    if (!inside || !written(c.first + i, c.n, A == 0 ? S::kRingZ : S::kRingY)) {
      to[at + i * stride] = from[at + i * stride];
    }
  }
}

/// The launch of a kernel over the grid, a thread a chunk of kChunkZ
/// outputs; false (launching nothing) where the grid needs more than CUDA's
/// 65535 blocks along y or z.
template <class S> bool launchGrid(int nz, int ny, int nx, dim3 &grid, dim3 &block) {
  block = dim3(S::kThreadsX, S::kThreadsY, 1);
  const long long chunks =
      S::kChunkAxis == 0 ? ny : (static_cast<long long>(ny) + S::kChunkZ - 1) / S::kChunkZ;
  const long long blocksY = (chunks + S::kThreadsY - 1) / S::kThreadsY;
  const long long blocksZ =
      S::kChunkAxis == 0 ? (static_cast<long long>(nz) + S::kChunkZ - 1) / S::kChunkZ : nz;
  if (blocksY > 65535 || blocksZ > 65535) {
    return false;
  }
  grid = dim3(static_cast<unsigned>((static_cast<long long>(nx) + S::kThreadsX - 1) / S::kThreadsX),
              static_cast<unsigned>(blocksY), static_cast<unsigned>(blocksZ));
  return true;
}

/// Launches `kernel` (a __global__ function that runs step<S>) for one step
/// on `stream`: cudaErrorInvalidValue, launching nothing, past CUDA's 65535
/// blocks along y or z. A plane kernel whose ring passes 48 KiB opts in to
/// the dynamic shared memory first (every launch: the stream may be another
/// device's).
template <class S>
inline cudaError_t launchStep(void (*kernel)(Args<S>, typename S::Element *, int, int, int),
                              const Args<S> &args, typename S::Element *out, int nz, int ny, int nx,
                              cudaStream_t stream) {
  dim3 grid, block;
  int shared = 0;
  if constexpr (S::kPlaneField >= 0) {
    using G = PlaneGeometry<S>;
    if (!launchPlanesGrid<S>(nz, ny, nx, grid, block)) {
      return cudaErrorInvalidValue;
    }
    if (const cudaError_t optIn = simt::optInShared<G>(kernel); optIn != cudaSuccess) {
      return optIn;
    }
    shared = G::kDynamicShared ? G::kSharedBytes : 0;
  } else if (!launchGrid<S>(nz, ny, nx, grid, block)) {
    return cudaErrorInvalidValue;
  }
  kernel<<<grid, block, shared, stream>>>(args, out, nz, ny, nx);
  return cudaGetLastError();
}

} // namespace fields
} // namespace device
} // namespace stencilc
