// broken.h - stand-ins that each break one rule of the contract, to show
// the GPU harness catches it. All are heat2d (fp32, fixed) behind the
// generated API; each .cu function breaks exactly what its name says.
#pragma once

#include <cuda_runtime_api.h>

#include "stencilc/runtime/stencil_info.h"

// Like the good stand-ins, these have NAME_step and NAME_run only (the
// harness then checks no NAME_pass).
#define STENCILC_LIST_WITHOUT_PASS

static const stencilc_point broken_points[5] = {
    {{-1, 0, 0}, 0.125}, {{0, -1, 0}, 0.125}, {{0, 0, 0}, 0.5},
    {{0, 1, 0}, 0.125},  {{1, 0, 0}, 0.125},
};

// clang-format off
#define BROKEN_INFO(name)                                                                      \
  static const stencilc_stencil_info name##_info = {                                           \
      #name, 2, 1, STENCILC_STAR, STENCILC_FP32, STENCILC_BOUNDARY_FIXED, 0.0,                 \
      5, broken_points, STENCILC_BACKEND_SIMT, {4, 64, 0}, 1};
// clang-format on

BROKEN_INFO(writes_ring)    // NAME_step also writes the corner of the ring
BROKEN_INFO(skips_point)    // NAME_step leaves the last interior point unwritten
BROKEN_INFO(wrong_weight)   // the kernel's right-neighbour weight is 0.126, not 0.125
BROKEN_INFO(accepts_alias)  // NAME_step accepts in == out
BROKEN_INFO(odd_steps_in_b) // NAME_run leaves the result of an odd step count in b
#undef BROKEN_INFO

#ifdef __cplusplus
extern "C" {
#endif
#define BROKEN_DECLS(name)                                                                         \
  cudaError_t name##_step(const float *in, float *out, int ny, int nx, cudaStream_t stream);       \
  cudaError_t name##_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream);
BROKEN_DECLS(writes_ring)
BROKEN_DECLS(skips_point)
BROKEN_DECLS(wrong_weight)
BROKEN_DECLS(accepts_alias)
BROKEN_DECLS(odd_steps_in_b)
#undef BROKEN_DECLS
#ifdef __cplusplus
} /* extern "C" */
#endif
