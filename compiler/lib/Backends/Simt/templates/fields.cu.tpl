// fields.cu.tpl - the generated code of a stencil of fields (several input
// fields, coefficient fields, run-time parameters) besides
// runtime/include/stencilc/device/fields.cuh: its terms as a table, the
// kernels, the coefficients as the host folds them per call, and the C
// entry points (docs/generated-code.md, "Stencils of fields").
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
  fields::step<Stencil>(args, out, nz, ny, nx);
}}

__global__ void __launch_bounds__({ring_threads}) {name}_ring_kernel(const {element}* __restrict__ from, {element}* __restrict__ to, int nz, int ny, int nx) {{
  fields::copyRing<Stencil>(from, to, nz, ny, nx);
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

//@ section coefficients
extern "C" void {name}_coefficients({param_params_first}double* stencilc_k) {{
{coefficient_lines}
}}

//@ section step
extern "C" cudaError_t {name}_step({field_params_const}, {element}* out, {size_params}{param_params}, cudaStream_t stream) {{
  using namespace {namespace};
  const size_t stencilc_bytes = {size_product} * sizeof({element});
  // Null, too small, or out overlapping any field (any shared byte).
  if ({null_checks} || out == nullptr || {size_too_small} ||
      {overlap_checks}) {{
    return cudaErrorInvalidValue;
  }}
  return {namespace}::launch({namespace}::arguments({field_list}{param_args}), out, {grid_z}, {grid_y}, nx, stream);
}}

//@ section run
extern "C" cudaError_t {name}_run({field_params_run}, {element}* scratch, {size_params}{param_params}, int steps, cudaStream_t stream) {{
  using namespace {namespace};
  const size_t stencilc_bytes = {size_product} * sizeof({element});
  if ({null_checks} || scratch == nullptr || {size_too_small} || steps < 0 ||
      {run_overlap_checks}) {{
    return cudaErrorInvalidValue;
  }}
  if (steps == 0) {{
    return cudaSuccess;
  }}
  cudaError_t stencilc_status = cudaSuccess;
{ring_copy}
  {element}* stencilc_from = {stepped};
  {element}* stencilc_to = scratch;
  for (int stencilc_step = 0; stencilc_step < steps; ++stencilc_step) {{
    stencilc_status = {namespace}::launch({namespace}::arguments({run_field_list}{param_args}), stencilc_to, {grid_z}, {grid_y}, nx, stream);
    if (stencilc_status != cudaSuccess) {{
      return stencilc_status;
    }}
    {element}* stencilc_last = stencilc_from;
    stencilc_from = stencilc_to;
    stencilc_to = stencilc_last;
  }}
  if (steps % 2 == 1) {{ // the result is left in {stepped}
    stencilc_status = cudaMemcpyAsync({stepped}, scratch, stencilc_bytes, cudaMemcpyDeviceToDevice, stream);
  }}
  return stencilc_status;
}}

//@ section run_time
extern "C" cudaError_t {name}_run({field_params_run}, {element}* scratch, {size_params}{param_params}, int steps, cudaStream_t stream) {{
  using namespace {namespace};
  const size_t stencilc_bytes = {size_product} * sizeof({element});
  if ({null_checks} || scratch == nullptr || {size_too_small} || steps < 0 ||
      {run_overlap_checks}) {{
    return cudaErrorInvalidValue;
  }}
  if (steps == 0) {{
    return cudaSuccess;
  }}
  cudaError_t stencilc_status = cudaSuccess;
{ring_copy}
  // The levels rotate through three buffers: step s (from 1) reads the
  // current level in level[s % 3] and the previous one in level[(s - 1) % 3]
  // and writes level[(s + 1) % 3].
  {element}* stencilc_level[3] = {{{previous}, {stepped}, scratch}};
  for (int stencilc_step = 1; stencilc_step <= steps; ++stencilc_step) {{
    const {element}* stencilc_current = stencilc_level[stencilc_step % 3];
    const {element}* stencilc_previous = stencilc_level[(stencilc_step - 1) % 3];
    stencilc_status = {namespace}::launch({namespace}::arguments({run_field_list}{param_args}), stencilc_level[(stencilc_step + 1) % 3], {grid_z}, {grid_y}, nx, stream);
    if (stencilc_status != cudaSuccess) {{
      return stencilc_status;
    }}
  }}
  // Leave the newest level in {stepped} and the one before in {previous}.
  if (steps % 3 == 1) {{
    stencilc_status = cudaMemcpyAsync({previous}, {stepped}, stencilc_bytes, cudaMemcpyDeviceToDevice, stream);
    if (stencilc_status == cudaSuccess) {{
      stencilc_status = cudaMemcpyAsync({stepped}, scratch, stencilc_bytes, cudaMemcpyDeviceToDevice, stream);
    }}
  }} else if (steps % 3 == 2) {{
    stencilc_status = cudaMemcpyAsync({stepped}, {previous}, stencilc_bytes, cudaMemcpyDeviceToDevice, stream);
    if (stencilc_status == cudaSuccess) {{
      stencilc_status = cudaMemcpyAsync({previous}, scratch, stencilc_bytes, cudaMemcpyDeviceToDevice, stream);
    }}
  }}
  return stencilc_status;
}}

//@ section ring_copy_fixed
  // boundary fixed: scratch starts as a copy of {stepped}, so the ring stays fixed.
  stencilc_status = cudaMemcpyAsync(scratch, {stepped}, stencilc_bytes, cudaMemcpyDeviceToDevice, stream);
  if (stencilc_status != cudaSuccess) {{
    return stencilc_status;
  }}

//@ section ring_copy_fixed_time
  // boundary fixed: scratch starts as a copy of {stepped} and {previous} takes
  // its ring, so every level has the ring of {stepped}.
  stencilc_status = cudaMemcpyAsync(scratch, {stepped}, stencilc_bytes, cudaMemcpyDeviceToDevice, stream);
  if (stencilc_status == cudaSuccess) {{
    stencilc_status = {namespace}::copyRing({stepped}, {previous}, {grid_z}, {grid_y}, nx, stream);
  }}
  if (stencilc_status != cudaSuccess) {{
    return stencilc_status;
  }}
