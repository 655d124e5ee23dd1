// stencilc/device/fused_band.cuh - the CUDA cores' fused 1D, 2D and 3D passes
// under clamp, mirror and reflect (docs/design.md, "The band").
//
// Under a folding rule a fused level's points outside the grid should be
// that level's own fold of itself; a fused pass of two or more levels
// reads 0 there instead (fused.cuh's ReadsOutside; Computes: only the
// points inside are computed). That is exact for every point at least
// W = levels·r inside the grid, whose levels read only points inside. So a pass is the
// fused kernel over the whole grid, then the band kernel (band.cuh), which
// recomputes and stores every point within W of an edge step by step with
// the true rule, in the fused kernel's own arithmetic (BandOf::point): the
// pass gives what as many single steps give, bit for bit. A grid within 2 W
// of its size on an axis is all band.
//
// In 2D, Params (fused.cuh's Geometry) also has
//   static constexpr int kBandTile; // the band's tile kernel's tile (>= T r)
// In 1D (fused1d.cuh) the band is a block at each end of the line
// (band::lineKernel), and the names below are fused1d's; in 3D (fused3d.cuh)
// patches of each face (band::volumeKernel), and the names fused3d's.
#pragma once

#include "stencilc/device/band.cuh"
#include "stencilc/device/fused.cuh"
#include "stencilc/device/fused1d.cuh"
#include "stencilc/device/fused3d.cuh"

