// fields.h.tpl - the C API of a stencil of fields in the generated header
// (docs/generated-code.md, "Stencils of fields"). Filled by
// compiler/lib/Backends/Common/FieldsHostApi.cpp; literal braces are doubled.

//@ section api
/* {name}: {description}.
 * Fields, in the order of the pointers: {field_text}.
{term_text} * Backend {backend_text}; {fused_text}. */
#ifdef __cplusplus
extern "C" {{
#endif

/* The terms' coefficients (their first factors) for these parameter values,
 * in double, in the order above: {term_count} values into stencilc_k. The
 * kernels round each once to their arithmetic type. */
void {name}_coefficients({param_params_first}double* stencilc_k);

/* One step: out = {name}(fields). Device pointers to dense row-major {extent_text}
 * arrays (x contiguous); no field is written. {boundary_note}
 * Returns cudaErrorInvalidValue, launching nothing, for a null pointer, out
 * overlapping any field, or a size below {min_size}.{limit_note} */
cudaError_t {name}_step({field_params_const}, {element}* out, {size_params}{param_params}, cudaStream_t stream);

/* `steps` steps{run_what}
 * scratch is a grid of the same size; no two of the written buffers
 * ({written}) and no written buffer and field may overlap. steps < 0 is
 * invalid.{run_note} */
cudaError_t {name}_run({field_params_run}, {element}* scratch, {size_params}{run_param_params}, int steps, cudaStream_t stream);

#ifdef __cplusplus
}} /* extern "C" */
#endif

/* The stencil's shape (its terms are listed above; num_points is 0). */
static const stencilc_stencil_info {name}_info = {{
  "{name}", /* name */
  {dims},  /* dims */
  {radius}, /* radius */
  {shape},
  {precision},
  {boundary},
  {boundary_value}, /* boundary_value */
  0, /* num_points: a stencil of fields lists its terms in the comment above */
  0, /* points */
  {backend_enum},
  {{{tile}}}, /* tile: outputs per block, in index order */
  {fused_steps}, /* fused_steps */
  0, /* run_composed */
}};

/* The fields, parameters and terms as code can read them. */
static const char *const {name}_field_names[{field_count}] = {{{field_names}}};
static const int {name}_field_is_coefficient[{field_count}] = {{{field_roles}}};
{param_names_array}
{per_step_array}
static const stencilc_field_term {name}_terms[{term_count}] = {{
{term_table}
}};
static const stencilc_fields_info {name}_fields_info = {{
  {field_count}, {name}_field_names, {name}_field_is_coefficient,
  {param_count}, {param_names_ref},
  {term_count}, {name}_terms,
  {stepped_field}, {previous_field},
}};
