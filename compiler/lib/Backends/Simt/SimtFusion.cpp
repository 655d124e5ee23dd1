//===- SimtFusion.cpp - How many steps NAME_run fuses on CUDA cores ---------===//
//
// Plans the schedule of a simt plan (Plan.h's Schedule): T, the steps a pass
// of NAME_run fuses, and the geometry of the fused kernel
// (runtime/include/stencilc/device/fused.cuh; fused1d.cuh and fused3d.cuh
// through SimtFusionND.cpp). The fused kernels take the fixed, constant and
// periodic boundaries in 1D, 2D and 3D; clamp, mirror and reflect fuse in
// 1D and 2D with a band after each pass (fused_band.cuh) and keep one launch
// a step in 3D.
//
//===----------------------------------------------------------------------===//
#include "Backends/Simt/SimtFusion.h"
#include "Backends/Common/Band.h"
#include "Backends/Simt/SimtPlanner.h"

#include <algorithm>
#include <optional>
#include <span>

#include <fmt/format.h>

namespace stencilc {

namespace {

/// `m`, served to periodic grids only (measuredKind).
constexpr MeasuredFusion periodicOnly(MeasuredFusion m) {
  m.periodic = true;
  return m;
}

/// The 3D low-rank box of radius 1 in fp32 as measured on an H200 (the
/// table's comment at its entries): a periodic grid's plan, and that of
/// forms other than the box's, ahead of and after the H100's window.
// clang-format off
constexpr MeasuredFusion LowRankBox3DFp32H200 = {
    .dims = 3, .shape = Shape::Box, .radius = 1, .elementBytes = 4, .steps = 2, .width = 64,
    .height = 64, .threads = 512, .batch = 1, .chunk = 64, .rows = 4, .minBlocks = 1,
    .gstencils = 630.4, .stepGStencils = 292.9, .device = "an H200", .lowRank = true};

/// `m` with a __syncthreads a plane and whole rings: a periodic grid's
/// plan where the split barrier measured slower there (its passes compute
/// every plane and load wrapped).
constexpr MeasuredFusion syncWhole(MeasuredFusion m) {
  m.splitBarrier = false;
  m.ringRotate = false;
  return m;
}

/// `m`'s geometry as `device` measured it, at `gstencils` fused against
/// `stepGStencils` one step a launch, with a __syncthreads a plane and
/// whole rings.
constexpr MeasuredFusion measuredBefore(MeasuredFusion m, const char *device, double gstencils,
                                        double stepGStencils) {
  m = syncWhole(m);
  m.device = device;
  m.gstencils = gstencils;
  m.stepGStencils = stepGStencils;
  return m;
}

/// The 3D star of radius 2 in fp32, in fp64 (and that geometry as an H200
/// measured it before the split barrier and the rotating ring, one step a
/// launch faster: a periodic grid's plan), in 16 bits (its figure fp16's),
/// and the 3D low-rank box of radius 1 in fp64 (the table's comments at
/// their entries).
constexpr MeasuredFusion Star3DRadius2Fp32 = {
    .dims = 3, .shape = Shape::Star, .radius = 2, .elementBytes = 4, .steps = 2, .width = 64,
    .height = 32, .threads = 512, .batch = 1, .chunk = 64, .rows = 2, .minBlocks = 1,
    .gstencils = 400.7, .stepGStencils = 326.6, .device = "an H200", .stagedPlanes = 3,
    .splitBarrier = true, .ringRotate = true};
constexpr MeasuredFusion Star3DRadius2Fp64 = {
    .dims = 3, .shape = Shape::Star, .radius = 2, .elementBytes = 8, .steps = 2, .width = 32,
    .height = 64, .threads = 512, .batch = 1, .chunk = 64, .rows = 4, .minBlocks = 1,
    .gstencils = 180.5, .stepGStencils = 151.1, .splitBarrier = true, .ringRotate = true};
constexpr MeasuredFusion Star3DRadius2Fp64H200 =
    measuredBefore(Star3DRadius2Fp64, "an H200", 120.5, 173.7);
constexpr MeasuredFusion Star3DRadius2Bits16 = {
    .dims = 3, .shape = Shape::Star, .radius = 2, .elementBytes = 2, .steps = 2, .width = 64,
    .height = 32, .threads = 512, .batch = 1, .chunk = 128, .rows = 2, .minBlocks = 2,
    .gstencils = 419.6, .stepGStencils = 377.8, .device = "an H200", .splitBarrier = true};
constexpr MeasuredFusion LowRankBox3DFp64 = {
    .dims = 3, .shape = Shape::Box, .radius = 1, .elementBytes = 8, .steps = 2, .width = 32,
    .height = 64, .threads = 512, .batch = 1, .chunk = 96, .rows = 4, .minBlocks = 1,
    .gstencils = 295.7, .stepGStencils = 186.3, .device = "an H200", .lowRank = true,
    .splitBarrier = true};
// clang-format on

/// The best geometries measured (on an H100 where the entry names no other
/// device), 100 steps of NAME_run: 2D at
/// 8192^2 (bench/results/2026-11-24-2203-fused2d-bench-h100.txt); 1D at
/// 2^27 points and 3D at 512^3 (2026-11-24-2145-fused1d3d-bench-h100.txt),
/// beside the step kernel's one-step figure of the suite run
/// (2026-11-22-1508-bench-h100.txt), which NAME_run launches once a step.
/// Fields: dims, shape, radius, element bytes, T, width, height, threads,
/// batch, chunk, rows, minBlocks, fused GStencil/s, step GStencil/s, and
/// where not an H100 the device; sidesAtEntry last.
///
/// Since stars share their rows' side columns where they are read
/// (fused.cuh, SidesOf), radius 2 and 3 were measured again on an H200
/// (gpu-test-device-fused --bench, 2026-11-29 09:51,
/// bench/results/2026-11-29-0951-fused-stars-h200.txt): radius 2 takes 4
/// rows a level (fp64 551.6 against 502.3 with 6, fp32 1038.1 against
/// 939.0 with 2), radius 3 has entries of its own. Radius 1 in 16 bits
/// measured faster sharing at entry (the generated star2d5p_fp16's NAME_run
/// 1937.6 against 1885.1, bit for bit the same), so it keeps that.
// clang-format off
constexpr MeasuredFusion Measured[] = {
    {.dims = 2, .shape = Shape::Star, .radius = 1, .elementBytes = 8, .steps = 8, .width = 64,
     .threads = 128, .batch = 4, .chunk = 96, .minBlocks = 3, .gstencils = 934},
    {.dims = 2, .shape = Shape::Star, .radius = 1, .elementBytes = 4, .steps = 8, .width = 128,
     .threads = 128, .batch = 4, .chunk = 64, .minBlocks = 2, .gstencils = 1888},
    {.dims = 2, .shape = Shape::Star, .radius = 1, .elementBytes = 2, .steps = 8, .width = 128,
     .threads = 128, .batch = 4, .chunk = 64, .minBlocks = 3, .gstencils = 1816,
     .sidesAtEntry = true},
    {.dims = 2, .shape = Shape::Box, .radius = 1, .elementBytes = 8, .steps = 6, .width = 64,
     .threads = 128, .batch = 4, .chunk = 128, .minBlocks = 3, .gstencils = 678},
    {.dims = 2, .shape = Shape::Box, .radius = 1, .elementBytes = 4, .steps = 8, .width = 128,
     .threads = 64, .batch = 2, .chunk = 96, .minBlocks = 6, .gstencils = 1380},
    {.dims = 2, .shape = Shape::Box, .radius = 1, .elementBytes = 2, .steps = 8, .width = 128,
     .threads = 128, .batch = 3, .chunk = 96, .minBlocks = 3, .gstencils = 1355},
    {.dims = 2, .shape = Shape::Star, .radius = 2, .elementBytes = 8, .steps = 4, .width = 64,
     .threads = 128, .batch = 4, .chunk = 128, .minBlocks = 2, .gstencils = 551.6,
     .device = "an H200"},
    {.dims = 2, .shape = Shape::Star, .radius = 2, .elementBytes = 4, .steps = 6, .width = 128,
     .threads = 128, .batch = 4, .chunk = 128, .minBlocks = 2, .gstencils = 1038.1,
     .device = "an H200"},
    {.dims = 2, .shape = Shape::Star, .radius = 2, .elementBytes = 2, .steps = 4, .width = 128,
     .threads = 128, .batch = 4, .chunk = 96, .minBlocks = 3, .gstencils = 1115},
    {.dims = 2, .shape = Shape::Box, .radius = 2, .elementBytes = 2, .steps = 2, .width = 128,
     .threads = 128, .batch = 4, .chunk = 128, .minBlocks = 3, .gstencils = 574},
    // The boxes of radius 2 in fp64 and fp32 and of radius 3 in fp64 in
    // fused.cuh's queued form (bench/lowrank/sweep2d.cu on EBISU's 2d25pt
    // and 2d49pt, 2026-11-29 15:35 and 15:38, ...-1535-fused-queued-sweep-
    // h200.txt and ...-1538-fused-queued-sweep2-h200.txt): 281.5 against the
    // window's 260.0 at its best geometry (T 3), 561.8 against 504.1 (T 4),
    // and radius 3 fp64 fuses, 166.1 at T 2 against 138.8 one step (the
    // window's T 2 spilled: 71.4). Radius 1 boxes, stars, radius 3 in fp32
    // (307.9 against 313.4 unfused; but see below) measured slower queued.
    // Radius 2 in fp32 in blocks of 48 rows since 2026-11-30 23:37: 601.9
    // against 594.1-595.7 in 64 (56 599.1, 72 and more slower; the fp64
    // kinds' 64 within 1 % of the others;
    // bench/results/2026-11-30-2313-2d-queued-strips-and-chunks-h200.txt).
    {.dims = 2, .shape = Shape::Box, .radius = 2, .elementBytes = 8, .steps = 3, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 1, .gstencils = 281.5,
     .device = "an H200", .queued = true},
    {.dims = 2, .shape = Shape::Box, .radius = 2, .elementBytes = 4, .steps = 3, .width = 128,
     .threads = 128, .batch = 2, .chunk = 48, .minBlocks = 2, .gstencils = 601.9,
     .device = "an H200", .queued = true},
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 8, .steps = 2, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 1, .gstencils = 166.1,
     .device = "an H200", .queued = true},
    // The same boxes in fp64 with scaled coefficients (2026-11-29 23:55,
    // bench/results/2026-11-29-2355-scaled-fused-geometry-h200.txt): the
    // immediates leave room for 3 blocks a multiprocessor, 2d25pt 345.1
    // against 320.5 at 1 (T 3), 2d49pt 193.2 against 188.8 (T 2); every
    // other scaled fp64 kind measured best at its unscaled geometry. On an
    // H100, the board, 2d25pt runs 1.01 x as fast with an L2
    // prefetch 2 rows ahead (2026-12-06 about 13:50, bench/results/2026-12-
    // 06-1350-ebisu2d49pt-fp64-l2-prefetch-h100.txt: 355.0-355.4 against
    // 351.3-352.6; the target there is 351), and as generated 356.0-357.4
    // against 352.6-354.8 (2026-12-06 about 16:40, bench/results/2026-12-
    // 06-1640-ebisu2d25pt-fp64-l2-prefetch-h100.txt). On an H200 it ran
    // within 0.4 % with it (366.7-367.9 against 367.7-368.6, 2026-12-01
    // 04:29-04:52), its target met there either way.
    {.dims = 2, .shape = Shape::Box, .radius = 2, .elementBytes = 8, .steps = 3, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 3, .gstencils = 356.0, .queued = true,
     .scaled = true, .prefetchRows = 2},
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 8, .steps = 2, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 3, .gstencils = 193.2,
     .device = "an H200", .queued = true, .scaled = true},
    {.dims = 2, .shape = Shape::Star, .radius = 3, .elementBytes = 8, .steps = 3, .width = 128,
     .threads = 128, .batch = 2, .chunk = 128, .minBlocks = 2, .gstencils = 377.7,
     .device = "an H200"},
    {.dims = 2, .shape = Shape::Star, .radius = 3, .elementBytes = 4, .steps = 4, .width = 128,
     .threads = 128, .batch = 4, .chunk = 128, .minBlocks = 2, .gstencils = 707.0,
     .device = "an H200"},
    {.dims = 2, .shape = Shape::Star, .radius = 3, .elementBytes = 2, .steps = 2, .width = 128,
     .threads = 128, .batch = 4, .chunk = 128, .minBlocks = 2, .gstencils = 720.8,
     .device = "an H200"},
    // Radius 3 boxes in 16 bits measured fastest unfused (T = 1). In fp32
    // too, until the queued form's levels joined where read (fused.cuh,
    // queuedPrologue): since then EBISU's 2d49pt fp32 runs 327.5 queued at
    // T 2 against 313.5 one step in the same run (2026-11-30 02:19), 348.3
    // since the warp's decisions are votes (02:40;
    // bench/results/2026-11-30-0219-fused-votes-h200.txt), 352.3 in blocks
    // of 56 rows (348.0-349.0 in 64, 23:16; 48 and 72 351.2 and 351.0, 80
    // and more slower;
    // bench/results/2026-11-30-2313-2d-queued-strips-and-chunks-h200.txt).
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 4, .steps = 2, .width = 128,
     .threads = 128, .batch = 2, .chunk = 56, .minBlocks = 1, .gstencils = 352.3,
     .device = "an H200", .queued = true},
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 2, .steps = 1, .width = 128,
     .threads = 128, .batch = 4, .chunk = 128, .minBlocks = 1, .gstencils = 308},
    // 1D: T 8 (up to 16 measured 0-5 % faster for fp32 and fp16, but
    // --plan-option fuse stops at 8). Segments of 4096 points.
    {.dims = 1, .shape = Shape::Star, .radius = 1, .elementBytes = 8, .steps = 8, .width = 4096,
     .threads = 512, .minBlocks = 1, .gstencils = 861.5, .stepGStencils = 166.5},
    {.dims = 1, .shape = Shape::Star, .radius = 1, .elementBytes = 4, .steps = 8, .width = 4096,
     .threads = 512, .minBlocks = 1, .gstencils = 1511.6, .stepGStencils = 329.6},
    {.dims = 1, .shape = Shape::Star, .radius = 1, .elementBytes = 2, .steps = 8, .width = 4096,
     .threads = 512, .minBlocks = 1, .gstencils = 1197.7, .stepGStencils = 611.8},
    {.dims = 1, .shape = Shape::Star, .radius = 2, .elementBytes = 8, .steps = 8, .width = 4096,
     .threads = 512, .minBlocks = 1, .gstencils = 615.2, .stepGStencils = 166.8},
    {.dims = 1, .shape = Shape::Star, .radius = 2, .elementBytes = 4, .steps = 8, .width = 4096,
     .threads = 512, .minBlocks = 1, .gstencils = 1205.8, .stepGStencils = 327.3},
    // 3D: the thread-resident kernel's best (fused3d.cuh's benchmark,
    // 2026-11-25): stars and the fp64 box fuse; the fp32 and 16-bit boxes
    // keep one launch a step (their geometry serves --plan-option fuse).
    // The stars' chunks from a sweep on an H200 (bench/lowrank3d/ab.sh,
    // 2026-11-30 14:09-14:12, since fused3d.cuh cuts chunks at the grid's
    // ends and 16-bit loads skip the planes' test;
    // bench/results/2026-11-30-1409-3d-chunks-16bit-loads-h200.txt): 96
    // planes a block, against 64 in fp64 (426.8 against 415.6, sustained
    // under the power cap) and 128 in fp32 (805.6 against 793.8) and 16 bits
    // (fp16 642.2 against 622.0, bf16 618.5 against 599.3); beside them the
    // step kernel's NAME_run as generated (fp64 216.2, fp32 399.1, fp16
    // 562.3; bf16 584.2 against its 618.6 fused). 16 bits since asking
    // __launch_bounds__ for 2 blocks a multiprocessor (90 registers a
    // thread at T 4 left one; 2026-11-30 17:28-17:32,
    // bench/results/2026-11-30-1728-3d-star-min-blocks-h200.txt): T 2 at 2
    // blocks, fp16 671.4-672.1 and bf16 654.7-654.9 against the old plan's
    // 642.0-642.1 and 617.8-618.4; T 3 at 2 blocks ran fp16 683.0-685.5
    // but bf16 631.3-633.2, and the entry serves both. 2 blocks slowed fp32
    // (T 5: 312.8 against 803.4-804.1; T 3 749.2-750.7). A periodic grid
    // (every plane computed, loads wrapped) wants deeper passes: T 4 in
    // chunks of 64 at 2 blocks, fp16 453.5 and bf16 371.6-372.1, against
    // T 2's 324.8-325.3 and 313.1-313.6 and the old plan's 373.7-373.8 and
    // 360.3 (17:51, the same file); the step kernel as generated 180.4
    // (fp16, 17:40). fp32 and fp64 measured best at their one entry there
    // too (18:39: 461.2 at T 5, 271.4 at T 3). Since the edge blocks skip
    // the planes' tests and fill rows outside the grid (2026-11-30 21:37,
    // bench/results/2026-11-30-1951-3d-edge-blocks-h200.txt) 16 bits run
    // fastest at T 3: fp16 847.1-847.5 and bf16 779.7-780.1 against T 2's
    // 815.2-815.6 and 733.9-734.5 (T 4: 831.2, 748.3), and fp32 952.6 at
    // its T 5 (20:55; T 4 and 6 slower, chunks of 128 within 1 % at 22:49:
    // bench/results/2026-11-30-2245-3d-geometries-resweep-h200.txt).
    // The split barrier (FusedKernel::splitBarrier) since 2026-12-07, on
    // an H100 (bench/variants/fused3d-split-barrier.list and
    // ...-breadth.list, bench/results/2026-12-07-0605-fused3d-split-
    // barrier-checked-h100.txt and ...-0634-...-breadth-h100.txt), in this
    // entry and those that say so below: star3d7p 400.6-400.7 against
    // 390.2, EBISU's 3d7pt 398.7-399.0 against 390.2-390.4, clamp
    // 335.8-336.1 against 317.9-318.0, periodic 261.3-261.7 against
    // 255.9-256.1; at T 4 313.6-315.4 against 290.5-290.9 (T 3 stays).
    // fp64 in windows of 32 rows x 64 columns, a thread's points 2 rows of
    // 2 columns (one 16-byte access a row: half the shuffles a point), since
    // 2026-12-07 22:30 on an H100 (bench/variants/fused3d-fp64-rows2-
    // breadth.list, bench/results/2026-12-07-2230-fused3d-fp64-rows2-
    // breadth-h100.txt; beside rows of 4 in 64 rows x 32 columns, before):
    // star3d7p 422.5-422.7 against 404.9-405.3, EBISU's 3d7pt 422.5-422.7
    // against 404.9-405.1, clamp 355.7-355.8 against 338.2-338.6, periodic
    // 292.1-292.2 against 262.7; chunks of 64 and 128 planes 408.9-409.1
    // and 394.0-394.4.
    {.dims = 3, .shape = Shape::Star, .radius = 1, .elementBytes = 8, .steps = 3, .width = 64,
     .height = 32, .threads = 512, .batch = 1, .chunk = 96, .rows = 2, .minBlocks = 1,
     .gstencils = 422.5, .stepGStencils = 172.6, .splitBarrier = true},
    // The geometry before (windows of 64 rows x 32 columns, a thread's
    // points 4 rows of 1 column, its rings half the bytes): where the one
    // above does not fit the target's shared memory at T 3 (sm_86's 99 KB;
    // fittingMeasured).
    {.dims = 3, .shape = Shape::Star, .radius = 1, .elementBytes = 8, .steps = 3, .width = 32,
     .height = 64, .threads = 512, .batch = 1, .chunk = 96, .rows = 4, .minBlocks = 1,
     .gstencils = 426.8, .stepGStencils = 216.2, .device = "an H200", .splitBarrier = true},
    // fp32 since 2026-12-02 (bench/lowrank3d/ab.sh, 16:42 and 16:59,
    // bench/results/2026-12-02-1641-3d-star-fp32-and-16bit-box-windows-
    // h200.txt): windows of 64 x 64, rows of 4 a thread of 2 columns, T 4,
    // 1091.7-1092.6 against 949.4-952.0 at the geometry before (64 columns
    // x 32 rows, rows of 2, T 5) in the same program; the window at T 3 and
    // 5 ran 941.9 and 784.6, in chunks of 128 981.5. A periodic grid keeps
    // the geometry before: NAME_run as generated 472.7-473.8 there against
    // the new window's 314.5-315.0, NAME_step (the step kernel) 183.1 and
    // 184.3.
    {.dims = 3, .shape = Shape::Star, .radius = 1, .elementBytes = 4, .steps = 5, .width = 64,
     .height = 32, .threads = 512, .batch = 1, .chunk = 96, .rows = 2, .minBlocks = 1,
     .gstencils = 473.8, .stepGStencils = 183.1, .device = "an H200", .periodic = true},
    // Its input planes staged 2 ahead in shared memory (fused3d.cuh's
    // kStagedPlanes) since 2026-12-07 (an H100, bench/variants/
    // fused3d-staged.list, bench/results/2026-12-07-0045-fused3d-staged-
    // planes-h100.txt): star3d7p 997.1 against 961.4-961.5 as planned
    // before, EBISU's 3d7pt 997.3-997.7 against 961.6-962.9; 3 planes
    // 994.8-999.0, 4 and 6 954.0-958.5 and 932.1-932.2. The split barrier
    // (2026-12-07, the files of the fp64 star's): star3d7p 1036.4-1038.6
    // against 997.0-997.8, EBISU's 3d7pt 1038.4-1039.0 against 997.3-997.5,
    // tf32 1038.7-1038.8, clamp 798.2-799.0 against 777.2-777.3, constant
    // 0.25 1038.1-1039.2 against 995.5-998.2.
    {.dims = 3, .shape = Shape::Star, .radius = 1, .elementBytes = 4, .steps = 4, .width = 64,
     .height = 64, .threads = 512, .batch = 1, .chunk = 96, .rows = 4, .minBlocks = 1,
     .gstencils = 1092.6, .stepGStencils = 399.1, .device = "an H200", .stagedPlanes = 2,
     .splitBarrier = true},
    {.dims = 3, .shape = Shape::Star, .radius = 1, .elementBytes = 2, .steps = 4, .width = 64,
     .height = 32, .threads = 512, .batch = 1, .chunk = 64, .rows = 2, .minBlocks = 2,
     .gstencils = 453.5, .stepGStencils = 180.4, .device = "an H200", .periodic = true},
    // 16 bits on other grids since 2026-12-02 (bench/lowrank3d/ab.sh, 17:26
    // and 19:09, bench/results/2026-12-02-1726-3d-stars-64x64-windows-not-
    // kept-h200.txt and ...-1909-3d-16bit-star-64x64-windows-h200.txt):
    // fp32's window, 64 x 64 of rows of 4 a thread of 2 columns, at T 3 and
    // one block a multiprocessor, fp16 911.4 and bf16 842.2-845.3 against
    // 847.5 and 780.0-780.9 in the window before (64 columns x 32 rows,
    // rows of 2, 2 blocks); at T 2 fp16 893.4, bf16 857.0-857.3, at T 4
    // 871.2 and 820.1-821.1. The figure is fp16's. The split barrier
    // (2026-12-07, the files of the fp64 star's): fp16 936.0-942.4 against
    // 901.3-903.5, bf16 876.2-877.4 against 836.8-837.5.
    {.dims = 3, .shape = Shape::Star, .radius = 1, .elementBytes = 2, .steps = 3, .width = 64,
     .height = 64, .threads = 512, .batch = 1, .chunk = 96, .rows = 4, .minBlocks = 1,
     .gstencils = 911.4, .stepGStencils = 562.3, .device = "an H200", .splitBarrier = true},
    // The fp64 box in the direct form, its geometry measured again on an
    // H200 (bench/lowrank3d/ab.sh, 2026-12-02 12:31 and 12:54,
    // bench/results/2026-12-02-1231-3d-geometries-radius-2-checks-h200.txt
    // and ...-1254-3d-fused-geometries-step-blocks-h200.txt): windows of
    // 32 x 32 in blocks of 256 threads, 2 blocks a multiprocessor asked of
    // the register allocator, 96 planes a block: EBISU's 3d27pt 190.6
    // (the figure here) and 3d17pt 214.0 against 173.7 and 190.8 at the
    // H100's geometry (32 x 64, 512 threads, 1 block). One step a launch ran
    // 195.5, 188.1 and 188.0 (3d27pt, 3d17pt, poisson) on an H200 at 09:50,
    // so the figure has no step beside it: the entry fuses, as measured
    // faster on the H100 of 2026-11-25 (173.9 against 160.5) and for the
    // 17- and 19-point boxes on the H200.
    {.dims = 3, .shape = Shape::Box, .radius = 1, .elementBytes = 8, .steps = 2, .width = 32,
     .height = 32, .threads = 256, .batch = 1, .chunk = 96, .rows = 4, .minBlocks = 2,
     .gstencils = 190.6, .device = "an H200"},
    // The star of radius 2 (EBISU's 3d13pt) in a sweep of geometries on an
    // H200 (bench/lowrank3d/ab.sh, 2026-12-02 12:09,
    // bench/results/2026-12-02-1209-3d-radius-2-star-sweep-h200.txt). The
    // rule's window of rows of 4 at 256 threads ran 230.5 (fp32, T 2) and
    // 92.2 (fp64) against the step kernel's 326.6 and 173.7. fp32 in rows
    // of 2 at 512 threads: 400.7 at T 2 (T 3 392.0, chunks of 128 390.9).
    // fp64 fused at best 120.5 (T 2, rows of 4 at 512 threads): one step a
    // launch.
    // fp32's input planes staged 3 ahead since 2026-12-07 (an H100, the
    // same file as the star of radius 1's): 346.6-347.6 against
    // 333.0-341.7 as planned before; 2 planes 332.5-333.7.
    // The split barrier with the rotating ring (FusedKernel::unrollPlanes,
    // a loop of 10 planes, where its rings fit beside the staged planes)
    // since 2026-12-07 (an H100, bench/variants/fused3d-ring-parts.list,
    // bench/results/2026-12-07-1252-fused3d-ring-rotate-h100.txt):
    // star3d13p 472.0-472.1 against 347.2-349.8 as planned before,
    // EBISU's 3d13pt 471.7-472.0 against 347.1-348.7; the rotating ring
    // under a __syncthreads a plane 437.3-437.4. Again at 13:57
    // (bench/variants/fused3d-ring-rotate-breadth.list, bench/results/
    // 2026-12-07-1357-fused3d-ring-rotate-breadth-h100.txt): star3d13p
    // 471.9-474.1 against 346.5-347.7, tf32 471.5-474.3 against
    // 346.1-346.2, on a periodic grid 222.5-223.7 against 176.2-176.9 (the
    // rotating ring alone 202.6-203.9).
    Star3DRadius2Fp32,
    // fp64 fused at T 2 with the split barrier and the rotating ring (a loop
    // of 10) since 2026-12-07 (an H100, 13:57, the same file):
    // 179.5-180.5 against one step a launch's 151.1 (the plan before),
    // the fused pass without either 108.4-108.7, with the rotating ring
    // alone 152.9-153.5. A periodic grid keeps one step a launch (not
    // measured there).
    periodicOnly(Star3DRadius2Fp64H200),
    Star3DRadius2Fp64,
    // 16 bits (the suite's star3d13p) at 2 blocks a multiprocessor, 128
    // planes a block (12:54, the same file): fp16 419.6 and bf16 392.4
    // against one step a launch's 377.8 and 379.7 (the figures are fp16's);
    // the rule's rows of 4 ran 156.9. The split barrier (2026-12-07, the
    // files of the fp64 star of radius 1's): fp16 499.3-499.6 against
    // 402.1-403.0; bf16 not run (the same pass but for its conversions).
    // On an H100 at 13:00 (bench/variants/fused3d-split-barrier-
    // unmeasured.list, bench/results/2026-12-07-1300-split-barrier-
    // unmeasured-h100.txt) bf16 ran 462.3-462.9 with it against
    // 381.4-382.1, and fp16 on a periodic grid 173.2-173.9 against
    // 185.3-185.7: a periodic grid keeps a __syncthreads a plane.
    periodicOnly(syncWhole(Star3DRadius2Bits16)),
    Star3DRadius2Bits16,
    // The fp32 box in the direct form, measured on an H200 (bench/lowrank3d/
    // ab.sh, 2026-12-02 15:42-16:07, bench/results/2026-12-02-1542-3d-
    // fp32-box-geometries-16bit-star-step-h200.txt and ...-1557-...): in
    // windows of 64 x 64, rows of 4 a thread of 2 columns, 64 planes a
    // block, T 2, EBISU's 3d27pt, 3d17pt and poisson ran 473.2, 536.0 and
    // 603.5 against 351.8, 384.7 and 419.6 at the geometry before (32
    // columns x 64 rows, rows of 4 a thread of 1 column, 128 planes, T 3);
    // the same window at T 3 ran 356.1, 445.5 and 506.9. One step a launch
    // ran 326.1 (3d27pt, 2026-12-02 09:50). The figures are 3d27pt's, the
    // densest. A periodic grid keeps the geometry before: 3d27pt's NAME_run
    // as generated 200.0 and 200.3 there against the new window's 184.9
    // (about 16:05, ...-1557-...), NAME_step (the step kernel) 162.3 and 163.8.
    {.dims = 3, .shape = Shape::Box, .radius = 1, .elementBytes = 4, .steps = 3, .width = 32,
     .height = 64, .threads = 512, .batch = 1, .chunk = 128, .rows = 4, .minBlocks = 1,
     .gstencils = 200.3, .stepGStencils = 162.3, .device = "an H200", .periodic = true},
    {.dims = 3, .shape = Shape::Box, .radius = 1, .elementBytes = 4, .steps = 2, .width = 64,
     .height = 64, .threads = 512, .batch = 1, .chunk = 64, .rows = 4, .minBlocks = 1,
     .gstencils = 473.2, .stepGStencils = 326.1, .device = "an H200"},
    {.dims = 3, .shape = Shape::Box, .radius = 1, .elementBytes = 2, .steps = 2, .width = 64,
     .height = 32, .threads = 512, .batch = 1, .chunk = 128, .rows = 2, .minBlocks = 1,
     .gstencils = 269.0, .stepGStencils = 398.8},
    // The 2D low-rank form on an H200 (bench/lowrank's sweep, 2026-11-29
    // 12:43, bench/results/2026-11-29-1243-lowrank-sweep-h200.txt), beside
    // the rule's T 2 (blur7x7 fp64 267.5, fp32 454.6; box2d49p fp64 262.6)
    // and the direct box's geometry (gauss5x5 fp64 441.0 at T 3). A form
    // whose terms read rows at the point (box2d49p: the centre) is a kind of
    // its own: in windows it keeps every level's rows (T 3 ran at 177.0).
    // Since 2026-12-01 04:43 (bench/lowrank/sweep2d.cu,
    // bench/results/2026-12-01-0429-2d-strips-and-l2-prefetch-h200.txt)
    // gauss5x5 fp64 and the 7 x 7 blur fp64 take an L2 prefetch a batch
    // ahead: 534.7 against 520.7-522.2, and 408.2-410.1 against 377.6-378.1.
    {.dims = 2, .shape = Shape::Box, .radius = 2, .elementBytes = 8, .steps = 4, .width = 64,
     .threads = 128, .batch = 4, .chunk = 128, .minBlocks = 2, .gstencils = 534.7,
     .device = "an H200", .lowRank = true, .prefetchRows = 4},
    // The 7 x 7 blur in the paired order (2026-12-01 07:37, bench/lowrank/
    // sweep2d.cu, bench/results/2026-12-01-0737-blur-paired-sums-h200.txt):
    // fp64 440.1 at T 4 against 420.7 at T 3 (the same order; the order
    // before ran 410.0 at T 3, 07:32), fp32 761.4 at T 4 and 2 blocks a
    // multiprocessor against 703.4 at T 3 (676.9 before).
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 8, .steps = 4, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 1, .gstencils = 440.1,
     .device = "an H200", .lowRank = true, .queued = true, .prefetchRows = 2, .paired = true},
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 4, .steps = 4, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 2, .gstencils = 761.4,
     .device = "an H200", .lowRank = true, .queued = true, .prefetchRows = 2, .paired = true},
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 8, .steps = 3, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 1, .gstencils = 410.1,
     .device = "an H200", .lowRank = true, .queued = true, .prefetchRows = 2},
    // EBISU's 2d49pt with its equal rows grouped, then the other rows'
    // equal columns (LowRank.cpp: 3 passes and 15 terms at the point, 38
    // operations; bench/lowrank/sweep2d.cu, 2026-12-01 02:39,
    // bench/results/2026-12-01-0234-2d49pt-two-stage-grouping-h200.txt):
    // fp64 260.7 at T 2 and 3 blocks a multiprocessor against 242.3 at the
    // box2d49p form's T 3 and 1 block (243.7-246.2 at 1 and 2 blocks), fp32
    // 430.4 at T 2 in blocks of 56 rows at 2 blocks against 402.1 at T 3
    // (48 rows at 3 blocks 431.9). The one-stage grouping (39) measured at
    // these geometries the same way (01:57, ...-0152-2d49pt-grouped-rows-
    // h200.txt), and the direct form ran 199.6 and 351.2 there. On an H100
    // (2026-12-06 about 13:50, bench/results/2026-12-06-1350-ebisu2d49pt-
    // fp64-l2-prefetch-h100.txt) fp64 runs 1.02-1.03 x as fast with an L2
    // prefetch 2 rows ahead (248.6-250.2 against 243.7-244.5; 4 rows 246.8-
    // 247.3, T 3 245.4-248.7, chunks of 126 rows 237.1-237.8), at the
    // issue's target of 250 for that board in one round of two; the low-rank
    // forms gained from it on an H200 too (the blur, box2d49p fp32; 2026-12-01
    // 04:29-04:52), where the direct fp64 forms ran within 0.4 %. 1 and 3
    // rows ahead ran 244.9-247.3 and 245.7-246.5 against 2's 247.8-248.3
    // (2026-12-06 about 16:40, ...-1640-ebisu2d25pt-fp64-l2-prefetch-
    // h100.txt). Not run on an H200 since.
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 8, .steps = 2, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 3, .gstencils = 249.4, .lowRank = true,
     .rowsAtPoint = true, .queued = true, .formOps = 38, .prefetchRows = 2},
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 4, .steps = 2, .width = 128,
     .threads = 128, .batch = 2, .chunk = 56, .minBlocks = 2, .gstencils = 430.4,
     .device = "an H200", .lowRank = true, .rowsAtPoint = true, .queued = true, .formOps = 38},
    // The 7 x 7 blur fp32 with the prefetch (04:43): 676.6 against 603.2-604.0.
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 4, .steps = 3, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 1, .gstencils = 676.6,
     .device = "an H200", .lowRank = true, .queued = true, .prefetchRows = 2},
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 8, .steps = 3, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 1, .gstencils = 334.6,
     .device = "an H200", .lowRank = true, .rowsAtPoint = true, .queued = true},
    // And (bench/lowrank/sweep2d.cu, 13:46, ...-1351-lowrank2d-sweep-h200.txt)
    // the suite's other low-rank boxes and gauss5x5 fp32, against what they
    // took before (the direct box's geometry or the rule): box2d25p fp64
    // 411.2 (387.6), fp32 651.5 (514.3), box2d49p fp32 496.4 (385.7),
    // gauss5x5 fp32 770.3 (676.5). Since 16:10 (...-1610-fused-queued-lowrank-
    // sweep-h200.txt) the 7 x 7 blur and those boxes run in the queued form,
    // against the windows' geometry above in the same run: blur7x7 fp64
    // 343.8 (330.9), fp32 581.9 (559.7); box2d49p fp64 334.6 at T 3 (271.3
    // at T 2), fp32 554.5 (492.9); box2d25p fp64 452.0 (411.4), fp32 839.3
    // at T 4 (649.2 at T 3). gauss5x5 fp64 keeps its window (487.1, queued
    // 478.1).
    // gauss5x5 fp32 in strips of 96 columns (3 a thread, 4-byte accesses;
    // 2026-12-01 04:43): 872.3 against 772.8-772.9 at 128.
    {.dims = 2, .shape = Shape::Box, .radius = 2, .elementBytes = 4, .steps = 4, .width = 96,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 2, .gstencils = 872.3,
     .device = "an H200", .lowRank = true},
    {.dims = 2, .shape = Shape::Box, .radius = 2, .elementBytes = 8, .steps = 4, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 1, .gstencils = 452.0,
     .device = "an H200", .lowRank = true, .rowsAtPoint = true, .queued = true},
    // box2d25p fp32 takes 4 rows a level since the warp's decisions are
    // votes (917.1 against 799.7 at 2 and 870.8 before the votes, 02:44).
    {.dims = 2, .shape = Shape::Box, .radius = 2, .elementBytes = 4, .steps = 4, .width = 128,
     .threads = 128, .batch = 4, .chunk = 64, .minBlocks = 2, .gstencils = 917.1,
     .device = "an H200", .lowRank = true, .rowsAtPoint = true, .queued = true},
    // box2d49p fp32 with the prefetch (04:43): 643.1 against 582.0-584.9.
    {.dims = 2, .shape = Shape::Box, .radius = 3, .elementBytes = 4, .steps = 3, .width = 128,
     .threads = 128, .batch = 2, .chunk = 64, .minBlocks = 1, .gstencils = 643.1,
     .device = "an H200", .lowRank = true, .rowsAtPoint = true, .queued = true, .prefetchRows = 2},
    // The 3D low-rank form on an H200 (bench/lowrank3d, 2026-11-29 10:27,
    // bench/results/2026-11-29-1027-lowrank3d-fused-h200.txt), fused and
    // one step a launch of the form: radius 1 fuses two steps (box3d27p fp64
    // and fp32; T 3 within 4 %; the heat step on the 27-point Laplacian fp64
    // 200.0 against 177.9), radius 2 measured faster one step a launch (its
    // levels' queues cost more than the bytes they save). The geometry of
    // radius 1 from bench/lowrank3d/sweep.cu (13:14-13:18,
    // ...-1314-lowrank3d-sweep-h200.txt): fp64 windows of 64 rows x 32
    // columns with rows of 4 a thread and 96 planes a block (box3d27p 295.7
    // against 249.4 in the rule's rows of 2, heat27 247.2 against 200.0).
    // fp32 from a re-sweep after fused3d's blocks inside along z
    // lost their planes' tests (2026-11-30 05:01, docs/performance.md):
    // windows of 64 x 64 with rows of 4 a thread of 2 columns (505.6 against
    // the rule's geometry's 477.4 in the same run; one step a launch as
    // measured at 13:14), and since chunks are cut at the grid's ends 64
    // planes a block (544.8 against 531.3 with 96, 2026-11-30 14:08; the
    // fp64 form keeps 96: 64 planes ran 308.9 against 314.9). Its figure
    // since the edge blocks got cheaper: 630.4 (2026-11-30 20:55, still the
    // fastest of the geometries re-swept at 21:37;
    // bench/results/2026-11-30-1951-3d-edge-blocks-h200.txt). Since
    // 2026-12-05 (bench/lowrank3d/ab.sh on an H100, 19:21 and 19:39-19:41,
    // bench/results/2026-12-05-1921-boards-3d-2d-geometries-h100.txt and
    // ...-1939-3d-geometries-256-threads-h100.txt) fp32 fuses 3 steps in
    // windows of 64 columns x 32 rows, rows of 4 a thread of 2 columns, 256
    // threads, 96 planes a block: 617.8-618.0 against 507.8-508.3 at the
    // H200's geometry above on the H100 (64 and 128 planes 605.5 and 594.8,
    // rows of 2 at 512 threads at most 570.2, T 4 448.4). 215 registers a
    // thread for sm_90, no spills. The step figure is one step a launch in
    // the same run, through one level of the fused kernel (T 1, 64 x 64 at
    // 512 threads), as NAME_step runs this kind. A periodic grid keeps the
    // H200's geometry, which the new window was not measured against there,
    // and so do forms other than the box's of 10 operations a point (the
    // 27-point heat step and Laplacian, 15): unmeasured at T 3, and nvcc
    // took 193 s over heat27 fp32's pass there against 74 s at T 2 (2
    // cores, 2026-12-06).
    // The split barrier (2026-12-07, the files of the fp64 star's):
    // box3d27p 301.5-301.6 against 272.3-272.7, mirror 259.1-259.3 against
    // 237.6-238.2. The boxes measured slower with it keep a __syncthreads a
    // plane: the fp32 low-rank form (staged) 630.0-633.8 against
    // 662.6-664.4, the direct form's EBISU 3d27pt fp32 293.8-294.0 against
    // 472.1-475.6 and fp64 159.4-159.8 against 188.0-188.1, 3d17pt fp32
    // 480.3-481.0 against 534.2-535.3 and fp64 199.3 against 212.7-213.9.
    // On an H100 at 13:00 (the 16-bit star of radius 2's file) clamp ran
    // 262.5-262.6 with it against 239.4, a periodic grid 163.7-165.1
    // against 176.4: there a __syncthreads a plane. Its rotating ring (a
    // loop of 4, 12:52, the fp32 star of radius 2's file) ran 280.3-282.1
    // against 301.4, and is not taken.
    periodicOnly(syncWhole(LowRankBox3DFp64)),
    LowRankBox3DFp64,
    periodicOnly(LowRankBox3DFp32H200),
    // Its input planes staged 3 ahead in passes of several levels since
    // 2026-12-07 (an H100, the same file as the fp32 stars'): 661.3-661.5
    // against 615.9-616.0 as planned before, 2 planes 649.8-649.9; one
    // level (NAME_step's pass) staged ran 0.95 x, and keeps registers.
    {.dims = 3, .shape = Shape::Box, .radius = 1, .elementBytes = 4, .steps = 3, .width = 64,
     .height = 32, .threads = 256, .batch = 1, .chunk = 96, .rows = 4, .minBlocks = 1,
     .gstencils = 617.9, .stepGStencils = 322.5, .lowRank = true, .formOps = 10,
     .stagedPlanes = 3},
    LowRankBox3DFp32H200,
    {.dims = 3, .shape = Shape::Box, .radius = 2, .elementBytes = 8, .steps = 2, .width = 32,
     .height = 32, .threads = 256, .batch = 1, .chunk = 64, .rows = 4, .minBlocks = 1,
     .gstencils = 115.1, .stepGStencils = 162.2, .device = "an H200", .lowRank = true},
};
// clang-format on

