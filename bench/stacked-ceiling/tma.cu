// The composed step with its windows copied by the tensor memory accelerator
// (an experiment: README.md; built with -DEXP_TMA, and -DEXP_TMA3 for three
// windows each warp releases).
#include "s.cu"
#include "timing.h"
#include <algorithm>
#include <cstdio>
#include <cuda.h>
#include <vector>
namespace g = stencilc_gen_star2d5p_fp16::composed;
__global__ void __launch_bounds__(g::Block::kThreads, g::Geometry::kMinBlocks)
    tmaKernel(const __grid_constant__ CUtensorMap map, __half *out, int ny, int nx) {
  extern __shared__ __align__(128) unsigned char w[];
#ifdef EXP_TMA3
  g::Block::runTma3(&map, out, ny, nx, reinterpret_cast<__half *>(w));
#else
  g::Block::runTma(&map, out, ny, nx, reinterpret_cast<__half *>(w));
#endif
}
#ifdef EXP_TMA3
constexpr int kShared = 3 * g::Block::kWindowElements * 2; // three windows, no stages
#else
constexpr int kShared = g::Block::kSharedBytes;
#endif
using Encode = CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                            const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                            const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                            CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
static Encode encode;
static CUtensorMap mapOf(const __half *in, int ny, int nx) {
  CUtensorMap m;
  cuuint64_t dims[2] = {cuuint64_t(nx), cuuint64_t(ny)}, strides[1] = {cuuint64_t(nx) * 2};
  cuuint32_t box[2] = {g::Block::kPitch, g::Block::kWindowRows}, es[2] = {1, 1};
  CUresult r = encode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)in, dims, strides, box, es,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    printf("encode failed %d\n", int(r));
  return m;
}
int main() {
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000,
                                   cudaEnableDefault, &q);
  const int n = 8192;
  __half *a, *b, *c;
  cudaMalloc(&a, sizeof(__half) * n * n);
  cudaMalloc(&b, sizeof(__half) * n * n);
  cudaMalloc(&c, sizeof(__half) * n * n);
  std::vector<__half> h(size_t(n) * n), r1(h.size()), r2(h.size());
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = __float2half(float((i * 2654435761u) % 1000) / 1000.f);
  cudaMemcpy(a, h.data(), h.size() * 2, cudaMemcpyHostToDevice);
  cudaMemset(b, 0, h.size() * 2);
  cudaMemset(c, 0, h.size() * 2);
  long long resident = 0;
  stencilc::device::residentBlocks(tmaKernel, g::Block::kThreads, kShared, resident);
  const int tiles = g::Block::tileCount(n, n);
  const unsigned grid = unsigned(std::min<long long>(tiles, resident));
  CUtensorMap ma = mapOf(a, n, n), mb = mapOf(b, n, n);
  // same output as the cp.async kernel?
  g::launch(a, c, n, n, 0);
  tmaKernel<<<grid, g::Block::kThreads, kShared>>>(ma, b, n, n);
  cudaMemcpy(r1.data(), b, h.size() * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(r2.data(), c, h.size() * 2, cudaMemcpyDeviceToHost);
  size_t diff = 0;
  for (size_t i = 0; i < h.size(); ++i)
    diff += memcmp(&r1[i], &r2[i], 2) != 0;
  printf("tma vs cp.async: %zu points differ; %s; grid %u\n", diff,
         cudaGetErrorString(cudaGetLastError()), grid);
  report(VARIANT, [&](int i) {
    const CUtensorMap m = mapOf(i % 2 ? b : a, n, n);
    tmaKernel<<<grid, g::Block::kThreads, kShared>>>(m, i % 2 ? a : b, n, n);
  });
}
