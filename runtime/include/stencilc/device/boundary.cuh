// stencilc/device/boundary.cuh - the boundary rules of the stencil language
// as policy types: what a kernel reads at a point of the input, inside the
// grid or outside it.
//
// Each policy has two static `read` functions: a 2D one of (y, x) in an
// ny x nx grid and a 3D one of (z, y, x) in an nz x ny x nx grid, the grid
// stored row-major with x contiguous. Coordinates may lie outside the grid
// by any amount (a halo may be wider than the grid). A 1D grid is a 2D or 3D
// one of extent 1 in the other axes.
//
//   FixedBoundary             outside reads give 0. They only feed the ring
//                             of outputs a step leaves unwritten, so no
//                             garbage enters a sum.
//   PeriodicBoundary          reads wrap around every axis.
//   ClampBoundary             outside reads give the nearest point of the
//                             grid (the edge repeated), axis by axis.
//   MirrorBoundary            outside reads reflect about the edge with the
//                             edge point repeated (in[-1] is in[0], in[n] is
//                             in[n-1]; Halide's mirror_image), axis by axis.
//   ReflectBoundary           outside reads reflect about the edge point,
//                             not repeated (in[-1] is in[1]; Halide's
//                             mirror_interior), axis by axis.
//                             Clamp, mirror and reflect land where
//                             stencilc/runtime/boundary_index.h says.
//   ConstantBoundary<Value>   outside reads give Value::value converted to
//                             the element type, where Value is a struct
//                             with `static constexpr float value` (or
//                             double for fp64 grids), e.g.
//                               struct Half { static constexpr float value = 0.5f; };
//                             The conversion is the element type's
//                             constructor, Element(Value::value), so the
//                             literal should already be exact in the
//                             element type.
//
// A kernel reading a whole access (a 16-byte vector, say) at the grid's
// edge reads it element by element with readRun, which reads the
// reflecting rules' runs in the form the kernel measured fastest (see
// there).
#pragma once

#include <type_traits>

#include <cuda_runtime.h>

#include "stencilc/runtime/boundary_index.h"

namespace stencilc {
namespace device {

/// The reads of a rule whose every read outside the grid gives one value,
/// Rule::outside<Element>() (FixedBoundary, ConstantBoundary).
template <class Rule> struct OneValueOutside {
  template <class Element>
  static __device__ __forceinline__ Element read(const Element *__restrict__ in, long long y,
                                                 long long x, int ny, int nx) {
    if (y < 0 || y >= ny || x < 0 || x >= nx) {
      return Rule::template outside<Element>();
    }
    return in[y * nx + x];
  }

  template <class Element>
  static __device__ __forceinline__ Element read(const Element *__restrict__ in, long long z,
                                                 long long y, long long x, int nz, int ny, int nx) {
    if (z < 0 || z >= nz || y < 0 || y >= ny || x < 0 || x >= nx) {
      return Rule::template outside<Element>();
    }
    return in[(z * ny + y) * nx + x];
  }
};

/// Reads outside the grid give zero.
struct FixedBoundary : OneValueOutside<FixedBoundary> {
  /// The value of every read outside the grid (a kernel may fill a whole
  /// access outside with it instead of reading point by point).
  template <class Element> static __device__ __forceinline__ Element outside() {
    return Element(0.0f);
  }
};

/// Reads wrap around each axis.
struct PeriodicBoundary {
  template <class Element>
  static __device__ __forceinline__ Element read(const Element *__restrict__ in, long long y,
                                                 long long x, int ny, int nx) {
    y %= ny;
    x %= nx;
    if (y < 0) {
      y += ny;
    }
    if (x < 0) {
      x += nx;
    }
    return in[y * nx + x];
  }