/// A kind whose fused kernel at one level, launched by NAME_step
/// (FusedKernel::takesSteps), measured faster than its step kernel:
/// NAME_step in GStencil/s at 2^27 points, 8192^2 or 512^3, the median of
/// 30 (the mean of two rounds), beside the step kernel in the same lease on
/// an H200 (2026-12-02 01:27-01:56, docs/performance.md,
/// bench/results/2026-12-02-0127-step-through-fused-kernel-h200.txt; the
/// 1D lines of radius 3 and 4 at 07:56 that day), at the geometry measured
/// for its kind (by rule for those lines) and a fixed boundary (a constant
/// one ran as fast). Not taken where measured slower or no faster: 1D in 16 bits
/// (heat1d fp16 618.9 against 668.6), the 3D low-rank box in fp64 (180.2
/// against 186.9); nor on a periodic grid, whose fused passes load wrapped
/// (one level of box3d27p fp32 142.3, of star2d9p fp64 162.1).
struct MeasuredFusedStep {
  int dims = 0;
  Shape shape = Shape::Star;
  int radius = 0;
  int elementBytes = 0;
  bool lowRank = false;
  /// The suite's stencil measured, as the plan names it.
  const char *kind = "";
  double fused = 0.0, step = 0.0;
};

// clang-format off
constexpr MeasuredFusedStep FusedStepMeasured[] = {
    {.dims = 1, .shape = Shape::Star, .radius = 1, .elementBytes = 8, .kind = "heat1d fp64",
     .fused = 244.6, .step = 205.4},
    {.dims = 1, .shape = Shape::Star, .radius = 1, .elementBytes = 4, .kind = "heat1d fp32",
     .fused = 418.3, .step = 401.1},
    {.dims = 1, .shape = Shape::Star, .radius = 2, .elementBytes = 8, .kind = "star1d5p fp64",
     .fused = 235.2, .step = 206.8},
    {.dims = 1, .shape = Shape::Star, .radius = 2, .elementBytes = 4, .kind = "star1d5p fp32",
     .fused = 446.5, .step = 396.4},
    // LoRAStencil's lines (bench/peers/lorastencil; fp32 copies of them),
    // fused by rule, 2026-12-02 07:56 (bench/results/2026-12-02-0740-1d-
    // steps-through-fused-periodic-3d-h200.txt, (B)).
    {.dims = 1, .shape = Shape::Star, .radius = 3, .elementBytes = 8, .kind = "lora_star1d7p fp64",
     .fused = 241.2, .step = 197.0},
    {.dims = 1, .shape = Shape::Star, .radius = 4, .elementBytes = 8, .kind = "lora_star1d9p fp64",
     .fused = 235.4, .step = 188.1},
    {.dims = 1, .shape = Shape::Star, .radius = 3, .elementBytes = 4, .kind = "lora_star1d7p fp32",
     .fused = 437.2, .step = 347.6},
    {.dims = 1, .shape = Shape::Star, .radius = 4, .elementBytes = 4, .kind = "lora_star1d9p fp32",
     .fused = 437.5, .step = 392.0},
    // The window form (fused.cuh stores a fixed ring in the queued form).
    {.dims = 2, .shape = Shape::Star, .radius = 2, .elementBytes = 8, .kind = "star2d9p fp64",
     .fused = 222.6, .step = 193.9},
    // In the fp32 box's window of T 3 at 256 threads (its plan since
    // 2026-12-06) one level ran 357.7 against 290.8 on an H200, one round:
    // bench/results/2026-12-06-0150-box3d-fp32-t3-checks-h200.txt.
    {.dims = 3, .shape = Shape::Box, .radius = 1, .elementBytes = 4, .lowRank = true,
     .kind = "box3d27p fp32", .fused = 349.1, .step = 288.9},
};
// clang-format on

