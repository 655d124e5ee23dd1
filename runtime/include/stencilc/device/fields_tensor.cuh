// stencilc/device/fields_tensor.cuh - what the tensor-core kernel of a
// stencil of fields adds to stencilc/device/tensor.cuh (docs/design.md,
// "Stencils of fields on tensor cores"): the arguments a launch passes by
// value, the host-side rounding of the parameter matrices, the epilogue
// that combines the accumulator groups with the coefficient fields and the
// point terms, and the launch.
//
// A generated stencil gives a traits struct F besides its Geometry:
//   using Element, Compute;          the element type; float, or double for fp64
//   static constexpr int kFields, kGemmField, kGroups, kPointTerms, kParamElements;
//   static constexpr int kGroupField[kGroups];  the coefficient field of a group, or -1
//   static constexpr PointTerm kPoints[kPointTerms];
// and, where several fields are read at neighbours (a window of each), and
// always in 3D (a ring of slabs of each):
//   static constexpr int kWindows, kWindowField[kWindows], kGroupWindow[kGroups];
// The kernel (the generated code) runs each group's slice GEMMs into its
// accumulators and calls storeTile.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

#include <cuda_runtime.h>

#include <stencilc/device/element.cuh>
#include <stencilc/device/mma.cuh>
#include <stencilc/device/tensor.cuh>

namespace stencilc {
namespace device {
namespace fieldstc {

/// A point term of the epilogue: k x (coefficient field coefField at the
/// output point, when coefField >= 0) x input field `field` at the output
/// point.
struct PointTerm {
  int field;
  int coefField;
};

/// What a launch passes by value: the fields in declaration order, every
/// group's parameter matrices (already in the operand type) and the point
/// terms' coefficients in the arithmetic type.
template <class F> struct Args {
  const typename F::Element *field[F::kFields];
  typename F::Element matrix[F::kParamElements];
  typename F::Compute k[F::kPointTerms > 0 ? F::kPointTerms : 1];
};

/// A coefficient (double) as a parameter matrix holds it: fp16 and bf16
/// rounded once to nearest even; tf32 rounded to float, then to tf32 to
/// nearest with ties away from zero, as roundToTf32 rounds the window; fp64
/// as is. Host code.
template <class Element> inline Element operandFromDouble(double value) {
  if constexpr (std::is_same_v<Element, __half>) {
    return __double2half(value);
  } else if constexpr (std::is_same_v<Element, __nv_bfloat16>) {
    return __double2bfloat16(value);
  } else if constexpr (std::is_same_v<Element, float>) {
    float f = static_cast<float>(value);
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7f800000u) != 0x7f800000u) { // finite: round the 13 low bits away
      bits = (bits + 0x1000u) & 0xffffe000u;
    }
    std::memcpy(&f, &bits, sizeof bits);
    return f;
  } else {
    return value;
  }
}

template <class F>
__device__ __forceinline__ typename F::Compute pointRead(const Args<F> &args, int field,
                                                         long long at) {
  return toCompute(args.field[field][at]);
}

/// value + group G's accumulator: as is (no coefficient field) or one FMA
/// with the coefficient field's value at the output point.
template <class F, int G>
__device__ __forceinline__ typename F::Compute
addGroup(const Args<F> &args, typename F::Compute acc, typename F::Compute value, long long at) {
  constexpr int field = F::kGroupField[G];
  if constexpr (field >= 0) {
    return madd(pointRead<F>(args, field, at), acc, value);
  } else {
    return value + acc;
  }
}

/// value + point term P: its coefficient (times its coefficient field's
/// value first, one rounding), then one FMA with its field's value.
template <class F, int P>
__device__ __forceinline__ typename F::Compute addPoint(const Args<F> &args,
                                                        typename F::Compute value, long long at) {
  constexpr PointTerm p = F::kPoints[P];
  typename F::Compute k = args.k[P];
  if constexpr (p.coefField >= 0) {
    k = k * pointRead<F>(args, p.coefField, at);
  }
  return madd(k, pointRead<F>(args, p.field, at), value);
}

/// The output at `at` from its accumulators `acc[g]` of every group: the
/// groups in order, then the point terms in order, from 0.
template <class F, class Accumulator, int... G, int... P>
__device__ __forceinline__ typename F::Compute
epilogue(const Args<F> &args, const Accumulator (&acc)[F::kGroups], long long at,
         std::integer_sequence<int, G...>, std::integer_sequence<int, P...>) {
  typename F::Compute value = 0;
  ((value = addGroup<F, G>(args, acc[G], value, at)), ...);
  ((value = addPoint<F, P>(args, value, at)), ...);
  return value;
}

/// Elements (at, at + 1) of `f` widened to the arithmetic type, as one
/// access (`at` even, `f` aligned to two elements).
__device__ __forceinline__ void loadTwo(const __half *f, long long at, float &a, float &b) {
  const float2 v = __half22float2(*reinterpret_cast<const __half2 *>(f + at));
  a = v.x;
  b = v.y;
}
__device__ __forceinline__ void loadTwo(const __nv_bfloat16 *f, long long at, float &a, float &b) {
  const float2 v = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162 *>(f + at));
  a = v.x;
  b = v.y;
}
__device__ __forceinline__ void loadTwo(const float *f, long long at, float &a, float &b) {
  const float2 v = *reinterpret_cast<const float2 *>(f + at);
  a = v.x;
  b = v.y;
}
__device__ __forceinline__ void loadTwo(const double *f, long long at, double &a, double &b) {
  const double2 v = *reinterpret_cast<const double2 *>(f + at);
  a = v.x;
  b = v.y;
}

