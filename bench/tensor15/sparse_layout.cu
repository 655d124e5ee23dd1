// sparse_layout.cu - checks on a GPU the fragment and metadata layout that
// stencilc/device/mma.cuh documents for MmaSpM16N8K32 (mma.sp m16n8k32,
// fp16, sparsity selector 0): a random 2:4 sparse A (16 x 32, some groups
// with one value or none) times a random B (32 x 8), against the product on
// the host. Values are small multiples of powers of two, so every product
// and sum is exact in fp32 and the two must agree exactly.
//   nvcc -std=c++17 -arch=sm_80 -I runtime/include bench/tensor15/sparse_layout.cu -o sparse_layout
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_fp16.h>

#include <stencilc/device/mma.cuh>

using Sparse = stencilc::device::MmaSpM16N8K32<__half>;

__constant__ float cA[16 * 32];
__constant__ float cB[32 * 8];

__device__ std::uint32_t pairOf(float a, float b) {
  const __half2 h = __floats2half2_rn(a, b);
  std::uint32_t bits;
  std::memcpy(&bits, &h, sizeof bits);
  return bits;
}

/// Row m, group q of A: the two kept indices (lower first) and their values.
__device__ void kept(int m, int q, int &i0, int &i1) {
  i0 = i1 = -1;
  for (int i = 0; i < 4; ++i) {
    if (cA[m * 32 + 4 * q + i] != 0.0f) {
      (i0 < 0 ? i0 : i1) = i;
    }
  }
  if (i0 < 0) {
    i0 = 0, i1 = 1;
  } else if (i1 < 0) {
    i1 = i0 == 3 ? 3 : i0 + 1;
    i0 = i0 == 3 ? 2 : i0;
  }
}

__device__ std::uint32_t packedRowGroup(int m, int q, std::uint32_t &meta) {
  int i0, i1;
  kept(m, q, i0, i1);
  meta = static_cast<std::uint32_t>(i0 | i1 << 2);
  return pairOf(cA[m * 32 + 4 * q + i0], cA[m * 32 + 4 * q + i1]);
}

__global__ void product(float *out) {
  const int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  Sparse::FragmentA a{};
  std::uint32_t unused, nibble;
  a.x[0] = packedRowGroup(g, t, unused);
  a.x[1] = packedRowGroup(g + 8, t, unused);
  a.x[2] = packedRowGroup(g, t + 4, unused);
  a.x[3] = packedRowGroup(g + 8, t + 4, unused);
  for (int i = 0; i < 4; ++i) {
    packedRowGroup(g, 4 * (t % 2) + i, nibble);
    a.meta |= nibble << (4 * i);
    packedRowGroup(g + 8, 4 * (t % 2) + i, nibble);
    a.meta |= nibble << (16 + 4 * i);
  }
  Sparse::FragmentB b;
  for (int s = 0; s < 4; ++s) {
    b.x[s] = pairOf(cB[(8 * s + 2 * t) * 8 + g], cB[(8 * s + 2 * t + 1) * 8 + g]);
  }
  Sparse::FragmentC c;
  Sparse::mma(c, a, b);
  out[g * 8 + 2 * t] = c.x[0];
  out[g * 8 + 2 * t + 1] = c.x[1];
  out[(g + 8) * 8 + 2 * t] = c.x[2];
  out[(g + 8) * 8 + 2 * t + 1] = c.x[3];
}

int main() {
  float A[16 * 32] = {}, B[32 * 8], C[16 * 8];
  std::srand(7);
  for (int m = 0; m < 16; ++m) {
    for (int q = 0; q < 8; ++q) {
      const int kind = std::rand() % 6; // 0: empty group, 1: one value, else two
      const int i0 = std::rand() % 4, i1 = (i0 + 1 + std::rand() % 3) % 4;
      if (kind >= 1) {
        A[m * 32 + 4 * q + i0] = (std::rand() % 7 + 1) / 8.0f;
      }
      if (kind >= 2) {
        A[m * 32 + 4 * q + i1] = (std::rand() % 7 + 1) / 8.0f;
      }
    }
  }
  for (float &v : B) {
    v = (std::rand() % 9 - 4) / 4.0f;
  }
  cudaMemcpyToSymbol(cA, A, sizeof A);
  cudaMemcpyToSymbol(cB, B, sizeof B);
  float *d = nullptr;
  cudaMalloc(&d, sizeof C);
  product<<<1, 32>>>(d);
  cudaMemcpy(C, d, sizeof C, cudaMemcpyDeviceToHost);
  const cudaError_t status = cudaGetLastError();
  double worst = 0;
  for (int m = 0; m < 16; ++m) {
    for (int n = 0; n < 8; ++n) {
      double exact = 0;
      for (int k = 0; k < 32; ++k) {
        exact += double(A[m * 32 + k]) * B[k * 8 + n];
      }
      worst = std::fmax(worst, std::fabs(exact - C[m * 8 + n]));
    }
  }
  std::printf("mma.sp m16n8k32 fp16, the layout of mma.cuh: largest difference %g (%s)\n", worst,
              cudaGetErrorString(status));
  return status == cudaSuccess && worst == 0 ? 0 : 1;
}
