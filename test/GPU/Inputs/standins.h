// standins.h - hand-made stand-ins for generated stencils, in the exact form
// docs/generated-code.md gives the generated header (C functions NAME_step and
// NAME_run, a static NAME_info). Their kernels are the runtime's naive
// kernel (standins.cu), so the GPU harness can be tested before, and apart
// from, the code generator. Coefficients are convex and asymmetric, so a
// transposed axis or a mirrored offset shows up as an error.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "stencilc/runtime/stencil_info.h"

// clang-format off
static const stencilc_point heat2d_points[5] = {
    {{-1, 0, 0}, 0.125}, {{0, -1, 0}, 0.125}, {{0, 0, 0}, 0.5},
    {{0, 1, 0}, 0.125},  {{1, 0, 0}, 0.125},
};
static const stencilc_stencil_info heat2d_info = {
    "heat2d", 2, 1, STENCILC_STAR, STENCILC_FP32, STENCILC_BOUNDARY_FIXED, 0.0,
    5, heat2d_points, STENCILC_BACKEND_SIMT, {4, 64, 0}, 1};

static const stencilc_point skew2d_points[9] = {
    {{-1, -1, 0}, 0.6 * 1 / 36}, {{-1, 0, 0}, 0.6 * 2 / 36}, {{-1, 1, 0}, 0.6 * 3 / 36},
    {{0, -1, 0}, 0.6 * 4 / 36},  {{0, 0, 0}, 0.4},           {{0, 1, 0}, 0.6 * 5 / 36},
    {{1, -1, 0}, 0.6 * 6 / 36},  {{1, 0, 0}, 0.6 * 7 / 36},  {{1, 1, 0}, 0.6 * 8 / 36},
};
static const stencilc_stencil_info skew2d_info = {
    "skew2d", 2, 1, STENCILC_BOX, STENCILC_FP16, STENCILC_BOUNDARY_PERIODIC, 0.0,
    9, skew2d_points, STENCILC_BACKEND_SIMT, {4, 64, 0}, 1};

static const stencilc_point wide2d_points[25] = {
    {{-2, -2, 0}, 0.6 * 1 / 300},
    {{-2, -1, 0}, 0.6 * 2 / 300},
    {{-2, 0, 0}, 0.6 * 3 / 300},
    {{-2, 1, 0}, 0.6 * 4 / 300},
    {{-2, 2, 0}, 0.6 * 5 / 300},
    {{-1, -2, 0}, 0.6 * 6 / 300},
    {{-1, -1, 0}, 0.6 * 7 / 300},
    {{-1, 0, 0}, 0.6 * 8 / 300},
    {{-1, 1, 0}, 0.6 * 9 / 300},
    {{-1, 2, 0}, 0.6 * 10 / 300},
    {{0, -2, 0}, 0.6 * 11 / 300},
    {{0, -1, 0}, 0.6 * 12 / 300},
    {{0, 0, 0}, 0.4},
    {{0, 1, 0}, 0.6 * 13 / 300},
    {{0, 2, 0}, 0.6 * 14 / 300},
    {{1, -2, 0}, 0.6 * 15 / 300},
    {{1, -1, 0}, 0.6 * 16 / 300},
    {{1, 0, 0}, 0.6 * 17 / 300},
    {{1, 1, 0}, 0.6 * 18 / 300},
    {{1, 2, 0}, 0.6 * 19 / 300},
    {{2, -2, 0}, 0.6 * 20 / 300},
    {{2, -1, 0}, 0.6 * 21 / 300},
    {{2, 0, 0}, 0.6 * 22 / 300},
    {{2, 1, 0}, 0.6 * 23 / 300},
    {{2, 2, 0}, 0.6 * 24 / 300},
};
static const stencilc_stencil_info wide2d_info = {
    "wide2d", 2, 2, STENCILC_BOX, STENCILC_BF16, STENCILC_BOUNDARY_CONSTANT, 0.25,
    25, wide2d_points, STENCILC_BACKEND_SIMT, {4, 64, 0}, 1};

