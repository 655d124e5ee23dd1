// compare.h - checking a GPU result against the float64 reference.
//
// The error figure is the relative L2 error over the points the step writes
// (||out - ref|| / ||ref||, or over the reference's magnitude where its
// weights or inputs have both signs: reference.h, magnitudeStep).
// Independently of it, a changed ring point (fixed boundary), an output
// point left unwritten, or a non-finite value where the reference is
// finite, fails the comparison.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "stencilc/runtime/element.h"
#include "stencilc/testing/extents.h"

namespace stencilc {

struct Comparison {
  double relativeL2 = 0;  ///< over the written points
  double maxAbsError = 0; ///< over the written points
  std::size_t compared = 0;
  std::size_t unwritten = 0;   ///< written points still holding their poison
  std::size_t nonFinite = 0;   ///< NaN/Inf results where the reference is finite
  std::size_t ringChanged = 0; ///< fixed ring points whose bits changed
  std::size_t firstBad = static_cast<std::size_t>(-1); ///< linear index of the first bad point
  bool ofMagnitude = false; ///< relativeL2 is over the reference's magnitude

  bool passes(double tol) const {
    return unwritten == 0 && nonFinite == 0 && ringChanged == 0 && relativeL2 <= tol;
  }
  /// "relL2=1.2e-04 max=3.1e-04" plus the counts that are not zero.
  std::string summary() const;
};

/// Compares `result` (what the GPU left) with `reference`.
///  - `ringBefore`: when the boundary is fixed, the bits each ring point
///    must still have (the poisoned output for a step, the initial `a` for a
///    run); may be null otherwise.
///  - `poison`: the bits the written points had before the call, to detect
///    unwritten points; null to skip that check.
///  - `magnitude`: where given and not empty (reference.h, magnitudeStep),
///    the relative error's denominator in place of the reference.
template <class T>
Comparison compareWithReference(const stencilc_stencil_info &info, const Extents &e,
                                const std::vector<T> &result, const std::vector<double> &reference,
                                const std::vector<T> *ringBefore, const std::vector<T> *poison,
                                const std::vector<double> *magnitude = nullptr);

/// Whether some value of `reference` lies past T's largest finite value
/// (or is not finite), or every value is below T's smallest normal one and
/// some is not 0: no T result can then be compared with it. A stencil whose
/// weights' spectral radius exceeds 1 leaves T's range after enough steps
/// (EBISU's 3d7pt, radius 2.65, after 100 steps in fp32), and one whose
/// weights sum well below 1 on a periodic grid decays out of it (EBISU's
/// 3d27pt, 0.155 a step).
template <class T> bool pastRange(const std::vector<double> &reference);

/// True when linear index i of the 3D view lies in the fixed ring.
bool inRing(const stencilc_stencil_info &info, const Extents &e, std::size_t i);

} // namespace stencilc