/// Whether outputs (y, x), (y, x + 1) with x even can be read and stored as
/// pairs: the rows start on a pair in every field and in out.
template <class F>
__device__ __forceinline__ bool pairsAligned(const Args<F> &args, const typename F::Element *out,
                                             int nx) {
  constexpr std::uintptr_t kPair = 2 * sizeof(typename F::Element);
  bool aligned = nx % 2 == 0 && reinterpret_cast<std::uintptr_t>(out) % kPair == 0;
#pragma unroll
  for (int f = 0; f < F::kFields; ++f) {
    aligned = aligned && reinterpret_cast<std::uintptr_t>(args.field[f]) % kPair == 0;
  }
  return aligned;
}

/// The two outputs at (at, at + 1) from their accumulators of every group,
/// every field read as one pair: epilogue() on each, the same operations.
template <class F, class Accumulator, int... G, int... P>
__device__ __forceinline__ void
epilogueTwo(const Args<F> &args, const Accumulator (&first)[F::kGroups],
            const Accumulator (&second)[F::kGroups], long long at, typename F::Compute &a,
            typename F::Compute &b, std::integer_sequence<int, G...>,
            std::integer_sequence<int, P...>) {
  using Compute = typename F::Compute;
  Compute va = 0, vb = 0;
  (
      [&] {
        constexpr int field = F::kGroupField[G];
        if constexpr (field >= 0) {
          Compute ca, cb;
          loadTwo(args.field[field], at, ca, cb);
          va = madd(ca, Compute(first[G]), va);
          vb = madd(cb, Compute(second[G]), vb);
        } else {
          va = va + Compute(first[G]);
          vb = vb + Compute(second[G]);
        }
      }(),
      ...);
  (
      [&] {
        constexpr PointTerm p = F::kPoints[P];
        Compute ka = args.k[P], kb = args.k[P];
        if constexpr (p.coefField >= 0) {
          Compute ca, cb;
          loadTwo(args.field[p.coefField], at, ca, cb);
          ka = ka * ca;
          kb = kb * cb;
        }
        Compute fa, fb;
        loadTwo(args.field[p.field], at, fa, fb);
        va = madd(ka, fa, va);
        vb = madd(kb, fb, vb);
      }(),
      ...);
  a = va;
  b = vb;
}

