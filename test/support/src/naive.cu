// naive.cu - the one-point-per-thread stencil kernel and its launchers.
#include "stencilc/testing/naive.h"

#include <cstdlib>

#include "stencilc/runtime/boundary_index.h"
#include "stencilc/runtime/element.h"

namespace stencilc {
namespace {

/// Everything a launch needs, passed by value (CUDA 12.1+ accepts kernel
/// parameters up to 32 KB), so the offsets and coefficients are read through
/// the constant cache.
template <class Acc> struct NaiveParams {
  long long n[3];  // z, y, x
  long long lo[3]; // first written coordinate per axis
  long long hi[3]; // one past the last written coordinate
  int reach[3];    // largest |offset| per axis
  int numPoints;
  int fixed;
  int folds; // periodic, clamp or mirror: reads outside land on the grid
  stencilc_boundary boundary;
  Acc outside; // value read outside the grid (constant boundary)
  long long linear[kNaiveMaxPoints];
  Acc coefficient[kNaiveMaxPoints];
  signed char offset[kNaiveMaxPoints][3];
};

/// One output point per thread. NP > 0: the stencil has exactly NP points
/// and the point loop is unrolled at compile time (what a hand-written plain
/// kernel would do); NP == 0: any count, as a loop.
template <class T, class Acc, int NP>
__global__ void naiveStencilKernel(const T *__restrict__ in, T *__restrict__ out,
                                   const __grid_constant__ NaiveParams<Acc> p) {
  const int x = static_cast<int>(p.lo[2]) + blockIdx.x * blockDim.x + threadIdx.x;
  const int y = static_cast<int>(p.lo[1]) + blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= p.hi[2] || y >= p.hi[1])
    return;
  // With a fixed boundary every written point is interior: no checks.
  const bool insideXY = p.fixed || (x - p.reach[2] >= 0 && x + p.reach[2] < p.n[2] &&
                                    y - p.reach[1] >= 0 && y + p.reach[1] < p.n[1]);
  for (int z = static_cast<int>(p.lo[0]) + blockIdx.z; z < p.hi[0]; z += gridDim.z) {
    const long long idx = (z * p.n[1] + y) * p.n[2] + x;
    Acc sum = 0;
    if (insideXY && (p.fixed || (z - p.reach[0] >= 0 && z + p.reach[0] < p.n[0]))) {
      const T *centre = in + idx;
      if constexpr (NP > 0) {
#pragma unroll
        for (int k = 0; k < NP; ++k)
          sum += p.coefficient[k] * toAccumulator(centre[p.linear[k]]);
      } else {
#pragma unroll 4
        for (int k = 0; k < p.numPoints; ++k)
          sum += p.coefficient[k] * toAccumulator(centre[p.linear[k]]);
      }
    } else {
      const long long at[3] = {z, y, x};
      for (int k = 0; k < p.numPoints; ++k) {
        long long c[3];
        bool outsideGrid = false;
        for (int a = 0; a < 3; ++a) {
          c[a] = at[a] + p.offset[k][a];
          if (c[a] < 0 || c[a] >= p.n[a]) {
            if (p.folds)
              c[a] = stencilc_fold_index(p.boundary, c[a], p.n[a]);
            else
              outsideGrid = true;
          }
        }
        Acc v = outsideGrid ? p.outside : toAccumulator(in[(c[0] * p.n[1] + c[1]) * p.n[2] + c[2]]);
        sum += p.coefficient[k] * v;
      }
    }
    out[idx] = fromAccumulator<T>(sum);
  }
}

/// Launches the kernel specialised for info.num_points where one exists
/// (the point counts of the benchmark suite), else the generic one.
template <class T, class Acc>
void launchKernel(int numPoints, dim3 grid, dim3 block, cudaStream_t stream, const T *in, T *out,
                  const NaiveParams<Acc> &p) {
  switch (numPoints) {
#define STENCILC_NAIVE_CASE(np)                                                                    \
  case np:                                                                                         \
    naiveStencilKernel<T, Acc, np><<<grid, block, 0, stream>>>(in, out, p);                        \
    return;
    STENCILC_NAIVE_CASE(3)
    STENCILC_NAIVE_CASE(5)
    STENCILC_NAIVE_CASE(7)
    STENCILC_NAIVE_CASE(9)
    STENCILC_NAIVE_CASE(13)
    STENCILC_NAIVE_CASE(25)
    STENCILC_NAIVE_CASE(27)
    STENCILC_NAIVE_CASE(49)
    STENCILC_NAIVE_CASE(125)
#undef STENCILC_NAIVE_CASE
  default:
    naiveStencilKernel<T, Acc, 0><<<grid, block, 0, stream>>>(in, out, p);
  }
}

template <class T>
cudaError_t launchNaive(const stencilc_stencil_info &info, const T *in, T *out, const Extents &e,
                        cudaStream_t stream) {
  using Acc = AccumulatorOf<T>;
  if (info.num_points > kNaiveMaxPoints || info.num_points < 0 ||
      !storesPrecision<T>(info.precision))
    return cudaErrorInvalidValue;
  // The parameter block is large (about 14 KB); keep it off the stack.
  static thread_local NaiveParams<Acc> p;
  int ring[3];
  ringWidth3(info, ring);
  for (int a = 0; a < 3; ++a) {
    p.n[a] = e.axis3(a);
    p.lo[a] = ring[a];
    p.hi[a] = p.n[a] - ring[a];
    p.reach[a] = 0;
  }
  p.numPoints = info.num_points;
  p.fixed = info.boundary == STENCILC_BOUNDARY_FIXED;
  p.boundary = info.boundary;
  p.folds = info.boundary != STENCILC_BOUNDARY_FIXED && info.boundary != STENCILC_BOUNDARY_CONSTANT;
  p.outside = static_cast<Acc>(info.boundary_value);
  for (int k = 0; k < info.num_points; ++k) {
    Offset3 o = offset3(info, k);
    for (int a = 0; a < 3; ++a) {
      if (o.d[a] < -127 || o.d[a] > 127)
        return cudaErrorInvalidValue;
      p.offset[k][a] = static_cast<signed char>(o.d[a]);
      p.reach[a] = std::max(p.reach[a], std::abs(o.d[a]));
    }
    p.linear[k] = (o.d[0] * p.n[1] + o.d[1]) * p.n[2] + o.d[2];
    p.coefficient[k] = static_cast<Acc>(info.points[k].coefficient);
  }

  const dim3 block(e.dims == 1 ? 256 : 64, e.dims == 1 ? 1 : 4, 1);
  const long long wx = p.hi[2] - p.lo[2], wy = p.hi[1] - p.lo[1], wz = p.hi[0] - p.lo[0];
  const long long gx = (wx + block.x - 1) / block.x, gy = (wy + block.y - 1) / block.y;
  if (gx > 0x7FFFFFFFLL || gy > 65535 || p.n[2] > 0x7FFFFFFF)
    return cudaErrorInvalidValue;
  const dim3 grid(static_cast<unsigned>(gx), static_cast<unsigned>(gy),
                  static_cast<unsigned>(std::min<long long>(wz, 65535)));
  launchKernel<T, Acc>(info.num_points, grid, block, stream, in, out, p);
  return cudaGetLastError();
}

} // namespace