/// The largest radius whose low-rank form fuses by rule: radius 3 (the
/// 7 x 7 blur, T 2) compiles without spills for sm_90; a uniform box of
/// radius 12 at T 2 spilled 10 KB a thread.
constexpr int MaxFusedLowRankRadius = 3;

/// Whether the plan evaluates the low-rank form.
bool lowRank(const Plan &plan) { return plan.simt().lowRank.form.has_value(); }

/// "the low-rank form of " where `m` is a measurement of that form, for the
/// plan's reasons.
const char *formNamed(const MeasuredFusion *m) {
  return m && m->lowRank ? "the low-rank form of " : "";
}

/// " with scaled coefficients" where `m` was measured so.
const char *scaledNamed(const MeasuredFusion *m) {
  return m && m->scaled ? " with scaled coefficients" : "";
}

/// The measurement of `spec`'s kind in the direct form (`scaled`: with
/// scaled coefficients), or (lowRank) in the low-rank form `form`, if any:
/// the first entry that matches (after `after`, where given), a periodic
/// one only on a periodic grid, a paired one only where the form may pair
/// (`pairs`).
const MeasuredFusion *measuredKind(const StencilSpec &spec, const LowRankForm *form = nullptr,
                                   bool scaled = false, PairsRequest pairs = PairsRequest::Auto,
                                   const MeasuredFusion *after = nullptr) {
  const bool pairable = pairs != PairsRequest::Off && pairedShape(spec, form);
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const bool rowsAtPoint = form && form->dims == 2 &&
                           std::any_of(form->terms.begin(), form->terms.end(),
                                       [](const LowRankTerm &term) { return term.pass < 0; });
  for (const MeasuredFusion &m :
       std::span(after ? after + 1 : std::begin(Measured), std::end(Measured))) {
    if (m.dims == spec.dims && (m.shape == spec.shape || spec.dims == 1) &&
        m.radius == spec.radius && m.elementBytes == bytes && m.lowRank == (form != nullptr) &&
        m.rowsAtPoint == rowsAtPoint && m.scaled == scaled &&
        (m.formOps == 0 || (form && form->ops() == m.formOps)) && (!m.paired || pairable) &&
        (!m.periodic || spec.boundary == BoundaryKind::Periodic)) {
      return &m;
    }
  }
  return nullptr;
}

