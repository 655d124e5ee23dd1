/* stencil_info.h - the machine-readable description of a generated stencil.
 *
 * Every generated header defines one `static const stencilc_stencil_info
 * NAME_info` describing its stencil: what the spec says (dimension, radius,
 * shape, precision, boundary, coefficients) and what the plan chose (backend,
 * tile, the steps NAME_run fuses a pass). The runtime's reference implementation, the GPU tests and
 * the benchmark read stencils through it. Plain C so any language can use it. */
#ifndef STENCILC_RUNTIME_STENCIL_INFO_H
#define STENCILC_RUNTIME_STENCIL_INFO_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum stencilc_precision {
  STENCILC_FP16 = 0,
  STENCILC_BF16 = 1,
  STENCILC_TF32 = 2,
  STENCILC_FP32 = 3,
  STENCILC_FP64 = 4
} stencilc_precision;

typedef enum stencilc_shape { STENCILC_STAR = 0, STENCILC_BOX = 1 } stencilc_shape;

typedef enum stencilc_boundary {
  STENCILC_BOUNDARY_FIXED = 0,
  STENCILC_BOUNDARY_CONSTANT = 1,
  STENCILC_BOUNDARY_PERIODIC = 2,
  STENCILC_BOUNDARY_CLAMP = 3,  /* reads outside repeat the edge point */
  STENCILC_BOUNDARY_MIRROR = 4, /* reads outside reflect, edge repeated */
  STENCILC_BOUNDARY_REFLECT = 5 /* reads outside reflect, edge not repeated */
} stencilc_boundary;

typedef enum stencilc_backend {
  STENCILC_BACKEND_TENSOR = 0,
  STENCILC_BACKEND_SIMT = 1
} stencilc_backend;

/* One read of the input: offsets in index order (outermost first; unused
 * trailing components are 0) and the coefficient as folded by the compiler
 * (double; kernels round it once to their operand type). */
typedef struct stencilc_point {
  int offset[3];
  double coefficient;
} stencilc_point;

typedef struct stencilc_stencil_info {
  const char *name;
  int dims;   /* 1, 2 or 3 */
  int radius; /* largest absolute offset */
  stencilc_shape shape;
  stencilc_precision precision;
  stencilc_boundary boundary;
  double boundary_value; /* for STENCILC_BOUNDARY_CONSTANT */
  int num_points;
  const stencilc_point *points;
  stencilc_backend backend;
  int tile[3];     /* output points one block computes, in index order */
  int fused_steps; /* steps NAME_run fuses into one pass over memory (1: none) */
  /* 1 where NAME_run's passes run the steps composed (the tensor cores'
   * composed passes, the CUDA cores' composed rank-1 passes), which round
   * otherwise than as many NAME_step calls (docs/generated-code.md); 0 where
   * NAME_run gives what they give, bit for bit. */
  int run_composed;
} stencilc_stencil_info;

/* A stencil of fields (docs/language.md): each term is its coefficient (the
 * k[t] NAME_coefficients gives for the parameters) times, where
 * coefficient_field >= 0, that field read at coefficient_offset, times the
 * input field `field` read at `offset`. Offsets in index order. */
typedef struct stencilc_field_term {
  int field;
  int offset[3];
  int coefficient_field;
  int coefficient_offset[3];
} stencilc_field_term;

/* The fields of a stencil of fields, in declaration order (the order of the
 * pointers), its parameters, its terms and its steps: NAME_run steps
 * `stepped_field`; with time levels, previous_field is the level before it
 * (-1 without). */
typedef struct stencilc_fields_info {
  int num_fields;
  const char *const *field_names;
  const int *field_is_coefficient;
  int num_params;
  const char *const *param_names;
  int num_terms;
  const stencilc_field_term *terms;
  int stepped_field;
  int previous_field;
} stencilc_fields_info;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STENCILC_RUNTIME_STENCIL_INFO_H */
