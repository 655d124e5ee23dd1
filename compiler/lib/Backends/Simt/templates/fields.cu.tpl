// fields.cu.tpl - the CUDA-core kernels of a stencil of fields (several input
// fields, coefficient fields, run-time parameters) besides
// runtime/include/stencilc/device/fields.cuh: its terms as a table, the
// kernels and their launch; the entry points are Common's
// (fields_host.cu.tpl; docs/generated-code.md, "Stencils of fields").
//
// Filled by compiler/lib/Backends/Simt/FieldsEmitter.cpp with fmt named
// arguments ({name}); braces of the CUDA code are doubled ({{ }}). Every
// section is balanced: it closes each scope it opens.

//@ section stencil
// ===== stencil {name} =====
#include <stencilc/device/fields.cuh>

namespace {namespace} {{

using namespace stencilc::device;
{boundary_value}
struct Stencil {{
  using Element = {element};
  using Compute = {compute};
  using Boundary = {boundary};
  static constexpr int kFields = {field_count};
  static constexpr int kTermCount = {term_count};
  static constexpr int kSteppedField = {stepped_field};   // the field a step moves on
  static constexpr int kPreviousField = {previous_field}; // its level before (time levels), or -1
  static constexpr bool kSources = {sources}; // point sources (`source u;`): a fused pass adds them
  // field, dz, dy, dx, coefficient field (-1: none), cz, cy, cx
  static constexpr fields::FieldTerm kTerms[kTermCount] = {{
{terms}
  }};
  static constexpr int kThreadsX = {threads_x};
  static constexpr int kThreadsY = {threads_y};
  static constexpr int kChunkZ = {chunk_z};
  static constexpr int kChunkAxis = {chunk_axis};
  static constexpr int kRingZ = {ring_z};
  static constexpr int kRingY = {ring_y};
  static constexpr int kRingX = {ring_x};
  static constexpr int kPlaneField = {plane_field};
  static constexpr int kPlaneTileX = {plane_tile_x};
  static constexpr int kPlaneTileY = {plane_tile_y};
  static constexpr int kPlaneThreads = {plane_threads};
  static constexpr int kPlanesZ = {planes_z};
  static constexpr int kPlanesAhead = {planes_ahead};
}};
constexpr int kMinSize = {min_size};

__global__ void __launch_bounds__({threads}) {name}_fields_kernel(fields::Args<Stencil> args, {element}* __restrict__ out, int nz, int ny, int nx) {{
{guard_begin}
  fields::step<Stencil>(args, out, nz, ny, nx);
{guard_end}
}}

__global__ void __launch_bounds__({ring_threads}) {name}_ring_kernel(const {element}* __restrict__ from, {element}* __restrict__ to, int nz, int ny, int nx) {{
{guard_begin}
  fields::copyRing<Stencil>(from, to, nz, ny, nx);
{guard_end}
}}

/// One step over an nz x ny x nx view of the grids.
inline cudaError_t launch(const fields::Args<Stencil>& args, {element}* out, int nz, int ny, int nx, cudaStream_t stream) {{
  return fields::launchStep<Stencil>({name}_fields_kernel, args, out, nz, ny, nx, stream);
}}

/// Copies the ring a fixed step leaves unwritten from `from` to `to`.
inline cudaError_t copyRing(const {element}* from, {element}* to, int nz, int ny, int nx, cudaStream_t stream) {{
  dim3 grid, block;
  if (!fields::launchGrid<Stencil>(nz, ny, nx, grid, block)) {{
    return cudaErrorInvalidValue;
  }}
  {name}_ring_kernel<<<grid, block, 0, stream>>>(from, to, nz, ny, nx);
  return cudaGetLastError();
}}

/// The arguments of a step: the fields and the coefficients for the
/// parameters' values, each rounded once to the arithmetic type.
inline fields::Args<Stencil> arguments({field_params_const}{param_params}) {{
  fields::Args<Stencil> stencilc_args = {{{{{field_list}}}, {{}}}};
  double stencilc_k[Stencil::kTermCount];
  {name}_coefficients({param_args_first}stencilc_k);
  for (int stencilc_t = 0; stencilc_t < Stencil::kTermCount; ++stencilc_t) {{
    stencilc_args.k[stencilc_t] = static_cast<Stencil::Compute>(stencilc_k[stencilc_t]);
  }}
  return stencilc_args;
}}

}} // namespace {namespace}

//@ section fused
// ===== {name}_run: {steps} steps fused a pass =====
#include <stencilc/device/fields_run.cuh>

namespace {namespace} {{

/// The fused kernel's numbers (stencilc/device/{kernel_header}); {base_geometry}
/// derives the halo, the tile and the rest from them. The window carries
/// {stepped} only, whose reads reach {radius}.
struct FusedParams {{
  using Fields = {namespace}::Stencil;
  using Element = {element};
  using Compute = {compute};
  using Boundary = {boundary};
  {stencil_reads}
  static constexpr int kSteps = {steps}; // T: steps per pass over memory
  {geometry}
}};
using FusedGeometry = {geometry_type}<FusedParams>;
// NAME_run fuses grids of this many points and more, one step a launch below.
constexpr long long kFusedMinPoints = {min_points};

}} // namespace {namespace}
