// simt.cu.tpl - what the generated code of a CUDA-core (simt) stencil holds
// besides runtime/include/stencilc/device/simt.cuh: the plan's numbers, the
// stencil's reads and coefficients, a kernel that ties them together, and
// its launch.
//
// Each `//@ section NAME` starts a piece the code generator fills with fmt
// named arguments ({name}); braces of the CUDA code are doubled ({{ }}).
// The generator (compiler/lib/Backends/Simt/SimtEmitter.cpp) writes
// `stencil` with the plan's slices in `add_plane` (one `fma` a read, or,
// for very large stencils, a `slice_looped` over the coefficient table of
// `term_tables`), and `launch` inside the shared host API (or, where
// NAME_step takes the fused kernel, `launch_fused_1d` or `launch_fused`).
// Every section is balanced: it closes each scope it opens. A plan of
// composed rank-1 passes has `rank_one` (holding a `rank_one_pass` each
// for its passes and its remainder's: traits, weights and band, by
// SimtRankOne.cpp) in place of `fused`, and NAME_run's and NAME_pass's
// bodies `run_rank_one` and `pass_rank_one`.

//@ section file_includes
#include "{header}"

#include <stencilc/device/host.cuh>

//@ section stencil
// ===== stencil {name} =====
#include <stencilc/device/simt.cuh>

namespace {namespace} {{

using namespace stencilc::device;

{boundary_value}
/// The plan's numbers; simt::Geometry (stencilc/device/simt.cuh) derives
/// the plane and item sizes from them.
struct Params {{
  using Element = {element}; // the grid's element type in memory
  using Compute = {compute}; // the arithmetic type
  using Boundary = {boundary};
  static constexpr int kRadiusZ = {radius_z}; // the streamed axis
  static constexpr int kRadiusY = {radius_y}; // rows of the plane
  static constexpr int kRadiusX = {radius_x}; // the contiguous axis
  static constexpr int kTileX = {tile_x}; // outputs per block along x
  static constexpr int kTileY = {tile_y}; // ... and along y
  static constexpr int kChunkZ = {chunk_z}; // output planes per block, at most
  static constexpr int kMinChunkZ = {min_chunk_z}; // ... and at least, unless the grid is thinner
  static constexpr long long kTargetBlocks = {target_blocks}; // fewer planes per block while the grid has fewer blocks
  static constexpr int kThreads = {threads};
  static constexpr int kOutX = {outputs_x}; // consecutive x outputs per item
  static constexpr int kHaloX = {halo_x}; // kRadiusX rounded up to a 16-byte vector
  static constexpr int kStages = {stages}; // plane buffers: 1 direct, 2 the next in registers, 3+ a cp.async ring
  static constexpr int kPrefetchBytes = {prefetch_bytes}; // L2 prefetch of each 16-byte read (0: none)
  static constexpr int kRingZ = {ring_z}; // points a step leaves unwritten at each edge
  static constexpr int kRingY = {ring_y};
  static constexpr int kRingX = {ring_x};
  {row_passes_param}
}};
constexpr int kMinSize = {min_size}; // the smallest legal extent

{term_tables}
/// The stencil as simt::step sees it: Params with the sizes derived from
/// them, and its reads of one plane.
struct Stencil : simt::Geometry<Params> {{{packed_member}
  {scale_member}
  {members}
}};

/// One time step: simt::step streams the block's planes through shared
/// memory and calls Stencil::addPlane for each item.
__global__ void __launch_bounds__(Stencil::kThreads) {kernel}(const {element}* __restrict__ in, {element}* __restrict__ out, int nz, int ny, int nx, int chunkZ) {{
{guard_begin}
  simt::step<Stencil>(in, out, nz, ny, nx, chunkZ);
{guard_end}
}}

}} // namespace {namespace}

//@ section add_plane
/// Adds input plane p's reads into an item's queue, for its output o:
/// at[dy * kPitch + dx + o] is the input at offset (dy, dx) of the
/// output, and queue entry kRadiusZ - dz takes slice dz (output plane p - dz).
static __device__ __forceinline__ void addPlane(const Element* __restrict__ at, int o, Compute (&queue)[kQueue][kOutX]) {{
  {add_plane}
}}