/// The measurement of the plan's kind and form. A 2D low-rank form that has
/// none of its own takes the direct kind's geometry where that fused steps
/// (its registers and halo measured best there, with more arithmetic), and
/// its own rule where the direct box measured fastest unfused (radius 3 in
/// 16 bits: its taps bound it by arithmetic; the passes take a third of
/// them). In 3D a form's levels keep plane values beside their planes and
/// compute row passes: the direct box's geometry is no guide there.
const MeasuredFusion *measured(const Plan &plan, PairsRequest pairs) {
  if (!lowRank(plan)) {
    // A scaled plan measured apart takes its own; else the kind's.
    const MeasuredFusion *scaled =
        plan.simt().scaled.on() ? measuredKind(plan.spec, nullptr, true) : nullptr;
    return scaled ? scaled : measuredKind(plan.spec);
  }
  if (const MeasuredFusion *own =
          measuredKind(plan.spec, &*plan.simt().lowRank.form, false, pairs)) {
    return own;
  }
  const MeasuredFusion *direct = measuredKind(plan.spec);
  return plan.spec.dims == 2 && direct && direct->fusingGains() ? direct : nullptr;
}

/// Whether the 3D low-rank form of `spec` measured faster fused than one
/// step of it a launch; elsewhere --backend=auto would trade a measured
/// direct plan for an unmeasured fused pass.
bool fusedFormMeasured(const StencilSpec &spec, const LowRankForm &form) {
  const MeasuredFusion *m = measuredKind(spec, &form);
  return m && m->fusingGains();
}

} // namespace