static const stencilc_point reach2d_points[29] = {
    {{-7, 0, 0}, 0.6 * 1 / 406},  {{-6, 0, 0}, 0.6 * 2 / 406},  {{-5, 0, 0}, 0.6 * 3 / 406},
    {{-4, 0, 0}, 0.6 * 4 / 406},  {{-3, 0, 0}, 0.6 * 5 / 406},  {{-2, 0, 0}, 0.6 * 6 / 406},
    {{-1, 0, 0}, 0.6 * 7 / 406},  {{0, -7, 0}, 0.6 * 8 / 406},  {{0, -6, 0}, 0.6 * 9 / 406},
    {{0, -5, 0}, 0.6 * 10 / 406}, {{0, -4, 0}, 0.6 * 11 / 406}, {{0, -3, 0}, 0.6 * 12 / 406},
    {{0, -2, 0}, 0.6 * 13 / 406}, {{0, -1, 0}, 0.6 * 14 / 406}, {{0, 0, 0}, 0.4},
    {{0, 1, 0}, 0.6 * 15 / 406},  {{0, 2, 0}, 0.6 * 16 / 406},  {{0, 3, 0}, 0.6 * 17 / 406},
    {{0, 4, 0}, 0.6 * 18 / 406},  {{0, 5, 0}, 0.6 * 19 / 406},  {{0, 6, 0}, 0.6 * 20 / 406},
    {{0, 7, 0}, 0.6 * 21 / 406},  {{1, 0, 0}, 0.6 * 22 / 406},  {{2, 0, 0}, 0.6 * 23 / 406},
    {{3, 0, 0}, 0.6 * 24 / 406},  {{4, 0, 0}, 0.6 * 25 / 406},  {{5, 0, 0}, 0.6 * 26 / 406},
    {{6, 0, 0}, 0.6 * 27 / 406},  {{7, 0, 0}, 0.6 * 28 / 406},
};
static const stencilc_stencil_info reach2d_info = {
    "reach2d", 2, 7, STENCILC_STAR, STENCILC_FP64, STENCILC_BOUNDARY_FIXED, 0.0,
    29, reach2d_points, STENCILC_BACKEND_SIMT, {4, 64, 0}, 1};

static const stencilc_point line1d_points[7] = {
    {{-3, 0, 0}, 0.6 * 1 / 21}, {{-2, 0, 0}, 0.6 * 2 / 21}, {{-1, 0, 0}, 0.6 * 3 / 21},
    {{0, 0, 0}, 0.4},           {{1, 0, 0}, 0.6 * 4 / 21},  {{2, 0, 0}, 0.6 * 5 / 21},
    {{3, 0, 0}, 0.6 * 6 / 21},
};
static const stencilc_stencil_info line1d_info = {
    "line1d", 1, 3, STENCILC_STAR, STENCILC_FP64, STENCILC_BOUNDARY_PERIODIC, 0.0,
    7, line1d_points, STENCILC_BACKEND_SIMT, {256, 0, 0}, 1};

static const stencilc_point half1d_points[5] = {
    {{-2, 0, 0}, 0.6 * 1 / 10}, {{-1, 0, 0}, 0.6 * 2 / 10}, {{0, 0, 0}, 0.4},
    {{1, 0, 0}, 0.6 * 3 / 10},  {{2, 0, 0}, 0.6 * 4 / 10},
};
static const stencilc_stencil_info half1d_info = {
    "half1d", 1, 2, STENCILC_STAR, STENCILC_FP16, STENCILC_BOUNDARY_FIXED, 0.0,
    5, half1d_points, STENCILC_BACKEND_SIMT, {256, 0, 0}, 1};

static const stencilc_point star3d_points[7] = {
    {{-1, 0, 0}, 0.6 * 1 / 21}, {{0, -1, 0}, 0.6 * 2 / 21}, {{0, 0, -1}, 0.6 * 3 / 21},
    {{0, 0, 0}, 0.4},           {{0, 0, 1}, 0.6 * 4 / 21},  {{0, 1, 0}, 0.6 * 5 / 21},
    {{1, 0, 0}, 0.6 * 6 / 21},
};
static const stencilc_stencil_info star3d_info = {
    "star3d", 3, 1, STENCILC_STAR, STENCILC_TF32, STENCILC_BOUNDARY_CONSTANT, 1.0,
    7, star3d_points, STENCILC_BACKEND_SIMT, {1, 4, 64}, 1};