//@ section add_plane_paired
/// The low-rank form in the paired order (docs/generated-code.md, "Paired
/// sums"): an output adds its columns, and its rows' passes, in blocks of
/// an even index of the grid and the next where both are its, else one.
static constexpr bool kPairedSums = true;
/// Adds input plane p into an item's queue, for its output o (whose
/// column has o's parity: kTileX and kOutX are even): its terms at the
/// point, if any, then its row pass, an even plane's (pairStart) as one
/// block into the output whose rows end at p, kept in `pending`, an odd
/// plane's with the pending one, as their pair, into the outputs holding
/// both, and alone into the output whose rows start at p.
static __device__ __forceinline__ void addPlane(const Element* __restrict__ at, int o, Compute (&queue)[kQueue][kOutX], Compute &pending, bool pairStart) {{{at_point}
  const Compute pass0 = o % 2 == 0
      ? {even}
      : {odd};
  if (pairStart) {{
    queue[{end_entry}][o] = madd({c}, pass0, queue[{end_entry}][o]);
    pending = pass0;
  }} else {{
    const Compute pair = add(pending, pass0);
{pair_fmas}
    queue[{start_entry}][o] = madd({c}, pass0, queue[{start_entry}][o]);
  }}
}}

//@ section add_plane_shared_passes
/// The low-rank form's row passes of input plane p at one point of its
/// window, e = row * kTileX + column (simt::passPlane computes each once
/// for the block): at[dx] is the input at column offset dx. Each pass is
/// its first tap (a product, none for a weight of 1), then multiply-adds.
static __device__ __forceinline__ void rowPasses(const Element* __restrict__ at, Compute (*passes)[kPassSize], int e) {{
  {row_passes}
}}
/// Adds input plane p into an item's queue, for its output o, in the
/// low-rank form: pass[k * kPassSize + dy * kTileX + o] is row pass k of
/// row offset dy, at[dy * kPitch + dx + o] the input at (dy, dx).
static __device__ __forceinline__ void addPlane(const Element* __restrict__ at, const Compute* __restrict__ pass, int o, Compute (&queue)[kQueue][kOutX]) {{
  {add_plane}
}}

//@ section fused
// ===== {name}_run: {steps} steps fused a pass =====
#include <stencilc/device/{header}>

namespace {namespace} {{

/// The stencil as the fused kernel (stencilc/device/{header}) sees it: its
/// terms ({term_fields}, coefficient) in the order of the step kernel's FMAs,
/// so that a fused pass gives what as many single steps give, bit for bit.
struct FusedStencil {{
  static constexpr int kRadius = {radius};
  static constexpr int kTerms = {count};
  template <class C> static __host__ __device__ constexpr {kernel}::Term<C> term(int i) {{
    constexpr {kernel}::Term<C> kTermList[kTerms] = {{
      {terms}
    }};
    return kTermList[i];
  }}{low_rank}{packed}
  {scale_member}
}};

/// The fused kernel's numbers; {kernel}::Geometry derives the halo, the tile
/// and the rest from them.
struct FusedParams {{
  using Element = {element};
  using Compute = {compute};
  using Boundary = {boundary};
  using Stencil = FusedStencil;
  static constexpr int kSteps = {steps}; // T: steps per pass over memory
  {geometry}
}};
using Fused = {kernel}::Geometry<FusedParams>;

}} // namespace {namespace}

//@ section fused_low_rank

// The low-rank form the step kernel evaluates too (docs/generated-code.md,
// "Low-rank form"): {passes} row pass(es) along x, an intermediate per row,
// then the multiply-adds along y, in the order of the step kernel's.
static constexpr int kPasses = {passes}, kRowTaps = {row_count}, kPassTerms = {term_count};
template <class C> static __host__ __device__ constexpr fused::RowTap<C> rowTap(int i) {{
  constexpr fused::RowTap<C> kRowTapList[kRowTaps] = {{
    {row_taps}
  }};
  return kRowTapList[i];
}}
template <class C> static __host__ __device__ constexpr fused::PassTerm<C> passTerm(int i) {{
  constexpr fused::PassTerm<C> kPassTermList[kPassTerms] = {{
    {pass_terms}
  }};
  return kPassTermList[i];
}}

//@ section fused_low_rank_3d