  template <class Element>
  static __device__ __forceinline__ Element read(const Element *__restrict__ in, long long z,
                                                 long long y, long long x, int nz, int ny, int nx) {
    z %= nz;
    y %= ny;
    x %= nx;
    z += z < 0 ? nz : 0;
    y += y < 0 ? ny : 0;
    x += x < 0 ? nx : 0;
    return in[(z * ny + y) * nx + x];
  }
};

/// Reads outside the grid land on the point stencilc_fold_index gives for
/// the rule `Kind`, axis by axis (clamp, mirror and reflect), folded
/// stepwise: no 64-bit remainder in a kernel.
template <stencilc_boundary Kind> struct FoldedBoundary {
  static constexpr stencilc_boundary kKind = Kind;

  static __device__ __forceinline__ long long fold(long long i, long long n) {
    return stencilc_fold_index_stepwise(Kind, i, n);
  }

  template <class Element>
  static __device__ __forceinline__ Element read(const Element *__restrict__ in, long long y,
                                                 long long x, int ny, int nx) {
    return in[fold(y, ny) * nx + fold(x, nx)];
  }

  template <class Element>
  static __device__ __forceinline__ Element read(const Element *__restrict__ in, long long z,
                                                 long long y, long long x, int nz, int ny, int nx) {
    return in[(fold(z, nz) * ny + fold(y, ny)) * nx + fold(x, nx)];
  }
};

/// Reads outside the grid repeat the nearest edge point.
using ClampBoundary = FoldedBoundary<STENCILC_BOUNDARY_CLAMP>;

/// Reads outside the grid reflect about the edge, the edge point repeated.
using MirrorBoundary = FoldedBoundary<STENCILC_BOUNDARY_MIRROR>;

/// Reads outside the grid reflect about the edge point, not repeated.
using ReflectBoundary = FoldedBoundary<STENCILC_BOUNDARY_REFLECT>;

/// Reads outside the grid give Value::value, converted to the element type.
template <class Value> struct ConstantBoundary : OneValueOutside<ConstantBoundary<Value>> {
  /// The value of every read outside the grid.
  template <class Element> static __device__ __forceinline__ Element outside() {
    return Element(Value::value);
  }
};

/// Whether a boundary rule reads the grid's folded points (clamp, mirror,
/// reflect).
template <class Boundary> struct FoldsReads : std::false_type {};
template <stencilc_boundary Kind> struct FoldsReads<FoldedBoundary<Kind>> : std::true_type {};

/// Whether a folded read is a reflection (mirror, reflect), whose runs
/// readRun reads as its caller says, rather than a compare (clamp).
template <class Boundary> struct Reflects : std::false_type {};
template <> struct Reflects<FoldedBoundary<STENCILC_BOUNDARY_MIRROR>> : std::true_type {};
template <> struct Reflects<FoldedBoundary<STENCILC_BOUNDARY_REFLECT>> : std::true_type {};

/// How readRun reads a reflecting rule's run. Each kernel takes the form
/// that measured fastest for it (docs/performance.md, 2026-12-03 23:46):
/// the folds' registers are paid by every block of a kernel, edge or not.
enum class RunRead {
  kEach, ///< inline, every coordinate folded for every element
  kRow,  ///< inline, the row (z, y) folded once, x for every element
  kCall, ///< kRow out of line: a call, which a warp makes only at the edge
};

namespace detail {
/// The elements of a run, the boundary rule read element by element.
template <class Bits, class Element, class Read>
__device__ __forceinline__ Bits readEach(Read read) {
  constexpr int kCount = static_cast<int>(sizeof(Bits) / sizeof(Element));
  static_assert(kCount * sizeof(Element) == sizeof(Bits), "a run is whole elements");
  alignas(Bits) Element values[kCount];
#pragma unroll
  for (int e = 0; e < kCount; ++e) {
    values[e] = read(e);
  }
  return *reinterpret_cast<const Bits *>(values);
}

template <class Boundary, class Bits, class Element>
__device__ __forceinline__ Bits readRow(const Element *__restrict__ in, long long z, long long y,
                                        long long x, int nz, int ny, int nx) {
  const Element *row = in + (Boundary::fold(z, nz) * ny + Boundary::fold(y, ny)) * nx;
  return readEach<Bits, Element>([&](int e) { return row[Boundary::fold(x + e, nx)]; });
}

template <class Boundary, class Bits, class Element>
__device__ __noinline__ Bits readRowCall(const Element *__restrict__ in, long long z, long long y,
                                         long long x, int nz, int ny, int nx) {
  return readRow<Boundary, Bits>(in, z, y, x, nz, ny, nx);
}
} // namespace detail

/// The run of sizeof(Bits) / sizeof(Element) elements (z, y, x + e) as the
/// bits of one access (uint4, uint2, ...), by the rule: what a kernel
/// reads where an access is not whole inside the grid. A reflecting rule's
/// run is read the way kHow says; every other rule's (a test, a compare, a
/// wrap) element by element inline, as it always was.
template <class Boundary, class Bits, RunRead kHow, class Element>
__device__ __forceinline__ Bits readRun(const Element *__restrict__ in, long long z, long long y,
                                        long long x, int nz, int ny, int nx) {
  if constexpr (Reflects<Boundary>::value && kHow == RunRead::kCall) {
    return detail::readRowCall<Boundary, Bits>(in, z, y, x, nz, ny, nx);
  } else if constexpr (Reflects<Boundary>::value && kHow == RunRead::kRow) {
    return detail::readRow<Boundary, Bits>(in, z, y, x, nz, ny, nx);
  } else {
    return detail::readEach<Bits, Element>(
        [&](int e) { return Boundary::read(in, z, y, x + e, nz, ny, nx); });
  }
}

/// readRun of a 2D grid: (y, x + e).
template <class Boundary, class Bits, RunRead kHow, class Element>
__device__ __forceinline__ Bits readRun(const Element *__restrict__ in, long long y, long long x,
                                        int ny, int nx) {
  if constexpr (Reflects<Boundary>::value && kHow != RunRead::kEach) {
    return readRun<Boundary, Bits, kHow>(in, 0, y, x, 1, ny, nx);
  } else {
    return detail::readEach<Bits, Element>(
        [&](int e) { return Boundary::read(in, y, x + e, ny, nx); });
  }
}

} // namespace device
} // namespace stencilc