/// Stores the outputs of tile t that a step writes (the interior for a
/// fixed boundary): accumulator elements e and e + 1 of MMA block j of lane
/// l are row l / 4 (+ 8 for e >= 2 of an m16n8 block), columns
/// j n + l % 4 * 2 and the next of the tile; both inside the written region
/// and `pairs`, as pairs (every field read and out stored as one access),
/// else one by one. A 1D line (ny its rows of kBlockCols points, nx its
/// length) has no ring across. In 3D, `plane` is the first point of the
/// output plane (z ny nx) in `out` and in every field.
template <class F, class Block>
__device__ __forceinline__ void
storeTile(const Args<F> &args, typename F::Element *__restrict__ out, typename Block::Tile t,
          const typename Block::FragmentC (&acc)[F::kGroups][Block::kNBlocks], int ny, int nx,
          bool pairs, int lane, long long plane = 0) {
  using Accumulator = typename Block::Accumulator;
  constexpr int kElements = sizeof(acc[0][0].x) / sizeof(acc[0][0].x[0]);
  constexpr int kRing = Block::kRing;
  constexpr auto groups = std::make_integer_sequence<int, F::kGroups>();
  constexpr auto points = std::make_integer_sequence<int, F::kPointTerms>();
#pragma unroll
  for (int j = 0; j < Block::kNBlocks; ++j) {
#pragma unroll
    for (int e = 0; e < kElements; e += 2) {
      long long y = t.outRow + lane / 4 + (e >= 2 ? 8 : 0);
      long long x = t.outCol + j * Block::kMmaN + lane % 4 * 2;
      if constexpr (Block::kDims == 1) {
        // The line runs as rows of kBlockCols points: output (y, x) is its
        // point y kBlockCols + x, in row 0 of 1, with no ring across.
        x += y * Block::kBlockCols;
        y = 0;
      } else if (y < kRing || y >= ny - kRing) {
        continue;
      }
      Accumulator first[F::kGroups], second[F::kGroups];
#pragma unroll
      for (int g = 0; g < F::kGroups; ++g) {
        first[g] = acc[g][j].x[e];
        second[g] = acc[g][j].x[e + 1];
      }
      const long long at = plane + y * nx + x;
      if (pairs && x >= kRing && x + 2 <= nx - kRing) {
        typename F::Compute a, b;
        epilogueTwo<F>(args, first, second, at, a, b, groups, points);
        storeTwo(out + at, a, b);
        continue;
      }
      if (x >= kRing && x < nx - kRing) {
        out[at] = toElement<typename F::Element>(epilogue<F>(args, first, at, groups, points));
      }
      if (x + 1 >= kRing && x + 1 < nx - kRing) {
        out[at + 1] =
            toElement<typename F::Element>(epilogue<F>(args, second, at + 1, groups, points));
      }
    }
  }
}

/// Several fields read at neighbours (F::kWindows windows): fetches block
/// tile `tile`'s window of each field F::kWindowField[w] into staged[w].
template <class F, class Block, int... W>
__device__ __forceinline__ void
fetchWindows(const Args<F> &args, int ny, int nx, const typename Block::BlockTiles &tiles,
             long long tile, typename Block::Staged (&staged)[F::kWindows],
             std::integer_sequence<int, W...>) {
  (Block::fetchBlockTile(args.field[F::kWindowField[W]], ny, nx, tiles, tile, staged[W]), ...);
}

/// Enters block tile `tile` with every window: stores window w from
/// staged[w] and sends the fetch of field w's next block tile on its way,
/// window after window.
template <class F, class Block, int... W>
__device__ __forceinline__ void
enterWindows(const Args<F> &args, int ny, int nx, const typename Block::BlockTiles &tiles,
             long long tile, typename Block::Element (&window)[F::kWindows][Block::kWindowElements],
             typename Block::Staged (&staged)[F::kWindows], std::integer_sequence<int, W...>) {
  (Block::enterBlockTile(args.field[F::kWindowField[W]], ny, nx, tiles, tile, window[W], staged[W]),
   ...);
}

