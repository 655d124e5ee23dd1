//===- SimtEmulator.h - Runs a simt Plan on the CPU as the kernel would -*- C++ -*-===//
//
// The CPU model of the simt kernel (stencilc/device/simt.cuh, with the FMAs
// of Simt/templates/simt.cu.tpl): block by block, plane by plane, the
// same plane window (with the boundary rule), the same queue of partial
// outputs and the same FMAs in the same order in the same arithmetic type
// (fp32 for fp32/tf32/fp16/bf16, fp64 for fp64), the same points stored.
// With explicit FMAs in the kernel this is bit for bit what the GPU computes.
// The unit tests compare it with a float64 stencil of any dimension.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Backends/Common/Emulation.h"
#include "stencilc/Plan.h"
#include "stencilc/Spec.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <vector>

namespace stencilc {

/// Intermediate `pass` of a low-rank form on one row, as the kernels
/// compute it: the first tap a product, then multiply-adds, rounded to
/// `compute`; read(dx) is the row's value at column offset dx.
double lowRankRowPass(const LowRankForm &form, int pass, Precision compute,
                      llvm::function_ref<double(int)> read);

/// One output of a low-rank form, from 0, its terms' multiply-adds in
/// order: pass(dy, k) is intermediate k of row offset dy, input(dy, dx) the
/// input at that offset.
double lowRankPoint(const LowRankForm &form, Precision compute,
                    llvm::function_ref<double(int, int)> pass,
                    llvm::function_ref<double(int, int)> input);

/// The form's runs where it has the shape of the paired order (one row
/// pass of weight-1 taps on consecutive columns, one coefficient on
/// consecutive rows of it, in that order, and maybe terms at the point on
/// those rows), else none.
std::optional<PairedRuns> pairedRuns(const LowRankForm &form);

/// Calls block(d, pair) for the paired order's blocks of the offsets
/// [lo, hi] around index `at` of the grid, left to right: (d, d + 1) where
/// at + d is even and d < hi (pair), else d alone. The emulator and the
/// emitter's code both walk them so.
void forPairedBlocks(long long at, int lo, int hi, llvm::function_ref<void(int, bool)> block);

/// One output of a 2D low-rank form in the paired order at row y, column x
/// of the grid, before its rounding to the element type, as both kernels
/// compute it: read(dy, dx) is the level below at that offset.
double pairedPoint(const PairedRuns &runs, Precision compute, long long y, long long x,
                   llvm::function_ref<double(int, int)> read);

/// The row pass of the paired order at column x: its columns in blocks,
/// each block's sum and every sum of blocks rounded to `compute`.
double pairedRowPass(const PairedRuns &runs, Precision compute, long long x,
                     llvm::function_ref<double(int)> read);

/// The plane values of a 3D low-rank form at one point of a plane, as the
/// kernels compute them: each from 0, its first tap a product, then
/// multiply-adds in the order of planeTaps, rounded to `compute`;
/// source(pass, dy, dx) is row pass `pass` at row offset dy (pass >= 0) or
/// the plane's value at (dy, dx).
std::vector<double> lowRankPlaneValues(const LowRankForm &form, Precision compute,
                                       llvm::function_ref<double(int, int, int)> source);

/// One output of a 3D low-rank form before its rounding to the element
/// type, as the step kernel and the fused 3D passes compute it: from 0, its
/// terms' multiply-adds in order, each plane value, row pass and input of
/// plane offset dz computed from read(dz, dy, dx), the grid below at that
/// offset.
double lowRank3DPoint(const LowRankForm &form, Precision compute,
                      llvm::function_ref<double(int, int, int)> read);

/// c * v + acc as the kernels of `plan` add a term: one FMA rounded to the
/// element type where the plan is packed (arith=packed), else to the
/// arithmetic type.
double termMultiplyAdd(const Plan &plan, double c, double v, double acc);

/// A finished sum of the slices' terms as the kernels take it for the
/// point's value: times the factor of scaled coefficients (one fp64
/// multiply, rounded once), else as it is.
double scaledSum(const SimtPlan &sp, double sum);

/// One step of the simt `plan` (backend Simt) on `in` (element-type values)
/// into `out`, as the generated kernel computes it. Unwritten points keep
/// their value.
void emulateSimtStep(const Plan &plan, const GridND &in, GridND &out);

} // namespace stencilc
