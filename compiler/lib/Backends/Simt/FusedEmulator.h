//===- FusedEmulator.h - NAME_run's passes on the CPU, as the kernels run them -*- C++ -*-===//
//
// The CPU model of NAME_run for a plan of any schedule: passes of T fused
// steps (runtime/include/stencilc/device/fused.cuh, fused1d.cuh, fused3d.cuh) and one pass of the
// remainder, or, where T = 1, the step kernel once a step (SimtEmulator.h). A fused pass is
// modelled block by block: each block's strip of the plan's width (its halo included) and its rows
// with the rows each level lags, level 0 read with the boundary rule, every later level computed
// over the whole strip from the level before with the same FMAs in the same order as the step
// kernel, and only the block's stored part written. What a level computes from values the block
// does not hold is NaN, so a stored NaN shows a halo or lag too small for the steps fused.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Backends/Simt/SimtEmulator.h"
#include "stencilc/Plan.h"

namespace stencilc {

/// One fused pass of `levels` steps (1 <= levels <= schedule.fusedSteps) of
/// `plan`, `in` -> `out`, as the fused kernel of its dimension computes it.
/// `out` must start as a copy of `in` (NAME_run's ring copy in 2D): the
/// points a step does not write keep their value; under clamp, mirror and
/// reflect the band follows (fused_band.cuh). Needs:
/// plan.schedule.fusedSteps > 1 (a simt plan).
void emulateFusedPass(const Plan &plan, const GridND &in, GridND &out, int levels);

/// The fused kernel's blocks of a pass of a 1D or 3D plan (FusedEmulatorND.cpp;
/// a band, if any, is emulateFusedPass's).
void emulateFusedPassND(const Plan &plan, const GridND &in, GridND &out, int levels);

/// The fused kernel's blocks of a pass of a plan of any dimension, without
/// the band that follows them under clamp, mirror and reflect.
void emulateFusedKernel(const Plan &plan, const GridND &in, GridND &out, int levels);

/// A point of a 3D plan's level from the level below (`read(dz, dy, dx)`),
/// rounded to the element type: the fused kernel's arithmetic (the terms,
/// or the 3D low-rank form), which the band computes too.
double fusedPoint3D(const Plan &plan, llvm::function_ref<double(int, int, int)> read);

/// Whether a single step computes the point at `i` of an axis of `n` points
/// (fused.cuh's Computes): the interior for fixed, the grid for constant,
/// every point (the periodic extension) for periodic.
bool fusedStepComputes(const StencilSpec &spec, long long i, long long n);

/// Level 0 of a fused pass of `levels` levels at index `i` of `in`: the
/// boundary rule's read, but 0 outside the grid in a pass of two or more
/// under clamp, mirror or reflect (fused.cuh's ReadsOutside; the band
/// recomputes every point that reaches).
double fusedLevelZero(const StencilSpec &spec, const GridND &in, std::array<long long, 3> i,
                      int levels);

/// `steps` steps of the simt `plan` on `a` as NAME_run does them, the result
/// in `a`: passes of schedule.fusedSteps fused steps and one of the
/// remainder, or one step kernel a step where the plan fuses none.
void emulateRun(const Plan &plan, GridND &a, int steps);

} // namespace stencilc