/// 3D: enters block column `tile` with every window (each field
/// F::kWindowField[w] its own ring of slabs, window[w]), as
/// TensorBlock::enterBlockColumn does for one field.
template <class F, class Block, int... W>
__device__ __forceinline__ typename Block::BlockColumn
enterBlockColumns(const Args<F> &args, int nz, int ny, int nx, int chunkZ,
                  const typename Block::BlockColumns &columns, long long tile,
                  typename Block::Element (&window)[F::kWindows][Block::kWindowElements],
                  typename Block::Staged (&staged)[F::kWindows], std::integer_sequence<int, W...>) {
  typename Block::BlockColumn column{};
  ((column = Block::enterBlockColumn(args.field[F::kWindowField[W]], nz, ny, nx, chunkZ, columns,
                                     tile, window[W], staged[W])),
   ...);
  return column;
}

/// 3D: enters output plane z of the column with every window, window after
/// window (TensorBlock::enterPlane: the plane's last input plane joins each
/// ring, the next is sent on its way); slab[dz + kRadius] is the first row of
/// input plane z + dz in every window.
template <class F, class Block, int... W>
__device__ __forceinline__ void
enterPlanes(const Args<F> &args, int nz, int ny, int nx, const typename Block::BlockColumn &column,
            long long z, typename Block::Element (&window)[F::kWindows][Block::kWindowElements],
            typename Block::Staged (&staged)[F::kWindows], int (&slab)[Block::kPlanes],
            std::integer_sequence<int, W...>) {
  (Block::enterPlane(args.field[F::kWindowField[W]], nz, ny, nx, column, z, window[W], staged[W],
                     slab),
   ...);
}

/// Launches kernel(args, out, ny, nx) as a persistent grid, as
/// TensorBlock::launch does for a stencil of one field (a 1D line: ny is 1
/// and nx its length; the kernel gets its rows).
template <class F, class Block>
cudaError_t launch(void (*kernel)(const Args<F>, typename F::Element *, int, int),
                   const Args<F> &args, typename F::Element *out, int ny, int nx,
                   cudaStream_t stream) {
  if (!Block::extentsFit(1, ny, nx)) {
    return cudaErrorInvalidValue;
  }
  if constexpr (Block::kDims == 1) {
    ny = (nx - 1) / Block::kBlockCols + 1; // the line of nx points as rows
  }
  const long long tiles = Block::blockTiles(ny, nx).count;
  long long resident = 0;
  const cudaError_t status = Block::residentBlocks(kernel, resident);
  if (status != cudaSuccess) {
    return status;
  }
  const unsigned grid = static_cast<unsigned>(tiles < resident ? tiles : resident);
  kernel<<<grid, Block::kThreads, 0, stream>>>(args, out, ny, nx);
  return cudaGetLastError();
}

/// Launches the 3D kernel(args, out, nz, ny, nx, chunkZ) as a persistent
/// grid, its planes cut into chunks as TensorBlock's 3D launch cuts them.
template <class F, class Block>
cudaError_t launch(void (*kernel)(const Args<F>, typename F::Element *, int, int, int, int),
                   const Args<F> &args, typename F::Element *out, int nz, int ny, int nx,
                   cudaStream_t stream) {
  if (!Block::extentsFit(nz, ny, nx)) {
    return cudaErrorInvalidValue;
  }
  long long resident = 0;
  const cudaError_t status = Block::residentBlocks(kernel, resident);
  if (status != cudaSuccess) {
    return status;
  }
  const typename Block::PlaneChunks chunks = Block::planeChunks(resident, nz, ny, nx);
  kernel<<<chunks.grid, Block::kThreads, 0, stream>>>(args, out, nz, ny, nx, chunks.chunkZ);
  return cudaGetLastError();
}

} // namespace fieldstc
} // namespace device
} // namespace stencilc
