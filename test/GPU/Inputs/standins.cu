// standins.cu - the stand-in stencils' NAME_step / NAME_run, through the
// runtime's naive kernel (which makes the contract's argument checks).
#include "standins.h"

#include "stencilc/testing/naive.h"

using stencilc::Extents;

#define STANDIN_1D(name, T)                                                                        \
  cudaError_t name##_step(const T *in, T *out, int nx, cudaStream_t stream) {                      \
    return stencilc::naiveStep<T>(name##_info, in, out, Extents::of1D(nx), stream);                \
  }                                                                                                \
  cudaError_t name##_run(T *a, T *b, int nx, int steps, cudaStream_t stream) {                     \
    return stencilc::naiveRun<T>(name##_info, a, b, Extents::of1D(nx), steps, stream);             \
  }
#define STANDIN_2D(name, T)                                                                        \
  cudaError_t name##_step(const T *in, T *out, int ny, int nx, cudaStream_t stream) {              \
    return stencilc::naiveStep<T>(name##_info, in, out, Extents::of2D(ny, nx), stream);            \
  }                                                                                                \
  cudaError_t name##_run(T *a, T *b, int ny, int nx, int steps, cudaStream_t stream) {             \
    return stencilc::naiveRun<T>(name##_info, a, b, Extents::of2D(ny, nx), steps, stream);         \
  }
#define STANDIN_3D(name, T)                                                                        \
  cudaError_t name##_step(const T *in, T *out, int nz, int ny, int nx, cudaStream_t stream) {      \
    return stencilc::naiveStep<T>(name##_info, in, out, Extents::of3D(nz, ny, nx), stream);        \
  }                                                                                                \
  cudaError_t name##_run(T *a, T *b, int nz, int ny, int nx, int steps, cudaStream_t stream) {     \
    return stencilc::naiveRun<T>(name##_info, a, b, Extents::of3D(nz, ny, nx), steps, stream);     \
  }

extern "C" {
STANDIN_2D(heat2d, float)
STANDIN_2D(skew2d, __half)
STANDIN_2D(wide2d, __nv_bfloat16)
STANDIN_2D(reach2d, double)
STANDIN_1D(line1d, double)
STANDIN_1D(half1d, __half)
STANDIN_3D(star3d, float)
STANDIN_3D(box3d, double)
STANDIN_2D(clamp2d, float)
STANDIN_3D(mirror3d, double)
} // extern "C"
