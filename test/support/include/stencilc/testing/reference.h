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

/// The magnitude of referenceRun's result from `a`: the same steps with
/// every weight and the constant boundary's value made non-negative, from
/// |a|. Each point's rounding error scales with it, not with the result,
/// which may cancel to near 0 (a Laplacian's centre against its
/// neighbours). Empty where nothing is negative: the magnitude is then the
/// result itself.
std::vector<double> magnitudeRun(const stencilc_stencil_info &info, const Extents &e,
                                 const std::vector<double> &a, int steps);

} // namespace stencilc
