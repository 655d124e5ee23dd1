// host_api.cu.tpl - what every generated stencil has, whatever its backend
// and dimension: the C entry points (argument validation,
// the launch, filled in by the backend, and the NAME_run ping-pong) and the
// constant of a constant boundary.
// Filled with fmt named arguments ({name}); literal braces are doubled.

//@ section host_api
extern "C" cudaError_t {name}_step(const {element}* in, {element}* out, {size_params}, cudaStream_t stream) {{
  using namespace {namespace};
  if (in == nullptr || out == nullptr || in == out || {size_too_small}) {{
    return cudaErrorInvalidValue;
  }}
  {launch}
}}

extern "C" cudaError_t {name}_run({element}* a, {element}* b, {size_params}, int steps, cudaStream_t stream) {{
  using namespace {namespace};
  if (a == nullptr || b == nullptr || a == b || {size_too_small} || steps < 0) {{
    return cudaErrorInvalidValue;
  }}
  if (steps == 0) {{
    return cudaSuccess;
  }}
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
}}

//@ section ring_copy_fixed
// boundary fixed: b starts as a copy of a, so its ring equals a's for every step.
status = cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
if (status != cudaSuccess) {{
  return status;
}}

//@ section boundary_value
/// boundary constant {value_text}: what a read outside the grid gives.
struct BoundaryValue {{
  static constexpr {type} value = {literal};
}};
