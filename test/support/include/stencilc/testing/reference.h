// reference.h - the float64 CPU reference: applies any stencil described by
// a stencilc_stencil_info, with the boundary semantics of docs/generated-code.md.
//
//  - fixed:      writes only the interior (n - 2r points per axis); the ring
//                of `out` is left as it was.
//  - constant V: writes every point; a read outside the grid gives V.
//  - periodic:   writes every point; reads wrap around each axis.
//  - clamp:      writes every point; a read outside gives the nearest edge
//                point.
//  - mirror:     writes every point; a read outside reflects about the edge,
//                the edge point repeated (stencilc/runtime/boundary_index.h).
//
// Coefficients are used as the info gives them (double). Work is spread over
// the host's cores.
#pragma once

#include <vector>

#include "stencilc/runtime/stencil_info.h"
#include "stencilc/testing/extents.h"

namespace stencilc {

/// One step: out = stencil(in). Both hold e.points() values.
void referenceStep(const stencilc_stencil_info &info, const Extents &e, const double *in,
                   double *out);

/// `steps` steps starting from `a`; the result is left in `a` (`b` is
/// scratch). With a fixed boundary the ring of `a` is kept.
void referenceRun(const stencilc_stencil_info &info, const Extents &e, std::vector<double> &a,
                  int steps);

/// The magnitude of referenceStep's result from `in`: the step with every
/// weight and the constant boundary's value made non-negative, on |in|. A
/// step's rounding error scales with it, not with the result, which may
/// cancel to near 0 (a Laplacian's centre against its neighbours); a run's
/// errors, each a step's, with that of its last step (not with |weights|
/// iterated, which grows without bound where the stencil does not).
/// Empty where nothing is negative: the magnitude is then the result.
std::vector<double> magnitudeStep(const stencilc_stencil_info &info, const Extents &e,
                                  const std::vector<double> &in);

/// The most one step multiplies an error by, in L2: the largest |sum of
/// w_k e^(i theta . d_k)| of the weights over the frequencies theta of a
/// periodic grid's axes up to 32 points (there the exact eigenvalues of the
/// step), else over 32 of them an axis (a lower bound of the sup, so never
/// looser than the sup).
double stepGain(const stencilc_stencil_info &info, const Extents &e);

/// What a run's error scales with where its values cancel: every step's
/// magnitude (magnitudeStep, or its result where nothing is negative),
/// each carried to the last step by `carry` a step,
/// sum over k of carry^(steps - k) M_k, from `a` (taken by value).
std::vector<double> carriedMagnitude(const stencilc_stencil_info &info, const Extents &e,
                                     std::vector<double> a, int steps, double carry);

/// The carry of carriedMagnitude for a kernel whose steps are each within
/// `tolerance` of the exact step, relative to its magnitude: a step's error
/// is at most the tolerance times its magnitude, and the steps after it
/// carry that error by at most stepGain plus the kernel's own rounding of
/// the weights, stepGain + tolerance x the sum of |w_k|.
double errorCarry(const stencilc_stencil_info &info, const Extents &e, double tolerance);

} // namespace stencilc