// The 3D low-rank form the step kernel evaluates too (docs/generated-code.md,
// "Low-rank form"): {passes} row pass(es) along x, {values} plane value(s) from
// them, then the multiply-adds along z, each in the order of the step
// kernel's rowPasses and addPlane (an empty list holds one unread entry).
static constexpr int kPasses = {passes}, kRowTaps = {row_count}, kPlaneValues = {values},
                     kPlaneTaps = {plane_count}, kFormTerms = {term_count};
template <class C> static __host__ __device__ constexpr fused::RowTap<C> rowTap(int i) {{
  constexpr fused::RowTap<C> kRowTapList[kRowTaps > 0 ? kRowTaps : 1] = {{
    {row_taps}
  }};
  return kRowTapList[i];
}}
template <class C> static __host__ __device__ constexpr fused3d::PlaneTap<C> planeTap(int i) {{
  constexpr fused3d::PlaneTap<C> kPlaneTapList[kPlaneTaps > 0 ? kPlaneTaps : 1] = {{
    {plane_taps}
  }};
  return kPlaneTapList[i];
}}
template <class C> static __host__ __device__ constexpr fused3d::FormTerm<C> formTerm(int i) {{
  constexpr fused3d::FormTerm<C> kFormTermList[kFormTerms] = {{
    {form_terms}
  }};
  return kFormTermList[i];
}}

//@ section low_rank_add_plane
// The low-rank form ({ops} operations an output instead of {direct}): the
// row passes of this plane row at output o (an intermediate each: the first
// tap a product, none for a weight of 1), then each multiply-add along y into
// the queue entry of its output row p - dy.
{row_passes}
{fmas}

//@ section low_rank_add_plane_3d
// The low-rank form in 3D ({ops} operations an output instead of {direct},
// the row passes shared by the block): each plane value of this plane at
// output o from 0 (the first tap a product, none for a coefficient of 1),
// then each multiply-add along z into the queue entry of its output plane
// p - dz.
{plane_values}
{fmas}

//@ section fused_geometry_2d
static constexpr int kWidth = {width}; // a warp's strip, a halo of {halo} each side included
static constexpr int kThreads = {threads}; // a strip per warp, side by side
static constexpr int kBatch = {batch}; // rows of each level computed at a time
static constexpr int kChunkY = {chunk}; // output rows per block
static constexpr int kMinBlocks = {min_blocks}; // per multiprocessor, for the register allocator{sides}{queued}{paired}{prefetch}{band}

//@ section fused_geometry_1d
static constexpr int kWidth = {width}; // a block's segment in shared memory, a halo of {halo} each side included
static constexpr int kThreads = {threads};

//@ section fused_geometry_3d
static constexpr int kWidth = {width}; // the window's columns, a halo of {halo} each side included
static constexpr int kHeight = {height}; // the window's rows, a halo of {halo_y} each side included
static constexpr int kRows = {rows}; // rows of a thread's points of a plane
static constexpr int kThreads = {threads}; // width / columns x height / rows: sets a thread's columns
static constexpr int kBatch = {batch}; // planes of each level computed at a time
static constexpr int kChunkZ = {chunk}; // output planes per block{min_blocks}{staged}{split}{unroll}{band}

//@ section term_tables
// The reads of every slice in accumulation order (too many to unroll):
// kOffsets[t] = dy * kPitch + dx, and the coefficient rounded once.
static __device__ constexpr int kOffsets[{count}] = {{
  {offsets}
}};
static __device__ constexpr {compute} kCoefficients[{count}] = {{
  {coefficients}
}};

//@ section slice_unrolled
// slice dz = {dz}: {count} reads into queue entry {entry} (output plane p - ({dz}))
{fmas}

//@ section fma
queue[{entry}][o] = madd({coefficient}, {read}, queue[{entry}][o]);

//@ section packed_member

  /// Packed 16-bit arithmetic (--plan-option arith=packed): queue entry o,
  /// o even, holds outputs o and o + 1 as the bits of a pair (asPair).
  static constexpr bool kPackedPairs = true;

//@ section scale_member
/// Scaled coefficients (docs/generated-code.md): the terms' coefficients
/// are integers over {denominator}, and a point is their sum times kScale,
/// rounded once.
static constexpr double kScale = {factor}; // 1 / {denominator}

