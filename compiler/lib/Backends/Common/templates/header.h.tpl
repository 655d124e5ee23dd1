// header.h.tpl - skeletons of the generated header: the C API of each
// stencil (docs/generated-code.md) and its machine-readable description.
// Filled with fmt named arguments ({name}); literal braces are doubled.

//@ section file_head
#ifndef {guard}
#define {guard}

#include <cuda_runtime.h>
{extra_includes}
#include "stencilc/runtime/stencil_info.h"

//@ section stencil_api
/* {name}: {description}.
 * Backend {backend}; one block computes {tile_text} outputs. */
#ifdef __cplusplus
extern "C" {{
#endif

/* One time step: out = {name}(in). Device pointers to dense row-major {extent_text}
 * arrays (x contiguous). {boundary_note}
 * Returns cudaErrorInvalidValue, launching nothing, for null pointers,
 * in and out overlapping (any shared element), or a size below {min_size}.{limit_note} */
cudaError_t {name}_step(const {element}* in, {element}* out, {size_params}, cudaStream_t stream);

/* `steps` time steps ping-ponging between a and b; the result is left in a.
 * b is scratch of the same size, not overlapping a.{run_note} steps < 0 is
 * invalid.{fused_note} */
cudaError_t {name}_run({element}* a, {element}* b, {size_params}, int steps, cudaStream_t stream);

#ifdef __cplusplus
}} /* extern "C" */
#endif

/* The stencil as code can read it (offsets in index order: {offset_order}). */
static const stencilc_point {name}_points[{count}] = {{
{points}
}};

static const stencilc_stencil_info {name}_info = {{
  "{name}", /* name */
  {dims},  /* dims */
  {radius}, /* radius */
  {shape},
  {precision},
  {boundary},
  {boundary_value}, /* boundary_value */
  {count}, /* num_points */
  {name}_points,
  {backend_enum},
  {{{tile}}}, /* tile: outputs per block, in index order */
  {fused_steps}, /* fused_steps: steps {name}_run fuses a pass */
}};

//@ section file_tail
#endif /* {guard} */
