// fields_host.cu.tpl - the C entry points of a stencil of fields, whichever
// backend runs its kernels: the coefficients as the host folds them per call
// (NAME_coefficients), NAME_step and NAME_run (docs/generated-code.md,
// "Stencils of fields"). They call the `launch` and `copyRing` of the
// stencil's namespace, which its backend writes.
//
// Filled by compiler/lib/Backends/Common/FieldsHostApi.cpp with fmt named
// arguments ({name}); braces of the CUDA code are doubled ({{ }}). Every
// section is balanced: it closes each scope it opens.

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
extern "C" cudaError_t {name}_run({field_params_run}, {element}* scratch, {size_params}{run_param_params}, int steps, cudaStream_t stream) {{
  using namespace {namespace};
  const size_t stencilc_bytes = {size_product} * sizeof({element});
  if ({run_null_checks} || scratch == nullptr || {size_too_small} || steps < 0 ||
      {run_overlap_checks}) {{
    return cudaErrorInvalidValue;
  }}
  if (steps == 0) {{
    return cudaSuccess;
  }}{fused_dispatch}
  cudaError_t stencilc_status = cudaSuccess;
{run_setup}
{ring_copy}
  {element}* stencilc_from = {stepped};
  {element}* stencilc_to = scratch;
  for (int stencilc_step = 0; stencilc_step < steps; ++stencilc_step) {{
    stencilc_status = {namespace}::launch({namespace}::arguments({run_field_list}{run_param_args}), stencilc_to, {grid_z}, {grid_y}, nx, stream);
    if (stencilc_status != cudaSuccess) {{
      return stencilc_status;
    }}{after_step}
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
extern "C" cudaError_t {name}_run({field_params_run}, {element}* scratch, {size_params}{run_param_params}, int steps, cudaStream_t stream) {{
  using namespace {namespace};
  const size_t stencilc_bytes = {size_product} * sizeof({element});
  if ({run_null_checks} || scratch == nullptr || {size_too_small} || steps < 0 ||
      {run_overlap_checks}) {{
    return cudaErrorInvalidValue;
  }}
  if (steps == 0) {{
    return cudaSuccess;
  }}{fused_dispatch}
  cudaError_t stencilc_status = cudaSuccess;
{run_setup}
{ring_copy}
  // The levels rotate through three buffers: step s (from 1) reads the
  // current level in level[s % 3] and the previous one in level[(s - 1) % 3]
  // and writes level[(s + 1) % 3].
  {element}* stencilc_level[3] = {{{previous}, {stepped}, scratch}};
  for (int stencilc_step = 1; stencilc_step <= steps; ++stencilc_step) {{
    const {element}* stencilc_current = stencilc_level[stencilc_step % 3];
    const {element}* stencilc_previous = stencilc_level[(stencilc_step - 1) % 3];
    stencilc_status = {namespace}::launch({namespace}::arguments({run_field_list}{run_param_args}), stencilc_level[(stencilc_step + 1) % 3], {grid_z}, {grid_y}, nx, stream);
    if (stencilc_status != cudaSuccess) {{
      return stencilc_status;
    }}{after_step}
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

//@ section run_fused_declaration
// {name}_run's fused passes, for grids of kFusedMinPoints points and more
// (defined after it).
static cudaError_t stencilc_{name}_run_fused({field_params_run}, {element}* scratch, {size_params}{run_param_params}, int steps, cudaStream_t stream);

//@ section fused_dispatch

// {fused_steps} steps fused a pass {where}.
if (static_cast<long long>({grid_z}) * {grid_y} * nx >= {namespace}::kFusedMinPoints) {{
  return stencilc_{name}_run_fused({run_arg_names});
}}
//@ section run_fused
// {name}_run with fused passes: its arguments checked by {name}_run.
static cudaError_t stencilc_{name}_run_fused({field_params_run}, {element}* scratch, {size_params}{run_param_params}, int steps, cudaStream_t stream) {{
  cudaError_t stencilc_status = cudaSuccess;
{run_setup}
  // Step stencilc_s's arguments (from 0) with these levels as the inputs:
  // its coefficients folded from its parameters' values.
  const auto stencilc_step_args = [&](int stencilc_s, const {element}* {current_param}, const {element}* {previous_param}) {{
    [[maybe_unused]] const int stencilc_step = stencilc_s{step_shift};
    return {namespace}::arguments({run_field_list}{run_param_args});
  }};
  // {fused_steps} steps fused a pass (stencilc/device/fields_run.cuh).
  stencilc_status = stencilc::device::fields::runFields<{namespace}::FusedGeometry>({stepped}, {previous_or_null}, scratch, {grid_z}, {grid_y}, nx, steps, stencilc_step_args, {sources}, stencilc::device::fields::RunReceivers<{element}>{{{receivers}}}, stream);
  return stencilc_status;
}}

//@ section per_step_values
  // {param} has a value a step: the host folds each step's coefficients from
  // it, so values in device memory are first copied here (per_step.cuh).
  stencilc::device::PerStepValues stencilc_per_step_{param};
  stencilc_status = stencilc_per_step_{param}.take({param}, steps, stream);
  if (stencilc_status != cudaSuccess) {{
    return stencilc_status;
  }}

//@ section receivers_check
  // The receivers (receivers.cuh): refused here where the host can read
  // them; in device memory, the gather kernel checks each point. Invalid:
  // a point outside the grid, or on the ring a step leaves unwritten at each
  // edge (the last three arguments, per axis z, y, x; boundary fixed only).
  stencilc_status = stencilc::device::checkReceivers<{dims}>(receivers, receiver_count, records, {grid_z}, {grid_y}, nx, {ring});
  if (stencilc_status != cudaSuccess) {{
    return stencilc_status;
  }}

//@ section sources_check
  // The sources (sources.cuh): every point read by the host and refused
  // here if a step does not write it (outside the grid, or on the ring a
  // step leaves unwritten at each edge: the last three arguments, per axis
  // z, y, x; boundary fixed only), before anything is launched.
  const stencilc::device::SourceList stencilc_sources{{sources, source_count, amplitudes}};
  stencilc_status = stencilc::device::checkSources<{dims}>(stencilc_sources, {grid_z}, {grid_y}, nx, {ring}, stream);
  if (stencilc_status != cudaSuccess) {{
    return stencilc_status;
  }}

//@ section inject_step
// This step's sources added to the level it wrote.
stencilc_status = stencilc::device::injectSources<{dims}>({level}, stencilc_sources, {row}, {grid_z}, {grid_y}, nx, stream);
if (stencilc_status != cudaSuccess) {{
  return stencilc_status;
}}

//@ section record_step
// The level this step wrote, at each receiver, into row {row} of records.
stencilc_status = stencilc::device::recordReceivers<{dims}>({level}, receivers, receiver_count, records + static_cast<size_t>({row}) * static_cast<size_t>(receiver_count), {grid_z}, {grid_y}, nx, {ring}, stream);
if (stencilc_status != cudaSuccess) {{
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