//@ section slice_packed
// slice dz = {dz}: {count} reads into queue entry {entry} (output plane p - ({dz})), packed:
// outputs o and o + 1 in one pair, each FMA rounded to the element type (odd o: done with o - 1)
if (o % 2 == 0) {{
  Packed<Element>::Pair acc = asPair<Element>(queue[{entry}][o]);
{fmas}
  queue[{entry}][o] = asFloat(acc);
}}

//@ section fma_packed
  acc = __hfma2(Packed<Element>::both({bits}), Packed<Element>::read(at, {index}), acc); // c = {coefficient}

//@ section fused_packed

// Packed 16-bit arithmetic (--plan-option arith=packed): each term's
// coefficient as the bits of the element type, in the order of term().
static constexpr bool kPacked = true;
static __host__ __device__ constexpr unsigned short packedBits(int i) {{
  constexpr unsigned short kBits[kTerms] = {{
    {bits}
  }};
  return kBits[i];
}}

//@ section slice_looped
// slice dz = {dz}: reads [{begin}, {end}) of the tables into queue entry {entry}
for (int t = {begin}; t < {end}; ++t) {{
  queue[{entry}][o] = madd(kCoefficients[t], toCompute(at[kOffsets[t] + o]), queue[{entry}][o]);
}}

//@ section launch
// The kernel's view of the grid: {view}.
return simt::launch<Stencil>({kernel}, in, out, {planes_z}, {rows_y}, nx, stream);

//@ section launch_fused_1d
// One level of the fused kernel, {why}.
return {fused}::step<Fused>(in, out, {size_args}, stream);

//@ section launch_fused
// One level of the fused kernel, {why}.
// The step kernel where the grid is past the fused kernel's launch limits:
if (const cudaError_t status = {fused}::step<Fused>(in, out, {size_args}, stream);
    status != cudaErrorInvalidValue) {{
  return status;
}}
{launch}

//@ section rank_one
// ===== {name}_run: {steps} steps a pass, the stencil composed (rank 1) =====
#include <stencilc/device/composed.cuh>
#include <stencilc/device/rank_one.cuh>

namespace {namespace} {{
{passes}
constexpr int kBandTile = {band_tile}; // the band's tile kernel's tile, for every pass

}} // namespace {namespace}

//@ section rank_one_pass
/// The stencil composed {steps} times, radius {halo}: its row (along x) and
/// column (along y), {taps} taps each from offset -{halo}, the {steps}-fold
/// convolutions of the stencil's, each rounded once from its exact value.
__constant__ {compute} k{traits}Row[{taps}] = {{
{row}
}};
__constant__ {compute} k{traits}Column[{taps}] = {{
{column}
}};

/// The pass's numbers (stencilc/device/rank_one.cuh), {source}.
struct {traits} {{
  using Element = {element};
  using Compute = {compute};
  static constexpr int kRadius = {halo};
  static constexpr int kColumns = {columns}, kBatch = {batch}, kRows = {rows};
  static constexpr int kThreads = {threads}, kMinBlocks = {min_blocks};
  static __device__ __forceinline__ Compute row(int k) {{ return k{traits}Row[k]; }}
  static __device__ __forceinline__ Compute column(int k) {{ return k{traits}Column[k]; }}
}};

/// One composed pass of {steps} steps over the points {halo} or more inside the
/// grid (the caller's grid is wider than {halo} twice on both axes: composed.cuh's
/// composedPass).
inline cudaError_t {launch}(const {element}* in, {element}* out, int ny, int nx, cudaStream_t stream) {{
  return stencilc::device::rank_one::launch<{traits}>(in, out, ny, nx, stream);
}}

/// The band beside each such pass: every point within {halo} of an edge,
/// {steps} steps on CUDA cores, each an x-pass and a y-pass of the stencil's own
/// row and column (band.cuh's separable levels).
{band_traits}
//@ section run_rank_one
// Passes of {steps} steps, the stencil composed (rank_one.cuh, the band beside
// each), {remainder_note}single steps for the rest; the result in a.
return stencilc::device::composed::run<Band, {remainder_band}, kBandTile>(a, b, {size_args}, steps, rankOnePass, {remainder_pass}, {name}_step, stream);

//@ section pass_rank_one
// One composed pass (steps = {steps}) or one step, in -> out.
return stencilc::device::composed::onePass<Band, kBandTile>(in, out, {size_args}, steps, rankOnePass, {name}_step, stream);