std::string unfusable(const StencilSpec &spec) {
  // A fused level's outside would have to be that level's own fold of
  // itself, not the input's: one step per launch. Periodic is the exception:
  // a wrapped level is the wrap of the wrapped levels.
  if (!foldsAtEdge(spec.boundary)) {
    return {};
  }
  return fmt::format("the fused kernel does not take boundary {}", keyword(spec.boundary));
}

std::string unfusableAtEdge(const Plan &plan) {
  const StencilSpec &spec = plan.spec;
  if (!foldsAtEdge(spec.boundary)) {
    return {};
  }
  // A band kernel recomputes the points that reads outside the grid reach
  // (fused_band.cuh).
  if (plan.simt().packed) {
    return fmt::format("packed 16-bit fused passes do not take boundary {} (their band, which "
                       "recomputes the points within T r of an edge, is not written)",
                       keyword(spec.boundary));
  }
  return {};
}

namespace {

/// The rule for kinds not measured. 2D: the measured T fell about as 8 / r
/// for stars and 8 / r^2 for boxes. 1D: radius 1 and 2 measured best at T 8
/// (of at most 8), so 16 / r, at most 8. 3D: 1 (the 3D kinds that fuse,
/// direct or low rank, are in the table).
int ruleSteps(const StencilSpec &spec, bool lowRankForm) {
  const int r = spec.radius;
  switch (spec.dims) {
  case 1:
    return std::clamp(16 / r, 1, 8);
  case 2:
    if (lowRankForm) {
      // The passes take about the operations of a star of the radius;
      // unlike the direct box, at least 2 steps, since they leave memory the
      // bound. Past MaxFusedLowRankRadius each level's intermediates (2r + 2
      // rows of r or more columns) overflow the registers: one launch a step.
      return r <= MaxFusedLowRankRadius ? std::clamp(8 / r, 2, 8) : 1;
    }
    return std::max(1, spec.shape == Shape::Star ? 8 / r : 8 / (r * r));
  default:
    // The 3D low-rank form too fuses only where the table has it faster
    // fused: a level's queue of planes and plane values may not fit the
    // registers elsewhere (radius 2 measured slower fused).
    return 1;
  }
}

/// Why the planner's own T is 1 for `spec` (`m` its measurement, if any).
std::string unfusedWhy(const StencilSpec &spec, const MeasuredFusion *m) {
  const std::string kind =
      fmt::format("{}a {} of radius {}{} in {}", formNamed(m), keyword(spec.shape), spec.radius,
                  scaledNamed(m), keyword(spec.precision));
  if (m && m->stepGStencils > 0.0) {
    return fmt::format("{} measured faster one step a launch on {} ({:.1f} GStencil/s) "
                       "than fused (at best {:.1f} with T = {})",
                       kind, m->device, m->stepGStencils, m->gstencils, m->steps);
  }
  if (m) {
    return fmt::format("{} measured fastest unfused ({:.0f} GStencil/s fused with T = 1 on {})",
                       kind, m->gstencils, m->device);
  }
  if (spec.dims == 3) {
    return "by rule: a 3D kind fuses only where it measured faster fused than one step a "
           "launch";
  }
  return fmt::format("by rule, {} fuses no steps (T = {})", kind,
                     spec.dims == 1              ? "16 / r"
                     : spec.shape == Shape::Star ? "8 / r"
                                                 : "8 / r^2");
}

/// The columns a thread owns: at least the radius (its neighbours' columns
/// come from the next thread only), whole 4-, 8- or 16-byte accesses, and
/// no fewer than the measured widths (2 fp64, 4 fp32, 4 fp16 columns).
int columnsPerThread(const StencilSpec &spec) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  int cols = std::max(spec.radius, bytes == 2 ? 4 : 16 / bytes);
  if (cols * bytes > 16) {
    cols = (cols * bytes + 15) / 16 * 16 / bytes;
  }
  while ((cols * bytes) % 4 != 0 || (cols * bytes > 8 && cols * bytes < 16)) {
    ++cols;
  }
  return cols;
}