template <class T>
cudaError_t naiveStep(const stencilc_stencil_info &info, const T *in, T *out, const Extents &e,
                      cudaStream_t stream) {
  if (cudaError_t status = validateArguments(info, in, out, e, 0, sizeof(T)); status != cudaSuccess)
    return status;
  return launchNaive(info, in, out, e, stream);
}

template <class T>
cudaError_t naiveRun(const stencilc_stencil_info &info, T *a, T *b, const Extents &e, int steps,
                     cudaStream_t stream) {
  if (cudaError_t status = validateArguments(info, a, b, e, steps, sizeof(T));
      status != cudaSuccess)
    return status;
  if (steps == 0)
    return cudaSuccess;
  const std::size_t bytes = e.points() * sizeof(T);
  if (info.boundary == STENCILC_BOUNDARY_FIXED)
    if (cudaError_t status = cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, stream);
        status != cudaSuccess)
      return status;
  T *src = a, *dst = b;
  for (int s = 0; s < steps; ++s) {
    if (cudaError_t status = launchNaive(info, src, dst, e, stream); status != cudaSuccess)
      return status;
    std::swap(src, dst);
  }
  if (src != a) // odd step count: the result is in b
    return cudaMemcpyAsync(a, b, bytes, cudaMemcpyDeviceToDevice, stream);
  return cudaSuccess;
}

#define STENCILC_INSTANTIATE_NAIVE(T)                                                              \
  template cudaError_t naiveStep<T>(const stencilc_stencil_info &, const T *, T *,                 \
                                    const Extents &, cudaStream_t);                                \
  template cudaError_t naiveRun<T>(const stencilc_stencil_info &, T *, T *, const Extents &, int,  \
                                   cudaStream_t);
STENCILC_INSTANTIATE_NAIVE(__half)
STENCILC_INSTANTIATE_NAIVE(__nv_bfloat16)
STENCILC_INSTANTIATE_NAIVE(float)
STENCILC_INSTANTIATE_NAIVE(double)
#undef STENCILC_INSTANTIATE_NAIVE

} // namespace stencilc
