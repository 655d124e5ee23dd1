// header.h.tpl - skeletons of the generated header: the C API of each
// stencil (docs/generated-code.md) and its machine-readable description.
// Filled with fmt named arguments ({name}); literal braces are doubled.

//@ section file_head
#ifndef {guard}
#define {guard}

#include <cuda_runtime.h>
{extra_includes}
#include "stencilc/runtime/stencil_info.h"
#ifdef STENCILC_DIST
#include "stencilc/dist/dist.h"
#endif

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

/* One pass over memory: `steps` time steps from in into out ({pass_note});
 * in is never written, out is the result (with a fixed boundary, the ring of
 * in). For callers that alternate the buffers themselves, as the distributed
 * runtime does. Returns cudaErrorInvalidValue, launching nothing, for what
 * {name}_step refuses or another step count. */
cudaError_t {name}_pass(const {element}* in, {element}* out, {size_params}, int steps, cudaStream_t stream);
{pass_range}

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
  {run_composed}, /* run_composed: {name}_run's passes compose the steps */
}};

//@ section pass_range
/* {name}_pass storing only {outer} [first, first + count) of out;
 * every other point of out is left as it was. in is read wherever the
 * steps reach, its edges being the grid's.{ring}
 * Returns cudaErrorInvalidValue, launching nothing, for what {name}_pass
 * refuses or a range that is empty or leaves [0, {size}). */
cudaError_t {name}_pass_range(const {element}* in, {element}* out, {size_params}, int first, int count, int steps, cudaStream_t stream);

//@ section pass_range_dist
static inline cudaError_t {name}_dist_pass_range_sizes(const void *in, void *out, const int *n,
                                                       int first, int count, int steps,
                                                       cudaStream_t stream) {{
  return {name}_pass_range((const {element} *)in, ({element} *)out, {size_elements}, first, count,
                           steps, stream);
}}

//@ section stencil_dist
#ifdef STENCILC_DIST
/* {name} over the ranks of an MPI communicator (stencilc's docs/distributed.md):
 * wrappers of the distributed runtime, declared where STENCILC_DIST is defined
 * (linking stencilc::dist, or stencilc_add_library(... DIST), defines it). */
static inline cudaError_t {name}_dist_run_sizes(void *a, void *b, const int *n, int steps,
                                                cudaStream_t stream) {{
  return {name}_run(({element} *)a, ({element} *)b, {size_elements}, steps, stream);
}}
static inline cudaError_t {name}_dist_pass_sizes(const void *in, void *out, const int *n, int steps,
                                                 cudaStream_t stream) {{
  return {name}_pass((const {element} *)in, ({element} *)out, {size_elements}, steps, stream);
}}
{pass_range_wrapper}
static inline stencilc_dist_status {name}_dist_create(MPI_Comm comm, const int *global,
                                                      const int *grid, stencilc_dist_plan *plan) {{
  stencilc_dist_stencil stencil;
  stencil.info = &{name}_info;
  stencil.run = {name}_dist_run_sizes;
  stencil.pass = {name}_dist_pass_sizes;
  stencil.pass_range = {pass_range_pointer};
  stencil.element_size = sizeof({element});
  return stencilc_dist_create(&stencil, comm, global, grid, plan);
}}
static inline stencilc_dist_status {name}_dist_local_extent(stencilc_dist_plan plan, int *local,
                                                            int *owned_offset, int *owned,
                                                            int *global_start) {{
  return stencilc_dist_local_extent(plan, local, owned_offset, owned, global_start);
}}
static inline stencilc_dist_status {name}_dist_run(stencilc_dist_plan plan, {element} *a,
                                                   {element} *b, int steps, cudaStream_t stream) {{
  return stencilc_dist_run(plan, a, b, steps, stream);
}}
static inline stencilc_dist_status {name}_dist_scatter(stencilc_dist_plan plan,
                                                       const {element} *global, {element} *local) {{
  return stencilc_dist_scatter(plan, global, local);
}}
static inline stencilc_dist_status {name}_dist_gather(stencilc_dist_plan plan,
                                                      const {element} *local, {element} *global) {{
  return stencilc_dist_gather(plan, local, global);
}}
static inline void {name}_dist_destroy(stencilc_dist_plan plan) {{ stencilc_dist_destroy(plan); }}
#endif /* STENCILC_DIST */

//@ section file_tail
#endif /* {guard} */