namespace stencilc {
namespace device {

/// What every fused pass's band traits (band.cuh) share: fused geometry S's
/// types and boundary rule (a FoldedBoundary), the pass's Steps levels, no
/// ring, and a point computed by the traits' own point(at).
template <class S, int Steps> struct FusedBandTraits {
  using Element = typename S::Element;
  using Compute = typename S::Compute;
  using Boundary = typename S::Boundary;
  using Stencil = typename S::Stencil;
  static constexpr stencilc_boundary kBoundaryKind = Boundary::kKind;
  static constexpr int kRadius = S::kRadius, kSteps = Steps, kRing = 0;
  static constexpr bool kOwnArithmetic = true;

  /// A point in the terms' direct form, as every fused kernel computes it:
  /// the terms' multiply-adds from 0 in term order, then the scale;
  /// `value(term)` is the level below at the term's offset.
  template <class Value> static __device__ __forceinline__ Compute termSum(Value value) {
    Compute acc = Compute(0);
#pragma unroll
    for (int k = 0; k < S::kTerms; ++k) {
      const auto term = Stencil::template term<Compute>(k);
      acc = madd(term.c, value(term), acc);
    }
    return scaledSum<Stencil>(acc);
  }
};

namespace fused {

/// The band traits (band.cuh) of fused geometry S for a pass of Steps
/// levels: a point is what the fused kernel computes, the terms'
/// multiply-adds from 0 and the scale (applyStencil), or in the low-rank
/// form each passTerm's multiply-add of its row pass (rowPass) or value
/// (applyLowRank).
template <class S, int Steps> struct BandOf : FusedBandTraits<S, Steps> {
  using Compute = typename S::Compute;
  using Stencil = typename S::Stencil;
  static_assert(!PackedOf<Stencil>::value && !PairedSumsOf<S>::value,
                "the band computes the terms' or the unpaired low-rank order");

  template <class At> static __device__ __forceinline__ Compute point(At at) {
    if constexpr (LowRankOf<Stencil>::value) {
      Compute acc = Compute(0);
#pragma unroll
      for (int k = 0; k < LowRankOf<Stencil>::kPassTerms; ++k) {
        const PassTerm<Compute> term = Stencil::template passTerm<Compute>(k);
        const Compute value =
            term.pass >= 0
                ? rowPass<Stencil, Compute>(term.pass, [&](int dx) { return at(term.dy, dx); })
                : at(term.dy, term.dx);
        acc = madd(term.c, value, acc);
      }
      return acc;
    } else {
      return FusedBandTraits<S, Steps>::termSum(
          [&](const Term<Compute> &term) { return at(term.dy, term.dx); });
    }
  }
};

/// Launches the band of a pass of `levels` levels (1 .. kSteps), a
/// programmatic dependent of the fused kernel before it where `dependent`.
template <class S>
inline cudaError_t launchBandOf(int levels, const typename S::Element *in, typename S::Element *out,
                                int ny, int nx, cudaStream_t stream, bool dependent) {
  return withLevels<S::kSteps>(levels, [&](auto at) {
    return band::launchBand<BandOf<S, decltype(at)::value>, S::kBandTile>(in, out, ny, nx, stream,
                                                                          dependent);
  });
}

/// One pass of `levels` fused steps (1 .. kSteps), in -> out: the fused
/// kernel where the grid is wider than 2 W on both axes, then the band.
template <class S>
inline cudaError_t bandedPass(int levels, const typename S::Element *in, typename S::Element *out,
                              int ny, int nx, cudaStream_t stream) {
  const int w = levels * S::kRadius;
  const bool fused = ny > 2 * w && nx > 2 * w;
  if (fused) {
    if (const cudaError_t status =
            launchPass<S>(levels, in, out, ny, nx, OuterRange{0, ny}, stream);
        status != cudaSuccess) {
      return status;
    }
  }
  return launchBandOf<S>(levels, in, out, ny, nx, stream, fused);
}

/// NAME_pass: one banded pass of `steps` steps (1 .. kSteps), in -> out, in
/// never written. The caller has checked the pointers and sizes.
template <class S>
inline cudaError_t onePassBanded(const typename S::Element *in, typename S::Element *out, int ny,
                                 int nx, int steps, cudaStream_t stream) {
  if (steps < 1 || steps > S::kSteps) {
    return cudaErrorInvalidValue;
  }
  return bandedPass<S>(steps, in, out, ny, nx, stream);
}

/// NAME_run: runPasses of banded passes.
template <class S>
inline cudaError_t runBanded(typename S::Element *a, typename S::Element *b, int ny, int nx,
                             int steps, cudaStream_t stream) {
  return runPasses<S>(a, b, ny, nx, steps, stream,
                      [=](int levels, const typename S::Element *from, typename S::Element *to) {
                        return bandedPass<S>(levels, from, to, ny, nx, stream);
                      });
}

} // namespace fused

namespace fused1d {

/// The band traits (band.cuh) of fused 1D geometry S for a pass of Steps
/// levels: a point is computeLevel's, the terms' multiply-adds from 0 and
/// the scale.
template <class S, int Steps> struct BandOf : FusedBandTraits<S, Steps> {
  using Compute = typename S::Compute;
  using Stencil = typename S::Stencil;

  template <class At> static __device__ __forceinline__ Compute point(At at) {
    return FusedBandTraits<S, Steps>::termSum(
        [&](const Term<Compute> &term) { return at(term.dx); });
  }
};

/// Launches the band of a pass of `levels` levels (1 .. kSteps), a
/// programmatic dependent of the fused kernel before it where `dependent`.
template <class S>
inline cudaError_t launchBandOf(int levels, const typename S::Element *in, typename S::Element *out,
                                int nx, cudaStream_t stream, bool dependent) {
  return withLevels<S::kSteps>(levels, [&](auto at) {
    return band::launchLineBand<BandOf<S, decltype(at)::value>>(in, out, nx, stream, dependent);
  });
}

/// One pass of `levels` fused steps (1 .. kSteps), in -> out: the fused
/// kernel where the line is longer than 2 W, then the band.
template <class S>
inline cudaError_t bandedPass(int levels, const typename S::Element *in, typename S::Element *out,
                              int nx, cudaStream_t stream) {
  const bool fused = nx > 2 * levels * S::kRadius;
  if (fused) {
    if (const cudaError_t status = launchPass<S>(levels, in, out, nx, stream);
        status != cudaSuccess) {
      return status;
    }
  }
  return launchBandOf<S>(levels, in, out, nx, stream, fused);
}

/// NAME_pass: one banded pass of `steps` steps (1 .. kSteps), in -> out, in
/// never written. The caller has checked the pointers and sizes.
template <class S>
inline cudaError_t onePassBanded(const typename S::Element *in, typename S::Element *out, int nx,
                                 int steps, cudaStream_t stream) {
  if (steps < 1 || steps > S::kSteps) {
    return cudaErrorInvalidValue;
  }
  return bandedPass<S>(steps, in, out, nx, stream);
}

/// NAME_run: runPasses of banded passes.
template <class S>
inline cudaError_t runBanded(typename S::Element *a, typename S::Element *b, int nx, int steps,
                             cudaStream_t stream) {
  return runPasses<S>(a, b, nx, steps, stream,
                      [=](int levels, const typename S::Element *from, typename S::Element *to) {
                        return bandedPass<S>(levels, from, to, nx, stream);
                      });
}

} // namespace fused1d

namespace fused3d {

/// The band traits (band.cuh) of fused 3D geometry S for a pass of Steps
/// levels: a point is computePlane's, the terms' multiply-adds from 0 and
/// the scale, or computeFormPlane's in the 3D low-rank form, each form
/// term's multiply-add of a plane value (its taps over row passes and
/// values, as planeValuesOf), a row pass or a value.
template <class S, int Steps> struct BandOf : FusedBandTraits<S, Steps> {
  using Compute = typename S::Compute;
  using Stencil = typename S::Stencil;

  /// Row pass `pass` of plane dz at row dy.
  template <class At>
  static __device__ __forceinline__ Compute rowPassAt(At at, int pass, int dz, int dy) {
    return fused::rowPass<Stencil, Compute>(pass, [&](int dx) { return at(dz, dy, dx); });
  }

  /// Plane value `plane` of plane dz.
  template <class At>
  static __device__ __forceinline__ Compute planeValue(At at, int plane, int dz) {
    Compute v = Compute(0);
#pragma unroll
    for (int i = 0; i < FormOf<Stencil>::kPlaneTaps; ++i) {
      const PlaneTap<Compute> tap = Stencil::template planeTap<Compute>(i);
      if (tap.plane == plane) {
        const bool first = i == 0 || Stencil::template planeTap<Compute>(i - 1).plane != plane;
        const Compute x =
            tap.pass >= 0 ? rowPassAt(at, tap.pass, dz, tap.dy) : at(dz, tap.dy, tap.dx);
        v = fused::addTap(first, tap.c, x, v);
      }
    }
    return v;
  }

  template <class At> static __device__ __forceinline__ Compute point(At at) {
    if constexpr (FormOf<Stencil>::value) {
      Compute acc = Compute(0);
#pragma unroll
      for (int i = 0; i < FormOf<Stencil>::kFormTerms; ++i) {
        const FormTerm<Compute> term = Stencil::template formTerm<Compute>(i);
        const Compute x = term.plane >= 0  ? planeValue(at, term.plane, term.dz)
                          : term.pass >= 0 ? rowPassAt(at, term.pass, term.dz, term.row)
                                           : at(term.dz, term.row, term.dx);
        acc = madd(term.c, x, acc);
      }
      return acc;
    } else {
      return FusedBandTraits<S, Steps>::termSum(
          [&](const Term<Compute> &term) { return at(term.dz, term.dy, term.dx); });
    }
  }
};

/// S::kBandBytes, the band's shared memory as the compiler planned it
/// (its copy of band.cuh's count, Backends/Common/Band.h), or 0 where S has
/// none.
template <class S, class = void> struct PlannedBandBytes {
  static constexpr int value = 0;
};
template <class S> struct PlannedBandBytes<S, std::void_t<decltype(S::kBandBytes)>> {
  static constexpr int value = S::kBandBytes;
};

/// Launches the band of a pass of `levels` levels (1 .. kSteps), a
/// programmatic dependent of the fused kernel before it where `dependent`.
template <class S>
inline cudaError_t launchBandOf(int levels, const typename S::Element *in, typename S::Element *out,
                                int nz, int ny, int nx, cudaStream_t stream, bool dependent) {
  // The planner decided that the band fits the target by its own count.
  static_assert(
      PlannedBandBytes<S>::value == 0 ||
          PlannedBandBytes<S>::value ==
              band::volumeBandBytes(3 * S::kSteps * S::kRadius, sizeof(typename S::Compute)),
      "the compiler's count of the band's shared memory is band.cuh's");
  return withLevels<S::kSteps>(levels, [&](auto at) {
    return band::launchVolumeBand<BandOf<S, decltype(at)::value>>(in, out, nz, ny, nx, stream,
                                                                  dependent);
  });
}

/// One pass of `levels` fused steps (1 .. kSteps), in -> out: the fused
/// kernel where the grid is wider than 2 W on every axis, then the band.
template <class S>
inline cudaError_t bandedPass(int levels, const typename S::Element *in, typename S::Element *out,
                              int nz, int ny, int nx, cudaStream_t stream) {
  const int w = levels * S::kRadius;
  const bool fused = nz > 2 * w && ny > 2 * w && nx > 2 * w;
  if (fused) {
    if (const cudaError_t status =
            launchPass<S>(levels, in, out, nz, ny, nx, OuterRange{0, nz}, stream);
        status != cudaSuccess) {
      return status;
    }
  }
  return launchBandOf<S>(levels, in, out, nz, ny, nx, stream, fused);
}

/// NAME_pass: one banded pass of `steps` steps (1 .. kSteps), in -> out, in
/// never written. The caller has checked the pointers and sizes.
template <class S>
inline cudaError_t onePassBanded(const typename S::Element *in, typename S::Element *out, int nz,
                                 int ny, int nx, int steps, cudaStream_t stream) {
  if (steps < 1 || steps > S::kSteps) {
    return cudaErrorInvalidValue;
  }
  return bandedPass<S>(steps, in, out, nz, ny, nx, stream);
}

/// NAME_run: runPasses of banded passes.
template <class S>
inline cudaError_t runBanded(typename S::Element *a, typename S::Element *b, int nz, int ny, int nx,
                             int steps, cudaStream_t stream) {
  return runPasses<S>(a, b, nz, ny, nx, steps, stream,
                      [=](int levels, const typename S::Element *from, typename S::Element *to) {
                        return bandedPass<S>(levels, from, to, nz, ny, nx, stream);
                      });
}

} // namespace fused3d
} // namespace device
} // namespace stencilc