static const stencilc_point box3d_points[27] = {
    {{-1, -1, -1}, 0.6 * 1 / 351}, {{-1, -1, 0}, 0.6 * 2 / 351},
    {{-1, -1, 1}, 0.6 * 3 / 351},  {{-1, 0, -1}, 0.6 * 4 / 351},
    {{-1, 0, 0}, 0.6 * 5 / 351},   {{-1, 0, 1}, 0.6 * 6 / 351},
    {{-1, 1, -1}, 0.6 * 7 / 351},  {{-1, 1, 0}, 0.6 * 8 / 351},
    {{-1, 1, 1}, 0.6 * 9 / 351},   {{0, -1, -1}, 0.6 * 10 / 351},
    {{0, -1, 0}, 0.6 * 11 / 351},  {{0, -1, 1}, 0.6 * 12 / 351},
    {{0, 0, -1}, 0.6 * 13 / 351},  {{0, 0, 0}, 0.4},
    {{0, 0, 1}, 0.6 * 14 / 351},   {{0, 1, -1}, 0.6 * 15 / 351},
    {{0, 1, 0}, 0.6 * 16 / 351},   {{0, 1, 1}, 0.6 * 17 / 351},
    {{1, -1, -1}, 0.6 * 18 / 351}, {{1, -1, 0}, 0.6 * 19 / 351},
    {{1, -1, 1}, 0.6 * 20 / 351},  {{1, 0, -1}, 0.6 * 21 / 351},
    {{1, 0, 0}, 0.6 * 22 / 351},   {{1, 0, 1}, 0.6 * 23 / 351},
    {{1, 1, -1}, 0.6 * 24 / 351},  {{1, 1, 0}, 0.6 * 25 / 351},
    {{1, 1, 1}, 0.6 * 26 / 351},
};
static const stencilc_stencil_info box3d_info = {
    "box3d", 3, 1, STENCILC_BOX, STENCILC_FP64, STENCILC_BOUNDARY_FIXED, 0.0,
    27, box3d_points, STENCILC_BACKEND_SIMT, {1, 4, 64}, 1};

/* The naive kernel's clamp and mirror reads: skew2d's and star3d's points
 * under those rules. */
static const stencilc_stencil_info clamp2d_info = {
    "clamp2d", 2, 1, STENCILC_BOX, STENCILC_FP32, STENCILC_BOUNDARY_CLAMP, 0.0,
    9, skew2d_points, STENCILC_BACKEND_SIMT, {4, 64, 0}};
static const stencilc_stencil_info mirror3d_info = {
    "mirror3d", 3, 1, STENCILC_STAR, STENCILC_FP64, STENCILC_BOUNDARY_MIRROR, 0.0,
    7, star3d_points, STENCILC_BACKEND_SIMT, {1, 4, 64}};

// clang-format on

#ifdef __cplusplus
extern "C" {
#endif
cudaError_t heat2d_step(const float *in, float *out, int ny, int nx, cudaStream_t stream);
cudaError_t clamp2d_step(const float *in, float *out, int ny, int nx, cudaStream_t stream);
cudaError_t clamp2d_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream);
cudaError_t mirror3d_step(const double *in, double *out, int nz, int ny, int nx,
                          cudaStream_t stream);
cudaError_t mirror3d_run(double *a, double *b, int nz, int ny, int nx, int steps,
                         cudaStream_t stream);
cudaError_t heat2d_run(float *a, float *b, int ny, int nx, int steps, cudaStream_t stream);
cudaError_t skew2d_step(const __half *in, __half *out, int ny, int nx, cudaStream_t stream);
cudaError_t skew2d_run(__half *a, __half *b, int ny, int nx, int steps, cudaStream_t stream);
cudaError_t wide2d_step(const __nv_bfloat16 *in, __nv_bfloat16 *out, int ny, int nx,
                        cudaStream_t stream);
cudaError_t wide2d_run(__nv_bfloat16 *a, __nv_bfloat16 *b, int ny, int nx, int steps,
                       cudaStream_t stream);
cudaError_t reach2d_step(const double *in, double *out, int ny, int nx, cudaStream_t stream);
cudaError_t reach2d_run(double *a, double *b, int ny, int nx, int steps, cudaStream_t stream);
cudaError_t line1d_step(const double *in, double *out, int nx, cudaStream_t stream);
cudaError_t line1d_run(double *a, double *b, int nx, int steps, cudaStream_t stream);
cudaError_t half1d_step(const __half *in, __half *out, int nx, cudaStream_t stream);
cudaError_t half1d_run(__half *a, __half *b, int nx, int steps, cudaStream_t stream);
cudaError_t star3d_step(const float *in, float *out, int nz, int ny, int nx, cudaStream_t stream);
cudaError_t star3d_run(float *a, float *b, int nz, int ny, int nx, int steps, cudaStream_t stream);
cudaError_t box3d_step(const double *in, double *out, int nz, int ny, int nx, cudaStream_t stream);
cudaError_t box3d_run(double *a, double *b, int nz, int ny, int nx, int steps, cudaStream_t stream);
#ifdef __cplusplus
} /* extern "C" */
#endif