/// The bytes of one access of a thread's `cols` columns of `bytes` each, as
/// fused.cuh's kAccessBytes: the widest of 16, 8 and 4 that divides them.
int accessBytesOf(int cols, int bytes) {
  const int all = cols * bytes;
  for (const int access : {16, 8, 4}) {
    if (all % access == 0) {
      return access;
    }
  }
  return all;
}

/// Fills the derived sizes of `k` for T steps of `spec`.
void deriveFused(const StencilSpec &spec, int steps, FusedKernel &k) {
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  const int r = spec.radius;
  k.accessBytes = accessBytesOf(k.columnsPerThread(), bytes);
  const int vec = k.accessBytes / bytes;
  k.halo = (steps * r + vec - 1) / vec * vec;
  // Level t computes every column of the strip, over the block's rows and
  // the (T - t) r rows on either side that later levels read; only the
  // stored columns of the block's own rows are the strip's share.
  double computed = 0.0;
  for (int t = 1; t <= steps; ++t) {
    computed += double(k.chunkRows + 2 * (steps - t) * r) * k.width;
  }
  const double useful = double(steps) * k.chunkRows * k.storedColumns();
  k.redundantShare = computed > 0.0 ? 1.0 - useful / computed : 0.0;
}

/// The 2D kernel's geometry for `steps` steps: measured, or by rule.
FusedKernel fusedGeometry2D(const StencilSpec &spec, int steps, const MeasuredFusion *m) {
  FusedKernel k;
  if (m) {
    k.width = m->width;
    k.threads = m->threads;
    k.batch = m->batch;
    k.chunkRows = m->chunk;
    k.minBlocks = m->minBlocks;
    k.sidesAtEntry = m->sidesAtEntry;
    k.queued = m->queued;
    k.prefetchRows = m->prefetchRows;
  } else {
    k.width = 32 * columnsPerThread(spec);
    k.threads = 128;
    k.batch = 4;
    k.chunkRows = 128;
    k.minBlocks = 2;
  }
  // A strip must store at least one access past its halos: widen it.
  deriveFused(spec, steps, k);
  while (k.storedColumns() < k.accessBytes / static_cast<int>(elementBytes(spec.precision))) {
    k.width *= 2;
    deriveFused(spec, steps, k);
  }
  return k;
}

} // namespace

