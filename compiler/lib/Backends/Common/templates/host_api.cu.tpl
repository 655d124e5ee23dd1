// host_api.cu.tpl - what every generated stencil has, whatever its backend
// and dimension: the C entry points (argument validation with
// stencilc/device/host.cuh, the launch, filled in by the backend, and
// NAME_run: the ping-pong of single steps, or the fused kernel's passes;
// NAME_pass: one of those passes out of place; NAME_pass_range: one that
// stores a range of rows or planes only, where the CUDA cores run the pass
// in 2D or 3D) and the constant of a constant boundary.
// Filled with fmt named arguments ({name}); literal braces are doubled.

//@ section host_api
extern "C" cudaError_t {name}_step(const {element}* in, {element}* out, {size_params}, cudaStream_t stream) {{
  using namespace {namespace};
  // Null, too small, or overlapping (any shared byte, not only in == out).
  if (in == nullptr || out == nullptr || {size_too_small} ||
      stencilc::device::overlaps(in, out, {size_product} * sizeof({element}))) {{
    return cudaErrorInvalidValue;
  }}
  {launch}
}}

extern "C" cudaError_t {name}_run({element}* a, {element}* b, {size_params}, int steps, cudaStream_t stream) {{
  using namespace {namespace};
  if (a == nullptr || b == nullptr || {size_too_small} || steps < 0 ||
      stencilc::device::overlaps(a, b, {size_product} * sizeof({element}))) {{
    return cudaErrorInvalidValue;
  }}
  if (steps == 0) {{
    return cudaSuccess;
  }}
  {run}
}}

extern "C" cudaError_t {name}_pass(const {element}* in, {element}* out, {size_params}, int steps, cudaStream_t stream) {{
  using namespace {namespace};
  if (in == nullptr || out == nullptr || {size_too_small} || steps < 1 ||
      stencilc::device::overlaps(in, out, {size_product} * sizeof({element}))) {{
    return cudaErrorInvalidValue;
  }}
  {pass}
}}
{pass_range}
//@ section pass_steps
// One step; a fixed boundary's ring is copied first (the step does not write it).
if (steps != 1) {{
  return cudaErrorInvalidValue;
}}
{ring_copy}
return {name}_step(in, out, {size_args}, stream);

//@ section pass_fused
// One launch of the fused kernel, in -> out.
return {kernel}::onePass<Fused>(in, out, {size_args}, steps, stream);

//@ section pass_range
extern "C" cudaError_t {name}_pass_range(const {element}* in, {element}* out, {size_params}, int first, int count, int steps, cudaStream_t stream) {{
  using namespace {namespace};
  // As {name}_pass, and {outer} [first, first + count) not empty and inside [0, {extent}).
  if (in == nullptr || out == nullptr || {size_too_small} || steps < 1 ||
      !stencilc::device::validRange(first, count, {extent}) ||
      stencilc::device::overlaps(in, out, {size_product} * sizeof({element}))) {{
    return cudaErrorInvalidValue;
  }}
  {body}
}}

//@ section pass_range_fused
// One launch of the fused kernel, in -> out, storing {outer} [first, first + count).
return {kernel}::onePassRange<Fused>(in, out, {size_args}, first, count, steps, stream);

//@ section pass_range_steps
// One step storing {outer} [first, first + count){ring_note}.
if (steps != 1) {{
  return cudaErrorInvalidValue;
}}
return simt::launchRange<Stencil>(in, out, {view}, first, count, stream);

//@ section run_steps
const size_t bytes = {size_product} * sizeof({element});
cudaError_t status = cudaSuccess;
{ring_copy}
for (int step = 0; step < steps; ++step) {{
  const {element}* from = step % 2 == 0 ? a : b;
  {element}* to = step % 2 == 0 ? b : a;
  status = {name}_step(from, to, {size_args}, stream);
  if (status != cudaSuccess) {{
    return status;
  }}
}}
if (steps % 2 == 1) {{ // the result is left in a
  status = cudaMemcpyAsync(a, b, bytes, cudaMemcpyDeviceToDevice, stream);
}}
return status;

//@ section run_fused
// Passes of {steps} fused steps and one of the remainder; the result in a.
return {kernel}::run<Fused>(a, b, {size_args}, steps, stream);

//@ section run_fused_band
// Passes of {steps} fused steps and one of the remainder, each the fused
// kernel and then the band (the points within T r of an edge, step by step:
// fused_band.cuh); the result in a.
return {kernel}::runBanded<Fused>(a, b, {size_args}, steps, stream);

//@ section pass_fused_band
// One pass of the fused kernel, then the band (fused_band.cuh), in -> out.
return {kernel}::onePassBanded<Fused>(in, out, {size_args}, steps, stream);

//@ section ring_copy_fixed
// boundary fixed: b starts as a copy of a, so its ring equals a's for every step.
status = cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
if (status != cudaSuccess) {{
  return status;
}}

//@ section ring_copy_pass
// boundary fixed: out starts as a copy of in, so its ring equals in's.
if (const cudaError_t status = cudaMemcpyAsync(out, in, {size_product} * sizeof({element}), cudaMemcpyDeviceToDevice, stream);
    status != cudaSuccess) {{
  return status;
}}

//@ section boundary_value
/// boundary constant {value_text}: what a read outside the grid gives.
struct BoundaryValue {{
  static constexpr {type} value = {literal};
}};

//@ section band_traits
struct {band} {{
  using Element = {element};
  using Compute = {compute};
  using Boundary = stencilc::device::{boundary};
  static constexpr stencilc_boundary kBoundaryKind = {boundary_kind};
  static constexpr int kRadius = {radius};
  static constexpr int kSteps = {steps};
  static constexpr int kRing = {ring}; // points a step leaves unwritten at each edge
  template <class F> static __device__ __forceinline__ void points(F&& f) {{
{points}
  }}{members}
}};
