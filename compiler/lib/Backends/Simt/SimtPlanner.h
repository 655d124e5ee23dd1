//===- SimtPlanner.h - The CUDA-core plan -----------------------*- C++ -*-===//
//
// planSimt() plans the CUDA-core (simt) kernel of any stencil the language
// accepts. The choice between the backends (`--backend=auto`) is
// Backends/Common/BackendChoice.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stencilc/Plan.h"
#include "stencilc/PlanOptions.h"
#include "stencilc/Spec.h"

namespace llvm {
class raw_ostream;
}

namespace stencilc {

class Rational;

/// Plans the simt kernel of `spec`. Needs: nothing (every spec the front end
/// accepts). Guarantees: tileX is a multiple of vectorWidth and outputsX,
/// haloX a multiple of vectorWidth and >= radiusX, sharedBytes() within the
/// limit, and every (dz, dy, dx) with a non-zero coefficient in exactly one
/// slice term.
Plan planSimt(const StencilSpec &spec, const PlanOptions &options = {});

/// Fills the quantities of a plane window that follow from a CUDA-core
/// plan's free parameters (tile, radii, vector width, outputs along x,
/// threads): haloX, planeRows, pitch, planeBytes, itemsPerThread and
/// groupsPerThread. The single-field planner and the plane kernel of a
/// stencil of fields both take it.
void deriveGeometry(const StencilSpec &spec, SimtPlan &sp);

/// Plans a stencil of fields (spec.hasFields()): a thread a chunk of outputs
/// along the outermost axis on CUDA cores, or in 3D the plane kernel where
/// one field is read off the point, one step a launch (FieldsPlanner.cpp);
/// --plan-option tile-x, tile-y and chunk-z set the block and the chunk
/// (and stages the plane kernel's planes in flight). Needs: spec.hasFields(). Guarantees:
/// fusedSteps 1, lowered when options asked for more; refused only for a block or chunk those
/// options ask for that the kernel cannot take.
PlanOrRefusal planFields(const StencilSpec &spec, const PlanOptions &options = {});
/// Whether planFields takes the --plan-option `name` for `spec` (fuse,
/// threads, tile-x; tile-y and chunk-z but in 1D; stages where the plane
/// kernel takes it); the driver warns of the others.
bool fieldsPlanTakesOption(const StencilSpec &spec, std::string_view name);
/// Which --plan-options the CUDA-core kernel of a stencil of fields takes,
/// as a sentence for a warning.
std::string fieldsPlanOptionsText(const StencilSpec &spec);

/// Plans the schedule of a stencil of fields' plan (FieldsFusion.cpp): T
/// fused steps a pass of stencilc/device/fields_fused.cuh where the stencil
/// is 2D, its boundary fuses and the previous level is read at the point
/// only; else one step a launch and why.
void planFieldsFusion(Plan &plan, const PlanOptions &options);
/// The farthest read of the stepped field along any axis.
int steppedReach(const StencilSpec &spec);
/// Bytes a point and step moves one step a launch, and fused `steps` a pass.
int unfusedBytes(const StencilSpec &spec);
double fusedBytes(const StencilSpec &spec, int steps);
/// The fused kernel's lines of a stencil of fields' plan.
void printFieldsFused(const Plan &plan, llvm::raw_ostream &os);

/// `x` rounded to a double and then to `compute`, where its parts fit 64
/// bits (SimtLowRank.cpp).
std::optional<double> roundedToCompute(const Rational &x, Precision compute);

/// Whether the CUDA-core kernels of `spec` evaluate it in the low-rank form
/// (SimtLowRank.cpp; 2D: row passes along x and multiply-adds along y; 3D:
/// the unfolding along z, its planes as such passes or directly): for a 2D
/// or 3D stencil of one field whose exact decomposition takes fewer
/// operations a point, unless
/// `request` is Off, or is Auto and the terms cancel enough to lose
/// accuracy. The coefficients are rounded to `compute`. Guarantees: a form
/// only where its ops() are fewer than spec.points(); `why` always set.
LowRankChoice planLowRank(const StencilSpec &spec, Precision compute, LowRankRequest request);

/// Whether `form` (none: the direct form) of `spec` has the paired order's
/// shape (pairedRuns) on a grid that does not wrap: the order pairs an even
/// index of the unwrapped grid with the next, which a periodic strip's halo
/// would pair otherwise than the points it copies.
bool pairedShape(const StencilSpec &spec, const LowRankForm *form);

/// The magnitude a scaled coefficient's integer stays below: 2^21, the
/// integers an fp64 FMA immediate (a double's high 32 bits) holds exactly.
constexpr long long ScaledNumeratorLimit = 1LL << 21;

/// Whether `sp` (its form, unrolled and lowRank set) of the fp64 stencil
/// `spec` takes its coefficients as integers times one factor 1/D
/// (SimtScale.cpp; ScaledCoefficients): a stencil of one field in the
/// direct form, straight-line FMAs, some coefficient not already an FMA
/// immediate, and a denominator D of them all, not a power of two, with
/// every numerator below ScaledNumeratorLimit; never where `request` is
/// Off. Guarantees: `why` set for fp64 (empty otherwise, and never on).
ScaledCoefficients planScaled(const StencilSpec &spec, const SimtPlan &sp, ScaleRequest request);

/// `coefficient` times `denominator` as an exact integer below
/// ScaledNumeratorLimit in magnitude (the coefficient read as the simplest
/// rational rounding to it), or none.
std::optional<double> scaledInteger(double coefficient, long long denominator);

/// Replaces each slice term's coefficient by its integer over
/// sp.scaled.denominator. Needs: sp.scaled.on(), from planScaled.
void scaleSlices(SimtPlan &sp);

/// Under lowrank=auto, keeps a 3D stencil's direct form where fuse=T asks
/// for fused passes that the form's were not measured faster for (all but
/// radius 1 in fp64 and fp32), or where a radius-1 form in fp32 arithmetic
/// cannot fuse (16 bits, clamp, mirror): one step of it measured
/// slower than the direct form (SimtFusion.cpp). Elsewhere the form is
/// taken, fused two steps a pass at radius 1 in fp64 and fp32 (and tf32,
/// fp32 arithmetic on CUDA cores). Sets
/// `choice`'s reason and fellBack where it keeps the direct form.
void keepMeasured3D(const StencilSpec &spec, const PlanOptions &options, LowRankChoice &choice);

/// Plans `plan`'s schedule (SimtFusion.cpp): the steps NAME_run fuses per
/// pass (--plan-option fuse, else the planner's choice) and the fused
/// kernel's geometry, lowering T until a pass of the 1D or 3D kernel fits
/// the target's shared memory. Needs: a simt plan of plan.spec. Guarantees:
/// fusedSteps >= 1; fusedSteps > 1 only for a boundary the fused kernels
/// take (fixed, constant, periodic), with fused.sharedBytes within the
/// target's opt-in limit.
void planSimtFusion(Plan &plan, const PlanOptions &options);

/// The promises of planSimt, planFields and planSimtFusion that `plan` (a
/// simt plan, planned with `options`) breaks, appended to `problems`
/// (verifyPlan; SimtVerify.cpp).
void verifySimtPlan(const Plan &plan, const PlanOptions &options,
                    std::vector<std::string> &problems);

} // namespace stencilc