FusedKernel fusedGeometry(const StencilSpec &spec, int steps, const MeasuredFusion *m,
                          bool lowRankForm) {
  FusedKernel k = spec.dims == 2 ? fusedGeometry2D(spec, steps, m)
                                 : fusedGeometryND(spec, steps, m, lowRankForm);
  k.source = m ? fmt::format("as measured best for this kind{} on {} ({:g} GStencil/s at T = {})",
                             scaledNamed(m), m->device, m->gstencils, m->steps)
               : std::string("by rule: this kind has no measurement");
  return k;
}

bool settledUnfused(Schedule &s, int asked, std::string whyNot) {
  s = Schedule{};
  if (asked == 1) {
    s.why = "--plan-option fuse=1: one launch a step";
    return true;
  }
  if (!whyNot.empty()) {
    s.why = std::move(whyNot);
    s.lowered = asked > 1;
    return true;
  }
  return false;
}

void keepMeasured3D(const StencilSpec &spec, const PlanOptions &options, LowRankChoice &choice) {
  if (!choice.form || spec.dims != 3 || options.lowRank != LowRankRequest::Auto) {
    return;
  }
  // Every boundary fuses (under clamp, mirror and reflect with a band).
  const bool fuses = fusedFormMeasured(spec, *choice.form);
  std::string why;
  if (options.fusedSteps > 1 && !fuses) {
    why = fmt::format("--plan-option fuse={} asks for fused passes, and those of the 3D low-rank "
                      "form are measured faster only at radius 1 in fp64 and fp32: auto keeps "
                      "the direct form, whose fused passes are measured",
                      options.fusedSteps);
  } else if (spec.radius == 1 && spec.precision != Precision::FP64 && !fuses) {
    // NAME_run of 100 steps at 512^3 on an H200, 2026-11-29, the form one
    // step a launch: box3d27p fp32 293.3 against 326.3 direct, lap27 fp32
    // 262.3 against 326.6. Fused two steps a pass, the form wins in fp32
    // (458.3), but it does not fuse 16 bits (tf32 is fp32 arithmetic on
    // CUDA cores and takes fp32's entry).
    why = "measured slower at radius 1 in fp32 arithmetic one step a launch on an H200 (box3d27p "
          "0.90x, the 27-point Laplacian 0.80x the direct form, NAME_run at 512^3): the row "
          "passes' shared-memory round trip costs more than the operations it saves, and the "
          "form's fused passes (faster) take fp64 and fp32 only";
  } else {
    return;
  }
  choice.form.reset();
  choice.fellBack = true;
  choice.why = why + " (lowrank=on takes the low-rank form)";
}

namespace {

/// Why a low-rank plan that has no measurement fuses no steps by rule.
std::string lowRankUnfusedWhy(const StencilSpec &spec) {
  return spec.dims == 3
             ? std::string("the 3D low-rank form fuses where it measured faster fused than one "
                           "step a launch (radius 1 in fp64 and fp32, on an H200); this kind "
                           "was not measured")
             : fmt::format("by rule, the low-rank form fuses up to radius {} (the intermediates "
                           "of every level's rows in registers)",
                           MaxFusedLowRankRadius);
}

/// Sets the schedule's fused kernel to take NAME_step where its kind, at
/// the geometry measured for it (`m`) or by rule (null), in the window form
/// in 2D and on a grid that does not wrap, measured faster so
/// (FusedStepMeasured).
void takeMeasuredFusedStep(Plan &plan, const MeasuredFusion *m) {
  const StencilSpec &spec = plan.spec;
  const int bytes = static_cast<int>(elementBytes(spec.precision));
  for (const MeasuredFusedStep &f : FusedStepMeasured) {
    if (f.dims == spec.dims && (f.shape == spec.shape || spec.dims == 1) &&
        f.radius == spec.radius && f.elementBytes == bytes && f.lowRank == lowRank(plan) &&
        (!m || f.lowRank == m->lowRank) && f.fused > f.step && !plan.schedule.fused.queued &&
        spec.boundary != BoundaryKind::Periodic) {
      FusedKernel &k = plan.schedule.fused;
      k.takesSteps = true;
      k.stepWhy = fmt::format("measured faster than the step kernel for {}{} on an H200 "
                              "({:.1f} against {:.1f} GStencil/s)",
                              formNamed(m), f.kind, f.fused, f.step);
      return;
    }
  }
}

/// Why `plan` fuses the T it wanted: asked (`asked` > 0), measured (`m`),
/// or by a rule.
std::string fusedWhy(const Plan &plan, int asked, const MeasuredFusion *m) {
  const StencilSpec &spec = plan.spec;
  const std::string kind = fmt::format("a {} of radius {}", keyword(spec.shape), spec.radius);
  return asked ? fmt::format("--plan-option fuse={}", asked)
         : m && lowRank(plan) && !m->lowRank
             ? fmt::format("as measured best for the direct form of {} in {} on {}; the "
                           "low-rank form is not measured",
                           kind, keyword(spec.precision), m->device)
         : m ? fmt::format("measured best for {}{}{} in {} on {}", formNamed(m), kind,
                           scaledNamed(m), keyword(spec.precision), m->device)
         : lowRank(plan)
             ? fmt::format("by rule for the low-rank form of radius {} (8 / r, at least 2): "
                           "not measured",
                           spec.radius)
             : fmt::format("by rule for {}: no measurement of this kind", kind);
}

/// The fused kernel's geometry for `t` steps of `plan`, whose kind
/// measured `m` (or none).
FusedKernel fusedGeometryOf(const Plan &plan, const MeasuredFusion *m, int t) {
  const StencilSpec &spec = plan.spec;
  // The 3D form's measured geometry holds at its T only: at T 3 its rows
  // of 4 spill, and the rule's rows of 2 ran faster (box3d27p fp64 259.0
  // against 208.5, bench/results/2026-11-29-1314-lowrank3d-sweep-h200.txt).
  const bool measuredHere = !(lowRank(plan) && spec.dims == 3 && m && t != m->steps);
  FusedKernel g = fusedGeometry(spec, t, measuredHere ? m : nullptr, lowRank(plan));
  if (!measuredHere) {
    g.source = fmt::format("by rule: the one measured best holds at T = {} only", m->steps);
  }
  if (lowRank(plan) && m && !m->lowRank) {
    g.source = "the direct form's, " + g.source + "; the low-rank form is not measured";
  }
  // The queued form as measured for the plan's own form: a low-rank plan
  // that takes the direct kind's geometry, or a packed one, keeps the
  // windows.
  g.queued = g.queued && m->lowRank == lowRank(plan) && !plan.simt().packed;
  if (lowRank(plan) && !m && spec.dims == 2) {
    // Each level also keeps its rows' intermediates in registers: at 4
    // rows a level at a time the radius-3 blur spilled (ptxas, sm_90).
    g.batch = 2;
  }
  return g;
}

/// Whether `m` measured the plan's form at T = `t`: what the split barrier
/// and the rotating ring were measured faster in.
bool measuredAt(const Plan &plan, const MeasuredFusion *m, int t) {
  return m && m->steps == t && m->lowRank == lowRank(plan);
}

/// The stream's loop of a 3D pass of `t` levels in `k` unrolled as few
/// planes as its queues need (FusedKernel::unrollPlanes), which the plan
/// says: where ring=rotate asks (Pipeline refuses it but for a 3D stencil
/// of one field), or by default where `m` measured it faster at T = `t` in
/// the plan's form.
void rotateRingWhere(const Plan &plan, const MeasuredFusion *m, FusedKernel &k, int t,
                     RingRequest ring) {
  const bool measuredRotate = ring == RingRequest::Auto && measuredAt(plan, m, t) && m->ringRotate;
  if (plan.spec.dims != 3 || t < 2 || (ring != RingRequest::Rotate && !measuredRotate)) {
    return;
  }
  k.unrollPlanes = queueUnrollPlanes(plan.spec, lowRank(plan));
  k.sharedBytes = fused3DSharedBytes(plan.spec, k, t, lowRank(plan));
  k.source += fmt::format("; its stream's loop unrolled {} planes, the ring's slots in parts that "
                          "rotate a round ({})",
                          k.unrollPlanes,
                          measuredRotate ? "measured faster for this kind on an H100"
                                         : "asked by --plan-option ring=rotate");
}

/// fusedGeometryOf, its staged input planes left out where they would not
/// fit `most` bytes of shared memory (sm_86's 99 KB): they are measured on
/// an H100, and there the pass loads into registers instead, before a
/// smaller T would; its ring rotating where asked or measured faster
/// (rotateRingWhere).
/// Under barrier=split (Pipeline refuses it before sm_90), or by default
/// for sm_90 on where `m` measured it faster at T = `t` in the plan's form,
/// a 3D pass of several levels takes the split barrier, its rings a plane
/// deeper, where that fits too.
FusedKernel fusedGeometryWithin(const Plan &plan, const MeasuredFusion *m, int t, int most,
                                const PlanOptions &options) {
  const BarrierRequest barrier = options.barrier;
  FusedKernel k = fusedGeometryOf(plan, m, t);
  if (k.stagedPlanes > 0 && k.sharedBytes > most) {
    k.sharedBytes -= stagedPlaneBytes(k, t);
    k.stagedPlanes = 0;
  }
  rotateRingWhere(plan, m, k, t, options.ring);
  const bool measuredSplit =
      measuredAt(plan, m, t) && m->splitBarrier && info(plan.target).sm >= 90;
  if (plan.spec.dims != 3 || t < 2 || barrier == BarrierRequest::Sync ||
      (barrier == BarrierRequest::Auto && !measuredSplit)) {
    return k;
  }
  FusedKernel split = k;
  split.splitBarrier = true;
  split.sharedBytes = fused3DSharedBytes(plan.spec, split, t, lowRank(plan));
  if (split.sharedBytes > most) {
    k.source += fmt::format("; a __syncthreads a plane, not the split barrier: its rings would "
                            "take {} bytes of shared memory, past the {} a block of {} may have",
                            split.sharedBytes, most, keyword(plan.target));
    return k;
  }
  if (barrier == BarrierRequest::Auto) {
    split.source += "; its planes ordered by the split barrier, measured faster for this kind on "
                    "an H100";
  }
  return split;
}

/// `m`, or where its 3D direct-form pass at its T (or the T that
/// --plan-option fuse asks) would not fit the shared memory a block of the
/// target may have (a geometry measured on sm_90, on sm_86's 99 KB), the
/// next entry of the kind whose pass does: one measured before it, in less
/// shared memory, which `why` then says. None fitting, `m` (planSimtFusion
/// then lowers T).
const MeasuredFusion *fittingMeasured(const Plan &plan, const MeasuredFusion *m,
                                      const PlanOptions &options, std::string &why) {
  if (plan.spec.dims != 3 || lowRank(plan) || !m || m->lowRank) {
    return m;
  }
  const int most = info(plan.target).maxDynamicSharedBytes;
  const int steps = options.fusedSteps > 1 ? options.fusedSteps : m->steps;
  const auto bytes = [&](const MeasuredFusion *e) {
    return fusedGeometryWithin(plan, e, steps, most, options).sharedBytes;
  };
  const int first = bytes(m);
  if (first <= most) {
    return m;
  }
  for (const MeasuredFusion *next = m;
       (next = measuredKind(plan.spec, nullptr, m->scaled, PairsRequest::Auto, next));) {
    if (bytes(next) <= most) {
      why = fmt::format("; the geometry measured best on {} ({:.1f} GStencil/s) needs {} bytes "
                        "of shared memory a block at T = {}, past the {} of {}",
                        m->device, m->gstencils, first, steps, most, keyword(plan.target));
      return next;
    }
  }
  return m;
}

} // namespace

void planSimtFusion(Plan &plan, const PlanOptions &options) {
  const StencilSpec &spec = plan.spec;
  Schedule &s = plan.schedule;
  const int asked = options.fusedSteps;
  if (settledUnfused(s, asked, unfusableAtEdge(plan))) {
    return;
  }
  // A band computes the unpaired order (planPairedOrder): no measurement of
  // the paired one applies.
  const bool band = foldsAtEdge(spec.boundary);
  std::string fitting;
  const MeasuredFusion *m = fittingMeasured(
      plan, measured(plan, band ? PairsRequest::Off : options.pairs), options, fitting);
  const int wanted = asked              ? asked
                     : !m               ? ruleSteps(spec, lowRank(plan))
                     : m->fusingGains() ? m->steps
                                        : 1;
  if (wanted == 1) {
    s.why = !lowRank(plan) || m ? unfusedWhy(spec, m) : lowRankUnfusedWhy(spec);
    return;
  }
  // The 1D and 3D kernels keep their levels in shared memory: the most T
  // whose pass fits what the target lets a block opt in to.
  const int most = info(plan.target).maxDynamicSharedBytes;
  int steps = wanted;
  const auto geometry = [&](int t) { return fusedGeometryWithin(plan, m, t, most, options); };
  FusedKernel k = geometry(steps);
  // A 3D window is at most 32 lanes of one access wide: a halo that leaves
  // it no column to store lowers T too.
  std::string lowering;
  while (k.storedColumns() < 1 && steps > 1) {
    k = geometry(--steps);
    lowering =
        fmt::format("{} fused steps leave a window of one warp's lanes no column to store", wanted);
  }
  while (k.sharedBytes > most && steps > 1) {
    k = geometry(--steps);
  }
  while (band && !fittingBand(spec, steps, plan.target) && steps > 1) {
    k = geometry(--steps);
    lowering = spec.dims == 3
                   ? fmt::format("the band of {} fused steps (T r = {}) fits no patch of {} "
                                 "rows and {}'s shared memory",
                                 wanted, wanted * spec.radius, kBandPatchRows, keyword(plan.target))
                   : fmt::format("the band of {} fused steps (T r = {}) fits no tile of 64 or "
                                 "less in {}'s shared memory",
                                 wanted, wanted * spec.radius, keyword(plan.target));
  }
  if (steps < wanted) {
    const FusedKernel asWanted = geometry(wanted);
    s.why = !lowering.empty()
                ? lowering
                : fmt::format("{} fused steps need {} bytes of shared memory a block and {} "
                              "allows {}",
                              wanted, asWanted.sharedBytes, keyword(plan.target), most);
    s.lowered = asked > 0;
    if (steps == 1) {
      return;
    }
    s.why = fmt::format("{}: {} steps fit", s.why, steps);
  }
  s.fusedSteps = steps;
  s.fused = k;
  s.fused.source += fitting;
  if (band) {
    s.fused.band = fittingBand(spec, steps, plan.target);
  }
  if (steps == wanted) {
    s.why = fusedWhy(plan, asked, m);
  }
  if (!asked && steps == wanted) {
    takeMeasuredFusedStep(plan, m);
  }
}

} // namespace stencilc
